/*
 * gradehtml.c - the grade's feedback and class pages (gradehtml.h), written
 * as static HTML and SVG into a memory stream.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/escape.h"
#include "gradehtml.h"
#include "gradewhy.h"
#include "referee/report/boardhtml.h"
#include "referee/report/report_html.h"

/* Bars of the totals' histogram: 0-9 % of the maximum, ..., 90-99 %, and
 * full marks (100 %) a bar of its own, the count a class most often asks
 * for. */
#define HIST_BINS 11
/* The charts' size in pixels, and the margins of their plots (the axes'
 * values and names). */
#define CHART_W 480
#define CHART_H 160
#define HIST_W 600   /* eleven bars, each wide enough for "10-19" */
#define CPU_CHART_H 220
#define PLOT_L 72
#define PLOT_R 16
#define PLOT_T 16
#define PLOT_B 40

/* The feedback page's script: the one board drawing (boardhtml.h) draws
 * every board boardhtml_board left on the page. */
static const char page_script[] =
    "<script>\n(function(){'use strict';\n" BOARDHTML_SCRIPT "boardFill(document);\n})();\n"
    "</script>\n";

/* A folder name as a relative URL's path segment: letters, digits and
 * "-._~" as they are, every other byte as %XX. */
static void url_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-._~", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

static const char *str(const cJSON *obj, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
    return s ? s : "";
}

/* The page's head: the report's style sheet (the board cells' included),
 * the game's board rules, the grade's own. */
static void head(FILE *f, const char *title, const struct rubric *rb)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    esc_html(title, f);
    fprintf(f, "</title>\n<style>\n%s%s"
               "td.ok{background:#dfd}td.part{background:#ffd}td.none{background:#fdd}\n"
               "small.why{display:block;color:#733;font-size:11px;text-align:left}\n"
               "p.caption{margin:.4em 0 0}.why{color:#733}p.why{font-weight:bold}\n"
               "svg .axis{stroke:#444}svg .grid{stroke:#ddd}svg text.failed{fill:#c00;"
               "font-weight:bold}svg text.title{font-weight:bold}\n"
               "</style></head><body>\n", report_html_style, boardhtml_game_style(rb->game));
}

/* The item's board under its caption, drawn by the page's script as the
 * game draws it (boardhtml.h), then its board file as the engine read it
 * (with JavaScript off, the position is there). */
static void board(FILE *f, const struct game *g, const struct rubric_check *ch,
                  const cJSON *it)
{
    const char *text = str(it, "board");
    char caption[GWHY_MAX];
    if (!text[0])
        return;
    fputs("<p class=\"caption\">", f);
    esc_html(gwhy_caption(ch, it, caption), f);
    fputs("</p>", f);
    boardhtml_board(f, g, text);
    fputs("<details><summary>its board file</summary><pre class=\"board-text\">", f);
    esc_html(text, f);
    fputs("</pre></details>", f);
}

/* The ends of what the engine wrote, stderr then stdout, when it wrote. */
static void tails(FILE *f, const cJSON *it)
{
    static const char *const key[] = { "stderr", "stdout" };
    for (int k = 0; k < 2; k++) {
        const char *t = str(it, key[k]);
        if (!t[0])
            continue;
        fprintf(f, "<p>its %s ended with:</p><pre class=\"%s\">", key[k], key[k]);
        esc_html(t, f);
        fputs("</pre>", f);
    }
}

/* What went wrong with the item (or, a game won, how it went), in
 * gradewhy.h's words, as element tag (a position's or an input's heading,
 * a game's paragraph). */
static void why(FILE *f, const char *tag, const struct rubric_check *ch, const cJSON *it)
{
    char line[GWHY_MAX];
    fprintf(f, "<%s class=\"%s\">", tag, gwhy_failed(ch, it) ? "why" : "result");
    esc_html(gwhy_item(ch, it, line), f);
    fprintf(f, "</%s>", tag);
}

static void position_item(FILE *f, const struct game *g, const struct rubric_check *ch,
                          const cJSON *it)
{
    why(f, "h4", ch, it);
    board(f, g, ch, it);
    tails(f, it);
}

