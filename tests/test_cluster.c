/*
 * test_cluster.c - a tournament's cluster folder (cluster.h) in a
 * temporary folder: the files cluster_write makes (the manifest, the job
 * scripts' #SBATCH lines and commands), the shard script run with a
 * stand-in referee (its arguments, --resume once a journal exists, exit
 * status 3 taken as done), its refusals, cluster_status's progress and
 * cluster_run's dry-run commands. No scheduler is asked.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/cluster.h"
#include "arena/textfile.h"

struct folder {
    char root[64];             /* removed at the end */
    char dir[128];             /* the cluster folder, root/c */
    char referee[128];         /* root/referee: a stand-in */
    struct cluster_opts o;
};

/* A stand-in referee that writes its arguments to root/args and exits
 * with root/status's number (0 when none). */
static void folder_open(struct folder *f, int shards)
{
    memset(f, 0, sizeof *f);
    snprintf(f->root, sizeof f->root, "/tmp/test_cluster_XXXXXX");
    cr_assert_not_null(mkdtemp(f->root));
    snprintf(f->dir, sizeof f->dir, "%s/c", f->root);
    snprintf(f->referee, sizeof f->referee, "%s/referee", f->root);
    FILE *s = fopen(f->referee, "w");
    cr_assert_not_null(s);
    fprintf(s, "#!/bin/sh\necho \"$*\" > %s/args\nexit $(cat %s/status 2>/dev/null || echo 0)\n",
            f->root, f->root);
    fclose(s);
    chmod(f->referee, 0755);
    f->o.shards = shards;
    f->o.cpus = 3;
    snprintf(f->o.out, sizeof f->o.out, "%s", f->dir);
}

static void folder_close(struct folder *f)
{
    tf_remove_tree(f->root);
}

static int write_folder(struct folder *f, long games, struct err *e)
{
    cJSON *config = cJSON_CreateObject();
    cJSON_AddNumberToObject(config, "games_per_pair", 1);
    int rc = cluster_write(&f->o, config, games, f->referee, e);
    cJSON_Delete(config);
    return rc;
}

/* The text of DIR/name (malloc'd). */
static char *file(const struct folder *f, const char *dir, const char *name)
{
    char path[PATH_MAX], *text;
    size_t len;
    struct err e;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_eq(tf_read(path, 1 << 20, &text, &len, &e), 0, "%s", e.msg);
    (void)f;
    return text;
}

static void assert_holds(const char *text, const char *part)
{
    cr_assert_not_null(strstr(text, part), "'%s' not in:\n%s", part, text);
}

