/*
 * schedule.h - which games a tournament plays: a pure function of its
 * configuration, so game i (1-based) always has the same engines, colours
 * and opening, and a resumed, sharded or re-run tournament plays exactly the
 * same games. Round-robin: every pair of engines; gauntlet: each seed
 * (engine 1 unless --seeds names them) against each engine that is not
 * one, seed by seed in the engines' order; per round and pair two games on one opening,
 * colours swapped. Shard k of n plays the games with (i - 1) % n == k - 1.
 * Swiss: each round n / 2 game pairs whose engines the results so far
 * choose (swiss.h); the schedule fixes only the indices (round r's pair k
 * plays games 2 * (r * n / 2 + k) + 1 and + 2), the tournament the engines.
 * Knockout: every game a bracket could need (knockout.h's indices), of
 * which the tournament plays those its results call for.
 */
#ifndef ARENA_SCHEDULE_H
#define ARENA_SCHEDULE_H

#include <stdint.h>

/* Round-robin: every pair of engines; gauntlet: the first against each
 * other one; Swiss: rounds paired as their results come (swiss.h);
 * knockout: a bracket's matches as their engines are known (knockout.h). */
enum schedule_format { SCHEDULE_ROUND_ROBIN, SCHEDULE_GAUNTLET, SCHEDULE_SWISS,
                       SCHEDULE_KNOCKOUT };

/* The format's word in options and journal headers ("round-robin",
 * "gauntlet", "swiss", "knockout"). */
const char *schedule_format_name(enum schedule_format f);

/* What the schedule depends on, and nothing else: the engines' count, the
 * format, the rounds, and this shard (k of n, 1 <= k <= n). */
struct schedule {
    int nengines;
    enum schedule_format format;
    int rounds;
    int shard_k, shard_n;
    uint64_t seeds;   /* gauntlet: bit i, engine i is a seed; 0: engine 1 alone */
};

struct schedule_game {
    long index;   /* 1-based */
    long pair;    /* 0-based; both games of a pair share the opening */
    int side[2];  /* engine numbers (0-based) playing sides 1 and 2 */
};

/* Games in the whole schedule (all shards). Assumes at least two engines
 * and one round. */
long schedule_games(const struct schedule *c);
/* Game index (1..schedule_games) of the schedule; not of a Swiss one,
 * whose engines are its pairings' (schedule_round_of). */
void schedule_game_at(const struct schedule *c, long index, struct schedule_game *g);
/* A Swiss schedule's game index: its round (0-based) into *round and its
 * pairing within the round (0-based) into *pair. */
void schedule_round_of(const struct schedule *c, long index, int *round, int *pair);
/* Games of shard k of n (1 <= k <= n) in a schedule of total games. */
long schedule_shard_games(long total, int k, int n);
/* 1 when game index belongs to c's shard. */
int schedule_in_shard(const struct schedule *c, long index);

#endif
