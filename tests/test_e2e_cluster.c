/*
 * test_e2e_cluster.c - `referee slurm`, `status` and the shard checks of
 * `merge` end to end, without a scheduler: --dry-run writes DIR (config, job
 * scripts) and prints the sbatch commands, the shard scripts run by hand
 * give the whole tournament, status reads the journals, --resume picks
 * exactly the unfinished shards, merge refuses an incomplete shard and one
 * of another tournament naming it, and bad arguments exit 2 with a message
 * and change nothing. make test-cluster runs the same against a real Slurm.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_BAD 2
#define SPEC_MAX (2 * PATH_MAX + 256)
#define CMD_MAX (4 * PATH_MAX)

/* Two deterministic engines: 2 rounds are 4 games, as 2 shards of 2. */
struct tour {
    char dir[PATH_MAX], out[PATH_MAX];
    char d1[SPEC_MAX], d2[SPEC_MAX];
};

static void tour_init(struct tour *t, const char *dir, const char *name)
{
    char e[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    snprintf(t->out, sizeof t->out, "%s/%s", dir, name);
    snprintf(t->d1, SPEC_MAX, "name=d1,cmd=%s one-move --game connect4 --depth 1 {in} {out}", e);
    snprintf(t->d2, SPEC_MAX, "name=d2,cmd=%s one-move --game connect4 --depth 2 {in} {out}", e);
}

/* referee slurm on t's tournament --dry-run, with extra (NULL-terminated). */
static void slurm_dry(struct e2e_run *r, const struct tour *t, const char *seed,
                      const char *const *extra)
{
    const char *args[40] = { "slurm", "--game", "connect4", "--engine", t->d1, "--engine",
                             t->d2, "--random-plies", "2", "--rounds", "2", "--seed", seed,
                             "--shards", "2", "--out", t->out, "--dry-run" };
    int n = 18;
    for (int i = 0; extra && extra[i]; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    e2e_runv(r, t->dir, NULL, "referee", args);
}

static char *read_in(const struct tour *t, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", t->out, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no %s", path);
    return text;
}

static void assert_line(const char *text, const char *line, const char *file)
{
    size_t n = strlen(line);
    for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return;
    cr_assert_fail("%s has no line \"%s\":\n%s", file, line, text);
}

/* Runs t's shard k by hand (the array task's script). */
static void run_shard(const struct tour *t, const char *k)
{
    char script[PATH_MAX + 16];
    snprintf(script, sizeof script, "%s/shard.sh", t->out);
    struct e2e_run r;
    e2e_run_tool(&r, t->dir, NULL, "sh", script, k, NULL);
    cr_assert_eq(r.status, 0, "shard %s: exit %d: %s", k, r.status, r.err);
    e2e_run_free(&r);
}

static void assert_status(const struct tour *t, const char *want)
{
    struct e2e_run r;
    e2e_run(&r, t->dir, NULL, "referee", "status", t->out, NULL);
    cr_assert_eq(r.status, 0, "status: exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, want);
    e2e_run_free(&r);
}

/* Keeps the header and the first n games of journal in (cuts the rest, as
 * a cancelled shard leaves it). */
static void cut_journal(const struct tour *t, const char *name, int n)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", t->out, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no %s", path);
    char *p = text;
    for (int i = 0; i <= n; i++)
        p = strchr(p, '\n') + 1;
    FILE *f = fopen(path, "w");
    fwrite(text, 1, (size_t)(p - text), f);
    fclose(f);
    free(text);
}

