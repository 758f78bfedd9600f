/*
 * gradeout.c - the grade's outputs from its journal (gradeout.h): the CSV,
 * each submission's Gradescope results and pages, the class's page, the
 * table.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arena/escape.h"
#include "gradeout.h"
#include "gradewhy.h"
#include "arena/textfile.h"

const char *gout_score(double score, char *buf)
{
    snprintf(buf, 32, "%.2f", score);
    char *end = buf + strlen(buf);
    while (end[-1] == '0')
        *--end = '\0';
    if (end[-1] == '.')
        end[-1] = '\0';
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

const char *gout_own_name(const char *id)
{
    static const char *const fixed[] = { "grades.csv", "index.html", "journal.jsonl",
                                         "shard.sh", "merge.sh", "merge.out" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        size_t n = strlen(fixed[i]);
        /* the file, or its temporary twin (tf_write_atomic's NAME.tmpPID-N) */
        if (strncmp(id, fixed[i], n) == 0 && (!id[n] || strncmp(id + n, ".tmp", 4) == 0))
            return fixed[i];
    }
    size_t len = strlen(id);
    if (strncmp(id, "journal-", 8) == 0 && len > 14 && strcmp(id + len - 6, ".jsonl") == 0)
        return "journal-K.jsonl (a shard's journal)";
    if (strncmp(id, "shard-", 6) == 0 && len > 10 && strcmp(id + len - 4, ".out") == 0)
        return "shard-K.out (a Slurm task's output)";
    return NULL;
}

const char *gout_error(const struct gout_row *r)
{
    const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(r->about, "error"));
    return why ? why : "";
}

static char *csv_text(const struct gout_class *c, size_t *len)
{
    char *text = NULL, a[32];
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fputs("submission,total,max", f);
    for (int k = 0; k < c->rb->ncheck; k++) {
        fputc(',', f);
        esc_csv(c->rb->check[k].id, f);
    }
    fputs(",sha256,error\r\n", f);
    for (int i = 0; i < c->n; i++) {
        const struct gout_row *r = &c->row[i];
        esc_csv(r->id, f);
        fprintf(f, ",%s", gout_score(r->total, a));
        fprintf(f, ",%s", gout_score(c->rb->max_total, a));
        for (int k = 0; k < c->rb->ncheck; k++)
            fprintf(f, ",%s", r->cell[k].done ? gout_score(r->cell[k].score, a) : "");
        fprintf(f, ",%s,", r->sha256);
        esc_csv(gout_error(r), f);
        fputs("\r\n", f);
    }
    return fclose(f) == 0 ? text : (free(text), NULL);
}

/* Gradescope's results.json of one submission. */
static char *results_text(const struct gout_class *c, const struct gout_row *r, size_t *len)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "score", r->total);
    cJSON *tests = cJSON_AddArrayToObject(root, "tests");
    for (int k = 0; k < c->rb->ncheck; k++) {
        const struct gout_cell *cell = &r->cell[k];
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", c->rb->check[k].id);
        cJSON_AddNumberToObject(t, "score", cell->score);
        cJSON_AddNumberToObject(t, "max_score", c->rb->check[k].points);
        /* The check's line, then why each failure cost points (gradewhy.h). */
        char *why = cell->output && cell->score < c->rb->check[k].points
                        ? gwhy_text(&c->rb->check[k], cell->output, cell->evidence) : NULL;
        cJSON_AddStringToObject(t, "output", why ? why : cell->output ? cell->output
                                                                        : "not graded");
        free(why);
        cJSON_AddStringToObject(t, "visibility",
                                rubric_visibility_name(c->rb->check[k].visibility));
        cJSON_AddItemToArray(tests, t);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return NULL;
    *len = strlen(text);
    char *grown = realloc(text, *len + 2);
    if (!grown)
        return free(text), NULL;
    grown[(*len)++] = '\n';
    grown[*len] = '\0';
    return grown;
}

