/*
 * am_suggest.c — the nearest known spelling (am_suggest.h).
 */
#include "am_suggest.h"

#include <stdio.h>
#include <string.h>

#define MAXW 47     /* longer words are no option or program name of ours */

/* Edits from a to b (optimal string alignment: a letter replaced,
 * inserted or deleted, or two neighbours swapped), at most MAXW each. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m)
{
    unsigned d[MAXW + 1][MAXW + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* A letter of an option's or a tool's name. */
static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* The letters that name the word: its length less its leading dashes. */
static size_t core_len(const char *w, size_t n)
{
    size_t k = 0;
    while (k < n && w[k] == '-') k++;
    return n - k;
}

void am_suggest_init(am_suggest *s, const char *word)
{
    memset(s, 0, sizeof *s);
    s->word = word;
    s->dist = ~0u;
}

void am_suggest_add(am_suggest *s, const char *cand, size_t len)
{
    size_t n = strlen(s->word);
    if (len == 0 || len > MAXW || n > MAXW) return;
    if (n == len && !memcmp(s->word, cand, n)) return;     /* the word itself */
    unsigned d = distance(s->word, n, cand, len);
    if (d < s->dist) {
        s->dist = d;
        memcpy(s->best, cand, len);
        s->best[len] = '\0';
    }
    if (n < len && !memcmp(s->word, cand, n)) {
        for (unsigned k = 0; k < s->prefixes && k < 3; k++)
            if (strlen(s->prefix[k]) == len && !memcmp(s->prefix[k], cand, len)) return;   /* listed twice */
        if (s->prefixes < 3) {
            memcpy(s->prefix[s->prefixes], cand, len);
            s->prefix[s->prefixes][len] = '\0';
        }
        s->prefixes++;
    }
}

void am_suggest_options(am_suggest *s, const char *help)
{
    /* an option is a "--name" that starts a line ("  --trace FILE ..."),
     * or follows the tool's name there ("       am-run --list"); other
     * "--name"s in the text may be another tool's */
    for (const char *line = help; *line; ) {
        const char *p = line;
        for (int tok = 0; tok < 2; tok++) {
            while (*p == ' ') p++;
            const char *t = p;
            while (*p && *p != ' ' && *p != '\n') p++;
            if (p - t > 2 && t[0] == '-' && t[1] == '-') {
                size_t k = 2;
                while (t + k < p && name_char(t[k])) k++;
                am_suggest_add(s, t, k);
                break;
            }
            /* the tool's name, not "usage:" or a word of a sentence's
             * "(am-link --port PATH)" */
            int name = p > t && t[0] != '-';
            for (const char *c = t; c < p; c++)
                if (!name_char(*c)) name = 0;
            if (!name) break;
        }
        line = strchr(line, '\n');
        if (!line) break;
        line++;
    }
}

const char *am_suggest_hint(am_suggest *s, const char *sep)
{
    size_t n = core_len(s->word, strlen(s->word));
    s->hint[0] = '\0';
    if (n < 3) return s->hint;
    unsigned slack = n >= 6 ? 2 : 1;
    if (s->prefixes == 0 || s->prefixes > 3) {
        if (s->dist <= slack && s->dist < core_len(s->best, strlen(s->best)))
            snprintf(s->hint, sizeof s->hint, "%sdid you mean %s?", sep, s->best);
    } else if (s->prefixes <= 2) {
        snprintf(s->hint, sizeof s->hint, "%sdid you mean %s%s%s?", sep, s->prefix[0],
                 s->prefixes == 2 ? " or " : "", s->prefixes == 2 ? s->prefix[1] : "");
    } else if (s->prefixes == 3) {
        snprintf(s->hint, sizeof s->hint, "%sdid you mean %s, %s or %s?", sep, s->prefix[0],
                 s->prefix[1], s->prefix[2]);
    }
    return s->hint;
}

const char *am_suggest_option(am_suggest *s, const char *word, const char *help)
{
    am_suggest_init(s, word);
    am_suggest_options(s, help);
    return am_suggest_hint(s, ": ");
}
