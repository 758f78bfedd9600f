/*
 * test_report_html.c - the HTML report's writer on records made here
 * (report_html.h): a Nim game's positions as the page carries them, a move
 * that is not legal where it stands ending the board, a forfeit's last
 * stderr lines, and a page printed from a tally alone. The pages of real
 * journals are tested end to end (test_e2e_report_html.c) and in Chromium
 * (make test-browser).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/report_html.h"

struct page {
    char *text;
    size_t len;
};

/* A two-engine tally, a and b. */
static void tally_ab(struct tally *t)
{
    const char *const names[] = { "a", "b" };
    struct err e;
    cr_assert_eq(tally_init(t, 2, names, &e), 0, "%s", e.msg);
}

static void add_move(struct game_record *r, int side, const char *move, const char *status,
                     const char *stderr_tail)
{
    struct rec_move m;
    rec_move_init(&m);
    m.ply = r->nmoves + 1;
    m.side = side;
    strcpy(m.engine, side == 1 ? "a" : "b");
    strcpy(m.move, move);
    strcpy(m.status, status);
    m.stderr_tail = stderr_tail ? strdup(stderr_tail) : NULL;
    cr_assert_eq(rec_add_move(r, &m), 0);
}

/* Adds rec to the tally and the page, then frees it. */
static void add(struct tally *t, struct report_html *h, struct game_record *rec)
{
    struct err e;
    cr_assert_eq(tally_add(t, rec, &e), 0, "%s", e.msg);
    cr_assert_eq(report_html_add(h, rec, &e), 0, "%s", e.msg);
    rec_free(rec);
}

static void print_page(struct tally *t, struct report_html *h, struct page *p)
{
    FILE *f = open_memstream(&p->text, &p->len);
    cr_assert_not_null(f);
    report_html(t, h, f);
    cr_assert_eq(fclose(f), 0);
}

Test(report_html, nim_positions_and_a_move_that_is_not_legal)
{
    struct tally t;
    struct report_html h;
    struct err e;
    tally_ab(&t);
    cr_assert_eq(report_html_start(&h, "nim", &e), 0, "%s", e.msg);
    struct game_record rec;
    rec_init(&rec, 7, 0);
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    add_move(&rec, 1, "3:2", "ok", NULL);   /* row 3: 7 -> 5 */
    add_move(&rec, 2, "2:5", "ok", NULL);   /* row 2: 5 -> 0 */
    add_move(&rec, 1, "9:1", "ok", NULL);   /* no row 9 */
    rec_set_end(&rec, REC_WIN_2, REC_NORMAL, NULL);
    add(&t, &h, &rec);
    struct page p;
    print_page(&t, &h, &p);
    /* Nim's start board file is "1 3 5 7\n1\n"; ply 1 changes byte 6
     * (7 -> 5) and the side to move, byte 8 (1 -> 2); ply 2 byte 4 (5 -> 0)
     * and byte 8 back. */
    const char *want = "id=\"game-7\" data-game=\"nim\" data-p1=\"a\" data-p2=\"b\" "
                       "data-start=\"1 3 5 7&#10;1&#10;\" data-diff=\"6:58:2;4:08:1\" "
                       "data-plies=\"2\" data-moves=\"3:2 2:5\" data-sides=\"12\">";
    cr_expect_not_null(strstr(p.text, want), "no %s in:\n%s", want, p.text);
    cr_expect_not_null(strstr(p.text, "The board stops at ply 2: the next move is not legal"));
    cr_expect_not_null(strstr(p.text, "<pre>1 3 0 5\n1\n</pre>"));
    free(p.text);
    report_html_free(&h);
    tally_free(&t);
}

Test(report_html, forfeit_shows_the_last_ten_lines_of_stderr)
{
    struct tally t;
    struct report_html h;
    struct err e;
    tally_ab(&t);
    cr_assert_eq(report_html_start(&h, "connect4", &e), 0, "%s", e.msg);
    char tail[256] = "";
    for (int k = 1; k <= 12; k++)
        snprintf(tail + strlen(tail), sizeof tail - strlen(tail), "line %d\n", k);
    struct game_record rec;
    rec_init(&rec, 1, 0);
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    add_move(&rec, 1, "4", "ok", NULL);
    add_move(&rec, 2, "", "crashed: SIGSEGV", tail);
    rec_set_end(&rec, REC_WIN_1, REC_FORFEIT, "crashed: SIGSEGV");
    add(&t, &h, &rec);
    struct page p;
    print_page(&t, &h, &p);
    const char *want = "<tr><td><a href=\"#game-1\">1</a></td><td>2</td><td class=\"name\">b</td>"
                       "<td class=\"name\">crashed: SIGSEGV</td><td class=\"name\"><pre>line 3\n";
    cr_expect_not_null(strstr(p.text, want), "no %s in:\n%s", want, p.text);
    cr_expect_not_null(strstr(p.text, "line 12\n</pre>"));
    cr_expect_null(strstr(p.text, "line 2\n"));
    free(p.text);
    report_html_free(&h);
    tally_free(&t);
}