Test(e2e_cluster, dry_run_writes_the_job_scripts_and_submits_nothing)
{
    char *dir = e2e_tmpdir();
    struct tour t;
    tour_init(&t, dir, "run");
    struct e2e_run r;
    const char *extra[] = { "--partition", "short", "--time", "10:00", "--cpus-per-shard", "3",
                            "--sbatch-arg=--account=chess", NULL };
    slurm_dry(&r, &t, "1", extra);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char want[4 * PATH_MAX], referee[PATH_MAX], abs[PATH_MAX];
    cr_assert_not_null(realpath(t.out, abs));
    snprintf(want, sizeof want,
             "%s: config, shard.sh, merge.sh, parallel.sh written\n"
             "sbatch --parsable --array=1-2 %s/shard.sh\n"
             "sbatch --parsable --dependency=afterok:ARRAY_JOB_ID %s/merge.sh\n",
             t.out, t.out, t.out);
    cr_assert_str_eq(r.out, want);
    cr_assert_str_eq(r.err, "");

    e2e_bin_path("referee", referee, sizeof referee);
    char real_ref[PATH_MAX];
    cr_assert_not_null(realpath(referee, real_ref));
    char *shard = read_in(&t, "shard.sh");
    assert_line(shard, "#SBATCH --array=1-2", "shard.sh");
    assert_line(shard, "#SBATCH --cpus-per-task=3", "shard.sh");
    assert_line(shard, "#SBATCH --partition=short", "shard.sh");
    assert_line(shard, "#SBATCH --time=10:00", "shard.sh");
    assert_line(shard, "#SBATCH --account=chess", "shard.sh");
    snprintf(want, sizeof want, "#SBATCH --output=%s/shard-%%a.out", abs);
    assert_line(shard, want, "shard.sh");
    snprintf(want, sizeof want,
             "%s tournament --config %s/config --shard \"$k/2\" --journal \"$journal\" "
             "$resume --concurrency \"${SLURM_CPUS_PER_TASK:-3}\" || status=$?", real_ref, abs);
    assert_line(shard, want, "shard.sh");
    assert_line(shard, "if [ \"$status\" -eq 3 ]; then status=0; fi", "shard.sh");
    char *merge = read_in(&t, "merge.sh");
    snprintf(want, sizeof want, "%s merge merged.jsonl shard-1.jsonl shard-2.jsonl", real_ref);
    assert_line(merge, want, "merge.sh");
    snprintf(want, sizeof want, "%s verify merged.jsonl > verify.txt", real_ref);
    assert_line(merge, want, "merge.sh");
    assert_line(merge, "#SBATCH --partition=short", "merge.sh");
    cr_assert_null(strstr(merge, "--cpus-per-task"), "the merge needs one CPU:\n%s", merge);
    char *par = read_in(&t, "parallel.sh");
    snprintf(want, sizeof want, "parallel --joblog %s/joblog --resume-failed %s/shard.sh ::: "
             "$(seq 1 2)", abs, abs);
    assert_line(par, want, "parallel.sh");

    /* The config: the engines in full, every path absolute. */
    char *conf = read_in(&t, "config");
    cJSON *c = cJSON_Parse(conf);
    cr_assert_not_null(c, "config is not JSON:\n%s", conf);
    cr_assert_str_eq(cJSON_GetObjectItem(c, "game")->valuestring, "connect4");
    cr_assert_eq(cJSON_GetObjectItem(c, "rounds")->valueint, 2);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(c, "engines")), 2);
    const cJSON *e1 = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "engines"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(e1, "name")->valuestring, "d1");
    cr_assert_eq(cJSON_GetObjectItem(e1, "dir")->valuestring[0], '/');
    cJSON_Delete(c);
    free(conf);
    free(shard);
    free(merge);
    free(par);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The shard scripts by hand are the whole tournament; status follows
 * them; --resume picks exactly the unfinished shard. */
