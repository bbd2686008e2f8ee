/*
 * am_progset.c — the program-set helpers (am_progset.h), shared by every
 * runner. The sets themselves come from host/am_progset_def.c, compiled once
 * per program folder.
 */
#include "am_progset.h"
#include "am_suggest.h"

#include <string.h>

const am_program *am_program_find(const char *name, const am_progset **set)
{
    for (const am_progset *const *s = am_progsets; *s; s++)
        for (const am_program *p = (*s)->programs; p->name; p++)
            if (strcmp(p->name, name) == 0) {
                if (set) *set = *s;
                return p;
            }
    return NULL;
}

uint32_t am_behavior_table_hash(const am_behavior_desc *tab, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        for (const char *c = tab[i].name; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
        h = (h ^ (uint8_t)'\n') * 16777619u;
    }
    return h;
}

void am_progsets_list(FILE *f, int demos_only)
{
    for (const am_progset *const *s = am_progsets; *s; s++)
        for (const am_program *p = (*s)->programs; p->name; p++) {
            if (demos_only) {
                if ((*s)->demos) fprintf(f, "%s\n", p->name);
            } else {
                fprintf(f, "%-20s %s%s\n", p->name, (*s)->demos ? "" : "[test] ", p->what);
            }
        }
}

void am_program_unknown(FILE *f, const char *tool, const char *name)
{
    uint32_t n = 0;
    am_suggest sg;
    am_suggest_init(&sg, name);
    for (const am_progset *const *s = am_progsets; *s; s++)
        for (const am_program *p = (*s)->programs; p->name; p++, n++) am_suggest_add(&sg, p->name, strlen(p->name));
    fprintf(f, "%s: no program named '%s' in", tool, name);
    for (const am_progset *const *s = am_progsets; *s; s++)
        fprintf(f, " %s%s", (*s)->folder, s[1] ? "," : "");
    if (n <= 12) {   /* a user's folder: its few programs, on the line */
        const char *sep = " (its programs: ";
        for (const am_progset *const *s = am_progsets; *s; s++)
            for (const am_program *p = (*s)->programs; p->name; p++, sep = ", ")
                fprintf(f, "%s%s", sep, p->name);
        fprintf(f, ")");
    }
    fprintf(f, "%s; --list lists them with what each does\n", am_suggest_hint(&sg, "; "));
}