Test(cluster, write_makes_the_manifest_and_the_job_scripts)
{
    struct folder f;
    folder_open(&f, 2);
    snprintf(f.o.partition, sizeof f.o.partition, "short");
    snprintf(f.o.time, sizeof f.o.time, "1:00:00");
    snprintf(f.o.sbatch[f.o.nsbatch++], CLUSTER_ARG_MAX, "--mem=2G");
    snprintf(f.o.ssh[f.o.nssh++], CLUSTER_ARG_MAX, "me@host one");
    struct err e;
    cr_assert_eq(write_folder(&f, 5, &e), 0, "%s", e.msg);

    char *text = file(&f, f.dir, "cluster.json");
    cr_assert_str_eq(text, "{\n\t\"schema\":\t\"arena.cluster/1\",\n\t\"shards\":\t2,\n"
                           "\t\"games\":\t5,\n\t\"runner\":\t\"slurm\",\n\t\"jobs\":\t[]\n}\n");
    free(text);
    text = file(&f, f.dir, "config");
    cr_assert_str_eq(text, "{\n\t\"games_per_pair\":\t1\n}\n");
    free(text);

    char want[4096];
    text = file(&f, f.dir, "shard.sh");
    snprintf(want, sizeof want, "#SBATCH --job-name=arena-shards\n#SBATCH --array=1-2\n"
             "#SBATCH --cpus-per-task=3\n#SBATCH --output=%s/shard-%%a.out\n"
             "#SBATCH --partition=short\n#SBATCH --time=1:00:00\n#SBATCH --mem=2G\n", f.dir);
    assert_holds(text, want);
    free(text);
    text = file(&f, f.dir, "merge.sh");
    snprintf(want, sizeof want, "#SBATCH --output=%s/merge.out\n#SBATCH --partition=short\n"
             "#SBATCH --time=1:00:00\n#SBATCH --mem=2G\nset -eu\ncd %s\n%s merge merged.jsonl "
             "shard-1.jsonl shard-2.jsonl\n%s verify merged.jsonl > verify.txt\n", f.dir, f.dir,
             f.referee, f.referee);
    assert_holds(text, want);
    free(text);
    text = file(&f, f.dir, "parallel.sh");
    snprintf(want, sizeof want, "parallel --joblog %s/joblog --resume-failed --sshlogin "
             "'me@host one' %s/shard.sh ::: $(seq 1 2)\nexec %s/merge.sh\n", f.dir, f.dir, f.dir);
    assert_holds(text, want);
    free(text);

    const char *scripts[] = { "shard.sh", "merge.sh", "parallel.sh" };
    for (int i = 0; i < 3; i++) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", f.dir, scripts[i]);
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_eq(st.st_mode & 0777, 0755, "%s: %o", scripts[i], st.st_mode & 0777);
    }
    folder_close(&f);
}

/* Runs DIR/shard.sh K with SLURM's variables unset; its exit status. */
static int run_shard(const struct folder *f, int k)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "env -u SLURM_CPUS_PER_TASK -u SLURM_ARRAY_TASK_ID sh %s/shard.sh %d",
             f->dir, k);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "%d", status);
    return WEXITSTATUS(status);
}

static void set_status(const struct folder *f, const char *status)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/status", f->root);
    FILE *s = fopen(path, "w");
    fputs(status, s);
    fclose(s);
}

Test(cluster, a_shard_plays_its_part_resumes_its_journal_and_takes_3_as_done)
{
    struct folder f;
    folder_open(&f, 2);
    struct err e;
    cr_assert_eq(write_folder(&f, 5, &e), 0, "%s", e.msg);
    cr_assert_eq(run_shard(&f, 2), 0);
    char want[4096];
    char *args = file(&f, f.root, "args");
    snprintf(want, sizeof want, "tournament --config %s/config --shard 2/2 --journal "
             "%s/shard-2.jsonl --concurrency 3\n", f.dir, f.dir);
    cr_assert_str_eq(args, want);
    free(args);

    char journal[PATH_MAX];
    snprintf(journal, sizeof journal, "%s/shard-2.jsonl", f.dir);
    fclose(fopen(journal, "w"));
    set_status(&f, "3");
    cr_assert_eq(run_shard(&f, 2), 0, "3: played, an engine forfeited all its games");
    args = file(&f, f.root, "args");
    snprintf(want, sizeof want, "tournament --config %s/config --shard 2/2 --journal "
             "%s/shard-2.jsonl --resume --concurrency 3\n", f.dir, f.dir);
    cr_assert_str_eq(args, want);
    free(args);
    set_status(&f, "4");
    cr_assert_eq(run_shard(&f, 2), 4, "a failure is the job's");
    folder_close(&f);
}

