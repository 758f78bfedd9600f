/*
 * report_testutil.c - the report suites' hand-made tallies
 * (report_testutil.h).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "report_testutil.h"

void tu_tally(struct tally *t, int n, const char *const names[], const struct tu_game games[],
              int count)
{
    struct err e;
    cr_assert_eq(tally_init(t, n, names, &e), 0, "%s", e.msg);
    for (int g = 0; g < count; g++) {
        struct game_record rec;
        rec_init(&rec, games[g].index, -1);   /* no pair: the pentanomial is not tested here */
        strcpy(rec.player[0], games[g].player[0]);
        strcpy(rec.player[1], games[g].player[1]);
        rec_set_end(&rec, games[g].winner == 1 ? REC_WIN_1 : REC_WIN_2,
                    games[g].forfeit ? REC_FORFEIT : REC_NORMAL, games[g].forfeit);
        cr_assert_eq(tally_add(t, &rec, &e), 0, "game %ld: %s", games[g].index, e.msg);
        rec_free(&rec);
    }
}

#define TIMEOUT_1S "timeout: no answer within 1000 ms of wall time (--timeout-ms)"
#define TIMEOUT_2S "timeout: no answer within 2000 ms of wall time (--timeout-ms)"

void tu_forfeit_tally(struct tally *t, int reversed)
{
    static const char *const names[] = { "alpha", "beta", "gamma" };
    static const struct tu_game games[] = {
        { 1, { "alpha", "beta" }, 1, TIMEOUT_1S },
        { 2, { "beta", "alpha" }, 2, TIMEOUT_1S },
        { 3, { "gamma", "beta" }, 1, "illegal-move: adds no disc" },
        { 4, { "alpha", "gamma" }, 1, "crashed: SIGSEGV" },
        { 5, { "gamma", "alpha" }, 2, NULL },
        { 6, { "beta", "gamma" }, 1,
          "unreadable: 1:1: unexpected character 'g', expected 0, 1 or 2" },
        { 7, { "gamma", "beta" }, 1, TIMEOUT_1S },
        { 8, { "alpha", "beta" }, 2, "illegal-move: =HYPERLINK(\"http://x\")" },
        { 9, { "beta", "gamma" }, 2, TIMEOUT_2S },
    };
    enum { N = sizeof games / sizeof *games };
    struct tu_game order[N];
    for (int g = 0; g < N; g++)
        order[g] = games[reversed ? N - 1 - g : g];
    tu_tally(t, 3, names, order, N);
}

char *tu_print(void (*print)(struct tally *, FILE *), struct tally *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    print(t, f);
    cr_assert_eq(fclose(f), 0);
    return text;
}
