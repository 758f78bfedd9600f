/*
 * report_csv.c - the CSV report (report_csv.h): one RFC 4180 table per
 * file, for spreadsheets and scripts.
 */
#include "arena/escape.h"
#include "arena/report_csv.h"
#include "arena/stats.h"

#define EOL "\r\n"   /* RFC 4180's line end */

/* One text field as every CSV file of arena writes it (escape.h's esc_csv:
 * quoted as RFC 4180 says, never a formula), then sep. */
static void field(FILE *out, const char *text, const char *sep)
{
    esc_csv(text, out);
    fputs(sep, out);
}

static void standings(struct tally *t, const int order[], FILE *out)
{
    /* A game with its own score adds each engine's mean, for and against. */
    fputs(t->has_score ? "rank,engine,games,points,wins,draws,losses,score,forfeits,"
                         "game_score_for,game_score_against" EOL
                       : "rank,engine,games,points,wins,draws,losses,score,forfeits" EOL,
          out);
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double points = tally_points(t, i);
        fprintf(out, "%d,", r + 1);
        field(out, t->name[i], ",");
        fprintf(out, "%ld,%.1f,%ld,%ld,%ld,%.4f,%ld", g, points, t->win[i], t->draw[i],
                t->loss[i], g ? points / (double)g : 0.0, tally_forfeits(t, i));
        double f, a;
        tally_score(t, i, &f, &a);
        if (t->has_score)
            fprintf(out, ",%.2f,%.2f", f, a);
        fputs(EOL, out);
    }
}

static void pairs(struct tally *t, const int order[], FILE *out)
{
    fputs("engine_a,engine_b,games,wins_a,losses_a,draws,elo,elo_margin_95,los,draw_ratio,"
          "ptnml_ll,ptnml_ld,ptnml_even,ptnml_wd,ptnml_ww,nelo,nelo_margin_95" EOL, out);
    struct tally_pair p;
    int a, b;
    for (int k = 0; tally_next_pair(t, order, &k, &a, &b, &p);) {
        char es[32], ms[32], ns[32], nms[32];
        stats_elo_text(p.elo, es, sizeof es);
        stats_elo_text(p.margin, ms, sizeof ms);
        stats_elo_text(p.nelo, ns, sizeof ns);
        stats_elo_text(p.nelo_margin, nms, sizeof nms);
        const long *c = p.penta.count;
        field(out, t->name[a], ",");
        field(out, t->name[b], ",");
        fprintf(out, "%ld,%ld,%ld,%ld,%s,%s,%.4f,%.4f,%ld,%ld,%ld,%ld,%ld,%s,%s" EOL, p.n, p.w,
                p.l, p.d, es, ms, p.los, p.draw_ratio, c[PENTA_LL], c[PENTA_LD],
                c[PENTA_EVEN], c[PENTA_WD], c[PENTA_WW], ns, nms);
    }
}

static void cpu(struct tally *t, const int order[], FILE *out)
{
    fputs("engine,moves,mean_ms,median_ms,p95_ms,max_ms" EOL, out);
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        struct tally_cpu c = tally_cpu(t, i);
        field(out, t->name[i], ",");
        fprintf(out, "%ld,%.3f,%.3f,%.3f,%.3f" EOL, t->ncpu[i], c.mean, c.median, c.p95, c.max);
    }
}

static void forfeits(const struct tally *t, FILE *out)
{
    fputs("engine,reason,count" EOL, out);
    for (int k = 0; k < t->nforfeit; k++) {
        field(out, t->name[t->forfeit[k].engine], ",");
        field(out, t->forfeit[k].reason, ",");
        fprintf(out, "%ld" EOL, t->forfeit[k].count);
    }
}

/* A row per forfeited game, in tally_why_sort's order: its kind as the
 * forfeits table's "reason" and its detail as the journal has them
 * (rec_reason_split; "" for a kind without one), the game's number (""
 * for a record without one) and the opponent. */
static void forfeit_games(struct tally *t, const int order[], FILE *out)
{
    fputs("engine,reason,detail,game,opponent" EOL, out);
    tally_why_sort(t, order);
    for (long k = 0; k < t->nwhy; k++) {
        const struct tally_why *w = &t->why[k];
        char kind[REC_REASON_MAX];
        const char *detail = rec_reason_split(w->reason, kind);
        for (long g = w->first; g < w->first + w->count; g++) {
            const struct tally_lost *l = &t->lost[g];
            field(out, t->name[w->engine], ",");
            field(out, kind, ",");
            field(out, detail ? detail : "", ",");
            if (l->game >= 0)
                fprintf(out, "%ld", l->game);
            fputs(",", out);
            field(out, t->name[l->opponent], EOL);
        }
    }
}

void report_csv(struct tally *t, enum report_csv_table table, FILE *out)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    switch (table) {
    case REPORT_CSV_STANDINGS:
        standings(t, order, out);
        break;
    case REPORT_CSV_PAIRS:
        pairs(t, order, out);
        break;
    case REPORT_CSV_CPU:
        cpu(t, order, out);
        break;
    case REPORT_CSV_FORFEITS:
        forfeits(t, out);
        break;
    case REPORT_CSV_FORFEIT_GAMES:
        forfeit_games(t, order, out);
        break;
    }
}
