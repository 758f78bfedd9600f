/*
 * knockout.c - a knockout tournament's bracket (knockout.h). In rules/,
 * beside the schedule and the Swiss pairings: the tournament tells it each
 * result and asks which games come next; `referee report` tells it a
 * journal's results and prints it.
 *
 * Nothing is stored but the results: who meets whom in a later round is
 * worked out again (settle) from the earlier rounds' winners after every
 * result, so no state can disagree with the results it came from.
 */
#include <assert.h>
#include <string.h>
#include "arena/knockout.h"

/* The first match of round r (0-based). */
static int round_start(const struct knockout *k, int r)
{
    int m = 0;
    for (int q = 0; q < r; q++)
        m += k->size >> (q + 1);
    return m;
}

static int round_of(const struct knockout *k, int m)
{
    int r = 0;
    while (r + 1 < k->rounds && m >= round_start(k, r + 1))
        r++;
    return r;
}

/* The seeds in bracket order: 1, size, then each half mirrored, so the
 * two best seeds meet only in the final (1 8 4 5 2 7 3 6 for 8). */
static void seed_order(int size, int order[])
{
    order[0] = 1;
    for (int have = 1; have < size; have *= 2)
        for (int i = have - 1; i >= 0; i--) {
            order[2 * i] = order[i];
            order[2 * i + 1] = 2 * have + 1 - order[i];
        }
}

void knockout_init(struct knockout *k, int n)
{
    assert(n >= 2 && n <= KNOCKOUT_MAX_ENGINES);
    memset(k, 0, sizeof *k);
    k->n = n;
    k->size = 1;
    while (k->size < n) {
        k->size *= 2;
        k->rounds++;
    }
    k->nmatches = k->size - 1;
    int order[KNOCKOUT_MAX_ENGINES];
    seed_order(k->size, order);
    for (int m = 0; m < k->nmatches; m++) {
        struct knockout_match *x = &k->match[m];
        memset(x->half, -1, sizeof x->half);
        x->a = x->b = x->winner = -1;
        if (m < k->size / 2) {   /* round 1: seeds above n are byes */
            x->a = order[2 * m] <= n ? order[2 * m] - 1 : -1;
            x->b = order[2 * m + 1] <= n ? order[2 * m + 1] - 1 : -1;
            x->byes = x->a < 0 || x->b < 0;
        }
    }
}

long knockout_games(int n)
{
    struct knockout k;
    knockout_init(&k, n);
    return 2L * k.nmatches * KNOCKOUT_MAX_PAIRS;
}

/* Pair p of match x is complete. */
static int pair_in(const struct knockout_match *x, int p)
{
    return x->half[p][0] >= 0 && x->half[p][1] >= 0;
}

/* Pair p of match x is to be played: every pair before it ended the
 * match level. */
static int pair_needed(const struct knockout_match *x, int p)
{
    int total = 0;
    for (int q = 0; q < p; q++) {
        if (!pair_in(x, q))
            return 0;
        total += x->half[q][0] + x->half[q][1];
        if (total != 2 * (q + 1))
            return 0;   /* decided at pair q */
    }
    return 1;
}

/* Match x's winner from its pairs, or -1 while undecided. */
static int decide(struct knockout_match *x)
{
    if (x->byes)
        return x->a >= 0 ? x->a : x->b;
    if (x->a < 0 || x->b < 0)
        return -1;
    int total = 0;
    for (int p = 0; p < KNOCKOUT_MAX_PAIRS; p++) {
        if (!pair_in(x, p))
            return -1;
        total += x->half[p][0] + x->half[p][1];
        if (total != 2 * (p + 1))
            return total > 2 * (p + 1) ? x->a : x->b;
    }
    x->by_seed = 1;   /* level after every pair: engine order is seed order */
    return x->a < x->b ? x->a : x->b;
}

/* Every match's engines and winner from the results so far, round by round. */
static void settle(struct knockout *k)
{
    for (int m = 0; m < k->nmatches; m++) {
        struct knockout_match *x = &k->match[m];
        int r = round_of(k, m);
        if (r > 0) {
            int child = round_start(k, r - 1) + 2 * (m - round_start(k, r));
            x->a = k->match[child].winner;
            x->b = k->match[child + 1].winner;
        }
        x->winner = decide(x);
    }
}

