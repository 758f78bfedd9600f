/*
 * test_knockout.c - the knockout bracket (knockout.h): seeds 1 and 2 meet
 * only in the final, byes go to the top seeds, a level pair plays another,
 * still level after every pair the higher seed goes on, the bracket's
 * text, results that are not the bracket's refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/knockout.h"

static const char *const names[] = { "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8" };

/* Plays every game the bracket wants now: the lower engine number wins,
 * unless level is set (every game drawn). Returns the games played. */
static int play_ready(struct knockout *k, int level)
{
    long ready[2 * KNOCKOUT_MAX_ENGINES * KNOCKOUT_MAX_PAIRS];
    int side[2], n = 0;
    for (long i = 1; i <= knockout_games(k->n); i++) {   /* the games wanted now, first */
        int m = (int)((i - 1) / 2 / KNOCKOUT_MAX_PAIRS), p = (int)((i - 1) / 2 % KNOCKOUT_MAX_PAIRS);
        if (knockout_game(k, i, side) && k->match[m].half[p][(i - 1) % 2] < 0)
            ready[n++] = i;
    }
    for (int j = 0; j < n; j++) {
        cr_assert(knockout_game(k, ready[j], side), "game %ld", ready[j]);
        int half1 = level ? 1 : side[0] < side[1] ? 2 : 0;
        cr_assert_eq(knockout_add(k, ready[j], side[0], half1), 0, "game %ld", ready[j]);
    }
    return n;
}

static char *text_of(const struct knockout *k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    knockout_print(k, names, f);
    fclose(f);
    return buf;
}

Test(knockout, five_engines_byes_to_the_top_seeds_and_the_bracket_text)
{
    struct knockout k;
    knockout_init(&k, 5);
    while (play_ready(&k, 0))
        ;
    char *text = text_of(&k);
    cr_assert_str_eq(text,
                     "\nKnockout bracket (game pairs; a level match plays another pair, at most 4)\n"
                     "Round 1\n"
                     "  e1 (1): bye\n"
                     "  e4 (4) - e5 (5)  2-0: e4\n"
                     "  e2 (2): bye\n"
                     "  e3 (3): bye\n"
                     "Round 2\n"
                     "  e1 (1) - e4 (4)  2-0: e1\n"
                     "  e2 (2) - e3 (3)  2-0: e2\n"
                     "Final\n"
                     "  e1 (1) - e2 (2)  2-0: e1\n"
                     "Winner: e1\n");
    cr_assert_eq(knockout_needed(&k), 8);
    free(text);
}

Test(knockout, a_level_match_plays_more_pairs_then_the_higher_seed_goes_on)
{
    struct knockout k;
    knockout_init(&k, 2);
    for (int p = 0; p < KNOCKOUT_MAX_PAIRS; p++) {
        cr_assert_eq(knockout_winner(&k), -1, "decided after %d level pairs", p);
        cr_assert_eq(play_ready(&k, 1), 2, "pair %d", p + 1);
    }
    cr_assert_eq(play_ready(&k, 1), 0, "a pair after the last");
    cr_assert_eq(knockout_winner(&k), 0);
    cr_assert(k.match[0].by_seed);
    cr_assert_eq(knockout_needed(&k), 2 * KNOCKOUT_MAX_PAIRS);
    char *text = text_of(&k);
    cr_assert_not_null(strstr(text, "  e1 (1) - e2 (2)  1-1, 1-1, 1-1, 1-1: e1 (level after every "
                                    "pair: the higher seed)\n"), "%s", text);
    free(text);
}

Test(knockout, a_tie_break_pair_decides)
{
    struct knockout k;
    knockout_init(&k, 2);
    play_ready(&k, 1);   /* pair 1 level */
    int side[2];
    cr_assert(knockout_game(&k, 3, side) && knockout_game(&k, 4, side));
    cr_assert(!knockout_game(&k, 5, side), "pair 3 before pair 2 is in");
    /* Pair 2: e2 has side 1 first (pairs alternate); e2 wins both. */
    cr_assert(knockout_game(&k, 3, side) && side[0] == 1, "game 3's side 1: %d", side[0]);
    cr_assert_eq(knockout_add(&k, 3, 1, 2), 0);
    cr_assert_eq(knockout_add(&k, 4, 0, 0), 0);
    cr_assert_eq(knockout_winner(&k), 1);
    cr_assert(!knockout_game(&k, 5, side), "a third pair after a decision");
}

Test(knockout, seeds_one_and_two_meet_only_in_the_final)
{
    struct knockout k;
    knockout_init(&k, 8);
    for (int m = 0; m < 4; m++) {
        int a = k.match[m].a, b = k.match[m].b;
        cr_assert(!((a == 0 && b == 1) || (a == 1 && b == 0)), "round 1 match %d", m);
    }
    static const int first[4][2] = { { 0, 7 }, { 3, 4 }, { 1, 6 }, { 2, 5 } };
    for (int m = 0; m < 4; m++)
        cr_assert(k.match[m].a == first[m][0] && k.match[m].b == first[m][1],
                  "match %d: %d - %d", m, k.match[m].a, k.match[m].b);
}

Test(knockout, results_not_of_the_bracket_are_refused)
{
    struct knockout k;
    knockout_init(&k, 4);
    cr_assert_eq(knockout_add(&k, 1, 3, 2), -1, "game 1 is e1's against e4 with e1 first");
    cr_assert_eq(knockout_add(&k, 2L * 2 * KNOCKOUT_MAX_PAIRS + 1, 0, 2), -1, "a final before "
                 "its engines are known");
    cr_assert_eq(knockout_add(&k, 1, 0, 2), 0);
    cr_assert_eq(knockout_add(&k, 1, 0, 2), -1, "game 1 twice");
}
