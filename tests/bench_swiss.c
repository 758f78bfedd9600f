/*
 * bench_swiss.c - make bench-swiss: how well a Swiss tournament of 9
 * rounds ranks a field of 64 engines of known strength, against the full
 * round robin's ranking (Spearman's rank correlation), and what share of
 * the round robin's games it plays.
 *
 * The field is simulated (swiss_sim.h): a tournament's header holds at
 * most 32 engines (record.h's REC_MAX_ENGINES), so a field of 64 is the
 * pairing's own test; the pairings are swiss.h's, exactly as `referee
 * tournament --format swiss` makes them. Everything is seeded: the figures
 * are the same on every run.
 */
#include <stdio.h>
#include "swiss_sim.h"

#define BENCH_RUNS 50       /* seeds; the figure is their mean */

int main(void)
{
    double sum = 0, worst = 1, truth_rr = 0, truth_sw = 0;
    struct swiss_sim sim = { 0 };
    for (int run = 0; run < BENCH_RUNS; run++) {
        if (swiss_sim_run((uint64_t)run, &sim) != 0) {
            fprintf(stderr, "bench-swiss: run %d: a round could not be paired\n", run);
            return 1;
        }
        sum += sim.rho;
        worst = sim.rho < worst ? sim.rho : worst;
        truth_rr += sim.rho_rr_truth / BENCH_RUNS;
        truth_sw += sim.rho_swiss_truth / BENCH_RUNS;
    }
    double share = 100.0 * (double)sim.swiss_games / (double)sim.rr_games;
    printf("Swiss, %d rounds, against the round robin: %d engines %.0f Elo apart, %.0f%% draws, "
           "%d seeded runs\n", SWISS_SIM_ROUNDS, SWISS_SIM_ENGINES, SWISS_SIM_STEP,
           SWISS_SIM_DRAWS * 100, BENCH_RUNS);
    printf("  games: %ld of %ld (%.1f%%)\n", sim.swiss_games, sim.rr_games, share);
    printf("  Spearman, Swiss against round robin: mean %.3f, worst %.3f\n", sum / BENCH_RUNS,
           worst);
    printf("  Spearman against the true order: round robin %.3f, Swiss %.3f\n", truth_rr, truth_sw);
    int ok = sum / BENCH_RUNS >= 0.9 && share <= 15.0;
    printf("  goal (mean >= 0.9, at most 15%% of the games): %s\n", ok ? "met" : "NOT met");
    return ok ? 0 : 1;
}
