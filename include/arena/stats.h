/*
 * stats.h - the statistics of a tournament, as cutechess computes them (so
 * users recognise the numbers): Elo difference with its 95% error margin,
 * likelihood of superiority, the GSPRT log-likelihood ratio and its
 * bounds, and percentiles. Pure functions of their arguments (stats_sort
 * sorts its array in place). In core: the engine's bench and the referee's
 * reports both take percentiles.
 */
#ifndef ARENA_STATS_H
#define ARENA_STATS_H

#include <stddef.h>

/* The two-sided 95% normal quantile. */
#define STATS_Z95 1.959963984540054

/* The Elo difference of a score s in (0, 1); -inf at 0, +inf at 1. */
double stats_elo(double s);
/* The expected score of an Elo difference, stats_elo's inverse. */
double stats_score(double elo);
/* Elo difference and its 95% error margin from W/L/D; +-inf at 0% or 100%. */
void stats_elo_interval(long w, long l, long d, double *elo, double *margin);
/* Likelihood of superiority in [0, 1]: 0.5 with no decisive game. */
double stats_los(long w, long l);
/* The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), and its
 * bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double stats_sprt_llr(long w, long l, long d, double elo0, double elo1);
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* Sorts n (>= 0) values ascending, in place, for stats_percentile. */
void stats_sort(double *v, long n);
/* p-th percentile (0..100, nearest rank) of n (>= 0) values sorted
 * ascending; 0 when n = 0. */
double stats_percentile(const double *sorted, long n, double p);

/* An Elo value as the reports print it: one decimal, never "-0.0";
 * "inf", "-inf" or "nan" when not finite. Into buf (cap bytes). */
void stats_elo_text(double v, char *buf, size_t cap);

#endif
