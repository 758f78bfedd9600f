/*
 * stats.c - Elo, LOS, SPRT and percentiles as cutechess computes them
 * (stats.h).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/stats.h"

#define ELO_SCALE 400.0
#define PERCENT 100.0

double stats_elo(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -ELO_SCALE * log10(1.0 / s - 1.0);
}

double stats_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / ELO_SCALE));
}

void stats_elo_interval(long w, long l, long d, double *elo, double *margin)
{
    double n = (double)(w + l + d);
    if (n == 0) {
        *elo = 0.0;
        *margin = INFINITY;
        return;
    }
    double s = ((double)w + 0.5 * (double)d) / n;
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / n;
    double dev = STATS_Z95 * sqrt(var / n);
    *elo = stats_elo(s);
    *margin = isfinite(*elo) ? (stats_elo(s + dev) - stats_elo(s - dev)) / 2.0 : INFINITY;
}

double stats_los(long w, long l)
{
    if (w + l == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(w - l) / sqrt(2.0 * (double)(w + l))));
}

double stats_sprt_llr(long w, long l, long d, double elo0, double elo1)
{
    double n = (double)(w + l + d);
    if (n == 0)
        return 0.0;
    double s = ((double)w + 0.5 * (double)d) / n;
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / n;
    /* All games alike (every one won, say) leave no variance to measure:
     * one virtual win, draw and loss give a spread that shrinks as real
     * games accumulate, instead of deciding on a handful of games. */
    if (var <= 0.0)
        return stats_sprt_llr(w + 1, l + 1, d + 1, elo0, elo1);
    double s0 = stats_score(elo0), s1 = stats_score(elo1);
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *v, long n)
{
    if (n > 0)
        qsort(v, (size_t)n, sizeof *v, by_value);
}

