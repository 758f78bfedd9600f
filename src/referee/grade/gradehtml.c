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
#include "referee/report/report_html.h"

/* Bars of the totals' histogram, and the charts' size in pixels. */
#define HIST_BINS 10
#define CHART_W 480
#define CHART_H 160

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

static void head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    esc_html(title, f);
    fprintf(f, "</title>\n<style>\n%s"
               "td.ok{background:#dfd}td.part{background:#ffd}td.none{background:#fdd}\n"
               "</style></head><body>\n", report_html_style);
}

/* The board file text as a grid of discs when its lines are rows of 0, 1
 * and 2 (Connect-4, Max-Connect4), else as it is. */
static void board(FILE *f, const char *text)
{
    size_t width = strcspn(text, "\n");
    int grid = width > 0 && strspn(text, "012") == width;
    if (!grid) {
        fputs("<pre>", f);
        esc_html(text, f);
        fputs("</pre>", f);
        return;
    }
    fputs("<table class=\"board\">", f);
    const char *p = text;
    while (*p && strspn(p, "012") == width && (p[width] == '\n' || !p[width])) {
        fputs("<tr>", f);
        for (size_t k = 0; k < width; k++)
            fprintf(f, p[k] == '0' ? "<td></td>" : "<td class=\"c%d\"></td>", p[k]);
        fputs("</tr>", f);
        p += width + (p[width] == '\n');
    }
    fputs("</table>", f);
    if ((p[0] == '1' || p[0] == '2') && (p[1] == '\n' || !p[1]) && (!p[1] || !p[2])) {
        fprintf(f, "<p>player %c to move</p>", p[0]);
    } else if (*p) {
        fputs("<pre>", f);
        esc_html(p, f);
        fputs("</pre>", f);
    }
}

static void tail(FILE *f, const cJSON *it)
{
    const char *t = str(it, "stderr");
    if (!t[0])
        return;
    fputs("<p>its stderr ended with:</p><pre class=\"stderr\">", f);
    esc_html(t, f);
    fputs("</pre>", f);
}

static void position_item(FILE *f, const cJSON *it)
{
    fprintf(f, "<h4>position %d</h4>",
            (int)cJSON_GetNumberValue(cJSON_GetObjectItem(it, "position")));
    board(f, str(it, "board"));
    fputs("<p>given: <b>", f);
    esc_html(str(it, "given")[0] ? str(it, "given") : "no move", f);
    fputs("</b> (", f);
    esc_html(str(it, "status"), f);
    fputs(")", f);
    const cJSON *want = cJSON_GetObjectItem(it, "expected"), *m;
    if (cJSON_GetArraySize(want) > 0) {
        fputs("; expected one of:", f);
        cJSON_ArrayForEach(m, want) {
            fputs(" <b>", f);
            esc_html(m->valuestring, f);
            fputs("</b>", f);
        }
    }
    fputs("</p>", f);
    tail(f, it);
}

static void game_item(FILE *f, const cJSON *it)
{
    double res = cJSON_GetNumberValue(cJSON_GetObjectItem(it, "result"));
    fprintf(f, "<li>game %d, as player %d, opening", (int)cJSON_GetNumberValue(
                cJSON_GetObjectItem(it, "game")),
            (int)cJSON_GetNumberValue(cJSON_GetObjectItem(it, "side")));
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(it, "opening")) {
        fputc(' ', f);
        esc_html(m->valuestring, f);
    }
    fprintf(f, ": <b>%s</b> (", res == 1 ? "won" : res == 0 ? "lost" : "drawn");
    esc_html(str(it, "reason"), f);
    fputs(")", f);
    if (str(it, "board")[0]) {
        fputs("<br>the position it forfeited at:", f);
        board(f, str(it, "board"));
    }
    tail(f, it);
    fputs("</li>\n", f);
}

static void io_item(FILE *f, const cJSON *it)
{
    fputs("<h4>input ", f);
    esc_html(str(it, "input"), f);
    fputs("</h4><p>", f);
    if (strcmp(str(it, "status"), "ok") != 0) {
        fputs("the program ended with ", f);
        esc_html(str(it, "status"), f);
        fputs("; ", f);
    }
    fprintf(f, "first difference at line %d:</p><table><tr><th class=\"name\">expected</th>"
               "<th class=\"name\">given</th></tr><tr><td class=\"name\"><pre>",
            (int)cJSON_GetNumberValue(cJSON_GetObjectItem(it, "line")));
    esc_html(str(it, "want"), f);
    fputs("</pre></td><td class=\"name\"><pre>", f);
    esc_html(str(it, "got"), f);
    fputs("</pre></td></tr></table>", f);
    tail(f, it);
}

