/*
 * test_e2e_knockout.c - `referee tournament --format knockout` end to end:
 * the bracket (byes to the top seeds, each match a game pair, a level one
 * more pairs) in the tournament's text report and the same bracket from
 * `referee report` of its journal, text and HTML; killed mid-run and
 * resumed, the same games as an uninterrupted run; --rounds refused.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_field.h"
#include "e2e_util.h"

static void run_knockout(const struct e2e_field *f, const char *dir, const char *journal,
                         struct e2e_run *r)
{
    const char *args[] = { "tournament", "--game", "nim", "--format", "knockout",
                           "--random-plies", "2", "--seed", "11", "--concurrency", "2",
                           "--journal", journal, "--engine", f->spec[0], "--engine",
                           f->spec[1], "--engine", f->spec[2], "--engine", f->spec[3],
                           "--engine", f->spec[4], NULL };
    e2e_runv(r, dir, NULL, "referee", args);
}

/* The text from "Knockout bracket" to the "Winner: " line's end. */
static char *bracket_of(const char *out)
{
    const char *from = strstr(out, "Knockout bracket");
    cr_assert_not_null(from, "no bracket in:\n%s", out);
    const char *win = strstr(from, "Winner: ");
    cr_assert_not_null(win, "no winner in:\n%s", from);
    return strndup(from, (size_t)(strchr(win, '\n') + 1 - from));
}

Test(e2e_knockout, the_bracket_is_in_the_tournament_and_in_its_reports, .timeout = 90)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run r, rep, html;
    run_knockout(&f, dir, "j.jsonl", &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *b = bracket_of(r.out);
    /* Five engines in a bracket of eight: seeds 1 to 3 have byes, 4 meets 5. */
    cr_assert(strncmp(b, "Knockout bracket (game pairs; a level match plays another pair, at "
                         "most 4)\nRound 1\n  perfect (1): bye\n  r3 (4) - slow (5)  ", 99) == 0,
              "%s", b);
    cr_assert_not_null(strstr(b, "\n  r1 (2): bye\n  r2 (3): bye\nRound 2\n  perfect (1) - "), "%s",
                       b);
    cr_assert_not_null(strstr(b, "\nFinal\n  "), "%s", b);
    /* The journal's games are exactly the bracket's pairs. */
    struct e2e_field_games g;
    e2e_field_read_journal(&f, dir, "j.jsonl", "knockout", &g);
    cr_assert(g.n >= 8 && g.n % 2 == 0, "%d games", g.n);
    e2e_run(&rep, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(rep.status, 0, "%s", rep.err);
    char *again = bracket_of(rep.out);
    cr_assert_str_eq(again, b);
    e2e_run(&html, dir, NULL, "referee", "report", "--format", "html", "j.jsonl", NULL);
    cr_assert_eq(html.status, 0, "%s", html.err);
    cr_assert_not_null(strstr(html.out, "<section id=\"bracket\"><h2>Bracket</h2>\n<pre class=\""
                                        "bracket\">Knockout bracket"), "no bracket in the page");
    free(again);
    free(b);
    e2e_run_free(&r);
    e2e_run_free(&rep);
    e2e_run_free(&html);
    e2e_rmdir(dir);
}

/* Killed (SIGKILL) mid-run and resumed: the same games as an uninterrupted
 * run, and the same bracket. */
Test(e2e_knockout, resume_after_a_kill_plays_the_same_bracket, .timeout = 120)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run whole;
    run_knockout(&f, dir, "whole.jsonl", &whole);
    cr_assert_eq(whole.status, 0, "exit %d: %s", whole.status, whole.err);
    struct e2e_field_games part;
    e2e_field_kill_and_resume(&f, dir, "knockout", "", 2, &part);
    struct e2e_field_games a, b;
    e2e_field_read_journal(&f, dir, "whole.jsonl", "knockout", &a);
    e2e_field_read_journal(&f, dir, "j.jsonl", "knockout", &b);
    cr_assert_eq(b.n, a.n, "%d games resumed, %d uninterrupted", b.n, a.n);
    for (int i = 1; i < 64; i++)
        cr_assert(a.who[i][0] == b.who[i][0] && a.who[i][1] == b.who[i][1],
                  "game %d differs after resume", i);
    char *second = e2e_slurp_at(dir, "second.out");
    char *x = bracket_of(whole.out), *y = bracket_of(second);
    cr_assert_str_eq(y, x);
    free(x);
    free(y);
    free(second);
    e2e_run_free(&whole);
    e2e_rmdir(dir);
}

Test(e2e_knockout, rounds_are_refused_and_nothing_is_written)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[] = { "tournament", "--game", "nim", "--format", "knockout", "--rounds", "2",
                           "--journal", "j.jsonl", "--engine", f.spec[0], "--engine", f.spec[1],
                           NULL };
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.err, "--rounds 2: a knockout's matches are game pairs until one "
                                     "engine wins"), "%s", r.err);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    cr_assert(!e2e_exists(path), "a journal was written");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