static void game_item(FILE *f, const struct game *g, const struct rubric_check *ch,
                      const cJSON *it)
{
    fprintf(f, "<li class=\"game %s\">", gwhy_forfeited(it) ? "forfeit" : "finished");
    why(f, "p", ch, it);
    board(f, g, ch, it);   /* won or lost, how it ended */
    tails(f, it);
    fputs("</li>\n", f);
}

static void io_item(FILE *f, const struct rubric_check *ch, const cJSON *it)
{
    why(f, "h4", ch, it);
    fputs("<table><tr><th class=\"name\">expected</th><th class=\"name\">given</th></tr>"
          "<tr><td class=\"name\"><pre>", f);
    esc_html(str(it, "want"), f);
    fputs("</pre></td><td class=\"name\"><pre>", f);
    esc_html(str(it, "got"), f);
    fputs("</pre></td></tr></table>", f);
    tails(f, it);
}

/* --- the CPU curve ------------------------------------------------------- */

/* The curve's point at depth d, or NULL when that depth was not run. */
static const cJSON *point_at(const cJSON *pts, int d)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
        if ((int)cJSON_GetNumberValue(cJSON_GetObjectItem(p, "depth")) == d)
            return p;
    return NULL;
}

/* 1 when some move at p's depth was timed: its median is a measure (a
 * journal without "moves" timed every depth whose median is not 0). */
static int timed(const cJSON *p)
{
    const cJSON *moves = cJSON_GetObjectItem(p, "moves");
    if (cJSON_IsNumber(moves))
        return moves->valuedouble > 0;
    return cJSON_GetNumberValue(cJSON_GetObjectItem(p, "failed")) == 0 ||
           cJSON_GetNumberValue(cJSON_GetObjectItem(p, "median_ms")) > 0;
}

static double median_of(const cJSON *p)
{
    return cJSON_GetNumberValue(cJSON_GetObjectItem(p, "median_ms"));
}

/* The chart's frame: decades lo..hi of ms on a log scale (y), depths
 * 1..depth (x), in pixels inside the margins. */
struct frame {
    int depth, lo, hi;
};

static double fx(const struct frame *fr, int d)
{
    /* Each depth in the middle of its share of the width. */
    return PLOT_L + ((double)d - 0.5) * (CHART_W - PLOT_L - PLOT_R) / fr->depth;
}

static double fy(const struct frame *fr, double ms)
{
    double l = log10(ms > 0 ? ms : pow(10, fr->lo));
    l = l < fr->lo ? fr->lo : l;
    return PLOT_T + (fr->hi - l) / (fr->hi - fr->lo) * (CPU_CHART_H - PLOT_T - PLOT_B);
}

/* The axes: a line, a tick and a value per depth and per decade, and
 * each axis's name. */
static void axes(FILE *f, const struct frame *fr)
{
    int bottom = CPU_CHART_H - PLOT_B;
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
               "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>",
            PLOT_L, CHART_W - PLOT_R, bottom, bottom, PLOT_L, PLOT_L, PLOT_T, bottom);
    for (int k = fr->lo; k <= fr->hi; k++) {
        double y = fy(fr, pow(10, k));
        fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.0f\" y2=\"%.0f\"/>"
                   "<text class=\"ytick\" x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%g</text>",
                PLOT_L, CHART_W - PLOT_R, y, y, PLOT_L - 4, y + 4, pow(10, k));
    }
    for (int d = 1; d <= fr->depth; d++)
        fprintf(f, "<text class=\"xtick\" x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
                fx(fr, d), bottom + 14, d);
    fprintf(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">depth</text>"
               "<text class=\"title\" transform=\"translate(12,%d) rotate(-90)\" "
               "text-anchor=\"middle\">CPU ms per move (median)</text>",
            (PLOT_L + CHART_W - PLOT_R) / 2, CPU_CHART_H - 6, (PLOT_T + bottom) / 2);
}

