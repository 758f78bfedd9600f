/*
 * report_text.c - the text report (report_text.h), in the layout cutechess
 * users read: standings, pairs, CPU per move, forfeits.
 */
#include "arena/report_text.h"
#include "arena/stats.h"

#define PERCENT 100.0

static void standings(const struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "Standings after %ld games\n%4s  %-20s %6s %7s %5s %5s %5s %7s\n", t->games,
            "Rank", "Engine", "Games", "Points", "W", "D", "L", "Score");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double points = tally_points(t, i);
        fprintf(out, "%4d  %-20s %6ld %7.1f %5ld %5ld %5ld %6.1f%%\n", r + 1, t->name[i], g,
                points, t->win[i], t->draw[i], t->loss[i], PERCENT * (g ? points / (double)g : 0));
    }
}

static void pairs(const struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "\nPairs (Elo difference of the first engine, 95%% error margin)\n");
    for (int ra = 0; ra < t->n; ra++)
        for (int rb = ra + 1; rb < t->n; rb++) {
            int a = order[ra], b = order[rb];
            struct tally_pair p;
            if (tally_pair(t, a, b, &p) != 0)
                continue;
            char es[32], ms[32];
            stats_elo_text(p.elo, es, sizeof es);
            stats_elo_text(p.margin, ms, sizeof ms);
            fprintf(out,
                    "%s vs %s: %ld games, %ld - %ld - %ld, Elo difference: %s +/- %s, "
                    "LOS: %.1f %%, DrawRatio: %.1f %%\n",
                    t->name[a], t->name[b], p.n, p.w, p.l, p.d, es, ms, PERCENT * p.los,
                    PERCENT * p.draw_ratio);
        }
}

static void cpu(struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "\nCPU time per move (ms, the engine's own user+sys)\n%-20s %7s %9s %9s %9s "
                 "%9s\n",
            "Engine", "Moves", "Mean", "Median", "p95", "Max");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        struct tally_cpu c = tally_cpu(t, i);
        fprintf(out, "%-20s %7ld %9.2f %9.2f %9.2f %9.2f\n", t->name[i], t->ncpu[i], c.mean,
                c.median, c.p95, c.max);
    }
    double median, p95;
    if (tally_overhead(t, &median, &p95))
        fprintf(out, "Referee overhead per move (ms, wall outside the engine): median %.3f, "
                     "p95 %.3f\n",
                median, p95);
}

void report_text(struct tally *t, FILE *out)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    standings(t, order, out);
    pairs(t, order, out);
    cpu(t, order, out);
    fprintf(out, "\nForfeits%s\n", t->nforfeit ? "" : ": none");
    for (int k = 0; k < t->nforfeit; k++)
        fprintf(out, "%-20s %-24s %ld\n", t->name[t->forfeit[k].engine], t->forfeit[k].reason,
                t->forfeit[k].count);
}
