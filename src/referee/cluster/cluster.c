/*
 * cluster.c - a tournament in shards run by Slurm or GNU parallel
 * (cluster.h): DIR's files, submitting or running the unfinished shards,
 * and their progress read from the journals.
 *
 * Why one shard script for the first run and every resume: a shard whose
 * journal exists resumes it, so a Slurm requeue, a resubmission and
 * parallel's --resume-failed all finish a shard the same way, and no game
 * is played twice (journal.h: a resumed journal keeps its games).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/cluster.h"
#include "arena/journal.h"
#include "arena/runner.h"
#include "arena/schedule.h"
#include "arena/spec.h"
#include "arena/textfile.h"

#define MANIFEST_CAP (1 << 16)   /* bytes of cluster.json */
#define JOB_ID_MAX 64            /* bytes of sbatch --parsable's answer */
#define LIST_MAX 8192            /* bytes of an --array list */
#define SHARD_CMD_MAX 4096       /* bytes of the shard script's command */

/* What cluster.json says. */
struct manifest {
    int shards;
    long games;
    int parallel;
    char jobs[2][JOB_ID_MAX];    /* array, merge; "" when none */
};

/* Room after DIR for "/" and the longest name in it (shard-1000.jsonl). */
#define NAME_ROOM 32

static int dir_ok(const char *dir, struct err *e)
{
    if (strlen(dir) >= PATH_MAX - NAME_ROOM)
        return err_set(e, 0, 0, "the folder's path is too long");
    if (!dir[0] || dir[strspn(dir, CLUSTER_PATH_CHARS)])
        return err_set(e, 0, 0, "a path of letters, digits and '/._-+@:=' only, please (it "
                       "goes into job scripts)");
    return 0;
}

/* DIR/name into buf (PATH_MAX bytes); dir passed dir_ok. */
static void dir_file(const char *dir, const char *name, char *buf)
{
    int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);
    assert(n > 0 && n < PATH_MAX);
    (void)n;
}

static int write_file(const char *dir, const char *name, const char *text, int exec,
                      struct err *e)
{
    char path[PATH_MAX];
    dir_file(dir, name, path);
    if (tf_write_atomic(path, text, strlen(text), e) != 0)
        return -1;
    if (exec && chmod(path, 0755) != 0)
        return err_set(e, 0, 0, "%s: %s", path, strerror(errno));
    return 0;
}

/* The #SBATCH lines both jobs share: partition, time, --sbatch-arg. */
static void sbatch_common(FILE *f, const struct cluster_opts *o)
{
    if (o->partition[0])
        fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time[0])
        fprintf(f, "#SBATCH --time=%s\n", o->time);
    for (int i = 0; i < o->nsbatch; i++)
        fprintf(f, "#SBATCH %s\n", o->sbatch[i]);
}

/* The lines of both array jobs (a tournament's shards, a class's) after
 * their name: the array, its tasks' CPUs and output, the #SBATCH lines
 * every job shares, then the shell's start with k, the task's shard. */
static void array_head(FILE *f, const struct cluster_opts *o, const char *dir)
{
    fprintf(f, "#SBATCH --array=1-%d\n"
               "#SBATCH --cpus-per-task=%d\n"
               "#SBATCH --output=%s/shard-%%a.out\n",
            o->shards, o->cpus, dir);
    sbatch_common(f, o);
    fputs("set -eu\n"
          "k=${1:-${SLURM_ARRAY_TASK_ID:?give the shard number}}\n", f);
}

/* The shard script (cluster.h); referee already quoted. */
static void shard_script(FILE *f, const struct cluster_opts *o, const char *dir,
                         const char *referee, const char *grade)
{
    (void)grade;   /* a class's only */
    fprintf(f, "#!/bin/sh\n"
               "# One shard of the tournament in %1$s/config: its argument K, else the\n"
               "# Slurm array task's. Written by referee slurm; resumes its journal when\n"
               "# there is one.\n"
               "#SBATCH --job-name=arena-shards\n",
            dir);
    array_head(f, o, dir);
    fprintf(f, "journal=%1$s/shard-$k.jsonl\n"
               "resume=\n"
               "if [ -e \"$journal\" ]; then resume=--resume; fi\n"
               "status=0\n"
               "%2$s tournament --config %1$s/config --shard \"$k/%3$d\" "
               "--journal \"$journal\" $resume --concurrency \"${SLURM_CPUS_PER_TASK:-%4$d}\" "
               "|| status=$?\n"
               "# 3: every game played, but an engine forfeited all of its own (the report\n"
               "# says so): the shard is done, the merge must run.\n"
               "if [ \"$status\" -eq 3 ]; then status=0; fi\n"
               "exit \"$status\"\n",
            dir, referee, o->shards, o->cpus);
}

