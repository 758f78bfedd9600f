/*
 * report.c - `referee report`: reads a journal or match log into a tally
 * (and, for HTML, its games into report_html's sections) and prints it
 * with the renderer of the format asked for (report.h).
 */
#include <string.h>
#include "referee/journal/header.h"
#include "referee/judge/judge.h"
#include "arena/registry.h"
#include "arena/journal.h"
#include "arena/record.h"
#include "arena/report.h"
#include "arena/report_csv.h"
#include "report_html.h"
#include "report_json.h"
#include "report_text.h"

void report_print(struct tally *t, enum report_format f, enum report_csv_table table,
                  FILE *out)
{
    switch (f) {
    case REPORT_TEXT:
        report_text(t, out);
        break;
    case REPORT_JSON:
        report_json(t, out);
        break;
    case REPORT_CSV:
        report_csv(t, table, out);
        break;
    case REPORT_HTML:
        report_html(t, NULL, out);
        break;
    }
}

/* What a scan fills: the tally, and the HTML page's games when asked. */
struct report_scan {
    struct tally t;
    struct report_html *html;   /* NULL: no games kept */
    const struct judge_cmd *judge_cmd;  /* --judge: the judge the user named; NULL: none */
    const struct tally_anchor *anchor;  /* --anchor: n of them */
    int nanchors;
    struct judge *judge;        /* the journal's judge (judge.h); NULL: none */
    int judge_failed;           /* 1 once it failed */
};

/* The anchors of the command line (--anchor), else the journal's. */
static int start_anchors(struct report_scan *s, const struct hdr *h, struct err *e)
{
    if (s->nanchors)
        return tally_anchor(&s->t, s->anchor, s->nanchors, e);
    struct tally_anchor a[REC_MAX_ENGINES];
    for (int k = 0; k < h->nanchors; k++) {
        snprintf(a[k].name, sizeof a[k].name, "%s", h->anchor[k].name);
        a[k].elo = h->anchor[k].elo;
    }
    return tally_anchor(&s->t, a, h->nanchors, e);
}

/* The tally of the engines the header names, and the HTML page's start. */
static int report_start(struct report_scan *s, const struct hdr *h, struct err *e)
{
    struct tally *t = &s->t;
    const char *name[REC_MAX_ENGINES];
    for (int i = 0; i < h->nengines; i++)
        name[i] = h->engine[i].name;
    if (tally_init(t, h->nengines, name, e) != 0 || start_anchors(s, h, e) != 0)
        return -1;
    /* A match log has no "format"; a journal before gauntlets had none either,
     * but a crosstable of two engines says no more than their pair line. */
    t->round_robin = !(h->has & HDR_BIT(HDR_FORMAT)) || strcmp(h->format, "round-robin") == 0;
    if ((h->has & HDR_BIT(HDR_FORMAT)) && strcmp(h->format, "knockout") == 0 &&
        tally_knockout(t) != 0)
        return err_set(e, 0, 0, "out of memory");
    if ((h->has & HDR_BIT(HDR_FORMAT)) && strcmp(h->format, "swiss") == 0 &&
        (h->has & HDR_BIT(HDR_ROUNDS)) && h->rounds >= 1 &&
        tally_swiss(t, h->rounds, h->seed) != 0)
        return err_set(e, 0, 0, "out of memory");
    /* A judge's journal: the tables read results only, the HTML replay
     * needs the game's rules, so the judge the user named (never the
     * header's command), refused when it is not the journal's. A judge
     * named for a text report is checked and started all the same. */
    const struct game *g = NULL;
    int judged = (h->has & HDR_BIT(HDR_JUDGE)) != 0;
    if (!s->judge && (s->judge_cmd || (judged && s->html))) {
        int rc = judge_game_of(h, s->judge_cmd, &g, &s->judge, e);
        s->judge_failed = rc == JUDGE_FAILED;
        if (rc != 0)
            return -1;
    }
    if (s->judge)
        g = judge_game(s->judge);
    else
        g = registry_find(h->game);
    return s->html ? report_html_start(s->html, h->game, g, e) : 0;
}

static int report_header(void *ctx, const struct hdr *h, int line, struct err *e)
{
    int rc = report_start(ctx, h, e);
    if (rc && line && !e->line)
        e->line = line, e->col = 1;
    return rc;
}

static int report_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)line;   /* journal.h places the error */
    struct report_scan *s = ctx;
    int rc = tally_add(&s->t, rec, e) || (s->html && report_html_add(s->html, rec, e)) ? -1 : 0;
    if (judge_error(s->judge, e) != 0) {   /* the replay's positions are not the game's */
        s->judge_failed = 1;
        return -1;
    }
    return rc;
}

int report_file(const char *path, const struct judge_cmd *judge, enum report_format f,
                enum report_csv_table table, FILE *out, struct err *e)
{
    return report_file_anchored(path, judge, NULL, 0, f, table, out, e);
}

int report_file_anchored(const char *path, const struct judge_cmd *judge,
                         const struct tally_anchor *anchor, int n, enum report_format f,
                         enum report_csv_table table, FILE *out, struct err *e)
{
    struct report_html html;
    struct report_scan s;
    memset(&s, 0, sizeof s);
    memset(&html, 0, sizeof html);
    s.html = f == REPORT_HTML ? &html : NULL;
    s.judge_cmd = judge;
    s.anchor = anchor;
    s.nanchors = n;
    static const struct journal_reader rd = { .header = report_header, .game = report_game };
    int rc = journal_scan(path, &rd, &s, e) ? s.judge_failed ? JUDGE_FAILED : -1 : 0;
    if (!rc && s.html)
        report_html(&s.t, s.html, out);
    else if (!rc)
        report_print(&s.t, f, table, out);
    report_html_free(&html);
    judge_close(s.judge);
    tally_free(&s.t);
    return rc;
}
