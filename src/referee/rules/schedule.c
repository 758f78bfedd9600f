/*
 * schedule.c - a tournament's games as a function of its configuration
 * (schedule.h). At the bottom of the referee (src/referee/rules), beside the
 * rules and the record: the journal (a shard's games), preflight, cluster and
 * the tournament all ask it, and it asks nothing of them.
 */
#include <assert.h>
#include "arena/schedule.h"

static long pairs_per_round(const struct schedule *c)
{
    if (c->format == SCHEDULE_SWISS)
        return c->nengines / 2;   /* an odd field's bye plays no game */
    return c->format == SCHEDULE_GAUNTLET ? c->nengines - 1
                                      : (long)c->nengines * (c->nengines - 1) / 2;
}

const char *schedule_format_name(enum schedule_format f)
{
    return f == SCHEDULE_SWISS ? "swiss" : f == SCHEDULE_GAUNTLET ? "gauntlet" : "round-robin";
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
    return (long)c->rounds * pairs_per_round(c) * 2;
}

void schedule_game_at(const struct schedule *c, long index, struct schedule_game *g)
{
    assert(index >= 1 && index <= schedule_games(c) && c->format != SCHEDULE_SWISS);
    long i = index - 1, per_round = pairs_per_round(c);
    long k = (i / 2) % per_round;   /* the engine pair within the round */
    int a = 0, b = 1;
    if (c->format == SCHEDULE_GAUNTLET) {
        b = (int)k + 1;
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
