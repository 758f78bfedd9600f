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
#include "arena/registry.h"
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
    cr_assert_eq(report_html_start(&h, "nim", registry_find("nim"), &e), 0, "%s", e.msg);
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
    cr_assert_eq(report_html_start(&h, "connect4", registry_find("connect4"), &e), 0, "%s", e.msg);
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
