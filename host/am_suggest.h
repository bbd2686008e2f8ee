/*
 * am_suggest.h — "did you mean ...?": the known word spelled nearest to a
 * word a user typed, for the runners' and am-link's error lines.
 *
 * The word may be the start of one to three known words (--gc-p; counter:
 * counter-unsafe or counter-serialized), else a slip one or two edits away
 * (a letter wrong, missing or extra, or two letters swapped: --lsit,
 * --tabel, serializr). Anything farther gets no suggestion:
 * a wrong guess would mislead more than none. The candidates come from the
 * text the user would read anyway where possible (am_suggest_options takes
 * the options from a tool's --help text), so that what is suggested is what
 * the help shows.
 */
#ifndef AM_SUGGEST_H
#define AM_SUGGEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct am_suggest {
    const char *word;       /* what the user typed */
    char best[48];          /* the nearest candidate so far */
    unsigned dist;          /* its distance (edits), ~0u: none yet */
    unsigned prefixes;      /* candidates the word begins */
    char prefix[3][48];     /* the first three of them */
    char hint[176];         /* am_suggest_hint's text */
} am_suggest;

void am_suggest_init(am_suggest *s, const char *word);

/* One candidate: its first len characters. */
void am_suggest_add(am_suggest *s, const char *cand, size_t len);

/* Every "--name" of a --help text. */
void am_suggest_options(am_suggest *s, const char *help);

/* The words to append to an error line: sep, then "did you mean X?" (or
 * "X or Y?", "X, Y or Z?" for a word that begins them), or "" when there
 * is nothing to suggest. The text lives in s. */
const char *am_suggest_hint(am_suggest *s, const char *sep);

/* Shorthand: the hint for word among the options of help, after ": ". */
const char *am_suggest_option(am_suggest *s, const char *word, const char *help);

#ifdef __cplusplus
}
#endif
#endif /* AM_SUGGEST_H */
