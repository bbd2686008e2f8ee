/*
 * test_suggest.c — "did you mean ...?" (host/am_suggest.c): which slips get
 * a suggestion, which words get none, and which "--name"s of a help text
 * count as the tool's options.
 */
#include "am_suggest.h"
#include "t.h"

static const char help[] =
    "usage: tool [options] PROGRAM  what it does\n"
    "       tool --list             the programs\n"
    "options:\n"
    "  --trace FILE       one line per transaction (- for stderr)\n"
    "  --table N          slots\n"
    "  --gc-low N         when fewer than N are free (default 4; not another\n"
    "                     tool's --gc-lo)\n"
    "  --gc-period N      every N dispatches\n"
    "  --link PATH        a pseudo-terminal at PATH\n"
    "                     (am-link --port PATH): frames\n"
    "  --link-socket PATH the same on a socket\n";

static const char *opt(const char *word)
{
    static am_suggest s;
    return am_suggest_option(&s, word, help);
}

TEST(slips_one_or_two_edits_away)
{
    CHECK_STR(opt("--lsit"), ": did you mean --list?");        /* swapped */
    CHECK_STR(opt("--tabel"), ": did you mean --table?");
    CHECK_STR(opt("--trce"), ": did you mean --trace?");        /* missing */
    CHECK_STR(opt("--tracee"), ": did you mean --trace?");      /* extra */
    CHECK_STR(opt("--gc-lwo"), ": did you mean --gc-low?");
    CHECK_STR(opt("--gc-perod"), ": did you mean --gc-period?");
}

TEST(the_start_of_one_to_three_words)
{
    CHECK_STR(opt("--gc-p"), ": did you mean --gc-period?");
    CHECK_STR(opt("--gc-"), ": did you mean --gc-low or --gc-period?");
    CHECK_STR(opt("--lin"), ": did you mean --link or --link-socket?");
}

TEST(nothing_near_enough)
{
    CHECK_STR(opt("--bogus"), "");
    CHECK_STR(opt("--xyz"), "");
    CHECK_STR(opt("--t"), "");                  /* too short to guess from */
    CHECK_STR(opt("--tab"), ": did you mean --table?");   /* its start */
    CHECK_STR(opt("--tbl"), "");                /* two edits in three letters */
    CHECK_STR(opt("--list"), "");               /* a known word is no slip */
    CHECK_STR(opt("--gc-lowest-bound-of-all-the-options-here"), "");
}

TEST(only_the_tools_own_options)
{
    /* "--port" and "--gc-lo" appear in the text, but inside sentences */
    CHECK_STR(opt("--prot"), "");
    CHECK_STR(opt("--gc-lo"), ": did you mean --gc-low?");
    am_suggest s;
    am_suggest_init(&s, "--usage");
    am_suggest_options(&s, help);
    CHECK_STR(am_suggest_hint(&s, ": "), "");   /* "usage:" is no option */
}

TEST(words_of_a_list)
{
    static const char *const names[] = { "counter-unsafe", "counter-serialized", "cell", "bank",
                                         "gc-storm", "gc-sieve", "gc-serializer", "gc-ring" };
    const struct { const char *word, *hint; } cases[] = {
        { "cel", "; did you mean cell?" },
        { "bnak", "; did you mean bank?" },
        { "serializr", "" },
        { "counter", "; did you mean counter-unsafe or counter-serialized?" },
        { "gc-s", "; did you mean gc-storm, gc-sieve or gc-serializer?" },
        { "gc-", "" },                          /* the start of four */
        { "gc-sieeve", "; did you mean gc-sieve?" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        am_suggest s;
        am_suggest_init(&s, cases[c].word);
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            am_suggest_add(&s, names[k], strlen(names[k]));
        CHECK_STR(am_suggest_hint(&s, "; "), cases[c].hint);
    }
}

T_MAIN("host-suggest")
