/*
 * t.h — the project's tiny self-checking test harness (C, header only).
 *
 *   TEST(name) { ... CHECK(cond); CHECK_EQ(a, b); ... }
 *   int main(void) { return t_main(); }   -- or T_MAIN()
 *
 * Tests register themselves (constructor attribute) and run in the order of
 * definition; each prints "ok"/"FAIL" and the run ends with the line
 * "N passed, N failed". A test fails on its first failed check.
 */
#ifndef T_H
#define T_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*t_fn)(int *failed);
struct t_case { const char *name; t_fn fn; };

#define T_MAX_CASES 512
static struct t_case t_cases_[T_MAX_CASES];
static int t_ncases_;

static void t_register_(const char *name, t_fn fn)
{
    if (t_ncases_ == T_MAX_CASES) { fprintf(stderr, "t.h: too many tests\n"); exit(2); }
    t_cases_[t_ncases_].name = name;
    t_cases_[t_ncases_].fn = fn;
    t_ncases_++;
}

#define TEST(name)                                                          \
    static void t_test_##name(int *t_failed_);                              \
    __attribute__((constructor)) static void t_reg_##name(void)             \
    { t_register_(#name, t_test_##name); }                                  \
    static void t_test_##name(int *t_failed_)

#define CHECK(cond) do {                                                    \
    if (!(cond)) {                                                          \
        fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        *t_failed_ = 1; return;                                             \
    } } while (0)

#define CHECK_EQ(a, b) do {                                                 \
    unsigned long long t_a_ = (unsigned long long)(a);                      \
    unsigned long long t_b_ = (unsigned long long)(b);                      \
    if (t_a_ != t_b_) {                                                     \
        fprintf(stderr, "  %s:%d: %s == %s failed: 0x%llx != 0x%llx\n",      \
                __FILE__, __LINE__, #a, #b, t_a_, t_b_);                    \
        *t_failed_ = 1; return;                                             \
    } } while (0)

#define CHECK_STR(a, b) do {                                                \
    const char *t_sa_ = (a), *t_sb_ = (b);                                  \
    if (strcmp(t_sa_, t_sb_) != 0) {                                        \
        fprintf(stderr, "  %s:%d: %s == %s failed:\n    got:      \"%s\"\n    expected: \"%s\"\n", \
                __FILE__, __LINE__, #a, #b, t_sa_, t_sb_);                  \
        *t_failed_ = 1; return;                                             \
    } } while (0)

static int t_main(const char *suite)
{
    int passed = 0, failed = 0;
    /* T_ONLY=a,b: run those cases alone (while working on them) */
    const char *only = getenv("T_ONLY");
    for (int i = 0; i < t_ncases_; i++) {
        int f = 0;
        if (only && !strstr(only, t_cases_[i].name)) continue;
        t_cases_[i].fn(&f);
        printf("%s %s: %s\n", f ? "FAIL" : "ok  ", suite, t_cases_[i].name);
        fflush(stdout);
        if (f) failed++; else passed++;
    }
    printf("%s: %d passed, %d failed\n", suite, passed, failed);
    fflush(stdout);
    return failed ? 1 : 0;
}

#define T_MAIN(suite) int main(void) { return t_main(suite); }

#endif /* T_H */
