/*
 * cluster.h - a tournament split into shards that run elsewhere: as a Slurm
 * job array (sbatch) or with GNU parallel, on one machine or over ssh. The
 * schedule is a pure function of the configuration (schedule.h), so shard K
 * of N (`referee tournament --shard K/N`) plays the same games wherever it
 * runs, and `referee merge` joins the shard journals into the tournament.
 *
 * Everything lives in one folder DIR, which every machine must see at the
 * same path (a shared file system), as must the engines' files:
 *   config        the tournament (refopts.h's config file), resolved: every
 *                 engine in full, every path absolute
 *   cluster.json  {"schema": "arena.cluster/1", "shards": N, "games": G,
 *                 "runner": "slurm"|"parallel", "jobs": [IDS]}: what
 *                 referee status and resume read; "jobs" are the last
 *                 submission's Slurm job ids (array, merge)
 *   shard.sh      runs shard K (its argument, else SLURM_ARRAY_TASK_ID):
 *                 `referee tournament --config DIR/config --shard K/N
 *                 --journal DIR/shard-K.jsonl [--resume] --concurrency C`,
 *                 --resume when the journal exists (a resubmitted or
 *                 requeued task finishes it; one still held by a live
 *                 referee is refused: journal.h); C is SLURM_CPUS_PER_TASK,
 *                 else --cpus-per-shard. Its exit status 3 (every game
 *                 played, an engine forfeited all of its own) is 0, so the
 *                 merge job runs. Its #SBATCH lines make it the array job.
 *   merge.sh      merges the shards into DIR/merged.jsonl (refusing an
 *                 incomplete one), verifies it into verify.txt and writes
 *                 report.txt, report.json and report.csv beside it
 *   parallel.sh   (runner parallel) `parallel --joblog DIR/joblog
 *                 --resume-failed [--sshlogin S]... DIR/shard.sh ::: 1..N`,
 *                 then merge.sh
 *   shard-K.jsonl, shard-K.out, merge.out: the journals and job outputs
 * DIR's path goes into job scripts and #SBATCH lines, so it is limited to
 * CLUSTER_PATH_CHARS.
 *
 * A class (grade.h) is sharded the same way, its folder being grade's OUT
 * (cluster_grade): shard.sh runs `referee grade ... --shard K/N` into OUT,
 * merge.sh `referee grade ... --resume`, which grades what the shards left
 * and writes the outputs.
 */
#ifndef ARENA_CLUSTER_H
#define ARENA_CLUSTER_H

#include <limits.h>
#include <stdio.h>
#include "arena/err.h"

struct cJSON;

#define CLUSTER_SCHEMA "arena.cluster/1"
/* Shards are coarse (each plays many games) so that the scheduler is not
 * flooded: at most this many, and never more than the games. */
#define CLUSTER_MAX_SHARDS 1000
#define CLUSTER_MAX_ARGS 32       /* --sbatch-arg, --sshlogin */
#define CLUSTER_ARG_MAX 256       /* bytes of one, NUL included */
#define CLUSTER_PATH_CHARS \
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+@:="

/* What `referee slurm` is told besides the tournament (refopts.h fills it). */
struct cluster_opts {
    int shards;                  /* 0: not given */
    int cpus;                    /* CPUs (and games at once) per shard */
    char partition[CLUSTER_ARG_MAX], time[CLUSTER_ARG_MAX];   /* "": Slurm's default */
    int nsbatch, nssh;
    char sbatch[CLUSTER_MAX_ARGS][CLUSTER_ARG_MAX];  /* #SBATCH lines of both jobs */
    char ssh[CLUSTER_MAX_ARGS][CLUSTER_ARG_MAX];     /* parallel's --sshlogin */
    char out[PATH_MAX];          /* DIR */
    int dry_run, parallel;
};

/* Writes DIR's files for a tournament of `games` games whose resolved
 * config is `config` (refopts.h), run by the referee binary at `referee`
 * (absolute). DIR is made if missing; one that holds a config already is
 * refused (resume it instead). Assumes o->shards in 1..games. Returns 0,
 * or -1 with e (nothing written that names the tournament: config last). */
int cluster_write(const struct cluster_opts *o, const struct cJSON *config, long games,
                  const char *referee, struct err *e);

/* Runs DIR's unfinished shards (all of them the first time): Slurm submits
 * them as one array job (sbatch --parsable --array=LIST) and a merge job
 * depending on it (--dependency=afterok:ARRAY), printing both ids on out
 * and recording them in cluster.json; a previous merge job still waiting
 * for a cancelled array is cancelled (scancel), and shards still queued or
 * running refuse the resubmission. Parallel runs parallel.sh in the
 * foreground. dry_run: prints the commands instead. Every shard finished
 * and merged.jsonl there: says so and does nothing. Returns 0, 1 when a
 * command failed (its stderr is the user's), CLUSTER_BAD_DIR with e when
 * DIR is not one cluster_write made, or -1 with e. */
#define CLUSTER_BAD_DIR (-2)
int cluster_run(const char *dir, int dry_run, FILE *out, struct err *e);

/* referee slurm grade: writes into the class's OUT (o->out, absolute)
 *   shard.sh   the array job (#SBATCH --array=1-N, --cpus-per-task=C,
 *              --output=OUT/shard-%a.out, and o's partition, time and
 *              sbatch args): shard K (its argument, else
 *              SLURM_ARRAY_TASK_ID) runs `REFEREE grade GRADE --shard K/N
 *              [--resume] --concurrency C`, --resume when OUT/journal-K.jsonl
 *              exists (a requeued or resubmitted task finishes it); C is
 *              SLURM_CPUS_PER_TASK, else o->cpus
 *   merge.sh   `REFEREE grade GRADE --resume --concurrency C`: grades what
 *              no shard's journal holds and writes grades.csv and the rest
 *              (--output=OUT/merge.out)
 * then submits them, `sbatch --parsable --array=1-N OUT/shard.sh` and
 * `sbatch --parsable --dependency=afterany:ARRAY OUT/merge.sh` (afterany:
 * the merge finishes a shard that failed), printing their ids on out; with
 * o->dry_run it prints the two commands instead. grade: grade's options
 * every job shares (--rubric, --submissions, --out, the sandbox's), as sh
 * words (spec_quote), not checked here. referee: the binary's absolute
 * path. Returns 0, CLUSTER_BAD_DIR with e when OUT's path has a character
 * outside CLUSTER_PATH_CHARS (nothing written), or -1 with e (a file not
 * written, or sbatch failed: its stderr is the user's). */
int cluster_grade(const struct cluster_opts *o, const char *grade, const char *referee,
                  FILE *out, struct err *e);

/* Prints each shard's progress from its journal alone (games done/total,
 * and whether a referee is writing it now) and the whole's. 0, or -1 with
 * e when DIR is not one cluster_write made. */
int cluster_status(const char *dir, FILE *out, struct err *e);

#endif