/* The decades the chart spans: every timed median and the limit. */
static struct frame frame_of(const cJSON *pts, int depth, double max_ms)
{
    double lo = max_ms > 0 ? max_ms : 1, hi = lo;
    const cJSON *p;
    cJSON_ArrayForEach(p, pts) {
        double m = median_of(p);
        if (timed(p) && m > 0) {
            lo = m < lo ? m : lo;
            hi = m > hi ? m : hi;
        }
    }
    struct frame fr = { depth, (int)floor(log10(lo)), (int)ceil(log10(hi)) };
    fr.hi += fr.hi == fr.lo;
    return fr;
}

/* The curve's table: a row per depth, its median or why there is none,
 * its failed moves and their reasons. */
static void curve_table(FILE *f, const cJSON *pts, int depth)
{
    fputs("<table class=\"cpu\"><tr><th>depth</th><th>median CPU ms</th><th>failed moves"
          "</th><th class=\"name\">why</th></tr>", f);
    for (int d = 1; d <= depth; d++) {
        const cJSON *p = point_at(pts, d);
        char line[GWHY_MAX];
        fprintf(f, "<tr><td>%d</td>", d);
        if (!p) {
            fputs("<td>not run</td><td></td><td class=\"name\"></td></tr>", f);
            continue;
        }
        if (timed(p))
            fprintf(f, "<td>%.1f</td>", median_of(p));
        else
            fputs("<td class=\"none\">failed</td>", f);
        fprintf(f, "<td>%d</td><td class=\"name\">",
                (int)cJSON_GetNumberValue(cJSON_GetObjectItem(p, "failed")));
        if (gwhy_depth(p, line))
            esc_html(line, f);
        fputs("</td></tr>", f);
    }
    fputs("</table>\n", f);
}

/* The curve: median CPU ms against depth on a log scale, each timed depth
 * a dot, each depth where a move failed marked "failed" (not drawn as a
 * time), the limit dashed; then its table. */
static void curve(FILE *f, const cJSON *pts, int depth, double max_ms)
{
    if (cJSON_GetArraySize(pts) == 0)
        return;
    struct frame fr = frame_of(pts, depth, max_ms);
    fprintf(f, "<svg class=\"cpu\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"CPU "
               "per move against depth\">", CHART_W, CPU_CHART_H);
    axes(f, &fr);
    double ly = fy(&fr, max_ms);
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#d22\" "
               "stroke-dasharray=\"4\"/><text x=\"%d\" y=\"%.0f\">limit %.0f ms</text>",
            PLOT_L, CHART_W - PLOT_R, ly, ly, PLOT_L + 4, ly - 4, max_ms);
    fputs("<polyline fill=\"none\" stroke=\"#2458b3\" stroke-width=\"2\" points=\"", f);
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
        if (timed(p))
            fprintf(f, "%.0f,%.0f ", fx(&fr, (int)cJSON_GetNumberValue(cJSON_GetObjectItem(
                                               p, "depth"))), fy(&fr, median_of(p)));
    fputs("\"/>", f);
    for (int d = 1; d <= depth; d++) {
        p = point_at(pts, d);
        if (p && timed(p))
            fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"3\" fill=\"#2458b3\"><title>depth %d:"
                       " %.1f ms</title></circle>", fx(&fr, d), fy(&fr, median_of(p)), d,
                    median_of(p));
        if (p && cJSON_GetNumberValue(cJSON_GetObjectItem(p, "failed")) > 0)
            fprintf(f, "<text class=\"failed\" x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">"
                       "&#x2717; failed</text>", fx(&fr, d), PLOT_T + 10);
        else if (!p)
            fprintf(f, "<text class=\"notrun\" x=\"%.0f\" y=\"%d\" text-anchor=\"middle\" "
                       "fill=\"#888\">not run</text>", fx(&fr, d), CPU_CHART_H - PLOT_B - 6);
    }
    fputs("</svg>\n", f);
    curve_table(f, pts, depth);
}

static const char *cell_class(const struct gout_cell *cell)
{
    return cell->score >= cell->max ? "ok" : cell->score > 0 ? "part" : "none";
}

