/*
 * report_html.c - the HTML report (report_html.h): the page's tables and
 * SVG charts, written from the tally, and its games, written from the
 * records as the journal is scanned. The style sheet and script are in
 * report_html_page.c.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/escape.h"
#include "arena/limits.h"
#include "arena/registry.h"
#include "boardhtml.h"
#include "report_html.h"
#include "arena/stats.h"
#include "arena/version.h"

#define PERCENT 100.0
/* The charts' geometry, in SVG pixels. */
#define CHART_PLOT_W 480     /* the plot area's width */
#define CHART_ROW_H 28       /* one engine's row */
#define CHART_TOP 10
#define CHART_AXIS_H 34      /* tick labels and the axis title under the rows */
#define CHART_CHAR_W 7       /* an estimate of a label character's width */
#define CHART_LABEL_MIN 60
#define CHART_LABEL_MAX 260
#define CHART_ELO_TICKS 6    /* about this many ticks on the Elo axis */
#define CHART_ELO_SPAN_MIN 40.0   /* the Elo axis spans at least this */
#define CHART_MS_FLOOR 1e-3  /* 1 µs: CPU below it (or 0) is drawn at it */
#define CHART_MS_SUB_DECADES 2   /* up to this many decades, ticks at 2 and 5 too */
/* Lines of a forfeit's stderr tail shown: where the error is, without a
 * 4 KiB tail per forfeited game in a long tournament's page. */
#define HTML_TAIL_LINES 10

/* --- escaping ------------------------------------------------------------- */

/* Writes a board file's byte c for an attribute, one character per byte
 * (what is not printable ASCII as a character reference), so that the
 * script's string offsets are the file's byte offsets. */
static void esc_byte(FILE *out, unsigned char c)
{
    if (c < 0x20 || c >= 0x7f || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'')
        fprintf(out, "&#%d;", c);
    else
        fputc(c, out);
}

static void esc_bytes(FILE *out, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        esc_byte(out, (unsigned char)s[k]);
}

/* An Elo value as the text report prints it. */
static void elo_cell(FILE *out, double v)
{
    char buf[32];
    stats_elo_text(v, buf, sizeof buf);
    fprintf(out, "<td>%s</td>", buf);
}

static void name_cell(FILE *out, const char *tag, const char *name)
{
    fprintf(out, "<%s class=\"name\">", tag);
    esc_html(name, out);
    fprintf(out, "</%s>", tag);
}

/* --- standings and the Elo chart ---------------------------------------- */

/* The field's ratings (tally_ratings), computed once for the page. */
struct field {
    double elo[REC_MAX_ENGINES], margin[REC_MAX_ENGINES];
};

static void field_elo(const struct field *f, int i, double *elo, double *margin)
{
    *elo = f->elo[i];
    *margin = f->margin[i];
}

static void standings(const struct tally *t, const struct field *f, const int order[],
                      FILE *out)
{
    fprintf(out, "<section id=\"standings\"><h2>Standings</h2>\n"
                 "<p>Elo: the engines' ratings as rating lists compute them, a maximum "
                 "likelihood fit over all games (a logistic model, a draw half a win) with a "
                 "prior of %.0f virtual draws per engine, which keeps a perfect score finite; "
                 "%s, with the 95%% error margin from the fit.%s</p>\n"
                 "<table id=\"standings-table\"><thead><tr><th>Rank</th><th class=\"name\">"
                 "Engine</th><th>Games</th><th>Points</th><th>W</th><th>D</th><th>L</th>"
                 "<th>Score</th><th>Elo</th><th>&#177; 95%%</th><th>Forfeits</th>",
            RATING_PRIOR_DRAWS,
            t->nanchors ? "on the scale of the anchored engines, whose ratings are fixed"
                        : "relative to the field's mean",
            t->has_score ? " Game score: the game's own result, the engine's and its "
                           "opponents' mean per game." : "");
    if (t->has_score) {
        fprintf(out, "<th>Game score for (");
        esc_html(t->score_of[0] ? t->score_of : "score", out);
        fprintf(out, ")</th><th>against</th>");
    }
    fprintf(out, "</tr></thead><tbody>\n");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        long g = t->win[i] + t->draw[i] + t->loss[i];
        double points = tally_points(t, i), elo, margin;
        field_elo(f, i, &elo, &margin);
        fprintf(out, "<tr><td>%d</td>", r + 1);
        name_cell(out, "td", t->name[i]);
        fprintf(out, "<td>%ld</td><td>%.1f</td><td>%ld</td><td>%ld</td><td>%ld</td>"
                     "<td>%.1f%%</td>",
                g, points, t->win[i], t->draw[i], t->loss[i],
                PERCENT * (g ? points / (double)g : 0));
        elo_cell(out, elo);
        elo_cell(out, margin);
        fprintf(out, "<td>%ld</td>", tally_forfeits(t, i));
        double sf, sa;
        if (t->has_score && tally_score(t, i, &sf, &sa))
            fprintf(out, "<td>%.2f</td><td>%.2f</td>", sf, sa);
        else if (t->has_score)
            fprintf(out, "<td>-</td><td>-</td>");
        fprintf(out, "</tr>\n");
    }
    fprintf(out, "</tbody></table>\n");
}