Test(report_html, page_of_a_tally_alone_says_it_has_no_games)
{
    struct tally t;
    tally_ab(&t);
    struct page p;
    print_page(&t, NULL, &p);
    cr_expect_not_null(strstr(p.text, "<p>No games kept in this report.</p>"));
    cr_expect_not_null(strstr(p.text, "id=\"standings-table\""));
    /* No game: both engines on the charts all the same. */
    cr_expect_not_null(strstr(p.text, "id=\"elo-chart\""));
    free(p.text);
    tally_free(&t);
}

/* A field where one engine won every game: its rating and every margin are
 * finite (the prior), and the page says how they are computed. */
Test(report_html, standings_rate_a_perfect_score_finitely)
{
    const char *const names[] = { "a", "b", "c" };
    struct tally t;
    struct err e;
    cr_assert_eq(tally_init(&t, 3, names, &e), 0, "%s", e.msg);
    static const char *const games[][2] = { { "a", "b" }, { "b", "a" }, { "a", "c" },
                                            { "c", "a" }, { "b", "c" }, { "c", "b" } };
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        struct game_record rec;
        rec_init(&rec, (long)g + 1, -1);
        strcpy(rec.player[0], games[g][0]);
        strcpy(rec.player[1], games[g][1]);
        int a_plays = strcmp(games[g][0], "a") == 0 || strcmp(games[g][1], "a") == 0;
        rec_set_end(&rec, !a_plays ? REC_DRAWN : strcmp(games[g][0], "a") == 0 ? REC_WIN_1
                                                                                 : REC_WIN_2,
                    REC_NORMAL, NULL);
        cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
        rec_free(&rec);
    }
    struct page p;
    print_page(&t, NULL, &p);
    char *table = strstr(p.text, "id=\"standings-table\""), *end = strstr(table, "</table>");
    cr_assert(table && end);
    *end = '\0';
    cr_expect_null(strstr(table, "inf"), "an infinite figure in:\n%s", table);
    cr_expect_not_null(strstr(p.text, "maximum likelihood fit over all games"));
    *end = '<';
    free(p.text);
    tally_free(&t);
}

/* The CPU chart names what its box, line and whiskers are, and labels the
 * 2 and 5 of a decade when it spans few. */
Test(report_html, cpu_chart_says_what_its_whiskers_are)
{
    struct tally t;
    tally_ab(&t);
    struct game_record rec;
    rec_init(&rec, 1, 0);
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    for (int k = 0; k < 4; k++) {
        struct rec_move m;
        rec_move_init(&m);
        m.ply = k + 1;
        m.side = k % 2 + 1;
        strcpy(m.engine, m.side == 1 ? "a" : "b");
        strcpy(m.move, "1");
        strcpy(m.status, "ok");
        m.cpu_user_ms = 1.2 + k;
        m.cpu_sys_ms = 0;
        cr_assert_eq(rec_add_move(&rec, &m), 0);
    }
    rec_set_end(&rec, REC_WIN_1, REC_NORMAL, NULL);
    struct err e;
    cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
    rec_free(&rec);
    struct page p;
    print_page(&t, NULL, &p);
    char *chart = strstr(p.text, "<svg id=\"cpu-chart\"");
    cr_assert_not_null(chart);
    cr_expect_not_null(strstr(chart, "whiskers to the least and the most"));
    static const char *const ticks[] = { ">1 ms<", ">2 ms<", ">5 ms<", ">10 ms<" };
    for (size_t k = 0; k < sizeof ticks / sizeof *ticks; k++)
        cr_expect_not_null(strstr(chart, ticks[k]), "no tick %s in the CPU chart", ticks[k]);
    cr_expect_not_null(strstr(p.text, "the whiskers reach its least and its most"));
    free(p.text);
    tally_free(&t);
}

/* A game with its own score shows it in its summary, the winner's first. */
Test(report_html, game_summary_shows_the_games_own_score)
{
    struct tally t;
    tally_ab(&t);
    struct report_html h;
    struct err e;
    cr_assert_eq(report_html_start(&h, "maxconnect4", &e), 0, "%s", e.msg);
    struct game_record rec;
    rec_init(&rec, 1, 0);
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    rec.has &= ~REC_HAS_ANALYSIS;
    rec_set_end(&rec, REC_WIN_2, REC_NORMAL, NULL);
    rec_set_score(&rec, (const int[2]){ 11, 14 }, "points");
    add(&t, &h, &rec);
    struct page p;
    print_page(&t, &h, &p);
    const char *want = "<summary>Game 1: a vs b, 0-1 (normal, 14-11 points), 0 moves</summary>";
    cr_expect_not_null(strstr(p.text, want), "no %s in the page", want);
    cr_expect_not_null(strstr(p.text, "<th>Game score for (points)</th><th>against</th>"));
    cr_expect_not_null(strstr(p.text, "<td>14.00</td><td>11.00</td>"), "b's game score");
    free(p.text);
    report_html_free(&h);
    tally_free(&t);
}
