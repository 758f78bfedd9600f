/*
 * swiss.h - the pairings of a Swiss tournament, round by round: a pure,
 * seeded function of the results so far, so a resumed tournament that
 * replays its journal's finished rounds pairs every later round exactly as
 * the first run did.
 *
 * Each pairing is a game pair (two games, one opening, colours swapped), so
 * a pairing is worth SWISS_PAIR_HALF_POINTS half points (a win 2, a draw 1).
 * A round pairs engines of equal score first, then the nearest in score,
 * never two that have met; an odd field's lowest-placed engine without a
 * bye sits the round out and scores SWISS_BYE_HALF_POINTS. Within a pair,
 * the engine that had side 1 in fewer first games has it again (colours
 * balanced over the rounds).
 *
 * Representation: fixed arrays of SWISS_MAX_ENGINES in the caller's struct;
 * nothing is allocated.
 */
#ifndef ARENA_SWISS_H
#define ARENA_SWISS_H

#include <stdint.h>

#define SWISS_MAX_ENGINES 64       /* the benchmark's field (docs/tournaments.md) */
#define SWISS_PAIR_HALF_POINTS 4   /* a game pair: two games, 2 half points each */
/* A bye is half a pairing's worth (a drawn pair): the engine played no one,
 * so it neither gains nor loses ground on the engines of its score. */
#define SWISS_BYE_HALF_POINTS 2
/* Pairings tried before a round is given up as unpairable: a field of 64
 * pairs in a few hundred; the cap bounds a field paired into a corner. */
#define SWISS_SEARCH_MAX 2000000L

struct swiss {
    int n;                                      /* engines, 2..SWISS_MAX_ENGINES */
    int rounds;                                 /* rounds paired so far */
    int half[SWISS_MAX_ENGINES];                /* half points, byes included */
    int firsts[SWISS_MAX_ENGINES];              /* first games with side 1, minus with side 2 */
    int byes[SWISS_MAX_ENGINES];
    unsigned char met[SWISS_MAX_ENGINES][SWISS_MAX_ENGINES];
    unsigned tiebreak[SWISS_MAX_ENGINES];       /* from the seed: equal scores' order */
};

/* One round: pair k's first game has side[k][0] as side 1, side[k][1] as
 * side 2 (the second game swaps them); bye: the engine that sits out, or -1. */
struct swiss_round {
    int npairs;
    int side[SWISS_MAX_ENGINES / 2][2];
    int bye;
};

/* A field of n engines (2 <= n <= SWISS_MAX_ENGINES); seed orders engines
 * of equal score. */
void swiss_init(struct swiss *s, int n, uint64_t seed);
/* Adds half points (0..2: one game's) to engine i's score. */
void swiss_add(struct swiss *s, int i, int half_points);
/* Pairs the next round from the scores so far into r, marks its pairs met,
 * its colours and its bye (scored): 0, or -1 when no pairing without a
 * repeat exists (or none was found in SWISS_SEARCH_MAX tries); s is then
 * unchanged. */
int swiss_pair(struct swiss *s, struct swiss_round *r);
/* The most rounds a field of n is sure to be paired in without a repeat,
 * whatever the results: half the field (n / 2; an odd field, (n - 1) / 2,
 * as its bye sits out). After k rounds an engine still has n - 1 - k
 * opponents it has not met; while that is at least half the field, Dirac's
 * theorem gives the unmet pairs a Hamiltonian cycle, so a pairing exists
 * and the search finds it. More rounds may reach a field no pairing fits. */
int swiss_max_rounds(int n);

#endif
