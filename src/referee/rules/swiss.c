/*
 * swiss.c - a Swiss tournament's pairings (swiss.h). In rules/, beside the
 * schedule: a pure function of the results it is told, which the
 * tournament replays from its journal on resume.
 *
 * The pairing is a depth-first search over the field in standing order:
 * the first unpaired engine takes the nearest unpaired one below it that it
 * has not met, and a dead end (the rest cannot be paired without a repeat)
 * backs up to the last choice. Standing order puts equal scores together,
 * so the first pairing found pairs equal scores when it can, then the
 * nearest.
 */
#include <assert.h>
#include <string.h>
#include "arena/rng.h"
#include "arena/swiss.h"

void swiss_init(struct swiss *s, int n, uint64_t seed)
{
    assert(n >= 2 && n <= SWISS_MAX_ENGINES);
    memset(s, 0, sizeof *s);
    s->n = n;
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++)
        s->tiebreak[i] = (unsigned)rng_next(&r);
}

void swiss_add(struct swiss *s, int i, int half_points)
{
    assert(i >= 0 && i < s->n && half_points >= 0 && half_points <= 2);
    s->half[i] += half_points;
}

int swiss_max_rounds(int n)
{
    assert(n >= 2);
    if (n == 3)
        return 1;   /* (3 - 1) / 2; a field of 3 plays one round */
    return n % 2 ? (n - 1) / 2 : n / 2;
}

/* 1 when a stands above b: more points, then the seeded tiebreak, then
 * the lower number (two equal tiebreaks). */
static int above(const struct swiss *s, int a, int b)
{
    if (s->half[a] != s->half[b])
        return s->half[a] > s->half[b];
    if (s->tiebreak[a] != s->tiebreak[b])
        return s->tiebreak[a] < s->tiebreak[b];
    return a < b;
}

/* The field in standing order into order[0..n-1]. */
static void standing(const struct swiss *s, int order[])
{
    for (int i = 0; i < s->n; i++) {   /* insertion sort: n is small */
        int k = i;
        while (k > 0 && above(s, i, order[k - 1])) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
}

struct search {
    const struct swiss *s;
    const int *order;       /* standing order */
    int n;                  /* of order */
    unsigned char used[SWISS_MAX_ENGINES];
    int pair[SWISS_MAX_ENGINES / 2][2];
    int npairs;
    long tries;
};

/* Pairs every unused engine of order without a repeat: 1 when done (the
 * pairs in q->pair), 0 at a dead end or when the tries ran out. */
static int pair_rest(struct search *q)
{
    int k = 0;
    while (k < q->n && q->used[q->order[k]])
        k++;
    if (k == q->n)
        return 1;
    int x = q->order[k];
    q->used[x] = 1;
    for (int j = k + 1; j < q->n && q->tries < SWISS_SEARCH_MAX; j++) {
        int y = q->order[j];
        if (q->used[y] || q->s->met[x][y])
            continue;
        q->tries++;
        q->used[y] = 1;
        q->pair[q->npairs][0] = x;
        q->pair[q->npairs][1] = y;
        q->npairs++;
        if (pair_rest(q))
            return 1;
        q->npairs--;
        q->used[y] = 0;
    }
    q->used[x] = 0;
    return 0;
}

/* Tries each engine that may sit out, lowest-placed first among those with
 * the fewest byes (none in a field that has played fewer rounds than it
 * has engines), with the rest paired: the bye in *bye, or -1 when no
 * choice pairs the rest. */
static int pair_with_bye(struct search *q, int *bye)
{
    int fewest = q->s->byes[q->order[0]];
    for (int k = 1; k < q->n; k++)
        if (q->s->byes[q->order[k]] < fewest)
            fewest = q->s->byes[q->order[k]];
    for (int k = q->n - 1; k >= 0; k--) {
        int b = q->order[k];
        if (q->s->byes[b] != fewest)
            continue;
        q->used[b] = 1;
        if (pair_rest(q)) {
            *bye = b;
            return 0;
        }
        q->used[b] = 0;
    }
    return -1;
}

int swiss_pair(struct swiss *s, struct swiss_round *r)
{
    int order[SWISS_MAX_ENGINES];
    standing(s, order);
    struct search q;
    memset(&q, 0, sizeof q);
    q.s = s;
    q.order = order;
    q.n = s->n;
    r->bye = -1;
    if (s->n % 2 ? pair_with_bye(&q, &r->bye) != 0 : !pair_rest(&q))
        return -1;
    assert(q.npairs == s->n / 2);
    r->npairs = q.npairs;
    for (int k = 0; k < q.npairs; k++) {
        int a = q.pair[k][0], b = q.pair[k][1];
        /* Side 1 of the first game: the one that had it less often. */
        if (s->firsts[b] < s->firsts[a]) {
            int t = a;
            a = b;
            b = t;
        }
        r->side[k][0] = a;
        r->side[k][1] = b;
        s->firsts[a]++;
        s->firsts[b]--;
        s->met[a][b] = s->met[b][a] = 1;
    }
    if (r->bye >= 0) {
        s->byes[r->bye]++;
        s->half[r->bye] += SWISS_BYE_HALF_POINTS;
    }
    s->rounds++;
    return 0;
}
