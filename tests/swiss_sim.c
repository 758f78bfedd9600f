/*
 * swiss_sim.c - the simulated field of swiss_sim.h.
 */
#include <math.h>
#include "arena/rng.h"
#include "arena/swiss.h"
#include "swiss_sim.h"

#define BENCH_ENGINES SWISS_SIM_ENGINES
#define BENCH_ROUNDS SWISS_SIM_ROUNDS
#define BENCH_STEP SWISS_SIM_STEP
#define BENCH_DRAWS SWISS_SIM_DRAWS

/* One game of a against b: a's half points (0, 1, 2). */
static int play(struct rng *r, int a, int b)
{
    double diff = BENCH_STEP * (double)(b - a);   /* a's advantage */
    double expect = 1.0 / (1.0 + pow(10.0, -diff / 400.0));
    double u = rng_unit(r);
    double win = expect - BENCH_DRAWS / 2.0;
    if (win < 0)
        win = 0;
    return u < win ? 2 : u < win + BENCH_DRAWS ? 1 : 0;
}

/* Ranks of score[] (highest first, 1-based), ties the mean of their places. */
static void ranks(const double score[], double rank[])
{
    for (int i = 0; i < BENCH_ENGINES; i++) {
        int above = 0, equal = 0;
        for (int j = 0; j < BENCH_ENGINES; j++) {
            above += score[j] > score[i];
            equal += score[j] == score[i];
        }
        rank[i] = above + (equal + 1) / 2.0;
    }
}

static double spearman(const double x[], const double y[])
{
    double rx[BENCH_ENGINES], ry[BENCH_ENGINES], mx = 0, my = 0;
    ranks(x, rx);
    ranks(y, ry);
    for (int i = 0; i < BENCH_ENGINES; i++) {
        mx += rx[i] / BENCH_ENGINES;
        my += ry[i] / BENCH_ENGINES;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < BENCH_ENGINES; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxy / sqrt(sxx * syy);
}

/* The round robin: every pair a game pair. Points into score[]. */
static long round_robin(struct rng *r, double score[])
{
    long games = 0;
    for (int i = 0; i < BENCH_ENGINES; i++)
        score[i] = 0;
    for (int a = 0; a < BENCH_ENGINES; a++)
        for (int b = a + 1; b < BENCH_ENGINES; b++)
            for (int g = 0; g < 2; g++) {
                int h = play(r, a, b);
                score[a] += h / 2.0;
                score[b] += (2 - h) / 2.0;
                games++;
            }
    return games;
}

/* The Swiss: its points, ties broken by the opponents' points (Buchholz,
 * a thousandth of a point each, below any real difference). */
static long swiss(struct rng *r, uint64_t seed, double score[])
{
    struct swiss s;
    int opp[BENCH_ENGINES][BENCH_ROUNDS], nopp[BENCH_ENGINES] = { 0 };
    long games = 0;
    swiss_init(&s, BENCH_ENGINES, seed);
    for (int round = 0; round < BENCH_ROUNDS; round++) {
        struct swiss_round sr;
        if (swiss_pair(&s, &sr) != 0)
            return -1;
        for (int k = 0; k < sr.npairs; k++) {
            int a = sr.side[k][0], b = sr.side[k][1];
            opp[a][nopp[a]++] = b;
            opp[b][nopp[b]++] = a;
            for (int g = 0; g < 2; g++) {
                int h = play(r, a, b);
                swiss_add(&s, a, h);
                swiss_add(&s, b, 2 - h);
                games++;
            }
        }
    }
    for (int i = 0; i < BENCH_ENGINES; i++) {
        double buchholz = 0;
        for (int k = 0; k < nopp[i]; k++)
            buchholz += s.half[opp[i][k]] / 2.0;
        score[i] = s.half[i] / 2.0 + buchholz / 1000.0;
    }
    return games;
}

int swiss_sim_run(uint64_t seed, struct swiss_sim *out)
{
    double truth[BENCH_ENGINES], rr[BENCH_ENGINES], sw[BENCH_ENGINES];
    for (int i = 0; i < BENCH_ENGINES; i++)
        truth[i] = -i;
    struct rng r;
    rng_seed(&r, 1000 + seed);
    out->rr_games = round_robin(&r, rr);
    out->swiss_games = swiss(&r, 2000 + seed, sw);
    if (out->swiss_games < 0)
        return -1;
    out->rho = spearman(sw, rr);
    out->rho_rr_truth = spearman(rr, truth);
    out->rho_swiss_truth = spearman(sw, truth);
    return 0;
}
