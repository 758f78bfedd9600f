/*
 * report_text.c - the text report (report_text.h), in the layout cutechess
 * users read: standings, pairs (with fastchess's pentanomial line), the
 * crosstable of a round robin, CPU per move, forfeits by kind, then each
 * engine's forfeits in the words of their reasons, with their games.
 */
#include <string.h>
#include "arena/escape.h"
#include "arena/limits.h"
#include "report_text.h"
#include "arena/stats.h"
#include "arena/swiss.h"

#define PERCENT 100.0
#define NAME_COLUMN 20     /* the engine column's width, unless a name is longer */
#define REASON_COLUMN 24   /* the forfeit reason column's, likewise */
/* An engine's reasons and a reason's games listed before "N more": a
 * 1,000-game report of an engine that timed out in every game stays a few
 * lines; the JSON and CSV reports list every one. */
#define WHY_REASONS_SHOWN 10
#define WHY_GAMES_SHOWN 10

/* A name or reason as the terminal shows it (escape.h); .s lives to the end
 * of the call it is an argument of. */
struct shown {
    char s[ESC_ROOM(2 * REC_REASON_MAX)];   /* a reason or two (report_text_forfeiters) */
};

static struct shown shown(const char *text)
{
    struct shown v;
    esc_text(text, v.s, sizeof v.s);
    return v;
}

/* The width of the engine column: the longest name, at least NAME_COLUMN. */
static int name_width(const struct tally *t)
{
    int w = NAME_COLUMN;
    for (int i = 0; i < t->n; i++)
        if ((int)strlen(shown(t->name[i]).s) > w)
            w = (int)strlen(shown(t->name[i]).s);
    return w;
}

static void standings(const struct tally *t, const int order[], int w, FILE *out)
{
    fprintf(out, "Standings after %ld games\n%4s  %-*s %6s %7s %5s %5s %5s %7s\n", t->games,
            "Rank", w, "Engine", "Games", "Points", "W", "D", "L", "Score");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double points = tally_points(t, i);
        fprintf(out, "%4d  %-*s %6ld %7.1f %5ld %5ld %5ld %6.1f%%\n", r + 1, w,
                shown(t->name[i]).s, g,
                points, t->win[i], t->draw[i], t->loss[i], PERCENT * (g ? points / (double)g : 0));
    }
}

/* The games' own score, for a game that has one: each engine's mean per
 * game, its own and its opponents'. */
static void game_score(const struct tally *t, const int order[], int w, FILE *out)
{
    fprintf(out, "\nGame score (%s per game, mean: the engine's, its opponents')\n"
                 "%-*s %7s %9s %9s\n",
            t->score_of[0] ? shown(t->score_of).s : "score", w, "Engine", "Games", "For",
            "Against");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        double f, a;
        tally_score(t, i, &f, &a);
        fprintf(out, "%-*s %7ld %9.2f %9.2f\n", w, shown(t->name[i]).s, t->scored[i], f, a);
    }
}

/* A field's ratings (tally_ratings), highest first; ties in standings order. */
static void ratings(const struct tally *t, const int order[], int w, FILE *out)
{
    double elo[REC_MAX_ENGINES], margin[REC_MAX_ENGINES];
    if (tally_ratings(t, elo, margin) != 0)
        return;
    int by[REC_MAX_ENGINES];
    tally_rating_order(t, order, elo, by);
    char anchors[TALLY_ANCHOR_TEXT_MAX];
    tally_anchor_text(t, anchors, sizeof anchors);
    if (t->nanchors)
        fprintf(out, "\nRatings (maximum likelihood over all games, a prior of %.0f draws per "
                     "engine; anchored: %s; Elo on the anchors' scale, 95%% margin)\n"
                     "%4s  %-*s %7s %7s\n",
                RATING_PRIOR_DRAWS, anchors, "Rank", w, "Engine", "Elo", "+/-");
    else
        fprintf(out, "\nRatings (maximum likelihood over all games, a prior of %.0f draws per "
                     "engine; Elo against the field's mean, 95%% margin)\n%4s  %-*s %7s %7s\n",
                RATING_PRIOR_DRAWS, "Rank", w, "Engine", "Elo", "+/-");
    for (int r = 0; r < t->n; r++) {
        char es[32], ms[32];
        stats_elo_text(elo[by[r]], es, sizeof es);
        stats_elo_text(margin[by[r]], ms, sizeof ms);
        fprintf(out, "%4d  %-*s %7s %7s\n", r + 1, w, shown(t->name[by[r]]).s, es, ms);
    }
}

static void penta_line(const struct tally_pair *p, FILE *out);

static void pairs(const struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "\nPairs (Elo difference of the first engine, 95%% error margin)\n");
    struct tally_pair p;
    int a, b;
    for (int k = 0; tally_next_pair(t, order, &k, &a, &b, &p);) {
        char es[32], ms[32];
        stats_elo_text(p.elo, es, sizeof es);
        stats_elo_text(p.margin, ms, sizeof ms);
        fprintf(out,
                "%s vs %s: %ld games, %ld - %ld - %ld, Elo difference: %s +/- %s, "
                "LOS: %.1f %%, DrawRatio: %.1f %%\n",
                shown(t->name[a]).s, shown(t->name[b]).s, p.n, p.w, p.l, p.d, es, ms,
                PERCENT * p.los,
                PERCENT * p.draw_ratio);
        penta_line(&p, out);
    }
}