/* A step of 1, 2 or 5 times a power of ten near span / ticks. */
static double nice_step(double span, int ticks)
{
    double raw = span / ticks, p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* The left margin that holds the longest engine name. */
static int label_width(const struct tally *t)
{
    size_t w = 0;
    for (int i = 0; i < t->n; i++)
        if (strlen(t->name[i]) > w)
            w = strlen(t->name[i]);
    int px = (int)w * CHART_CHAR_W + 12;
    return px < CHART_LABEL_MIN ? CHART_LABEL_MIN : px > CHART_LABEL_MAX ? CHART_LABEL_MAX : px;
}

struct chart {
    int left, width, height;
    double lo, hi;   /* the axis' range (Elo, or log10 of ms) */
};

static double chart_x(const struct chart *c, double v)
{
    if (v < c->lo)
        v = c->lo;
    if (v > c->hi)
        v = c->hi;
    return c->left + (v - c->lo) / (c->hi - c->lo) * CHART_PLOT_W;
}

static void chart_open(const struct chart *c, const char *id, const char *title, FILE *out)
{
    fprintf(out, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>\n"
                 "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            id, c->width, c->height, c->width, c->height, title);
}

/* The engine's name left of its row, row r. */
static void chart_label(const struct chart *c, int r, const char *name, FILE *out)
{
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", c->left - 8,
            CHART_TOP + r * CHART_ROW_H + CHART_ROW_H / 2 + 4);
    esc_html(name, out);
    fprintf(out, "</text>\n");
}

/* A vertical grid line at v labelled text, and the axis title. */
static void chart_tick(const struct chart *c, double v, const char *text, FILE *out)
{
    double x = chart_x(c, v);
    int bottom = c->height - CHART_AXIS_H;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                 "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
            x, CHART_TOP, x, bottom, x, bottom + 14, text);
}

static void chart_close(const struct chart *c, const char *axis, FILE *out)
{
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n</svg>\n",
            c->left + CHART_PLOT_W / 2, c->height - 4, axis);
}