Test(cluster, write_refuses_shards_past_the_games_a_path_for_scripts_and_a_used_folder)
{
    struct folder f;
    folder_open(&f, 6);
    struct err e;
    cr_assert_eq(write_folder(&f, 5, &e), -1);
    cr_assert_str_eq(e.msg, "--shards must be from 1 to the tournament's 5 games, got 6");
    f.o.shards = 0;
    cr_assert_eq(write_folder(&f, 5, &e), -1);
    cr_assert_str_eq(e.msg, "--shards must be from 1 to the tournament's 5 games, got 0");

    f.o.shards = 2;
    snprintf(f.o.out, sizeof f.o.out, "%s/a b", f.root);
    cr_assert_eq(write_folder(&f, 5, &e), -1);
    char want[4096];
    snprintf(want, sizeof want, "--out '%s/a b': a path of letters, digits and '/._-+@:=' only, "
             "please (it goes into job scripts)", f.root);
    cr_assert_str_eq(e.msg, want);
    cr_assert_eq(access(f.o.out, F_OK), -1, "nothing made");

    snprintf(f.o.out, sizeof f.o.out, "%s", f.dir);
    cr_assert_eq(write_folder(&f, 5, &e), 0, "%s", e.msg);
    cr_assert_eq(write_folder(&f, 5, &e), -1);
    snprintf(want, sizeof want, "%s: holds a tournament already (referee slurm --resume %s "
             "finishes it)", f.dir, f.dir);
    cr_assert_str_eq(e.msg, want);
    folder_close(&f);
}

Test(cluster, status_counts_each_shards_share_of_the_games)
{
    struct folder f;
    folder_open(&f, 2);
    struct err e;
    cr_assert_eq(write_folder(&f, 5, &e), 0, "%s", e.msg);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_eq(cluster_status(f.dir, out, &e), 0, "%s", e.msg);
    fclose(out);
    cr_assert_str_eq(text, "shard 1/2: 0/3 games, not started\n"
                           "shard 2/2: 0/2 games, not started\n"
                           "all: 0/5 games\n");
    free(text);
    folder_close(&f);
}

static char *run_dry(const struct folder *f, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    struct err e;
    FILE *out = open_memstream(&text, &len);
    *rc = cluster_run(f->dir, 1, out, &e);
    fclose(out);
    return text;
}

Test(cluster, a_dry_run_prints_the_submissions_it_would_make)
{
    struct folder f;
    folder_open(&f, 3);
    struct err e;
    cr_assert_eq(write_folder(&f, 7, &e), 0, "%s", e.msg);
    int rc;
    char *text = run_dry(&f, &rc);
    cr_assert_eq(rc, 0);
    char want[4096];
    snprintf(want, sizeof want, "sbatch --parsable --array=1-3 %s/shard.sh\n"
             "sbatch --parsable --dependency=afterok:ARRAY_JOB_ID %s/merge.sh\n", f.dir, f.dir);
    cr_assert_str_eq(text, want);
    free(text);
    folder_close(&f);

    folder_open(&f, 2);
    f.o.parallel = 1;
    cr_assert_eq(write_folder(&f, 2, &e), 0, "%s", e.msg);
    text = run_dry(&f, &rc);
    cr_assert_eq(rc, 0);
    snprintf(want, sizeof want, "sh %s/parallel.sh\n", f.dir);
    cr_assert_str_eq(text, want);
    free(text);
    folder_close(&f);
}

Test(cluster, a_folder_referee_slurm_did_not_write_is_refused)
{
    struct folder f;
    folder_open(&f, 2);
    struct err e;
    FILE *out = fopen("/dev/null", "w");
    cr_assert_eq(cluster_run(f.root, 1, out, &e), CLUSTER_BAD_DIR);
    char want[4096];
    snprintf(want, sizeof want, "%s: not a folder referee slurm wrote (", f.root);
    cr_assert_eq(strncmp(e.msg, want, strlen(want)), 0, "%s", e.msg);

    char path[256];
    snprintf(path, sizeof path, "%s/cluster.json", f.root);
    FILE *m = fopen(path, "w");
    fputs("{\"schema\":\"arena.cluster/1\",\"shards\":3,\"games\":2,\"runner\":\"slurm\","
          "\"jobs\":[]}\n", m);
    fclose(m);
    cr_assert_eq(cluster_status(f.root, out, &e), -1, "more shards than games");
    snprintf(want, sizeof want, "%s: not a arena.cluster/1 file", path);
    cr_assert_str_eq(e.msg, want);
    fclose(out);
    folder_close(&f);
}