/* The pair's pentanomial counts and normalized Elo, under its line. */
static void penta_line(const struct tally_pair *p, FILE *out)
{
    char es[32], ms[32];
    stats_elo_text(p->nelo, es, sizeof es);
    stats_elo_text(p->nelo_margin, ms, sizeof ms);
    const long *c = p->penta.count;
    fprintf(out, "  Ptnml(0-2): [%ld, %ld, %ld, %ld, %ld], nElo: %s +/- %s\n", c[PENTA_LL],
            c[PENTA_LD], c[PENTA_EVEN], c[PENTA_WD], c[PENTA_WW], es, ms);
}

/* Column width of the crosstable: the longest name, at least a cell. */
#define CROSS_CELL 12

static int cross_width(const struct tally *t)
{
    int w = CROSS_CELL;
    for (int i = 0; i < t->n; i++)
        if ((int)strlen(shown(t->name[i]).s) + 1 > w)
            w = (int)strlen(shown(t->name[i]).s) + 1;
    return w;
}

/* A round robin's W-L-D of each row engine against each column engine. */
static void crosstable(const struct tally *t, const int order[], FILE *out)
{
    int w = cross_width(t);
    fprintf(out, "\nCrosstable (W-L-D of the row engine against the column engine)\n%-*s", w,
            "Engine");
    for (int c = 0; c < t->n; c++)   /* no padding after the last column */
        fprintf(out, " %-*s", c + 1 < t->n ? w : 0, shown(t->name[order[c]]).s);
    fprintf(out, "\n");
    for (int r = 0; r < t->n; r++) {
        int a = order[r];
        fprintf(out, "%-*s", w, shown(t->name[a]).s);
        for (int c = 0; c < t->n; c++) {
            int b = order[c];
            char cell[64] = "-";
            if (a != b)
                snprintf(cell, sizeof cell, "%ld-%ld-%ld", t->beat[a][b], t->beat[b][a],
                         t->drew[a][b]);
            fprintf(out, " %-*s", c + 1 < t->n ? w : 0, cell);
        }
        fprintf(out, "\n");
    }
}

static void cpu(struct tally *t, const int order[], int w, FILE *out)
{
    fprintf(out, "\nCPU time per move (ms, the engine's own user+sys)\n%-*s %7s %9s %9s %9s "
                 "%9s\n",
            w, "Engine", "Moves", "Mean", "Median", "p95", "Max");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        struct tally_cpu c = tally_cpu(t, i);
        fprintf(out, "%-*s %7ld %9.2f %9.2f %9.2f %9.2f\n", w, shown(t->name[i]).s,
                t->ncpu[i], c.mean,
                c.median, c.p95, c.max);
    }
    double median, p95;
    if (tally_overhead(t, &median, &p95))
        fprintf(out, "Referee overhead per move (ms, wall outside the engine): median %.3f, "
                     "p95 %.3f\n",
                median, p95);
}

static void forfeits(const struct tally *t, int w, FILE *out)
{
    int rw = REASON_COLUMN;
    for (int k = 0; k < t->nforfeit; k++)
        if ((int)strlen(shown(t->forfeit[k].reason).s) > rw)
            rw = (int)strlen(shown(t->forfeit[k].reason).s);
    fprintf(out, "\nForfeits%s\n", t->nforfeit ? "" : ": none");
    for (int k = 0; k < t->nforfeit; k++)
        fprintf(out, "%-*s %-*s %ld\n", w, shown(t->name[t->forfeit[k].engine]).s, rw,
                shown(t->forfeit[k].reason).s, t->forfeit[k].count);
}

/* A reason's games, by opponent in standings order, each opponent's by
 * number: "games 1, 2, 7 against a; 3 against c", at most WHY_GAMES_SHOWN. */
static void why_games(const struct tally *t, const int order[], const struct tally_why *w,
                      FILE *out)
{
    long listed = 0;
    fprintf(out, "game%s", w->count == 1 ? "" : "s");
    for (int r = 0; r < t->n && listed < WHY_GAMES_SHOWN; r++) {
        int any = 0;
        for (long g = w->first; g < w->first + w->count && listed < WHY_GAMES_SHOWN; g++) {
            const struct tally_lost *l = &t->lost[g];
            if (l->opponent != order[r])
                continue;
            fputs(any ? ", " : listed ? "; " : " ", out);
            if (l->game < 0)   /* a hand-made record without "index" */
                fputs("?", out);
            else
                fprintf(out, "%ld", l->game);
            any = 1;
            listed++;
        }
        if (any)
            fprintf(out, " against %s", shown(t->name[order[r]]).s);
    }
    if (listed < w->count)
        fprintf(out, "; %ld more", w->count - listed);
    fputs("\n", out);
}