static void elo_chart(const struct tally *t, const struct field *f, const int order[],
                      FILE *out)
{
    struct chart c = { label_width(t), 0, 0, 0, 0 };
    c.width = c.left + CHART_PLOT_W + 20;
    c.height = CHART_TOP + t->n * CHART_ROW_H + CHART_AXIS_H;
    for (int i = 0; i < t->n; i++) {
        double elo, m;
        field_elo(f, i, &elo, &m);
        /* Finite values only: an infinite one is drawn at the axis' end. */
        double lo = isfinite(m) ? elo - m : elo, hi = isfinite(m) ? elo + m : elo;
        if (isfinite(lo) && isfinite(hi)) {
            c.lo = fmin(c.lo, lo);
            c.hi = fmax(c.hi, hi);
        }
    }
    if (c.hi - c.lo < CHART_ELO_SPAN_MIN) {
        c.lo = fmin(c.lo, -CHART_ELO_SPAN_MIN / 2);
        c.hi = fmax(c.hi, CHART_ELO_SPAN_MIN / 2);
    }
    double step = nice_step(c.hi - c.lo, CHART_ELO_TICKS);
    c.lo = floor(c.lo / step) * step;
    c.hi = ceil(c.hi / step) * step;
    chart_open(&c, "elo-chart",
               t->nanchors ? "Ratings on the anchors' scale with 95% error bars"
                           : "Ratings against the field's mean with 95% error bars",
               out);
    for (double v = c.lo; v <= c.hi + step / 2; v += step) {
        char text[32];
        snprintf(text, sizeof text, "%+.0f", fabs(v) < step / 2 ? 0.0 : v);
        chart_tick(&c, v, text, out);
    }
    fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>\n",
            chart_x(&c, 0), CHART_TOP, chart_x(&c, 0), c.height - CHART_AXIS_H);
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        double elo, m;
        field_elo(f, i, &elo, &m);
        int y = CHART_TOP + r * CHART_ROW_H + CHART_ROW_H / 2;
        chart_label(&c, r, t->name[i], out);
        /* An infinite Elo (all won or all lost) sits at the axis' end; an
         * infinite margin spans the whole axis. */
        double lo = isfinite(m) ? elo - m : c.lo, hi = isfinite(m) ? elo + m : c.hi;
        char es[32], ms[32];
        stats_elo_text(elo, es, sizeof es);
        stats_elo_text(m, ms, sizeof ms);
        fprintf(out, "<g class=\"engine\"><title>");
        esc_html(t->name[i], out);
        fprintf(out, ": Elo %s &#177; %s</title>"
                     "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#246\" "
                     "stroke-width=\"2\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                     "stroke=\"#246\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                     "stroke=\"#246\"/><circle cx=\"%.1f\" cy=\"%d\" r=\"5\" fill=\"#d22\"/>"
                     "</g>\n",
                es, ms, chart_x(&c, lo), y, chart_x(&c, hi), y, chart_x(&c, lo), y - 6,
                chart_x(&c, lo), y + 6, chart_x(&c, hi), y - 6, chart_x(&c, hi), y + 6,
                chart_x(&c, isnan(elo) ? 0 : elo), y);
    }
    chart_close(&c, "Elo against the field's mean (maximum likelihood; 95% error bars)", out);
}

/* --- pairs, pentanomial, crosstable -------------------------------------- */

static void pairs(const struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "<section id=\"pairs\"><h2>Pairs and pentanomial counts</h2>\n"
                 "<p>W-L-D, Elo and LOS of the first engine; the pentanomial counts are "
                 "its game pairs (one opening, colours swapped) scoring 0, &#189;, 1, "
                 "1&#189; and 2 points; nElo is the normalized Elo of those pairs.</p>\n"
                 "<table id=\"pairs-table\"><thead><tr><th class=\"name\">Engine</th>"
                 "<th class=\"name\">Opponent</th><th>Games</th><th>W</th><th>L</th><th>D</th>"
                 "<th>Elo</th><th>&#177; 95%%</th><th>LOS</th><th>Draws</th><th>LL</th>"
                 "<th>LD</th><th>WL+DD</th><th>WD</th><th>WW</th><th>nElo</th>"
                 "<th>&#177; 95%%</th></tr></thead><tbody>\n");
    struct tally_pair p;
    int a, b;
    for (int next = 0; tally_next_pair(t, order, &next, &a, &b, &p);) {
        fprintf(out, "<tr>");
        name_cell(out, "td", t->name[a]);
        name_cell(out, "td", t->name[b]);
        fprintf(out, "<td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td>", p.n, p.w, p.l, p.d);
        elo_cell(out, p.elo);
        elo_cell(out, p.margin);
        fprintf(out, "<td>%.1f%%</td><td>%.1f%%</td>", PERCENT * p.los,
                PERCENT * p.draw_ratio);
        for (int k = 0; k < PENTA_OUTCOMES; k++)
            fprintf(out, "<td>%ld</td>", p.penta.count[k]);
        elo_cell(out, p.nelo);
        elo_cell(out, p.nelo_margin);
        fprintf(out, "</tr>\n");
    }
    fprintf(out, "</tbody></table></section>\n");
}

/* Every engine's W-L-D against every other, rows and columns in the
 * standings' order; each cell's numbers also in data-w/l/d. */
