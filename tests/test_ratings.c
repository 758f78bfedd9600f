/*
 * test_ratings.c - the anchored fit of a field's ratings
 * (stats_ratings_anchored) and the tally's anchors: an anchored engine
 * keeps its exact rating with no margin, the others move with the anchor's
 * scale, an anchor that names no engine is refused.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "arena/stats.h"
#include "arena/tally.h"

/* Three engines: a beats b 6-2, b beats c 6-2, a beats c 7-1. */
static void field(double games[9], double points[9])
{
    static const double g[9] = { 0, 8, 8, 8, 0, 8, 8, 8, 0 };
    static const double p[9] = { 0, 6, 7, 2, 0, 6, 1, 2, 0 };
    memcpy(games, g, sizeof g);
    memcpy(points, p, sizeof p);
}

Test(ratings, an_anchored_engine_keeps_its_exact_rating)
{
    double games[9], points[9], elo[3], margin[3];
    field(games, points);
    const double anchor[3] = { NAN, 1234.5, NAN };
    cr_assert_eq(stats_ratings_anchored(3, games, points, 2, anchor, elo, margin), 0);
    cr_assert_eq(elo[1], 1234.5, "anchored at 1234.5, rated %.17g", elo[1]);
    cr_assert_eq(margin[1], 0, "margin %.17g", margin[1]);
    cr_assert(elo[0] > elo[1] && elo[1] > elo[2], "order %.1f %.1f %.1f", elo[0], elo[1], elo[2]);
    cr_assert(margin[0] > 0 && margin[2] > 0, "margins %.1f %.1f", margin[0], margin[2]);
}

Test(ratings, moving_the_anchor_moves_the_field_by_as_much)
{
    double games[9], points[9], lo[3], hi[3], m[3];
    field(games, points);
    const double at0[3] = { 0, NAN, NAN }, at1000[3] = { 1000, NAN, NAN };
    cr_assert_eq(stats_ratings_anchored(3, games, points, 2, at0, lo, m), 0);
    cr_assert_eq(stats_ratings_anchored(3, games, points, 2, at1000, hi, m), 0);
    for (int i = 0; i < 3; i++)
        cr_assert_float_eq(hi[i] - lo[i], 1000.0, 1e-6, "engine %d: %.6f then %.6f", i, lo[i],
                           hi[i]);
}

Test(ratings, two_anchors_hold_and_an_even_score_sits_between)
{
    /* b scores 50% against a and against c: between the anchors a=900, c=1100. */
    const double games[9] = { 0, 10, 0, 10, 0, 10, 0, 10, 0 };
    const double points[9] = { 0, 5, 0, 5, 0, 5, 0, 5, 0 };
    const double anchor[3] = { 900, NAN, 1100 };
    double elo[3], margin[3];
    cr_assert_eq(stats_ratings_anchored(3, games, points, 2, anchor, elo, margin), 0);
    cr_assert(elo[0] == 900 && elo[2] == 1100, "anchors %.17g %.17g", elo[0], elo[2]);
    cr_assert_float_eq(elo[1], 1000.0, 1e-6, "b %.6f", elo[1]);
}

Test(ratings, a_tally_anchor_names_an_engine_or_is_refused)
{
    struct tally t;
    struct err e = { 0 };
    const char *names[] = { "alphabeta:4", "random" };
    cr_assert_eq(tally_init(&t, 2, names, &e), 0);
    struct tally_anchor ok = { "alphabeta:4", 1000 }, bad = { "minimax", 1000 };
    cr_assert_eq(tally_anchor(&t, &ok, 1, &e), 0);
    cr_assert_eq(t.nanchors, 1);
    char text[TALLY_ANCHOR_TEXT_MAX];
    tally_anchor_text(&t, text, sizeof text);
    cr_assert_str_eq(text, "alphabeta:4=1000.0");
    cr_assert_eq(tally_anchor(&t, &bad, 1, &e), -1);
    cr_assert_str_eq(e.msg, "--anchor minimax: no engine of the tournament is named minimax");
    tally_free(&t);
}