/* What a check runs, in a sentence. */
static void describe(FILE *f, const struct rubric *rb, const struct rubric_check *ch)
{
    switch (ch->kind) {
    case RUBRIC_LEGAL:
        fprintf(f, "%ld positions of random games, depth %d: each answer must be a legal "
                   "move within the limits.", ch->positions, ch->depth);
        break;
    case RUBRIC_EXACT:
        fprintf(f, "%ld positions at most %d plies from the end, depth %d: the move must be "
                   "one of the best by a full search to the end.", ch->positions, ch->depth,
                ch->depth);
        break;
    case RUBRIC_MATCH:
        fprintf(f, "%ld games against ", ch->games);
        esc_html(ch->opponent, f);
        fprintf(f, " at depth %d, colours alternating, openings of %d random plies: full "
                   "points at a score of %.3g.", ch->depth, rb->random_plies, ch->min_score);
        break;
    case RUBRIC_CPU:
        fprintf(f, "median CPU per move at depth %d over %ld positions: full points at "
                   "%ld ms or less.", ch->depth, ch->positions, ch->max_ms);
        break;
    case RUBRIC_IO:
        fputs("<code>", f);
        esc_html(ch->cmd, f);
        fprintf(f, "</code> on %d inputs, its output compared byte for byte with ",
                ch->ninputs);
        esc_html(ch->reference[0] ? ch->reference : "the expected files", f);
        fputc('.', f);
        break;
    }
}

static void check_section(FILE *f, const struct gout_class *c, int k, const struct gout_cell *cell)
{
    const struct rubric_check *ch = &c->rb->check[k];
    char a[32], b[32];
    fputs("<h2 id=\"", f);
    esc_html(ch->id, f);
    fputs("\">", f);
    esc_html(ch->id, f);
    fprintf(f, " (%s): %s of %s</h2>\n<p>", rubric_kind_name(ch->kind),
            gout_score(cell->score, a), gout_score(ch->points, b));
    describe(f, c->rb, ch);
    fputs("</p>\n<p class=\"output\">", f);
    esc_html(cell->output ? cell->output : "not graded", f);
    fputs("</p>\n", f);
    const cJSON *items = cJSON_GetObjectItem(cell->evidence, "items"), *it;
    if (ch->kind == RUBRIC_MATCH && cJSON_GetArraySize(items))
        fputs("<ul>", f);
    cJSON_ArrayForEach(it, items) {
        if (ch->kind == RUBRIC_MATCH)
            game_item(f, c->rb->game, ch, it);
        else if (ch->kind == RUBRIC_IO)
            io_item(f, ch, it);
        else
            position_item(f, c->rb->game, ch, it);
    }
    if (ch->kind == RUBRIC_MATCH && cJSON_GetArraySize(items))
        fputs("</ul>", f);
    if (ch->kind == RUBRIC_CPU)
        curve(f, cJSON_GetObjectItem(cell->evidence, "curve"), ch->depth, (double)ch->max_ms);
}

static void about(FILE *f, const struct gout_row *row)
{
    const cJSON *a = row->about;
    if (gout_error(row)[0]) {   /* why no check ran, first */
        fputs("<p class=\"why\">", f);
        esc_html(gout_error(row), f);
        fputs("</p>\n", f);
    }
    if (row->sha256[0]) {   /* none when its files were not copied */
        fputs("<p>SHA-256 of its files: <code>", f);
        esc_html(row->sha256, f);
        fputs("</code></p>\n", f);
    }
    if (str(a, "engine")[0]) {
        fputs("<p>engine command: <code>", f);
        esc_html(str(a, "engine"), f);
        fprintf(f, "</code>%s</p>\n", cJSON_IsTrue(cJSON_GetObjectItem(a, "engine_file"))
                                          ? " (from its ENGINE file, instead of the rubric's)"
                                          : "");
    }
    if (str(a, "cannot_run")[0]) {
        fputs("<p>the engine cannot run: ", f);
        esc_html(str(a, "cannot_run"), f);
        fputs("</p>\n", f);
    }
    const cJSON *b = cJSON_GetObjectItem(a, "build");
    if (b) {
        fprintf(f, "<p>build: <b>%s</b></p><pre class=\"build\">",
                cJSON_IsTrue(cJSON_GetObjectItem(b, "ok")) ? "ok" : "failed");
        esc_html(str(b, "log"), f);
        fputs("</pre>\n", f);
    }
}