static void crosstable(const struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "<section id=\"crosstable\"><h2>Crosstable</h2>\n<p>W-L-D of the row "
                 "engine against the column engine.</p>\n<table id=\"crosstable-table\">"
                 "<thead><tr><th class=\"name\">Engine</th>");
    for (int c = 0; c < t->n; c++)
        name_cell(out, "th", t->name[order[c]]);
    fprintf(out, "</tr></thead><tbody>\n");
    for (int r = 0; r < t->n; r++) {
        int a = order[r];
        fprintf(out, "<tr>");
        name_cell(out, "th", t->name[a]);
        for (int c = 0; c < t->n; c++) {
            int b = order[c];
            if (a == b)
                fprintf(out, "<td>-</td>");
            else
                fprintf(out, "<td data-w=\"%ld\" data-l=\"%ld\" data-d=\"%ld\">%ld-%ld-%ld</td>",
                        t->beat[a][b], t->beat[b][a], t->drew[a][b], t->beat[a][b],
                        t->beat[b][a], t->drew[a][b]);
        }
        fprintf(out, "</tr>\n");
    }
    fprintf(out, "</tbody></table></section>\n");
}

/* --- CPU per move and the referee's overhead ----------------------------- */

/* A tick's milliseconds (1, 2 or 5 times a power of ten) as its label:
 * 1 µs ... 500 s. */
static void ms_label(double ms, char *buf, size_t cap)
{
    if (ms < 0.999)
        snprintf(buf, cap, "%.0f &#181;s", ms * 1000);
    else if (ms < 999)
        snprintf(buf, cap, "%.0f ms", ms);
    else
        snprintf(buf, cap, "%.0f s", ms / 1000);
}

static double log_ms(double ms)
{
    return log10(ms > CHART_MS_FLOOR ? ms : CHART_MS_FLOOR);
}

/* One box per engine on a log axis: the box from the 25th to the 75th
 * percentile, the median across it, whiskers to the least and the most,
 * a tick at the 95th percentile. */
static void cpu_chart(struct tally *t, const int order[], FILE *out)
{
    struct chart c = { label_width(t), 0, 0, 0, 0 };
    c.width = c.left + CHART_PLOT_W + 20;
    c.height = CHART_TOP + t->n * CHART_ROW_H + CHART_AXIS_H;
    double least = INFINITY, most = 0;
    for (int i = 0; i < t->n; i++)
        if (t->ncpu[i]) {
            (void)tally_cpu(t, i);   /* sorts the samples */
            least = fmin(least, t->cpu[i][0]);
            most = fmax(most, t->cpu[i][t->ncpu[i] - 1]);
        }
    c.lo = floor(log_ms(isfinite(least) ? least : CHART_MS_FLOOR));
    c.hi = ceil(log_ms(most));
    if (c.hi <= c.lo)
        c.hi = c.lo + 1;
    chart_open(&c, "cpu-chart", "CPU time per move, one box per engine: the box from the "
                                "25th to the 75th percentile, the median across it, whiskers "
                                "to the least and the most, a tick at the 95th percentile", out);
    /* A tick at every decade, and at its 2 and 5 when the axis spans few
     * decades, so that every box sits between labelled ticks. */
    static const double sub[] = { 1, 2, 5 };
    int subs = c.hi - c.lo <= CHART_MS_SUB_DECADES ? 3 : 1;
    for (int d = (int)c.lo; d <= (int)c.hi; d++)
        for (int k = 0; k < subs && (k == 0 || d < (int)c.hi); k++) {
            char text[32];
            ms_label(sub[k] * pow(10, d), text, sizeof text);
            chart_tick(&c, d + log10(sub[k]), text, out);
        }
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        chart_label(&c, r, t->name[i], out);
        long n = t->ncpu[i];
        if (n == 0)
            continue;
        const double *v = t->cpu[i];
        double q1 = stats_percentile(v, n, 25), med = stats_percentile(v, n, 50),
               q3 = stats_percentile(v, n, 75), p95 = stats_percentile(v, n, 95);
        double x0 = chart_x(&c, log_ms(v[0])), x1 = chart_x(&c, log_ms(q1)),
               xm = chart_x(&c, log_ms(med)), x3 = chart_x(&c, log_ms(q3)),
               x95 = chart_x(&c, log_ms(p95)), xmax = chart_x(&c, log_ms(v[n - 1]));
        int y = CHART_TOP + r * CHART_ROW_H, mid = y + CHART_ROW_H / 2;
        fprintf(out, "<g class=\"box\"><title>");
        esc_html(t->name[i], out);
        fprintf(out, ": %ld moves; least %.3f, 25%% %.3f, median %.3f, 75%% %.3f, 95%% %.3f, "
                     "most %.3f ms</title>"
                     "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>"
                     "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#9bd\" "
                     "stroke=\"#246\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                     "stroke=\"#d22\" stroke-width=\"2\"/><line x1=\"%.1f\" y1=\"%d\" "
                     "x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/></g>\n",
                n, v[0], q1, med, q3, p95, v[n - 1], x0, mid, xmax, mid, x1, y + 6,
                fmax(x3 - x1, 1.0), CHART_ROW_H - 12, xm, y + 4, xm, y + CHART_ROW_H - 4, x95,
                mid - 5, x95, mid + 5);
    }
    chart_close(&c, "CPU time per move (user+sys, log scale)", out);
}

