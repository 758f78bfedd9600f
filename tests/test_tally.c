/*
 * test_tally.c - the tally's forfeits with their details (tally.h): each
 * engine's reasons in full with their games, in the one order every report
 * lists them whatever order the journal holds the games in. The rest of
 * the tally is tested through its views in test_referee.c and the report
 * suites.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "report_testutil.h"

/* t's reasons after tally_why_sort, a line each: "ENGINE|REASON|COUNT|GAME/OPPONENT...". */
static void why_lines(struct tally *t, char *buf, size_t cap)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    tally_why_sort(t, order);
    size_t used = 0;
    buf[0] = '\0';
    for (long k = 0; k < t->nwhy; k++) {
        const struct tally_why *w = &t->why[k];
        used += (size_t)snprintf(buf + used, cap - used, "%s|%s|%ld|", t->name[w->engine],
                                 w->reason, w->count);
        for (long g = w->first; g < w->first + w->count; g++)
            used += (size_t)snprintf(buf + used, cap - used, " %ld/%s", t->lost[g].game,
                                     t->name[t->lost[g].opponent]);
        used += (size_t)snprintf(buf + used, cap - used, "\n");
        cr_assert_lt(used, cap, "the lines outgrew the buffer:\n%s", buf);
    }
}

Test(tally, forfeits_keep_their_details_in_one_order_whatever_the_games_order)
{
    /* Standings alpha, gamma, beta; an engine's reasons most games first,
     * then by their words; a reason's games by number. */
    static const char want[] =
        "alpha|illegal-move: =HYPERLINK(\"http://x\")|1| 8/beta\n"
        "gamma|crashed: SIGSEGV|1| 4/alpha\n"
        "gamma|unreadable: 1:1: unexpected character 'g', expected 0, 1 or 2|1| 6/beta\n"
        "beta|timeout: no answer within 1000 ms of wall time (--timeout-ms)|3| 1/alpha 2/alpha "
        "7/gamma\n"
        "beta|illegal-move: adds no disc|1| 3/gamma\n"
        "beta|timeout: no answer within 2000 ms of wall time (--timeout-ms)|1| 9/gamma\n";
    for (int reversed = 0; reversed <= 1; reversed++) {
        struct tally t;
        tu_forfeit_tally(&t, reversed);
        char got[2048];
        why_lines(&t, got, sizeof got);
        cr_expect_str_eq(got, want, "games %s:\n%s", reversed ? "reversed" : "in order", got);
        /* Sorting twice changes nothing: each report sorts before it lists. */
        char again[2048];
        why_lines(&t, again, sizeof again);
        cr_expect_str_eq(again, got, "sorted again:\n%s", again);
        cr_expect_eq(t.nlost, 8, "forfeited games: %ld", t.nlost);
        tally_free(&t);
    }
}

/* A game added after a sort joins its reason, or starts one, and the next
 * sort files it. */
Test(tally, a_forfeit_added_after_a_sort_is_filed_by_the_next)
{
    static const char *const names[] = { "a", "b" };
    static const struct tu_game first[] = { { 2, { "a", "b" }, 2, "crashed: SIGSEGV" },
                                            { 5, { "b", "a" }, 1, "exit-status 1" } };
    struct tally t;
    tu_tally(&t, 2, names, first, 2);
    char got[512];
    why_lines(&t, got, sizeof got);
    struct err e;
    for (long index = 1; index <= 3; index += 2) {   /* games 1 and 3 */
        struct game_record rec;
        rec_init(&rec, index, -1);
        strcpy(rec.player[0], "b");
        strcpy(rec.player[1], "a");
        rec_set_end(&rec, REC_WIN_1, REC_FORFEIT, index == 1 ? "exit-status 1" : "exit-status 2");
        cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
        rec_free(&rec);
    }
    why_lines(&t, got, sizeof got);
    cr_expect_str_eq(got,
                     "a|exit-status 1|2| 1/b 5/b\n"
                     "a|crashed: SIGSEGV|1| 2/b\n"
                     "a|exit-status 2|1| 3/b\n", "%s", got);
    tally_free(&t);
}
