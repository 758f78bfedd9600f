/*
 * bench_swiss.c - make bench-swiss: how well a Swiss tournament of 9
 * rounds ranks a field of 64 engines of known strength, against the full
 * round robin's ranking (Spearman's rank correlation), and what share of
 * the round robin's games it plays.
 *
 * The field is simulated: engine i (0 strongest) has the true rating
 * -BENCH_STEP * i, and a game between two engines is won, drawn or lost
 * with the probabilities of the logistic Elo model with a draw share of
 * BENCH_DRAWS. A tournament's header holds at most 32 engines (record.h's
 * REC_MAX_ENGINES), so a field of 64 is the pairing's own test; the
 * pairings are swiss.h's, exactly as `referee tournament --format swiss`
 * makes them. Everything is seeded: the figures are the same on every run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "arena/rng.h"
#include "arena/swiss.h"

#define BENCH_ENGINES 64
#define BENCH_ROUNDS 9
#define BENCH_STEP 20.0     /* Elo between neighbours: depths and evaluations of one engine */
#define BENCH_DRAWS 0.10
#define BENCH_RUNS 50       /* seeds; the figure is their mean */

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
        if (swiss_pair(&s, &sr) != 0) {
            fprintf(stderr, "bench-swiss: round %d could not be paired\n", round + 1);
            exit(1);
        }
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

int main(void)
{
    double sum = 0, worst = 1, truth_rr = 0, truth_sw = 0;
    long rr_games = 0, sw_games = 0;
    double truth[BENCH_ENGINES];
    for (int i = 0; i < BENCH_ENGINES; i++)
        truth[i] = -i;
    for (int run = 0; run < BENCH_RUNS; run++) {
        struct rng r;
        rng_seed(&r, 1000 + (uint64_t)run);
        double rr[BENCH_ENGINES], sw[BENCH_ENGINES];
        rr_games = round_robin(&r, rr);
        sw_games = swiss(&r, 2000 + (uint64_t)run, sw);
        double rho = spearman(sw, rr);
        sum += rho;
        worst = rho < worst ? rho : worst;
        truth_rr += spearman(rr, truth) / BENCH_RUNS;
        truth_sw += spearman(sw, truth) / BENCH_RUNS;
    }
    printf("Swiss, %d rounds, against the round robin: %d engines %.0f Elo apart, %.0f%% draws, "
           "%d seeded runs\n", BENCH_ROUNDS, BENCH_ENGINES, BENCH_STEP, BENCH_DRAWS * 100,
           BENCH_RUNS);
    printf("  games: %ld of %ld (%.1f%%)\n", sw_games, rr_games,
           100.0 * (double)sw_games / (double)rr_games);
    printf("  Spearman, Swiss against round robin: mean %.3f, worst %.3f\n", sum / BENCH_RUNS,
           worst);
    printf("  Spearman against the true order: round robin %.3f, Swiss %.3f\n", truth_rr, truth_sw);
    int ok = sum / BENCH_RUNS >= 0.9 && 100.0 * (double)sw_games / (double)rr_games <= 15.0;
    printf("  goal (mean >= 0.9, at most 15%% of the games): %s\n", ok ? "met" : "NOT met");
    return ok ? 0 : 1;
}