static void merge_script(FILE *f, const struct cluster_opts *o, const char *dir,
                         const char *referee, const char *grade)
{
    (void)grade;   /* a class's only */
    fprintf(f, "#!/bin/sh\n"
               "# Merges the shards of %1$s into merged.jsonl, verifies it and writes the\n"
               "# reports beside it. Written by referee slurm.\n"
               "#SBATCH --job-name=arena-merge\n"
               "#SBATCH --output=%1$s/merge.out\n",
            dir);
    sbatch_common(f, o);
    fprintf(f, "set -eu\ncd %s\n%s merge merged.jsonl", dir, referee);
    for (int k = 1; k <= o->shards; k++)
        fprintf(f, " shard-%d.jsonl", k);
    fprintf(f, "\n%1$s verify merged.jsonl > verify.txt\n"
               "%1$s report merged.jsonl > report.txt\n"
               "%1$s report --format json merged.jsonl > report.json\n"
               "%1$s report --format csv merged.jsonl > report.csv\n"
               "cat report.txt\n",
            referee);
}

static void parallel_script(FILE *f, const struct cluster_opts *o, const char *dir,
                            const char *referee, const char *grade)
{
    (void)grade;   /* a class's only */
    (void)referee;   /* the shard and merge scripts name it */
    fprintf(f, "#!/bin/sh\n"
               "# Runs the shards of %1$s with GNU parallel (again: those that failed or\n"
               "# never ran, each resuming its journal), then the merge. Written by\n"
               "# referee slurm --parallel.\n"
               "set -eu\n"
               "parallel --joblog %1$s/joblog --resume-failed",
            dir);
    for (int i = 0; i < o->nssh; i++) {
        char q[2 * CLUSTER_ARG_MAX + 8];
        spec_quote(o->ssh[i], q, sizeof q, 0);
        fprintf(f, " --sshlogin %s", q);
    }
    fprintf(f, " %s/shard.sh ::: $(seq 1 %d)\n"
               "exec %s/merge.sh\n",
            dir, o->shards, dir);
}

/* A script's writer: the tournament's ignore grade, a class's grading
 * options (cluster_grade). */
typedef void script_fn(FILE *f, const struct cluster_opts *o, const char *dir,
                       const char *referee, const char *grade);

/* A script's text (malloc'd), or NULL when out of memory. */
static char *script_text(script_fn *write, const struct cluster_opts *o, const char *dir,
                         const char *referee, const char *grade)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    write(f, o, dir, referee, grade);
    return fclose(f) == 0 ? text : (free(text), NULL);
}

static char *manifest_text(const struct manifest *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", CLUSTER_SCHEMA);
    cJSON_AddNumberToObject(j, "shards", m->shards);
    cJSON_AddNumberToObject(j, "games", (double)m->games);
    cJSON_AddStringToObject(j, "runner", m->parallel ? "parallel" : "slurm");
    cJSON *jobs = cJSON_AddArrayToObject(j, "jobs");
    for (int i = 0; i < 2 && m->jobs[i][0]; i++)
        cJSON_AddItemToArray(jobs, cJSON_CreateString(m->jobs[i]));
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    if (!text)
        return NULL;
    char *nl = realloc(text, strlen(text) + 2);
    if (!nl)
        return free(text), NULL;
    return strcat(nl, "\n");
}

static int write_manifest(const char *dir, const struct manifest *m, struct err *e)
{
    char *text = manifest_text(m);
    if (!text)
        return err_set(e, 0, 0, "out of memory");
    int rc = write_file(dir, "cluster.json", text, 0, e);
    free(text);
    return rc;
}