double stats_percentile(const double *sorted, long n, double p)
{
    if (n == 0)
        return 0.0;
    long rank = (long)ceil(p / PERCENT * (double)n);
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

void stats_elo_text(double v, char *buf, size_t cap)
{
    if (isfinite(v))
        snprintf(buf, cap, "%.1f", v == 0.0 ? 0.0 : v);   /* never "-0.0" */
    else
        snprintf(buf, cap, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

/* --- ratings of a field ---------------------------------------------------- */

#define RATINGS_ITER_MAX 200
#define RATINGS_TOL 1e-10     /* natural-log units: far below 0.1 Elo */
#define RATINGS_STEP_MAX 2.0  /* a Newton step, clipped: from 0 the first steps
                               * of a lopsided field would overshoot */

static double logistic(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Solves a x = b for the n x n matrix a (row-major, destroyed), by Gaussian
 * elimination with partial pivoting; 0, or -1 when a is singular. */
static int solve_linear(int n, double *a, double *b)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
                piv = r;
        if (a[piv * n + c] == 0)
            return -1;
        for (int k = 0; k < n; k++) {
            double t = a[c * n + k];
            a[c * n + k] = a[piv * n + k];
            a[piv * n + k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++)
                a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        for (int k = r + 1; k < n; k++)
            b[r] -= a[r * n + k] * b[k];
        b[r] /= a[r * n + r];
    }
    return 0;
}

/* The log-likelihood's gradient g and the negated Hessian h (positive
 * definite) at x (ratings in natural units: Elo * ln 10 / 400). */
static void ratings_derivatives(int n, const double *games, const double *points, double prior,
                                double centre, const double *x, double *g, double *h)
{
    for (int i = 0; i < n; i++) {
        double p0 = logistic(x[i] - centre);
        g[i] = prior * (0.5 - p0);
        for (int j = 0; j < n; j++)
            h[i * n + j] = 0;
        h[i * n + i] = prior * p0 * (1 - p0);
        for (int j = 0; j < n; j++) {
            double m = games[i * n + j];
            if (j == i || m == 0)
                continue;
            double p = logistic(x[i] - x[j]);
            g[i] += points[i * n + j] - m * p;
            h[i * n + i] += m * p * (1 - p);
            h[i * n + j] -= m * p * (1 - p);
        }
    }
}

int stats_ratings(int n, const double *games, const double *points, double prior, double *elo,
                  double *margin)
{
    assert(n >= 2 && n <= STATS_RATINGS_MAX && prior > 0);
    const double unit = 400.0 / log(10.0);
    double x[STATS_RATINGS_MAX] = { 0 }, g[STATS_RATINGS_MAX];
    double h[STATS_RATINGS_MAX * STATS_RATINGS_MAX];
    int done = 0;
    for (int it = 0; it < RATINGS_ITER_MAX && !done; it++) {
        ratings_derivatives(n, games, points, prior, 0, x, g, h);
        if (solve_linear(n, h, g) != 0)
            break;
        done = 1;
        for (int i = 0; i < n; i++) {
            double step = fmax(-RATINGS_STEP_MAX, fmin(RATINGS_STEP_MAX, g[i]));
            x[i] += step;
            done &= fabs(step) < RATINGS_TOL;
        }
    }
    for (int i = 0; i < n; i++)
        elo[i] = margin[i] = NAN;
    if (!done)
        return -1;
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += x[i] / n;
    /* Var(x_i - mean) = c' H^-1 c, c = e_i - 1/n: one solve per engine. */
    for (int i = 0; i < n; i++) {
        double c[STATS_RATINGS_MAX];
        ratings_derivatives(n, games, points, prior, 0, x, g, h);
        for (int k = 0; k < n; k++)
            c[k] = (k == i) - 1.0 / n;
        double y[STATS_RATINGS_MAX];
        memcpy(y, c, sizeof y);
        if (solve_linear(n, h, y) != 0)
            return -1;
        double var = 0;
        for (int k = 0; k < n; k++)
            var += c[k] * y[k];
        elo[i] = (x[i] - mean) * unit;
        margin[i] = STATS_Z95 * sqrt(var) * unit;
    }
    return 0;
}

/* The free engines' rows and columns of g and h (n x n) into the front of
 * g and h (m x m, m the free engines, free_at their numbers). */
static void free_block(int n, const int *free_at, int m, double *g, double *h)
{
    for (int a = 0; a < m; a++) {
        g[a] = g[free_at[a]];
        for (int b = 0; b < m; b++)
            h[a * m + b] = h[free_at[a] * n + free_at[b]];
    }
}

/* Newton's iterations on the free engines' ratings (x, natural units), the
 * anchored ones held: 1 when they converged. */
static int fit_free(int n, const double *games, const double *points, double prior,
                    double centre, const int *free_at, int m, double *x)
{
    double g[STATS_RATINGS_MAX], h[STATS_RATINGS_MAX * STATS_RATINGS_MAX];
    for (int it = 0; it < RATINGS_ITER_MAX; it++) {
        ratings_derivatives(n, games, points, prior, centre, x, g, h);
        free_block(n, free_at, m, g, h);
        if (solve_linear(m, h, g) != 0)
            return 0;
        int done = 1;
        for (int a = 0; a < m; a++) {
            double step = fmax(-RATINGS_STEP_MAX, fmin(RATINGS_STEP_MAX, g[a]));
            x[free_at[a]] += step;
            done &= fabs(step) < RATINGS_TOL;
        }
        if (done)
            return 1;
    }
    return 0;
}

int stats_ratings_anchored(int n, const double *games, const double *points, double prior,
                           const double *anchor, double *elo, double *margin)
{
    assert(n >= 2 && n <= STATS_RATINGS_MAX && prior > 0);
    const double unit = 400.0 / log(10.0);
    double x[STATS_RATINGS_MAX], centre = 0;
    int free_at[STATS_RATINGS_MAX], m = 0, anchors = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(anchor[i])) {
            centre += anchor[i] / unit;
            anchors++;
        }
    assert(anchors > 0);
    centre /= anchors;
    for (int i = 0; i < n; i++) {
        x[i] = isnan(anchor[i]) ? centre : anchor[i] / unit;
        if (isnan(anchor[i]))
            free_at[m++] = i;
        elo[i] = margin[i] = NAN;
    }
    if (m > 0 && !fit_free(n, games, points, prior, centre, free_at, m, x))
        return -1;
    /* Var(x_i) of a free engine: (H_ff^-1)_ii, one solve per engine. */
    double g[STATS_RATINGS_MAX], h[STATS_RATINGS_MAX * STATS_RATINGS_MAX];
    for (int a = 0; a < m; a++) {
        ratings_derivatives(n, games, points, prior, centre, x, g, h);
        free_block(n, free_at, m, g, h);
        double y[STATS_RATINGS_MAX] = { 0 };
        y[a] = 1;
        if (solve_linear(m, h, y) != 0)
            return -1;
        elo[free_at[a]] = x[free_at[a]] * unit;
        margin[free_at[a]] = STATS_Z95 * sqrt(y[a]) * unit;
    }
    for (int i = 0; i < n; i++)
        if (!isnan(anchor[i])) {   /* exactly as given, not through x */
            elo[i] = anchor[i];
            margin[i] = 0;
        }
    return 0;
}