int gout_put(const char *dir, const char *name, char *text, size_t len, struct err *e)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        free(text);
        return err_set(e, 0, 0, "%s: a path too long", dir);
    }
    int rc = text ? tf_write_atomic(path, text, len, e)
                  : err_set(e, 0, 0, "out of memory");
    free(text);
    if (rc) {   /* tf_write_atomic's message names no file */
        char why[ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        err_set(e, 0, 0, "%s: %s", path, why);
    }
    return rc;
}

int gout_write(const struct gout_class *c, const char *out, struct err *e)
{
    size_t len = 0;
    char *text = csv_text(c, &len);
    if (gout_put(out, "grades.csv", text, len, e) != 0)
        return -1;
    for (int i = 0; i < c->n; i++) {
        char dir[PATH_MAX];
        if (!gout_rewritten(c, i) || gout_own_name(c->row[i].id))
            continue;   /* refused for OUT's own name: no folder of its own */
        if (snprintf(dir, sizeof dir, "%s/%s", out, c->row[i].id) >= (int)sizeof dir)
            return err_set(e, 0, 0, "%s: a path too long", c->row[i].id);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return err_set(e, 0, 0, "%s: %s", dir, strerror(errno));
        text = results_text(c, &c->row[i], &len);
        if (gout_put(dir, "results.json", text, len, e) != 0)
            return -1;
    }
    return 0;
}

int gout_rewritten(const struct gout_class *c, int i)
{
    assert(i >= 0 && i < c->n);
    return !c->only || c->only[i];
}

void gout_report(const struct gout_class *c, const struct gout_row *r, FILE *out)
{
    int w = 0;
    for (int k = 0; k < c->rb->ncheck; k++)
        w = (int)strlen(c->rb->check[k].id) > w ? (int)strlen(c->rb->check[k].id) : w;
    char a[32], b[32];
    for (int k = 0; k < c->rb->ncheck; k++) {
        const struct gout_cell *cell = &r->cell[k];
        fprintf(out, "  %-*s  %s of %s: ", w, c->rb->check[k].id,
                cell->done ? gout_score(cell->score, a) : "-",
                gout_score(c->rb->check[k].points, b));
        /* it may quote the submission's file names */
        esc_fputs(cell->output ? cell->output : "not graded", out);
        fputc('\n', out);
    }
    fprintf(out, "  %-*s  %s of %s\n", w, "total", gout_score(r->total, a),
            gout_score(c->rb->max_total, b));
}

void gout_table(const struct gout_class *c, FILE *out)
{
    /* Ids are folder names, any bytes: shown escaped, and padded as shown. */
    char id[ESC_ROOM(GRADE_ID_MAX)];
    int w = (int)strlen("submission");
    for (int i = 0; i < c->n; i++) {
        int n = (int)strlen(esc_text(c->row[i].id, id, sizeof id));
        w = n > w ? n : w;
    }
    fprintf(out, "%-*s  %7s", w, "submission", "total");
    for (int k = 0; k < c->rb->ncheck; k++)
        fprintf(out, "  %*s", (int)strlen(c->rb->check[k].id) > 6
                                  ? (int)strlen(c->rb->check[k].id) : 6, c->rb->check[k].id);
    fputc('\n', out);
    char a[32];
    for (int i = 0; i < c->n; i++) {
        fprintf(out, "%-*s  %7s", w, esc_text(c->row[i].id, id, sizeof id),
                gout_score(c->row[i].total, a));
        for (int k = 0; k < c->rb->ncheck; k++) {
            int cw = (int)strlen(c->rb->check[k].id) > 6 ? (int)strlen(c->rb->check[k].id) : 6;
            fprintf(out, "  %*s", cw, c->row[i].cell[k].done
                                          ? gout_score(c->row[i].cell[k].score, a) : "-");
        }
        fputc('\n', out);
    }
    fprintf(out, "(out of %s points)\n", gout_score(c->rb->max_total, a));
}