/* Game index's match, pair and game within the pair. */
static void place(long index, int *m, int *p, int *g)
{
    long i = index - 1;
    *g = (int)(i % 2);
    *p = (int)((i / 2) % KNOCKOUT_MAX_PAIRS);
    *m = (int)(i / 2 / KNOCKOUT_MAX_PAIRS);
}

int knockout_game(const struct knockout *k, long index, int side[2])
{
    if (index < 1 || index > 2L * k->nmatches * KNOCKOUT_MAX_PAIRS)
        return 0;
    int m, p, g;
    place(index, &m, &p, &g);
    const struct knockout_match *x = &k->match[m];
    if (x->byes || x->a < 0 || x->b < 0 || !pair_needed(x, p))
        return 0;
    /* Pairs alternate who has side 1 first; the pair's second game swaps. */
    int a_first = (p + g) % 2 == 0;
    side[0] = a_first ? x->a : x->b;
    side[1] = a_first ? x->b : x->a;
    return 1;
}

int knockout_add(struct knockout *k, long index, int side1, int half1)
{
    assert(half1 >= 0 && half1 <= 2);
    int side[2], m, p, g;
    if (!knockout_game(k, index, side) || side[0] != side1)
        return -1;
    place(index, &m, &p, &g);
    struct knockout_match *x = &k->match[m];
    if (x->half[p][g] >= 0)
        return -1;
    x->half[p][g] = (signed char)(side1 == x->a ? half1 : 2 - half1);
    settle(k);
    return 0;
}

long knockout_needed(const struct knockout *k)
{
    long games = 0;
    for (int m = 0; m < k->nmatches; m++) {
        const struct knockout_match *x = &k->match[m];
        if (x->byes)
            continue;
        int pairs = 1;   /* engines not known yet: at least one pair */
        if (x->a >= 0 && x->b >= 0)
            for (pairs = 0; pairs < KNOCKOUT_MAX_PAIRS && pair_needed(x, pairs); pairs++)
                ;
        games += 2L * pairs;
    }
    return games;
}

int knockout_winner(const struct knockout *k)
{
    return k->match[k->nmatches - 1].winner;
}

/* One engine as the bracket shows it: its name and seed, or "?". */
static void print_entrant(int e, const char *const names[], FILE *out)
{
    if (e < 0)
        fputs("?", out);
    else
        fprintf(out, "%s (%d)", names[e], e + 1);
}

static void print_match(const struct knockout_match *x, const char *const names[], FILE *out)
{
    fputs("  ", out);
    if (x->byes) {
        print_entrant(x->a >= 0 ? x->a : x->b, names, out);
        fputs(": bye\n", out);
        return;
    }
    print_entrant(x->a, names, out);
    fputs(" - ", out);
    print_entrant(x->b, names, out);
    for (int p = 0; p < KNOCKOUT_MAX_PAIRS && pair_in(x, p); p++) {
        int a = x->half[p][0] + x->half[p][1];
        fprintf(out, "%s%g-%g", p ? ", " : "  ", a / 2.0, (4 - a) / 2.0);
    }
    if (x->winner < 0)
        fputs(x->a >= 0 && x->b >= 0 ? ": to play\n" : "\n", out);
    else
        fprintf(out, ": %s%s\n", names[x->winner],
                x->by_seed ? " (level after every pair: the higher seed)" : "");
}

void knockout_print(const struct knockout *k, const char *const names[], FILE *out)
{
    fprintf(out, "\nKnockout bracket (game pairs; a level match plays another pair, at most "
                 "%d)\n", KNOCKOUT_MAX_PAIRS);
    for (int r = 0; r < k->rounds; r++) {
        if (r == k->rounds - 1)
            fputs("Final\n", out);
        else
            fprintf(out, "Round %d\n", r + 1);
        int end = r == k->rounds - 1 ? k->nmatches : round_start(k, r + 1);
        for (int m = round_start(k, r); m < end; m++)
            print_match(&k->match[m], names, out);
    }
    if (knockout_winner(k) >= 0)
        fprintf(out, "Winner: %s\n", names[knockout_winner(k)]);
}
