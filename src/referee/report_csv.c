/*
 * report_csv.c - the CSV report (report_csv.h): one table per section, for
 * spreadsheets and scripts.
 */
#include "arena/report_csv.h"
#include "arena/stats.h"

void report_csv(struct tally *t, FILE *out)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    fprintf(out, "rank,engine,games,points,wins,draws,losses,score,cpu_moves,cpu_mean_ms,"
                 "cpu_median_ms,cpu_p95_ms,cpu_max_ms,forfeits\n");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double points = tally_points(t, i);
        struct tally_cpu c = tally_cpu(t, i);
        fprintf(out, "%d,%s,%ld,%.1f,%ld,%ld,%ld,%.4f,%ld,%.3f,%.3f,%.3f,%.3f,%ld\n", r + 1,
                t->name[i], g, points, t->win[i], t->draw[i], t->loss[i],
                g ? points / (double)g : 0.0, t->ncpu[i], c.mean, c.median, c.p95, c.max,
                tally_forfeits(t, i));
    }
    fprintf(out, "\nengine_a,engine_b,games,wins_a,losses_a,draws,elo,elo_margin_95,los,"
                 "draw_ratio,ptnml_ll,ptnml_ld,ptnml_even,ptnml_wd,ptnml_ww,nelo,nelo_margin_95\n");
    for (int ra = 0; ra < t->n; ra++)
        for (int rb = ra + 1; rb < t->n; rb++) {
            struct tally_pair p;
            int a = order[ra], b = order[rb];
            if (tally_pair(t, a, b, &p) != 0)
                continue;
            char es[32], ms[32];
            stats_elo_text(p.elo, es, sizeof es);
            stats_elo_text(p.margin, ms, sizeof ms);
            char ns[32], nms[32];
            stats_elo_text(p.nelo, ns, sizeof ns);
            stats_elo_text(p.nelo_margin, nms, sizeof nms);
            const long *c = p.penta.count;
            fprintf(out, "%s,%s,%ld,%ld,%ld,%ld,%s,%s,%.4f,%.4f,%ld,%ld,%ld,%ld,%ld,%s,%s\n",
                    t->name[a], t->name[b], p.n, p.w, p.l, p.d, es, ms, p.los, p.draw_ratio,
                    c[PENTA_LL], c[PENTA_LD], c[PENTA_EVEN], c[PENTA_WD], c[PENTA_WW], ns, nms);
        }
    if (t->nforfeit)
        fprintf(out, "\nengine,reason,count\n");
    for (int k = 0; k < t->nforfeit; k++)
        fprintf(out, "%s,%s,%ld\n", t->name[t->forfeit[k].engine], t->forfeit[k].reason,
                t->forfeit[k].count);
}