char *ghtml_feedback(const struct gout_class *c, const struct gout_row *row)
{
    char *text = NULL, a[32], b[32];
    size_t len;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    head(f, row->id, c->rb);
    fputs("<h1>", f);
    esc_html(row->id, f);
    fprintf(f, ": %s of %s points</h1>\n", gout_score(row->total, a),
            gout_score(c->rb->max_total, b));
    about(f, row);
    fputs("<table><tr><th class=\"name\">check</th><th>score</th><th>of</th></tr>\n", f);
    for (int k = 0; k < c->rb->ncheck; k++) {
        fprintf(f, "<tr><td class=\"name\"><a href=\"#%s\">%s</a></td><td class=\"%s\">%s</td>"
                   "<td>%s</td></tr>\n", c->rb->check[k].id, c->rb->check[k].id,
                cell_class(&row->cell[k]), gout_score(row->cell[k].score, a),
                gout_score(c->rb->check[k].points, b));
    }
    fputs("</table>\n", f);
    for (int k = 0; k < c->rb->ncheck; k++)
        check_section(f, c, k, &row->cell[k]);
    fputs(page_script, f);
    fputs("</body></html>\n", f);
    return fclose(f) == 0 ? text : (free(text), NULL);
}

/* The bar of a total: the floor of its percentage of the maximum, by
 * tens, and 100 % a bar of its own. A total a rounding short of the
 * maximum (sums of shares) is full marks. */
static int bin_of(double total, double max)
{
    double pct = max > 0 ? total / max * 100 : 0;
    if (pct >= 100 - 1e-9)
        return HIST_BINS - 1;
    int b = (int)floor(pct / 10);
    return b < 0 ? 0 : b > HIST_BINS - 2 ? HIST_BINS - 2 : b;
}

/* Bar b's range of percentages, as its label says it: "0-9", ..., "100". */
static const char *bin_label(int b, char *buf, size_t cap)
{
    if (b == HIST_BINS - 1)
        snprintf(buf, cap, "100");
    else
        snprintf(buf, cap, "%d-%d", b * 10, b * 10 + 9);
    return buf;
}

/* The totals' histogram: a bar per bin with its count above it, the
 * counts' axis (0 to the tallest) and the percentages' below. */
static void histogram(FILE *f, const struct gout_class *c)
{
    int bins[HIST_BINS] = { 0 }, most = 1;
    for (int i = 0; i < c->n; i++) {
        int b = bin_of(c->row[i].total, c->rb->max_total);
        most = ++bins[b] > most ? bins[b] : most;
    }
    int bottom = CHART_H - PLOT_B + 20, top = PLOT_T + 10;
    int bw = (HIST_W - PLOT_L - PLOT_R) / HIST_BINS;
    fprintf(f, "<svg id=\"totals\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"totals "
               "distribution\"><line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
               "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>", HIST_W,
            CHART_H + 20, PLOT_L, HIST_W - PLOT_R, bottom, bottom, PLOT_L, PLOT_L, top, bottom);
    int step = most > 5 ? (most + 4) / 5 : 1;   /* at most about six values */
    for (int v = 0; v <= most; v += step) {
        int y = bottom - v * (bottom - top) / most;
        fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>",
                PLOT_L - 4, y + 4, v);
    }
    for (int b = 0; b < HIST_BINS; b++) {
        char label[16];
        int h = bins[b] * (bottom - top) / most, x = PLOT_L + 2 + b * bw;
        bin_label(b, label, sizeof label);
        fprintf(f, "<rect class=\"bin\" data-count=\"%d\" data-range=\"%s\" x=\"%d\" y=\"%d\" "
                   "width=\"%d\" height=\"%d\" fill=\"#2458b3\"><title>%s %%: %d</title></rect>"
                   "<text class=\"count\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>"
                   "<text class=\"xtick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                bins[b], label, x, bottom - h, bw - 4, h, label, bins[b], x + (bw - 4) / 2,
                bottom - h - 3, bins[b], x + (bw - 4) / 2, bottom + 14, label);
    }
    fprintf(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">total, %% of "
               "the maximum</text><text class=\"title\" transform=\"translate(12,%d) "
               "rotate(-90)\" text-anchor=\"middle\">submissions</text></svg>\n",
            (PLOT_L + HIST_W - PLOT_R) / 2, CHART_H + 14, (top + bottom) / 2);
}