static void cpu(struct tally *t, const int order[], FILE *out)
{
    fprintf(out, "<section id=\"cpu\"><h2>CPU time per move</h2>\n<p>The engine's own "
                 "user+sys time for each move it was asked for (its process' rusage), in "
                 "ms. In the chart, each engine's box spans the 25th to the 75th percentile "
                 "of its moves, the red line is the median, the whiskers reach its least and "
                 "its most, and the short tick on the right whisker is the 95th percentile."
                 "</p>\n<table id=\"cpu-table\"><thead><tr><th class=\"name\">Engine</th>"
                 "<th>Moves</th><th>Mean</th><th>Median</th><th>p95</th><th>Max</th></tr>"
                 "</thead><tbody>\n");
    for (int r = 0; r < t->n; r++) {
        int i = order[r];
        struct tally_cpu c = tally_cpu(t, i);
        fprintf(out, "<tr>");
        name_cell(out, "td", t->name[i]);
        fprintf(out, "<td>%ld</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>\n",
                t->ncpu[i], c.mean, c.median, c.p95, c.max);
    }
    fprintf(out, "</tbody></table>\n");
    cpu_chart(t, order, out);
    fprintf(out, "</section>\n<section id=\"overhead\"><h2>The referee's overhead</h2>\n");
    double median, p95;
    if (tally_overhead(t, &median, &p95))
        fprintf(out, "<p>The referee's own wall time per move, outside the engine (writing "
                     "the board, starting the engine in its sandbox, judging the answer, "
                     "playing it): "
                     "median <b>%.3f ms</b>, p95 <b>%.3f ms</b>, over %ld moves.</p>\n",
                median, p95, t->noverhead);
    else
        fprintf(out, "<p>Not recorded: these records have no \"referee_ms\" (written "
                     "before the referee timed itself); only the engines' CPU above is "
                     "known.</p>\n");
    fprintf(out, "</section>\n");
}

/* Writes all that kept (a temporary file of rows made while the games were
 * read) holds to out, from its start. */
static void copy_kept(FILE *kept, FILE *out)
{
    rewind(kept);
    char buf[BUFSIZ];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, kept)) > 0)
        fwrite(buf, 1, n, out);
}

/* --- forfeits ---------------------------------------------------------- */

static void forfeits(const struct tally *t, const struct report_html *h, FILE *out)
{
    fprintf(out, "<section id=\"forfeits\"><h2>Forfeits</h2>\n");
    if (t->nforfeit == 0)
        fprintf(out, "<p>None.</p>\n");
    else
        fprintf(out, "<table id=\"forfeits-table\"><thead><tr><th class=\"name\">Engine"
                     "</th><th class=\"name\">Reason</th><th>Games</th></tr></thead><tbody>\n");
    for (int k = 0; k < t->nforfeit; k++) {
        fprintf(out, "<tr>");
        name_cell(out, "td", t->name[t->forfeit[k].engine]);
        name_cell(out, "td", t->forfeit[k].reason);
        fprintf(out, "<td>%ld</td></tr>\n", t->forfeit[k].count);
    }
    if (t->nforfeit)
        fprintf(out, "</tbody></table>\n");
    if (h && h->nforfeits) {
        fprintf(out, "<table id=\"forfeit-games\"><thead><tr><th>Game</th><th>Ply</th>"
                     "<th class=\"name\">Engine</th><th class=\"name\">Reason</th>"
                     "<th class=\"name\">Its stderr, last lines</th></tr></thead><tbody>\n");
        copy_kept(h->forfeits, out);
        fprintf(out, "</tbody></table>\n");
    }
    fprintf(out, "</section>\n");
}

/* The move that lost a forfeited game: the last one whose status is not ok
 * (NULL when the record has none, as hand-made records may). */