/* The CPU curve: median ms against depth, on a log scale, and its table. */
static void curve(FILE *f, const cJSON *pts, double max_ms)
{
    int n = cJSON_GetArraySize(pts);
    if (n == 0)
        return;
    double top = max_ms;
    const cJSON *p;
    cJSON_ArrayForEach(p, pts) {
        double m = cJSON_GetNumberValue(cJSON_GetObjectItem(p, "median_ms"));
        top = m > top ? m : top;
    }
    double lt = log10(top > 1 ? top : 1) + 0.1;
    fprintf(f, "<svg width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"CPU per move "
               "against depth\"><polyline fill=\"none\" stroke=\"#2458b3\" stroke-width=\"2\" "
               "points=\"", CHART_W, CHART_H);
    int k = 0;
    cJSON_ArrayForEach(p, pts) {
        double m = cJSON_GetNumberValue(cJSON_GetObjectItem(p, "median_ms"));
        double y = log10(m > 1 ? m : 1) / lt;
        fprintf(f, "%.0f,%.0f ", 40 + (double)k++ * (CHART_W - 60) / (n > 1 ? n - 1 : 1),
                CHART_H - 20 - y * (CHART_H - 40));
    }
    double ly = log10(max_ms > 1 ? max_ms : 1) / lt;
    fprintf(f, "\"/><line x1=\"40\" x2=\"%d\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#d22\" "
               "stroke-dasharray=\"4\"/><text x=\"42\" y=\"%.0f\">limit %.0f ms</text>"
               "</svg>\n", CHART_W - 20, CHART_H - 20 - ly * (CHART_H - 40),
            CHART_H - 20 - ly * (CHART_H - 40), CHART_H - 24 - ly * (CHART_H - 40), max_ms);
    fputs("<table><tr><th>depth</th><th>median CPU ms</th><th>failed moves</th></tr>", f);
    cJSON_ArrayForEach(p, pts)
        fprintf(f, "<tr><td>%d</td><td>%.1f</td><td>%d</td></tr>",
                (int)cJSON_GetNumberValue(cJSON_GetObjectItem(p, "depth")),
                cJSON_GetNumberValue(cJSON_GetObjectItem(p, "median_ms")),
                (int)cJSON_GetNumberValue(cJSON_GetObjectItem(p, "failed")));
    fputs("</table>\n", f);
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
            game_item(f, it);
        else if (ch->kind == RUBRIC_IO)
            io_item(f, it);
        else
            position_item(f, it);
    }
    if (ch->kind == RUBRIC_MATCH && cJSON_GetArraySize(items))
        fputs("</ul>", f);
    if (ch->kind == RUBRIC_CPU)
        curve(f, cJSON_GetObjectItem(cell->evidence, "curve"), (double)ch->max_ms);
}

static void about(FILE *f, const struct gout_row *row)
{
    const cJSON *a = row->about;
    fputs("<p>SHA-256 of its files: <code>", f);
    esc_html(row->sha256, f);
    fputs("</code></p>\n", f);
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
    head(f, row->id);
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
    fputs("</body></html>\n", f);
    return fclose(f) == 0 ? text : (free(text), NULL);
}

/* The totals' histogram: HIST_BINS bins of the maximum. */
static void histogram(FILE *f, const struct gout_class *c)
{
    int bins[HIST_BINS] = { 0 }, most = 1;
    for (int i = 0; i < c->n; i++) {
        double share = c->rb->max_total > 0 ? c->row[i].total / c->rb->max_total : 0;
        int b = (int)(share * HIST_BINS);
        b = b >= HIST_BINS ? HIST_BINS - 1 : b < 0 ? 0 : b;
        most = ++bins[b] > most ? bins[b] : most;
    }
    int bw = (CHART_W - 40) / HIST_BINS;
    fprintf(f, "<svg id=\"totals\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"totals "
               "distribution\">", CHART_W, CHART_H + 20);
    for (int b = 0; b < HIST_BINS; b++) {
        int h = bins[b] * (CHART_H - 20) / most;
        fprintf(f, "<rect class=\"bin\" data-count=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" "
                   "height=\"%d\" fill=\"#2458b3\"/><text x=\"%d\" y=\"%d\">%d%%</text>",
                bins[b], 20 + b * bw, CHART_H - h, bw - 4, h, 20 + b * bw, CHART_H + 15,
                b * 100 / HIST_BINS);
    }
    fputs("</svg>\n", f);
}

char *ghtml_index(const struct gout_class *c)
{
    char *text = NULL, a[32], b[32];
    size_t len;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    head(f, "grades");
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
        fputs("<tr><td class=\"name\"><a href=\"", f);
        url_esc(f, r->id);
        fputs("/feedback.html\">", f);
        esc_html(r->id, f);
        fprintf(f, "</a></td><td>%s</td>", gout_score(r->total, a));
        for (int k = 0; k < c->rb->ncheck; k++)
            fprintf(f, "<td class=\"%s\">%s</td>", cell_class(&r->cell[k]),
                    gout_score(r->cell[k].score, a));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n</body></html>\n", f);
    return fclose(f) == 0 ? text : (free(text), NULL);
}
