/*
 * test_swiss.c - the Swiss pairings (swiss.h): no pair twice, equal scores
 * together, colours balanced, the bye to the lowest-placed engine without
 * one, the same pairings from the same seed and results.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include "arena/swiss.h"
#include "swiss_sim.h"

/* A result model with a known order: the lower number wins a game. */
static void play_round(struct swiss *s, const struct swiss_round *r)
{
    for (int k = 0; k < r->npairs; k++) {
        int a = r->side[k][0], b = r->side[k][1];
        int hi = a < b ? a : b;
        swiss_add(s, hi, 2);
        swiss_add(s, hi, 2);
        (void)(a + b);
    }
}

struct field { int n, rounds; };

ParameterizedTestParameters(swiss, no_pair_meets_twice_and_everyone_plays_each_round)
{
    static struct field f[] = { { 2, 1 }, { 3, 1 }, { 4, 2 }, { 7, 3 }, { 8, 4 }, { 16, 8 },
                                { 33, 16 }, { 64, 16 } };
    return cr_make_param_array(struct field, f, sizeof f / sizeof f[0]);
}

ParameterizedTest(struct field *f, swiss, no_pair_meets_twice_and_everyone_plays_each_round)
{
    struct swiss s;
    swiss_init(&s, f->n, 42);
    int met[SWISS_MAX_ENGINES][SWISS_MAX_ENGINES] = { { 0 } };
    int byes[SWISS_MAX_ENGINES] = { 0 };
    cr_assert_geq(swiss_max_rounds(f->n), f->rounds, "n %d", f->n);
    for (int round = 0; round < f->rounds; round++) {
        struct swiss_round r;
        cr_assert_eq(swiss_pair(&s, &r), 0, "n %d: round %d could not be paired", f->n, round + 1);
        int seen[SWISS_MAX_ENGINES] = { 0 };
        cr_assert_eq(r.npairs, f->n / 2, "n %d round %d: %d pairs", f->n, round + 1, r.npairs);
        for (int k = 0; k < r.npairs; k++) {
            int a = r.side[k][0], b = r.side[k][1];
            cr_assert_eq(met[a][b], 0, "n %d round %d: %d and %d meet again", f->n, round + 1, a, b);
            met[a][b] = met[b][a] = 1;
            seen[a]++;
            seen[b]++;
        }
        if (f->n % 2) {
            cr_assert(r.bye >= 0 && byes[r.bye] == 0, "n %d round %d: bye %d (had %d)", f->n,
                      round + 1, r.bye, r.bye >= 0 ? byes[r.bye] : -1);
            byes[r.bye]++;
            seen[r.bye]++;
        } else {
            cr_assert_eq(r.bye, -1, "n %d: a bye in an even field", f->n);
        }
        for (int i = 0; i < f->n; i++)
            cr_assert_eq(seen[i], 1, "n %d round %d: engine %d is in %d places", f->n, round + 1,
                         i, seen[i]);
        play_round(&s, &r);
    }
}

/* Every pairing is a game pair with colours swapped, so each engine plays
 * side 1 in exactly half its games; the first game's side 1 goes to the
 * engine that had it less often. */
Test(swiss, side_1_of_a_first_game_goes_to_who_had_it_less)
{
    struct swiss s;
    swiss_init(&s, 16, 7);
    int first[16] = { 0 };
    for (int round = 0; round < 8; round++) {
        struct swiss_round r;
        cr_assert_eq(swiss_pair(&s, &r), 0);
        for (int k = 0; k < r.npairs; k++) {
            int a = r.side[k][0], b = r.side[k][1];
            cr_assert_leq(first[a], first[b], "round %d: %d (%+d) had side 1 before %d (%+d)",
                          round + 1, a, first[a], b, first[b]);
            first[a]++;
            first[b]--;
        }
        play_round(&s, &r);
    }
    for (int i = 0; i < 16; i++)
        cr_assert_eq(first[i], s.firsts[i], "engine %d", i);
}

Test(swiss, equal_scores_meet_first)
{
    struct swiss s;
    swiss_init(&s, 8, 1);
    struct swiss_round r;
    cr_assert_eq(swiss_pair(&s, &r), 0);
    play_round(&s, &r);
    /* Round 1's four winners have 4 half points, its losers 0: round 2
     * pairs winners with winners. */
    cr_assert_eq(swiss_pair(&s, &r), 0);
    for (int k = 0; k < r.npairs; k++)
        cr_assert_eq(s.half[r.side[k][0]], s.half[r.side[k][1]],
                     "pair %d: %d (%d half points) against %d (%d)", k, r.side[k][0],
                     s.half[r.side[k][0]], r.side[k][1], s.half[r.side[k][1]]);
}

Test(swiss, the_bye_goes_to_the_lowest_placed_engine_and_scores_a_drawn_pair)
{
    struct swiss s;
    swiss_init(&s, 5, 3);
    struct swiss_round r;
    cr_assert_eq(swiss_pair(&s, &r), 0);
    play_round(&s, &r);
    int lowest = -1;
    for (int i = 0; i < 5; i++)
        if (i != r.bye && (lowest < 0 || s.half[i] < s.half[lowest] ||
                           (s.half[i] == s.half[lowest] && s.tiebreak[i] > s.tiebreak[lowest])))
            lowest = i;
    int before = s.half[lowest];
    cr_assert_eq(swiss_pair(&s, &r), 0);
    cr_assert_eq(r.bye, lowest, "the bye went to %d, the lowest placed is %d", r.bye, lowest);
    cr_assert_eq(s.half[lowest], before + SWISS_BYE_HALF_POINTS);
}

Test(swiss, the_same_seed_and_results_pair_the_same_rounds)
{
    struct swiss a, b;
    swiss_init(&a, 33, 99);
    swiss_init(&b, 33, 99);
    for (int round = 0; round < 9; round++) {
        struct swiss_round ra, rb;
        cr_assert_eq(swiss_pair(&a, &ra), 0);
        cr_assert_eq(swiss_pair(&b, &rb), 0);
        cr_assert_eq(memcmp(&ra, &rb, sizeof ra), 0, "round %d paired differently", round + 1);
        play_round(&a, &ra);
        play_round(&b, &rb);
    }
}

Test(swiss, a_field_that_has_met_everyone_cannot_be_paired)
{
    struct swiss s;
    swiss_init(&s, 4, 5);
    struct swiss_round r;
    for (int round = 0; round < 3; round++)   /* a round-robin of 4 */
        cr_assert_eq(swiss_pair(&s, &r), 0, "round %d", round + 1);
    struct swiss before = s;
    cr_assert_eq(swiss_pair(&s, &r), -1);
    cr_assert_eq(memcmp(&before, &s, sizeof s), 0, "a failed pairing changed the field");
}

/* make bench-swiss's figure, one seed of it: the same on every run, and
 * the goal met (docs/benchmarks.md). */
Test(swiss, a_simulated_field_of_64_ranks_as_its_round_robin_reproducibly)
{
    struct swiss_sim a, b;
    cr_assert_eq(swiss_sim_run(0, &a), 0);
    cr_assert_eq(swiss_sim_run(0, &b), 0);
    cr_assert(a.rho == b.rho && a.rho_swiss_truth == b.rho_swiss_truth,
              "two runs of one seed: %.17g then %.17g", a.rho, b.rho);
    cr_assert(a.swiss_games == 576 && a.rr_games == 4032, "%ld of %ld games", a.swiss_games,
              a.rr_games);
    cr_assert_geq(a.rho, 0.9, "Spearman %.6f", a.rho);
}