static const struct rec_move *failed_move(const struct game_record *r)
{
    for (int k = r->nmoves - 1; k >= 0; k--)
        if (r->moves[k].status[0] && strcmp(r->moves[k].status, "ok") != 0)
            return &r->moves[k];
    return NULL;
}

/* The start of text's last n lines (a final newline ends the last line). */
static const char *last_lines(const char *text, int n)
{
    const char *p = text + strlen(text);
    if (p > text && p[-1] == '\n')
        p--;
    while (p > text && (p[-1] != '\n' || --n > 0))
        p--;
    return p;
}

static void forfeit_row(struct report_html *h, long id, const struct game_record *r)
{
    FILE *f = h->forfeits;
    const struct rec_move *m = failed_move(r);
    const char *loser = r->result == REC_WIN_1 ? r->player[1] : r->player[0];
    fprintf(f, "<tr><td><a href=\"#game-%ld\">%ld</a></td><td>", id, id);
    if (m && m->ply > 0)
        fprintf(f, "%d", m->ply);
    fprintf(f, "</td>");
    name_cell(f, "td", m && m->engine[0] ? m->engine : loser);
    name_cell(f, "td", rec_reason_text(r));
    fprintf(f, "<td class=\"name\"><pre>");
    if (m && m->stderr_tail && m->stderr_tail[0])
        esc_html(last_lines(m->stderr_tail, HTML_TAIL_LINES), f);
    else
        fprintf(f, "(none recorded)");
    fprintf(f, "</pre></td></tr>\n");
    h->nforfeits++;
}

/* --- games ------------------------------------------------------------- */

/* Writes the changes from board file a (la bytes) to b (lb bytes) as one
 * ply of data-diff (report_html.h). */
static void board_diff(FILE *f, const char *a, size_t la, const char *b, size_t lb)
{
    if (la != lb) {
        fprintf(f, "*%zu:", lb);
        esc_bytes(f, b, lb);
        return;
    }
    for (size_t k = 0; k < lb; k++)
        if (a[k] != b[k]) {
            fprintf(f, "%zu:", k);
            esc_byte(f, (unsigned char)b[k]);
        }
}

/* The move texts of the game in order: opening, then each move played
 * (a forfeit's move has none). */
static int ply_count(const struct game_record *r)
{
    int n = r->nopening;
    for (int k = 0; k < r->nmoves; k++)
        n += r->moves[k].move[0] != '\0';
    return n;
}

static const char *ply_text(const struct game_record *r, int ply, const struct rec_move **m)
{
    *m = NULL;
    if (ply < r->nopening)
        return r->opening[ply];
    ply -= r->nopening;
    for (int k = 0; k < r->nmoves; k++)
        if (r->moves[k].move[0] && ply-- == 0)
            return *m = &r->moves[k], r->moves[k].move;
    return NULL;
}

/* Replays the game through its rules, writing data-start, data-diff and
 * data-plies; the final board file into final (GAME_FORMAT_MAX bytes).
 * Returns the plies drawn: fewer than ply_count when a move is not legal
 * where it stands. */
static int write_positions(const struct game *g, const struct game_record *r, FILE *f,
                           char *final)
{
    unsigned char pos[GAME_MAX_STATE];
    char other[GAME_FORMAT_MAX];
    char *prev = final, *cur = other;
    game_init(g, pos);
    size_t lprev = g->format(pos, prev);
    fprintf(f, " data-start=\"");
    esc_bytes(f, prev, lprev);
    fprintf(f, "\" data-diff=\"");
    int ply = 0, n = ply_count(r);
    for (; ply < n; ply++) {
        const struct rec_move *m;
        int move;
        if (g->parse_move(pos, ply_text(r, ply, &m), &move) != 0)
            break;
        g->play(pos, move);
        size_t lcur = g->format(pos, cur);
        if (ply)
            fputc(';', f);
        board_diff(f, prev, lprev, cur, lcur);
        char *swap = prev;
        prev = cur, cur = swap, lprev = lcur;
    }
    if (prev != final)
        memcpy(final, prev, lprev + 1);
    fprintf(f, "\" data-plies=\"%d\"", ply);
    return ply;
}

/* data-moves (move texts, blank-separated) and data-sides (per ply: 'o'
 * opening, '1' or '2' the side that moved, 'A' or 'B' when that move was
 * a blunder) of the first plies plies. */
