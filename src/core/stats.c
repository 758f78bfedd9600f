/*
 * stats.c - Elo, LOS, SPRT and percentiles as cutechess computes them
 * (stats.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
