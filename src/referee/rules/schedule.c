/*
 * schedule.c - a tournament's games as a function of its configuration
 * (schedule.h). At the bottom of the referee (src/referee/rules), beside the
 * rules and the record: the journal (a shard's games), preflight, cluster and
 * the tournament all ask it, and it asks nothing of them.
 */
#include <assert.h>
#include "arena/knockout.h"
#include "arena/schedule.h"

/* A gauntlet's seeds: c's, or engine 1 alone. */
static uint64_t seeds_of(const struct schedule *c)
{
    return c->seeds ? c->seeds : 1;
}

static int seeds_count(const struct schedule *c)
{
    return __builtin_popcountll(seeds_of(c));
}

/* The k-th (0-based) engine that is (seed 1) or is not (seed 0) a seed. */
static int kth(const struct schedule *c, int seed, long k)
{
    for (int i = 0; i < c->nengines; i++)
        if ((int)((seeds_of(c) >> i) & 1) == seed && k-- == 0)
            return i;
    assert(0 && "fewer engines than k");
    return -1;
}

static long pairs_per_round(const struct schedule *c)
{
    if (c->format == SCHEDULE_SWISS)
        return c->nengines / 2;   /* an odd field's bye plays no game */
    if (c->format == SCHEDULE_GAUNTLET)
        return (long)seeds_count(c) * (c->nengines - seeds_count(c));
    return (long)c->nengines * (c->nengines - 1) / 2;
}

const char *schedule_format_name(enum schedule_format f)
{
    static const char *const name[] = { "round-robin", "gauntlet", "swiss", "knockout" };
    return name[f];
}

void schedule_round_of(const struct schedule *c, long index, int *round, int *pair)
{
    assert(c->format == SCHEDULE_SWISS && index >= 1 && index <= schedule_games(c));
    long p = (index - 1) / 2, per_round = pairs_per_round(c);
    *round = (int)(p / per_round);
    *pair = (int)(p % per_round);
}

long schedule_games(const struct schedule *c)
{
    assert(c->nengines >= 2 && c->rounds >= 1);
    assert(c->format != SCHEDULE_GAUNTLET || seeds_count(c) < c->nengines);
    if (c->format == SCHEDULE_KNOCKOUT)
        return knockout_games(c->nengines);
    return (long)c->rounds * pairs_per_round(c) * 2;
}

void schedule_game_at(const struct schedule *c, long index, struct schedule_game *g)
{
    assert(index >= 1 && index <= schedule_games(c) && c->format != SCHEDULE_SWISS &&
           c->format != SCHEDULE_KNOCKOUT);
    long i = index - 1, per_round = pairs_per_round(c);
    long k = (i / 2) % per_round;   /* the engine pair within the round */
    int a = 0, b = 1;
    if (c->format == SCHEDULE_GAUNTLET) {
        long others = c->nengines - seeds_count(c);   /* seed by seed, each against them */
        a = kth(c, 1, k / others);
        b = kth(c, 0, k % others);
    } else {
        /* Pairs in order (0,1) (0,2) ... (0,n-1) (1,2) ... */
        while (k >= c->nengines - 1 - a) {
            k -= c->nengines - 1 - a;
            a++;
        }
        b = a + 1 + (int)k;
    }
    g->index = index;
    g->pair = i / 2;
    g->side[0] = i % 2 ? b : a;
    g->side[1] = i % 2 ? a : b;
}

int schedule_in_shard(const struct schedule *c, long index)
{
    assert(c->shard_n >= 1 && c->shard_k >= 1 && c->shard_k <= c->shard_n);
    return (index - 1) % c->shard_n == c->shard_k - 1;
}

long schedule_shard_games(long total, int k, int n)
{
    assert(n >= 1 && k >= 1 && k <= n && total >= 0);
    return total >= k ? (total - k) / n + 1 : 0;
}