static void write_moves(const struct game_record *r, int plies, FILE *f)
{
    const struct rec_move *m;
    fprintf(f, " data-moves=\"");
    for (int k = 0; k < plies; k++) {
        fputs(k ? " " : "", f);
        esc_html(ply_text(r, k, &m), f);
    }
    fprintf(f, "\" data-sides=\"");
    for (int k = 0; k < plies; k++) {
        (void)ply_text(r, k, &m);
        int side = m && (m->side == 1 || m->side == 2) ? m->side : 0;
        fputc(!m ? 'o' : !side ? '?' : m->blunder ? 'A' + side - 1 : '0' + side, f);
    }
    fprintf(f, "\"");
}

/* The moves as static text: the opening, then each move, blunders marked. */
static void moves_text(const struct game_record *r, FILE *f)
{
    fprintf(f, "<p class=\"moves\">");
    if (r->nopening) {
        fprintf(f, "Opening:");
        for (int k = 0; k < r->nopening; k++) {
            fputc(' ', f);
            esc_html(r->opening[k], f);
        }
        fprintf(f, ". ");
    }
    fprintf(f, "Moves:");
    for (int k = 0; k < r->nmoves; k++) {
        const struct rec_move *m = &r->moves[k];
        fputs(m->blunder ? " <mark class=\"blunder\" title=\"blunder\">" : " ", f);
        esc_html(m->move[0] ? m->move : "(none)", f);
        fputs(m->blunder ? "?</mark>" : "", f);
    }
    fprintf(f, "</p>\n");
}

static void game_summary(struct report_html *h, long id, const struct game_record *r, FILE *f)
{
    fprintf(f, "<summary>Game %ld: ", id);
    esc_html(r->player[0], f);
    fprintf(f, " vs ");
    esc_html(r->player[1], f);
    fprintf(f, ", %s (", rec_result_text(r->result));
    esc_html(rec_reason_text(r), f);
    char score[REC_SCORE_TEXT_MAX];
    if (rec_score_text(r, score)[0]) {   /* the game's own result, the winner's first */
        fprintf(f, ", %s ", score);
        esc_html(r->score.of[0] ? r->score.of : "score", f);
    }
    fprintf(f, "), %d moves", r->nmoves);
    if (r->has & REC_HAS_ANALYSIS) {
        long n = 0;
        for (int k = 0; k < r->analysis.nblunders; k++)
            n += r->analysis.blunders[k].count;
        fprintf(f, ", %ld blunder%s", n, n == 1 ? "" : "s");
        h->nblunders += n;
    }
    fprintf(f, "</summary>\n");
}

static void game_entry(struct report_html *h, long id, const struct game_record *r)
{
    FILE *f = h->games;
    char final[GAME_FORMAT_MAX] = "";
    fprintf(f, "<details class=\"game\" id=\"game-%ld\" data-game=\"", id);
    esc_html(h->game_name, f);
    fprintf(f, "\" data-p1=\"");
    esc_html(r->player[0], f);
    fprintf(f, "\" data-p2=\"");
    esc_html(r->player[1], f);
    fputc('"', f);
    int plies = h->game ? write_positions(h->game, r, f, final) : 0;
    if (!h->game)
        fprintf(f, " data-start=\"\" data-diff=\"\" data-plies=\"0\"");
    write_moves(r, plies, f);
    fprintf(f, ">");
    game_summary(h, id, r, f);
    moves_text(r, f);
    if (!h->game) {
        fprintf(f, "<p>No board: the game \"");
        esc_html(h->game_name, f);
        fprintf(f, "\" is not one this referee knows.</p>\n");
    } else {
        if (plies < ply_count(r))
            fprintf(f, "<p>The board stops at ply %d: the next move is not legal there.</p>\n",
                    plies);
        fprintf(f, "<div class=\"final\"><p>Final position (board file):</p><pre>");
        esc_html(final, f);
        fprintf(f, "</pre></div>\n");
    }
    fprintf(f, "<div class=\"replay\"></div></details>\n");
}

/* --- the page ------------------------------------------------------------- */

int report_html_start(struct report_html *h, const char *game_name, const struct game *game,
                      struct err *e)
{
    memset(h, 0, sizeof *h);
    snprintf(h->game_name, sizeof h->game_name, "%s", game_name);
    h->game = game;
    h->games = tmpfile();
    h->forfeits = tmpfile();
    if (!h->games || !h->forfeits)
        return err_set(e, 0, 0, "cannot make a temporary file for the HTML report");
    return 0;
}