/* Each engine's forfeits by reason in its words (rec_reason_text's, as
 * the result lines, verify and the HTML report say it), each with its
 * count and games; nothing for a run without forfeits. */
static void forfeit_reasons(struct tally *t, const int order[], FILE *out)
{
    if (t->nwhy == 0)
        return;
    tally_why_sort(t, order);
    int cw = snprintf(NULL, 0, "%ld", t->why[0].count);   /* the count column's width */
    for (long k = 1; k < t->nwhy; k++)
        if (snprintf(NULL, 0, "%ld", t->why[k].count) > cw)
            cw = snprintf(NULL, 0, "%ld", t->why[k].count);
    fprintf(out, "\nWhy each forfeit happened (per engine: each reason in full, most games "
                 "first, and its games)\n");
    for (long k = 0; k < t->nwhy;) {
        int i = t->why[k].engine;
        long end = k, games = 0;
        for (; end < t->nwhy && t->why[end].engine == i; end++)
            games += t->why[end].count;
        fprintf(out, "%s: %ld forfeit%s\n", shown(t->name[i]).s, games, games == 1 ? "" : "s");
        for (long n = 0; k < end && n < WHY_REASONS_SHOWN; k++, n++) {
            fprintf(out, "  %*ld x %s\n  %*s   ", cw, t->why[k].count,
                    shown(t->why[k].reason).s, cw, "");
            why_games(t, order, &t->why[k], out);
        }
        if (k == end)
            continue;
        long rest = 0, reasons = end - k;
        for (; k < end; k++)
            rest += t->why[k].count;
        fprintf(out, "  and %ld more reason%s (%ld game%s): --format json lists every one\n",
                reasons, reasons == 1 ? "" : "s", rest, rest == 1 ? "" : "s");
    }
}

/* A knockout's bracket (knockout.h), its names as the terminal shows them. */
static void bracket(const struct tally *t, FILE *out)
{
    struct shown names[REC_MAX_ENGINES];
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < t->n; i++) {
        names[i] = shown(t->name[i]);
        name[i] = names[i].s;
    }
    knockout_print(t->bracket, name, out);
}

/* A Swiss tournament's standings (tally_swiss_standings). */
_Static_assert(SWISS_BYE_HALF_POINTS == 2, "the standings say a bye scores 1 point");
static void swiss_standings(const struct tally *t, int w, FILE *out)
{
    struct tally_swiss_view v;
    tally_swiss_standings(t, &v);
    fprintf(out, "\nSwiss standings (%d rounds; a bye scores 1 point):\n", v.rounds);
    fprintf(out, "%4s  %-*s %7s %9s %5s\n", "Rank", w, "Engine", "Points", "Buchholz", "Byes");
    for (int r = 0; r < t->n; r++) {
        int i = v.order[r];
        fprintf(out, "%4d  %-*s %7.1f %9.1f %5d\n", r + 1, w, shown(t->name[i]).s,
                v.half[i] / 2.0, v.buchholz[i] / 2.0, v.byes[i]);
    }
}

void report_text(struct tally *t, FILE *out)
{
    int order[REC_MAX_ENGINES], w = name_width(t);
    tally_standings(t, order);
    standings(t, order, w, out);
    if (t->has_score)
        game_score(t, order, w, out);
    if (t->n > 2)   /* two engines: the pair's line says it all */
        ratings(t, order, w, out);
    pairs(t, order, out);
    if (t->round_robin && t->n > 2)
        crosstable(t, order, out);
    if (t->bracket)
        bracket(t, out);
    if (t->swiss)
        swiss_standings(t, w, out);
    cpu(t, order, w, out);
    forfeits(t, w, out);
    forfeit_reasons(t, order, out);
}

int report_text_forfeiters(const struct tally *t, FILE *out)
{
    int n = 0;
    long forfeits = 0;
    char reasons[REC_REASON_MAX * 2];
    for (int i = 0; i < t->n; i++) {
        forfeits += tally_forfeits(t, i);
        if (tally_forfeited_all(t, i)) {
            tally_forfeit_reasons(t, i, reasons, sizeof reasons);
            fprintf(out, "%s forfeited every game it played (%ld): %s\n", shown(t->name[i]).s,
                    t->win[i] + t->draw[i] + t->loss[i], shown(reasons).s);
            n++;
        }
    }
    /* Each game has one forfeit at most: as many as games, all of them. */
    if (n || t->games == 0 || forfeits != t->games)
        return n;
    fprintf(out, "every game ended in a forfeit:");
    for (int i = 0, first = 1; i < t->n; i++)
        if (tally_forfeits(t, i)) {
            tally_forfeit_reasons(t, i, reasons, sizeof reasons);
            fprintf(out, "%s %s (%ld): %s", first ? "" : ";", shown(t->name[i]).s,
                    tally_forfeits(t, i), shown(reasons).s);
            first = 0;
        }
    fputs("\n", out);
    return 1;
}