static int read_manifest(const char *dir, struct manifest *m, struct err *e)
{
    char path[PATH_MAX], *text;
    size_t len;
    memset(m, 0, sizeof *m);
    dir_file(dir, "cluster.json", path);
    if (tf_read(path, MANIFEST_CAP, &text, &len, e) != 0) {
        char why[ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        return err_set(e, 0, 0, "%s: not a folder referee slurm wrote (%s)", dir, why);
    }
    cJSON *j = cJSON_Parse(text);
    free(text);
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const cJSON *shards = cJSON_GetObjectItemCaseSensitive(j, "shards");
    const cJSON *games = cJSON_GetObjectItemCaseSensitive(j, "games");
    const cJSON *runner = cJSON_GetObjectItemCaseSensitive(j, "runner");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(j, "jobs");
    int ok = cJSON_IsString(schema) && strcmp(schema->valuestring, CLUSTER_SCHEMA) == 0 &&
             cJSON_IsNumber(shards) && shards->valuedouble >= 1 &&
             shards->valuedouble <= CLUSTER_MAX_SHARDS && cJSON_IsNumber(games) &&
             games->valuedouble >= shards->valuedouble && cJSON_IsString(runner) &&
             cJSON_IsArray(jobs) && cJSON_GetArraySize(jobs) <= 2;
    if (ok) {
        m->shards = shards->valueint;
        m->games = (long)games->valuedouble;
        m->parallel = strcmp(runner->valuestring, "parallel") == 0;
        for (int i = 0; i < cJSON_GetArraySize(jobs); i++) {
            const cJSON *id = cJSON_GetArrayItem(jobs, i);
            ok = ok && cJSON_IsString(id);
            if (ok)
                snprintf(m->jobs[i], JOB_ID_MAX, "%s", id->valuestring);
        }
    }
    cJSON_Delete(j);
    return ok ? 0 : err_set(e, 0, 0, "%s: not a %s file", path, CLUSTER_SCHEMA);
}

/* Makes the folder out (when missing) and its absolute path into dir
 * (PATH_MAX bytes): one that does not hold a tournament yet. 0, or -1 with
 * e and nothing made. */
static int make_dir(const char *out, char *dir, struct err *e)
{
    char config[PATH_MAX];
    if (dir_ok(out, e) != 0)
        return err_set(e, 0, 0, "--out '%.200s': %s", out, strcpy(config, e->msg));
    int made = mkdir(out, 0777) == 0;
    if (!made && errno != EEXIST)
        return err_set(e, 0, 0, "%s: %s", out, strerror(errno));
    int rc = realpath(out, dir) ? 0 : err_set(e, 0, 0, "%s: %s", out, strerror(errno));
    if (!rc && dir_ok(dir, e) != 0)
        rc = err_set(e, 0, 0, "%s: %s", dir, strcpy(config, e->msg));
    if (rc) {
        if (made)
            rmdir(out);
        return rc;
    }
    dir_file(dir, "config", config);
    if (access(config, F_OK) == 0)
        return err_set(e, 0, 0, "%s: holds a tournament already (referee slurm --resume %s "
                       "finishes it)", out, out);
    return 0;
}

int cluster_write(const struct cluster_opts *o, const cJSON *config, long games,
                  const char *referee, struct err *e)
{
    char dir[PATH_MAX], ref[PATH_MAX + 64];
    if (o->shards < 1 || o->shards > games)
        return err_set(e, 0, 0, "--shards must be from 1 to the tournament's %ld games, got %d",
                       games, o->shards);
    if (spec_quote(referee, ref, sizeof ref, 0) < 0)
        return err_set(e, 0, 0, "%s: path too long", referee);
    if (make_dir(o->out, dir, e) != 0)
        return -1;
    char *conf = cJSON_Print(config);
    char *text[3] = { script_text(shard_script, o, dir, ref, NULL),
                      script_text(merge_script, o, dir, ref, NULL),
                      script_text(parallel_script, o, dir, ref, NULL) };
    static const char *const name[3] = { "shard.sh", "merge.sh", "parallel.sh" };
    struct manifest m = { .shards = o->shards, .games = games, .parallel = o->parallel };
    int rc = conf && text[0] && text[1] && text[2] ? 0 : err_set(e, 0, 0, "out of memory");
    for (int i = 0; i < 3 && !rc; i++)
        rc = write_file(dir, name[i], text[i], 1, e);
    if (!rc)
        rc = write_manifest(dir, &m, e);
    if (!rc) {
        size_t n = strlen(conf);
        char *line = realloc(conf, n + 2);
        rc = line ? 0 : err_set(e, 0, 0, "out of memory");
        conf = line ? strcat(line, "\n") : conf;
    }
    if (!rc)   /* last: a folder without it is no tournament yet */
        rc = write_file(dir, "config", conf, 0, e);
    free(conf);
    for (int i = 0; i < 3; i++)
        free(text[i]);
    return rc;
}

/* --- progress ---------------------------------------------------------- */

static int count_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)rec, (void)line, (void)e;
    ++*(long *)ctx;
    return 0;
}

