/*
 * swiss_sim.h - the simulated field make bench-swiss and the swiss unit
 * suite share: engine i (0 strongest) of SWISS_SIM_ENGINES has the true
 * rating -SWISS_SIM_STEP * i; a game is won, drawn (SWISS_SIM_DRAWS) or
 * lost as the logistic Elo model says. One run plays the full round robin
 * and a Swiss of SWISS_SIM_ROUNDS rounds (swiss.h's pairings) from one
 * seed and compares their rankings. Everything is seeded.
 */
#ifndef SWISS_SIM_H
#define SWISS_SIM_H

#include <stdint.h>

#define SWISS_SIM_ENGINES 64
#define SWISS_SIM_ROUNDS 9
#define SWISS_SIM_STEP 20.0     /* Elo between neighbours: depths and evaluations of one engine */
#define SWISS_SIM_DRAWS 0.10

struct swiss_sim {
    long rr_games, swiss_games;
    double rho;                 /* Spearman: Swiss ranking against round robin's */
    double rho_rr_truth, rho_swiss_truth;   /* each against the true order */
};

/* One run from seed: 0, or -1 when a Swiss round could not be paired. */
int swiss_sim_run(uint64_t seed, struct swiss_sim *out);

#endif