Test(e2e_cluster, shards_by_hand_status_and_resume, .timeout = 120)
{
    char *dir = e2e_tmpdir();
    struct tour t;
    tour_init(&t, dir, "run");
    struct e2e_run r, whole, w, m;
    slurm_dry(&r, &t, "1", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    assert_status(&t, "shard 1/2: 0/2 games, not started\n"
                      "shard 2/2: 0/2 games, not started\n"
                      "all: 0/4 games\n");
    run_shard(&t, "1");
    run_shard(&t, "2");
    assert_status(&t, "shard 1/2: 2/2 games, finished\n"
                      "shard 2/2: 2/2 games, finished\n"
                      "all: 4/4 games\n");
    /* As a cancelled task leaves it: shard 2 with one game. */
    cut_journal(&t, "shard-2.jsonl", 1);
    assert_status(&t, "shard 1/2: 2/2 games, finished\n"
                      "shard 2/2: 1/2 games, stopped\n"
                      "all: 3/4 games\n");
    char want[4 * PATH_MAX];
    snprintf(want, sizeof want,
             "sbatch --parsable --array=2 %s/shard.sh\n"
             "sbatch --parsable --dependency=afterok:ARRAY_JOB_ID %s/merge.sh\n", t.out, t.out);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", t.out, "--dry-run", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, want);
    e2e_run_free(&r);
    run_shard(&t, "2");   /* resumes its journal */

    char script[PATH_MAX + 16];
    snprintf(script, sizeof script, "%s/merge.sh", t.out);
    e2e_run_tool(&m, dir, NULL, "sh", script, NULL);
    cr_assert_eq(m.status, 0, "merge.sh: exit %d: %s", m.status, m.err);
    assert_status(&t, "shard 1/2: 2/2 games, finished\n"
                      "shard 2/2: 2/2 games, finished\n"
                      "all: 4/4 games, merged into merged.jsonl\n");

    /* The same tournament in one process: the same standings. */
    e2e_run(&whole, dir, NULL, "referee", "tournament", "--game", "connect4", "--engine", t.d1,
            "--engine", t.d2, "--random-plies", "2", "--rounds", "2", "--journal", "whole.jsonl",
            NULL);
    cr_assert_eq(whole.status, 0, "%s", whole.err);
    e2e_run(&w, dir, NULL, "referee", "report", "whole.jsonl", NULL);
    char *report = read_in(&t, "report.txt");
    char *cut_w = strstr(w.out, "CPU time"), *cut_m = strstr(report, "CPU time");
    cr_assert(cut_w && cut_m, "%s\n%s", w.out, report);
    *cut_w = *cut_m = '\0';
    cr_assert_str_eq(report, w.out);
    char *verify = read_in(&t, "verify.txt");
    cr_assert_neq(verify[0], '\0', "verify.txt is empty");

    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", t.out, "--dry-run", NULL);
    snprintf(want, sizeof want, "%s: every shard finished and merged into %s/merged.jsonl\n",
             t.out, t.out);
    cr_assert_str_eq(r.out, want);
    free(report);
    free(verify);
    e2e_run_free(&r);
    e2e_run_free(&m);
    e2e_run_free(&whole);
    e2e_run_free(&w);
    e2e_rmdir(dir);
}

Test(e2e_cluster, merge_refuses_an_incomplete_shard_and_another_tournament, .timeout = 120)
{
    char *dir = e2e_tmpdir();
    struct tour a, b;
    tour_init(&a, dir, "a");
    tour_init(&b, dir, "b");
    struct e2e_run r;
    slurm_dry(&r, &a, "1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_run_free(&r);
    slurm_dry(&r, &b, "2", NULL);   /* another seed: other openings */
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_run_free(&r);
    run_shard(&a, "1");
    run_shard(&a, "2");
    run_shard(&b, "2");
    char out[PATH_MAX + 16], s1[PATH_MAX + 16], s2[PATH_MAX + 16], other[PATH_MAX + 16];
    char want[4 * PATH_MAX];
    snprintf(out, sizeof out, "%s/m.jsonl", dir);
    snprintf(s1, sizeof s1, "%s/shard-1.jsonl", a.out);
    snprintf(s2, sizeof s2, "%s/shard-2.jsonl", a.out);
    snprintf(other, sizeof other, "%s/shard-2.jsonl", b.out);

    e2e_run(&r, dir, NULL, "referee", "merge", out, s1, other, NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    snprintf(want, sizeof want, "%s:1:1: a shard of another tournament (headers differ)\n",
             other);
    cr_assert_str_eq(r.err, want);
    cr_assert_not(e2e_exists(out), "merge wrote %s", out);
    e2e_run_free(&r);

    cut_journal(&a, "shard-2.jsonl", 1);
    e2e_run(&r, dir, NULL, "referee", "merge", out, s1, s2, NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    snprintf(want, sizeof want, "%s: shard 2/2 is incomplete: 1 of its 2 games (finish it "
             "with tournament --resume)\n", s2);
    cr_assert_str_eq(r.err, want);
    cr_assert_not(e2e_exists(out), "merge wrote %s", out);
    e2e_run_free(&r);

    /* A header without its shard: merge cannot tell finished from cut, so
     * it must not write a "1/1" journal that a second merge refuses. */
    char *text = e2e_slurp(s1, NULL);
    char *key = text ? strstr(text, "\"shard\":") : NULL;
    cr_assert_not_null(key, "no \"shard\" in %s", s1);
    memcpy(key, "\"sharp\"", 7);
    FILE *f = fopen(s1, "w");
    cr_assert(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot rewrite %s", s1);
    free(text);
    e2e_run(&r, dir, NULL, "referee", "merge", out, s1, NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    snprintf(want, sizeof want, "%s:1:1: the header has no \"shard\" k/n of its \"games\" "
             "(only journals of referee tournament merge)\n", s1);
    cr_assert_str_eq(r.err, want);
    cr_assert_not(e2e_exists(out), "merge wrote %s", out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Strings, not pointers: Criterion copies the cases into the test's process. */
struct bad_case {
    char args[8][48];      /* after the tournament's options; "" ends them */
    char err[160];         /* stderr's first line */
};

ParameterizedTestParameters(e2e_cluster, bad_arguments_exit_2_and_change_nothing)
{
    static struct bad_case cases[] = {
        { { "" }, "referee: slurm: --shards is required" },
        { { "--shards", "2" }, "referee: slurm: --out DIR is required" },
        { { "--shards", "0", "--out", "o" },
          "referee: --shards must be a number from 1 to 1000, got '0'" },
        { { "--shards", "5", "--out", "o" },
          "referee: --shards must be from 1 to the tournament's 4 games, got 5" },
        { { "--shards", "2", "--out", "o", "--journal", "j.jsonl" },
          "referee: slurm: --journal, --shard and --concurrency are the shards' own "
          "(DIR/shard-K.jsonl, K/N, --cpus-per-shard)" },
        { { "--shards", "2", "--out", "o", "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05" },
          "referee: slurm: --sprt stops on the games of one process; shards cannot share it" },
        { { "--shards", "2", "--out", "o", "--sbatch-arg", "account" },
          "referee: --sbatch-arg must be an sbatch option (-X or --NAME=VALUE), got 'account'" },
        { { "--shards", "2", "--out", "o", "--sshlogin", "host1" },
          "referee: slurm: --sshlogin belongs to --parallel" },
        { { "--shards", "2", "--out", "o", "--time", "1 day" },
          "referee: --time must be one word of at most 255 bytes, got '1 day'" },
        { { "--shards", "2", "--out", "my dir" },
          "referee: --out 'my dir': a path of letters, digits and '/._-+@:=' only, please (it "
          "goes into job scripts)" },
        { { "--shards", "2", "--out", "o", "--cpus-per-shard", "0" },
          "referee: --cpus-per-shard must be a number from 1 to 256, got '0'" },
    };
    return cr_make_param_array(struct bad_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_case *c, e2e_cluster, bad_arguments_exit_2_and_change_nothing)
{
    char *dir = e2e_tmpdir();
    struct tour t;
    tour_init(&t, dir, "o");
    const char *args[32] = { "slurm", "--game", "connect4", "--engine", t.d1, "--engine", t.d2,
                             "--rounds", "2", "--dry-run" };
    int n = 10;
    for (int i = 0; c->args[i][0]; i++)
        args[n++] = c->args[i];
    args[n] = NULL;
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d: %s", r.status, r.err);
    size_t len = strcspn(r.err, "\n");
    cr_assert(strlen(c->err) == len && strncmp(r.err, c->err, len) == 0, "stderr: %s\nwant: %s",
              r.err, c->err);
    cr_assert_str_eq(r.out, "");
    cr_assert_not(e2e_exists(t.out), "%s was made", t.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_cluster, resume_and_status_refuse_what_is_not_a_slurm_folder)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "status", dir, NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "referee: %s: not a folder referee slurm wrote (cannot open: No "
             "such file or directory)\n", dir);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", dir, NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", dir, "--game", "nim", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_assert_not_null(strstr(r.err, "referee: slurm: --resume takes the folder alone"), "%s",
                       r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A folder that holds a tournament is never overwritten. */
Test(e2e_cluster, a_second_slurm_into_one_folder_is_refused)
{
    char *dir = e2e_tmpdir();
    struct tour t;
    tour_init(&t, dir, "run");
    struct e2e_run r;
    slurm_dry(&r, &t, "1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_run_free(&r);
    char *before = read_in(&t, "config");
    slurm_dry(&r, &t, "7", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "referee: %s: holds a tournament already (referee slurm --resume "
             "%s finishes it)\n", t.out, t.out);
    cr_assert_str_eq(r.err, want);
    char *after = read_in(&t, "config");
    cr_assert_str_eq(after, before);
    free(before);
    free(after);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Stand-ins for Slurm's commands in PATH: sbatch prints job ids 41, 42, ...
 * and every call is logged in DIR/calls; squeue prints DIR/queue. */
static void fake_slurm(const char *dir)
{
    static const char *const tools[][2] = {
        { "sbatch", "n=$(cat \"$D/n\" 2>/dev/null || echo 41)\necho \"sbatch $*\" >>\"$D/calls\"\n"
                    "echo $((n + 1)) >\"$D/n\"\necho \"$n;arena\"\n" },
        { "squeue", "cat \"$D/queue\" 2>/dev/null\n" },
        { "scancel", "echo \"scancel $*\" >>\"$D/calls\"\n" },
    };
    char path[PATH_MAX + 32];
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, tools[i][0]);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f, "#!/bin/sh\nD='%s'\n%s", dir, tools[i][1]);
        fclose(f);
        cr_assert_eq(chmod(path, 0755), 0);
    }
    char *old = getenv("PATH");
    char *p = malloc(strlen(dir) + strlen(old ? old : "") + 2);
    sprintf(p, "%s:%s", dir, old ? old : "");
    setenv("PATH", p, 1);
    free(p);
}

static char *calls(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/calls", dir);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no call logged in %s", path);
    unlink(path);
    return text;
}

/* Submission prints the ids and records them; --resume refuses while the
 * array is queued, then cancels the old merge and submits anew. */
Test(e2e_cluster, submission_records_the_jobs_and_resume_respects_the_queue)
{
    char *dir = e2e_tmpdir();
    fake_slurm(dir);
    struct tour t;
    tour_init(&t, dir, "run");
    const char *args[] = { "slurm", "--game", "connect4", "--engine", t.d1, "--engine", t.d2,
                           "--rounds", "2", "--shards", "2", "--out", t.out, NULL };
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char want[4 * PATH_MAX];
    snprintf(want, sizeof want, "%s: config, shard.sh, merge.sh, parallel.sh written\n"
             "shards 1-2: job 41\nmerge: job 42\n", t.out);
    cr_assert_str_eq(r.out, want);
    e2e_run_free(&r);
    char *log = calls(dir);
    snprintf(want, sizeof want, "sbatch --parsable --array=1-2 %s/shard.sh\n"
             "sbatch --parsable --dependency=afterok:41 %s/merge.sh\n", t.out, t.out);
    cr_assert_str_eq(log, want);
    free(log);
    char *manifest = read_in(&t, "cluster.json");
    cr_assert_not_null(strstr(manifest, "\"jobs\":\t[\"41\", \"42\"]"), "%s", manifest);
    free(manifest);

    char queue[PATH_MAX + 16];
    snprintf(queue, sizeof queue, "%s/queue", dir);
    FILE *f = fopen(queue, "w");
    fputs("41_2\n", f);
    fclose(f);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", t.out, NULL);
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "referee: shards of job 41 are still queued or running (squeue); "
                            "wait for them or scancel 41 first\n");
    e2e_run_free(&r);

    unlink(queue);
    e2e_run(&r, dir, NULL, "referee", "slurm", "--resume", t.out, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "shards 1-2: job 43\nmerge: job 44\n");
    e2e_run_free(&r);
    log = calls(dir);
    snprintf(want, sizeof want, "scancel 42\n"
             "sbatch --parsable --array=1-2 %s/shard.sh\n"
             "sbatch --parsable --dependency=afterok:43 %s/merge.sh\n", t.out, t.out);
    cr_assert_str_eq(log, want);
    free(log);
    e2e_rmdir(dir);
}
