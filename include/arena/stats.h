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

/* Ratings of a field, as rating lists compute them (BayesElo, Ordo): a
 * Bradley-Terry (logistic Elo) model, P(i beats j) = 1 / (1 + 10^((Rj -
 * Ri) / 400)), a draw half a win and half a loss, fitted by maximum
 * likelihood over all games with a prior of `prior` (> 0) virtual draws of
 * every engine against an opponent rated 0, which keeps every rating finite
 * (a perfect score included) and pulls engines with few games towards the
 * field. Newton iterations on the log-likelihood, which the prior makes
 * strictly concave.
 * games[i * n + j]: the games i and j played (symmetric, diagonal 0);
 * points[i * n + j]: i's points in them (a win 1, a draw 1/2). Fills elo[i]
 * relative to the field's mean (the ratings sum to 0) and margin[i], the
 * 95% margin of that difference from the inverse of the Hessian (normal
 * approximation). 2 <= n <= STATS_RATINGS_MAX. Returns 0, or -1 when the
 * iterations did not converge (elo and margin then NAN). */
#define STATS_RATINGS_MAX 32
int stats_ratings(int n, const double *games, const double *points, double prior, double *elo,
                  double *margin);
/* The same fit with anchors, as Ordo's: anchor[i] is engine i's fixed
 * rating in Elo, or NAN when it is fitted; at least one is fixed. The
 * fitted ratings are absolute (on the anchors' scale), their prior draws
 * against an opponent at the anchors' mean, their margin[i] the 95% margin
 * of the rating itself (the anchors hold the scale); an anchored engine
 * gets elo[i] = anchor[i] exactly and margin[i] = 0. Returns 0, or -1 when
 * the iterations did not converge (the fitted ones then NAN). */
int stats_ratings_anchored(int n, const double *games, const double *points, double prior,
                           const double *anchor, double *elo, double *margin);

/* Sorts n (>= 0) values ascending, in place, for stats_percentile. */
void stats_sort(double *v, long n);
/* p-th percentile (0..100, nearest rank) of n (>= 0) values sorted
 * ascending; 0 when n = 0. */
double stats_percentile(const double *sorted, long n, double p);

/* An Elo value as the reports print it: one decimal, never "-0.0";
 * "inf", "-inf" or "nan" when not finite. Into buf (cap bytes). */
void stats_elo_text(double v, char *buf, size_t cap);

#endif
