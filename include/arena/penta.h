/*
 * penta.h - pentanomial statistics of a match, as fishtest and fastchess
 * compute them: the pair counts, normalized Elo with its 95% interval, and
 * the generalized SPRT log-likelihood ratio, exact and approximate, in the
 * logistic or the normalized Elo model.
 *
 * Every pair of games shares its opening with colours swapped, so the two
 * games are not independent; counting pairs instead of games measures the
 * variance the opening adds. A pair is one of five outcomes from its first
 * engine's view, indexed by that engine's points in the pair in half points
 * (0 to 4): LL, LD, WL or DD, WD, WW, with the pair scores 0, 1/4, 1/2, 3/4
 * and 1 (points per game).
 *
 * The SPRT is the GSPRT of fishtest's LLRcalc.py: the LLR is N times the
 * mean log ratio of the two maximum-likelihood distributions of pair
 * outcomes under H1 and under H0, each the most likely distribution given
 * the counts among those whose Elo is elo1 (elo0). An outcome never seen
 * counts as PENTA_REGULARIZE pairs, as fishtest and fastchess count it, so
 * that every distribution has full support: all-win, all-loss and empty
 * counts give finite LLRs.
 *
 * Models: logistic Elo fixes the expected score, s = 1 / (1 + 10^(-elo/400));
 * normalized Elo fixes t = (s - 1/2) / sigma, with sigma the standard
 * deviation of a pair's score: nelo = t / sqrt(2) * PENTA_NELO_PER_T (per
 * game), so that nelo measures how far apart the engines are in standard
 * deviations, independent of the draw rate.
 */
#ifndef ARENA_PENTA_H
#define ARENA_PENTA_H

#define PENTA_OUTCOMES 5            /* LL, LD, WL+DD, WD, WW */
#define PENTA_LL 0
#define PENTA_LD 1
#define PENTA_EVEN 2                /* WL or DD: one point each */
#define PENTA_WD 3
#define PENTA_WW 4

/* Normalized Elo per unit of t, 800 / ln 10 (fishtest's nelo_divided_by_nt):
 * near equal strength one standard deviation of a game's score is this many
 * normalized Elo. */
#define PENTA_NELO_PER_T 347.43558552260146
/* The pairs an outcome never seen counts as (fishtest, fastchess). */
#define PENTA_REGULARIZE 1e-3

/* Pair counts: count[k] pairs where the first engine made k half points. */
struct penta {
    long count[PENTA_OUTCOMES];
};

/* Counts one pair: a and b are the first engine's half points (0 loss,
 * 1 draw, 2 win) in the pair's two games. Assumes 0 <= a, b <= 2. */
void penta_add(struct penta *p, int a, int b);
/* Pairs counted. */
long penta_pairs(const struct penta *p);

/* Normalized Elo of the first engine and the half width of its 95%
 * interval (symmetric: nelo is linear in the score). No pair: 0 and +inf.
 * Every pair alike (no spread to measure): +-inf, or 0 when the pairs are
 * all even, and a margin of +inf. Never NaN. */
void penta_nelo(const struct penta *p, double *nelo, double *margin);

enum penta_model { PENTA_NORMALIZED, PENTA_LOGISTIC };   /* default first */
enum penta_method { PENTA_EXACT, PENTA_APPROX };

/* "normalized" or "logistic". */
const char *penta_model_name(enum penta_model m);
/* The model named name; 0, or -1 when name is neither. */
int penta_model_parse(const char *name, enum penta_model *m);

/* The SPRT's log-likelihood ratio of H1 (Elo elo1) against H0 (elo0) in
 * model m, elo0 < elo1 assumed. PENTA_EXACT maximises the likelihood under
 * each hypothesis (the global maximum: see penta.c); PENTA_APPROX is
 * fishtest's closed form (LLR_alt2 for logistic, LLR_normalized_alt for
 * normalized): within 1e-3 of exact on fishtest's runs of thousands of
 * pairs with bounds a few Elo apart, 0.006 on 128 pairs, but far off on
 * lopsided counts (5550 pairs all won, nelo 0 to 5: 0.26 where exact gives
 * 111.8). No pair: 0. Finite whenever the bounds
 * are within PENTA_NELO_MAX (normalized) or PENTA_ELO_MAX (logistic) of 0. */
#define PENTA_NELO_MAX 1000.0
#define PENTA_ELO_MAX 1000.0
double penta_llr(const struct penta *p, enum penta_model m, enum penta_method method,
                 double elo0, double elo1);

#endif