/* A record that does not decode is a game all the same, as far as progress
 * goes: report and verify say what is wrong with it. */
static int count_bad_game(void *ctx, int line, struct err *e)
{
    return count_game(ctx, NULL, line, e);
}

/* Games in shard k's journal now: -1 when there is none yet, else 0 or
 * more; -2 with e when it cannot be read. */
static long shard_done(const char *dir, int k, struct err *e)
{
    char path[PATH_MAX], name[NAME_ROOM];
    snprintf(name, sizeof name, "shard-%d.jsonl", k);
    dir_file(dir, name, path);
    if (access(path, F_OK) != 0)
        return -1;
    long n = 0;
    static const struct journal_reader counter = { .game = count_game,
                                                   .bad_game = count_bad_game };
    if (journal_peek(path, &counter, &n, e) != 0) {
        char why[ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        err_set(e, 0, 0, "%s: %s", path, why);
        return -2;
    }
    return n;
}

int cluster_status(const char *dir, FILE *out, struct err *e)
{
    struct manifest m;
    if (dir_ok(dir, e) != 0 || read_manifest(dir, &m, e) != 0)
        return -1;
    long all = 0;
    for (int k = 1; k <= m.shards; k++) {
        long want = schedule_shard_games(m.games, k, m.shards);
        long done = shard_done(dir, k, e);
        if (done == -2)
            return -1;
        char path[PATH_MAX], name[NAME_ROOM];
        snprintf(name, sizeof name, "shard-%d.jsonl", k);
        dir_file(dir, name, path);
        long pid = done >= 0 ? journal_writer(path) : 0;
        fprintf(out, "shard %d/%d: %ld/%ld games", k, m.shards, done < 0 ? 0 : done, want);
        if (pid > 0)
            fprintf(out, ", playing (pid %ld)\n", pid);
        else if (pid < 0)
            fprintf(out, ", playing\n");
        else
            fprintf(out, "%s\n", done < 0 ? ", not started" : done >= want ? ", finished"
                                                                          : ", stopped");
        all += done < 0 ? 0 : done;
    }
    char merged[PATH_MAX];
    dir_file(dir, "merged.jsonl", merged);
    fprintf(out, "all: %ld/%ld games%s\n", all, m.games,
            access(merged, F_OK) == 0 ? ", merged into merged.jsonl" : "");
    return 0;
}

/* --- running ----------------------------------------------------------- */

static void print_command(FILE *out, char *const argv[])
{
    for (int i = 0; argv[i]; i++)
        fprintf(out, "%s%s", i ? " " : "", argv[i]);
    fputc('\n', out);
}

/* The shards to run into list ("1-3,5": sbatch's --array syntax, LIST_MAX
 * bytes); their number, or -1 with e. */
static int unfinished(const char *dir, const struct manifest *m, char *list, struct err *e)
{
    char todo[CLUSTER_MAX_SHARDS + 2] = { 0 };
    for (int k = 1; k <= m->shards; k++) {
        long done = shard_done(dir, k, e);
        if (done == -2)
            return -1;
        todo[k] = done < schedule_shard_games(m->games, k, m->shards);
    }
    int n = 0, len = 0;
    list[0] = '\0';
    for (int k = 1; k <= m->shards; k++) {
        if (!todo[k])
            continue;
        int last = k;
        while (todo[last + 1])
            last++;
        len += snprintf(list + len, (size_t)(LIST_MAX - len), last > k ? "%s%d-%d" : "%s%d",
                        len ? "," : "", k, last);
        n += last - k + 1;
        k = last;
    }
    return n;
}

/* Slurm's side of cluster_run; todo: unfinished shards ("": none). */
static int submit(const char *dir, struct manifest *m, const char *todo, int dry_run, FILE *out,
                  struct err *e)
{
    char shard_sh[PATH_MAX], merge_sh[PATH_MAX], array[LIST_MAX + 16], dep[JOB_ID_MAX + 32];
    char id[2][JOB_ID_MAX] = { "", "" }, queued[JOB_ID_MAX] = "";
    int rc;
    dir_file(dir, "shard.sh", shard_sh);
    dir_file(dir, "merge.sh", merge_sh);
    if (!dry_run && m->jobs[0][0]) {
        /* Never two tasks on one shard: the last array must be over. */
        char *squeue[] = { "squeue", "--noheader", "--format=%i", "--jobs", m->jobs[0], NULL };
        rc = run_tool(squeue, queued, sizeof queued, 1, e);
        if (rc < 0)
            return -1;
        if (rc == 0 && queued[0])
            return err_set(e, 0, 0, "shards of job %s are still queued or running (squeue); "
                           "wait for them or scancel %s first", m->jobs[0], m->jobs[0]);
    }
    if (!dry_run && m->jobs[1][0]) {
        /* A merge after a cancelled array would wait forever. */
        char *scancel[] = { "scancel", m->jobs[1], NULL };
        if (run_tool(scancel, NULL, 0, 1, e) < 0)
            return -1;
    }
    snprintf(array, sizeof array, "--array=%s", todo);
    char *shards[] = { "sbatch", "--parsable", array, shard_sh, NULL };
    if (todo[0]) {
        if (dry_run)
            print_command(out, shards);
        else if ((rc = run_tool(shards, id[0], sizeof id[0], 0, e)) != 0)
            return rc < 0 ? -1 : err_set(e, 0, 0, "sbatch refused the shards' array job "
                                         "(exit %d)", rc);
        id[0][strcspn(id[0], ";")] = '\0';   /* --parsable: ID[;CLUSTER] */
        /* Known at once, so that a resume checks it even if the merge fails. */
        snprintf(m->jobs[0], JOB_ID_MAX, "%s", id[0]);
        m->jobs[1][0] = '\0';
        if (!dry_run && write_manifest(dir, m, e) != 0)
            return -1;
    }
    snprintf(dep, sizeof dep, "--dependency=afterok:%s", dry_run ? "ARRAY_JOB_ID" : id[0]);
    char *merge[] = { "sbatch", "--parsable", dep, merge_sh, NULL };
    char **mcmd = todo[0] ? merge : (char *[]){ "sbatch", "--parsable", merge_sh, NULL };
    if (dry_run) {
        print_command(out, mcmd);
        return 0;
    }
    if ((rc = run_tool(mcmd, id[1], sizeof id[1], 0, e)) != 0)
        return rc < 0 ? -1 : err_set(e, 0, 0, "sbatch refused the merge job (exit %d)", rc);
    id[1][strcspn(id[1], ";")] = '\0';
    if (todo[0])
        fprintf(out, "shards %s: job %s\n", todo, id[0]);
    fprintf(out, "merge: job %s\n", id[1]);
    memcpy(m->jobs, id, sizeof id);
    return write_manifest(dir, m, e);
}

int cluster_run(const char *dir, int dry_run, FILE *out, struct err *e)
{
    struct manifest m;
    char todo[LIST_MAX], merged[PATH_MAX];
    if (dir_ok(dir, e) != 0 || read_manifest(dir, &m, e) != 0)
        return CLUSTER_BAD_DIR;
    if (unfinished(dir, &m, todo, e) < 0)
        return -1;
    dir_file(dir, "merged.jsonl", merged);
    if (!todo[0] && access(merged, F_OK) == 0) {
        fprintf(out, "%s: every shard finished and merged into %s\n", dir, merged);
        return 0;
    }
    if (!m.parallel)
        return submit(dir, &m, todo, dry_run, out, e);
    char script[PATH_MAX];
    dir_file(dir, "parallel.sh", script);
    char *sh[] = { "sh", script, NULL };
    if (dry_run) {
        print_command(out, sh);
        return 0;
    }
    int rc = run_tool(sh, NULL, 0, 0, e);
    return rc < 0 ? -1 : rc ? 1 : 0;
}

/* --- a class graded in shards (grade.h) ---------------------------------- */

/* The grade's array job (cluster.h); referee and grade already quoted. */
static void grade_shard_script(FILE *f, const struct cluster_opts *o, const char *dir,
                               const char *referee, const char *grade)
{
    fprintf(f, "#!/bin/sh\n"
               "# One shard of the class graded into %1$s: its argument K, else the\n"
               "# Slurm array task's. Written by referee slurm grade; resumes its journal\n"
               "# when there is one.\n"
               "#SBATCH --job-name=arena-grade\n",
            dir);
    array_head(f, o, dir);
    fprintf(f, "resume=\n"
               "if [ -e \"%1$s/journal-$k.jsonl\" ]; then resume=--resume; fi\n"
               "exec %2$s grade %3$s --shard \"$k/%4$d\" $resume "
               "--concurrency \"${SLURM_CPUS_PER_TASK:-%5$d}\"\n",
            dir, referee, grade, o->shards, o->cpus);
}

static void grade_merge_script(FILE *f, const struct cluster_opts *o, const char *dir,
                               const char *referee, const char *grade)
{
    fprintf(f, "#!/bin/sh\n"
               "# Grades what the shards of %1$s left (nothing, when every one\n"
               "# finished) and writes grades.csv, the Gradescope results, the feedback\n"
               "# and index.html from all their journals. Written by referee slurm grade.\n"
               "#SBATCH --job-name=arena-grade-merge\n"
               "#SBATCH --cpus-per-task=%2$d\n"
               "#SBATCH --output=%1$s/merge.out\n",
            dir, o->cpus);
    sbatch_common(f, o);
    fprintf(f, "set -eu\n"
               "exec %s grade %s --resume --concurrency \"${SLURM_CPUS_PER_TASK:-%d}\"\n",
            referee, grade, o->cpus);
}

/* Submits dir's shard.sh as an array of shards and merge.sh after it
 * (afterany), printing their ids; dry_run: prints the two commands. */
static int grade_submit(const char *dir, int shards, int dry_run, FILE *out, struct err *e)
{
    char shard_sh[PATH_MAX], merge_sh[PATH_MAX], array[32], dep[JOB_ID_MAX + 32];
    char id[2][JOB_ID_MAX] = { "", "" };
    dir_file(dir, "shard.sh", shard_sh);
    dir_file(dir, "merge.sh", merge_sh);
    snprintf(array, sizeof array, "--array=1-%d", shards);
    snprintf(dep, sizeof dep, "--dependency=afterany:ARRAY_JOB_ID");
    char *cmd[2][5] = { { "sbatch", "--parsable", array, shard_sh, NULL },
                        { "sbatch", "--parsable", dep, merge_sh, NULL } };
    static const char *const what[2] = { "the shards' array job", "the merge job" };
    for (int i = 0; i < 2; i++) {
        if (dry_run) {
            print_command(out, cmd[i]);
            continue;
        }
        int rc = run_tool(cmd[i], id[i], sizeof id[i], 0, e);
        if (rc != 0)
            return rc < 0 ? -1 : err_set(e, 0, 0, "sbatch refused %s (exit %d)", what[i], rc);
        id[i][strcspn(id[i], ";")] = '\0';   /* --parsable: ID[;CLUSTER] */
        if (i == 0)
            fprintf(out, "shards 1-%d: job %s\n", shards, id[0]);
        else
            fprintf(out, "merge: job %s\n", id[1]);
        snprintf(dep, sizeof dep, "--dependency=afterany:%s", id[0]);
    }
    return 0;
}

int cluster_grade(const struct cluster_opts *o, const char *grade, const char *referee,
                  FILE *out, struct err *e)
{
    char ref[PATH_MAX + 64];
    assert(o->shards >= 1 && o->out[0] == '/' && grade);
    if (dir_ok(o->out, e) != 0) {
        err_set(e, 0, 0, "--out %.200s: %s", o->out, strcpy(ref, e->msg));
        return CLUSTER_BAD_DIR;
    }
    if (spec_quote(referee, ref, sizeof ref, 0) < 0)
        return err_set(e, 0, 0, "%s: path too long", referee);
    char *text[2] = { script_text(grade_shard_script, o, o->out, ref, grade),
                      script_text(grade_merge_script, o, o->out, ref, grade) };
    static const char *const name[2] = { "shard.sh", "merge.sh" };
    int rc = text[0] && text[1] ? 0 : err_set(e, 0, 0, "out of memory");
    for (int i = 0; i < 2 && !rc; i++)
        rc = write_file(o->out, name[i], text[i], 1, e);
    free(text[0]);
    free(text[1]);
    if (rc)
        return -1;
    fprintf(out, "%s: shard.sh, merge.sh written\n", o->out);
    return grade_submit(o->out, o->shards, o->dry_run, out, e);
}