int report_html_add(struct report_html *h, const struct game_record *rec, struct err *e)
{
    assert(h->games && h->forfeits);
    h->ngames++;
    long id = rec->index >= 0 ? rec->index : h->ngames;   /* a hand-made record may have none */
    game_entry(h, id, rec);
    if (rec->reason == REC_FORFEIT)
        forfeit_row(h, id, rec);
    if (ferror(h->games) || ferror(h->forfeits))
        return err_set(e, 0, 0, "cannot write the HTML report's temporary file");
    return 0;
}

void report_html_free(struct report_html *h)
{
    if (h->games)
        fclose(h->games);
    if (h->forfeits)
        fclose(h->forfeits);
    h->games = h->forfeits = NULL;
}

static void games(const struct report_html *h, FILE *out)
{
    fprintf(out, "<section id=\"games\"");   /* the script's spec (boardhtml.h) */
    boardhtml_attributes(out, h ? h->game : NULL);
    fprintf(out, "><h2>Games</h2>\n");
    if (!h) {
        fprintf(out, "<p>No games kept in this report.</p></section>\n");
        return;
    }
    fprintf(out, "<p>%ld games; open one to replay it move by move%s.</p>\n", h->ngames,
            h->nblunders ? " (blunders found by referee analyze are marked)" : "");
    copy_kept(h->games, out);
    fprintf(out, "</section>\n");
}

/* A knockout's bracket (knockout.h), its text as the text report has it,
 * escaped for the page. */
static void bracket(const struct tally *t, FILE *out)
{
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < t->n; i++)
        name[i] = t->name[i];
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        knockout_print(t->bracket, name, mem);
        fclose(mem);
    }
    fprintf(out, "<section id=\"bracket\"><h2>Bracket</h2>\n<pre class=\"bracket\">");
    esc_html(text && text[0] == '\n' ? text + 1 : text ? text : "", out);
    fprintf(out, "</pre></section>\n");
    free(text);
}

void report_html(struct tally *t, struct report_html *h, FILE *out)
{
    int order[REC_MAX_ENGINES];
    tally_standings(t, order);
    fprintf(out, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
                 "<meta name=\"generator\" content=\"arena referee %s\"/>"
                 "<link rel=\"icon\" href=\"data:,\"/><title>Tournament report: ",
            ARENA_VERSION);
    esc_html(h && h->game_name[0] ? h->game_name : "games", out);
    fprintf(out, ", %ld games</title>\n<style>\n%s%s</style></head>\n<body>\n"
                 "<h1>Tournament report</h1>\n<p>",
            t->games, report_html_style, boardhtml_game_style(h ? h->game : NULL));
    if (h && h->game_name[0]) {
        fprintf(out, "Game: <b>");
        esc_html(h->game_name, out);
        fprintf(out, "</b>, ");
    }
    fprintf(out, "%ld games, %d engines%s.</p>\n<nav><a href=\"#standings\">Standings</a> | "
                 "<a href=\"#pairs\">Pairs</a> | %s<a href=\"#cpu\">CPU</a> | "
                 "<a href=\"#overhead\">Overhead</a> | <a href=\"#forfeits\">Forfeits</a> | "
                 "<a href=\"#games\">Games</a></nav>\n<pre id=\"js-errors\"></pre>\n",
            t->games, t->n, t->round_robin ? ", round robin" : "",
            t->round_robin ? "<a href=\"#crosstable\">Crosstable</a> | "
            : t->bracket   ? "<a href=\"#bracket\">Bracket</a> | "
                           : "");
    struct field f;
    tally_ratings(t, f.elo, f.margin);   /* NAN if it fails: drawn at 0 */
    standings(t, &f, order, out);
    elo_chart(t, &f, order, out);
    fprintf(out, "</section>\n");
    pairs(t, order, out);
    if (t->round_robin)
        crosstable(t, order, out);
    if (t->bracket)
        bracket(t, out);
    cpu(t, order, out);
    forfeits(t, h, out);
    games(h, out);
    /* CDATA keeps the page well-formed XML too (xmllint reads it so). */
    fprintf(out, "<script>//<![CDATA[\n%s//]]>\n</script>\n</body></html>\n",
            report_html_script);
}