/* A submission's score on a check in the class's table: why it lost
 * points (gradewhy.h's short reason; the check's line on hover). */
static void class_cell(FILE *f, const struct rubric_check *ch, const struct gout_cell *cell)
{
    char a[32], why[GWHY_SHORT_MAX];
    fprintf(f, "<td class=\"%s\"", cell_class(cell));
    if (cell->score < ch->points && cell->output) {
        fputs(" title=\"", f);
        esc_html(cell->output, f);
        fputc('"', f);
    }
    fprintf(f, ">%s", gout_score(cell->score, a));
    if (cell->score < ch->points && gwhy_short(ch, cell->evidence, why)[0]) {
        fputs("<small class=\"why\">", f);
        esc_html(why, f);
        fputs("</small>", f);
    }
    fputs("</td>", f);
}

char *ghtml_index(const struct gout_class *c)
{
    char *text = NULL, a[32], b[32];
    size_t len;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    head(f, "grades", c->rb);
    fprintf(f, "<h1>Grades: %d submissions, out of %s points</h1>\n<h2>Totals</h2>\n", c->n,
            gout_score(c->rb->max_total, a));
    histogram(f, c);
    fputs("<h2>Checks</h2>\n<table id=\"checks\"><tr><th class=\"name\">check</th><th>kind</th>"
          "<th>points</th><th>full points</th><th>mean</th></tr>\n", f);
    for (int k = 0; k < c->rb->ncheck; k++) {
        const struct rubric_check *ch = &c->rb->check[k];
        int full = 0;
        double sum = 0;
        for (int i = 0; i < c->n; i++) {
            full += c->row[i].cell[k].score >= ch->points;
            sum += c->row[i].cell[k].score;
        }
        fprintf(f, "<tr><td class=\"name\">%s</td><td>%s</td><td>%s</td><td>%d of %d</td>"
                   "<td>%s</td></tr>\n", ch->id, rubric_kind_name(ch->kind),
                gout_score(ch->points, a), full, c->n, gout_score(c->n ? sum / c->n : 0, b));
    }
    fputs("</table>\n<h2>Submissions</h2>\n<table id=\"class\"><tr><th class=\"name\">"
          "submission</th><th>total</th>", f);
    for (int k = 0; k < c->rb->ncheck; k++)
        fprintf(f, "<th>%s</th>", c->rb->check[k].id);
    fputs("</tr>\n", f);
    for (int i = 0; i < c->n; i++) {
        const struct gout_row *r = &c->row[i];
        int page = !gout_own_name(r->id);   /* refused for OUT's name: none */
        fputs("<tr><td class=\"name\">", f);
        if (page) {
            fputs("<a href=\"", f);
            url_esc(f, r->id);
            fputs("/feedback.html\">", f);
        }
        esc_html(r->id, f);
        fputs(page ? "</a>" : "", f);
        if (gout_error(r)[0]) {
            fputs("<small class=\"why\">", f);
            esc_html(gout_error(r), f);
            fputs("</small>", f);
        }
        fprintf(f, "</td><td>%s</td>", gout_score(r->total, a));
        for (int k = 0; k < c->rb->ncheck; k++)
            class_cell(f, &c->rb->check[k], &r->cell[k]);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n</body></html>\n", f);
    return fclose(f) == 0 ? text : (free(text), NULL);
}
