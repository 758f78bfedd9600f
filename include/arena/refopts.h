/*
 * refopts.h - the referee's options: one table for the command line and the
 * config file (`referee tournament --config FILE`), the settings they fill,
 * and the config file reader. A config key is an option's name (with '_' or
 * '-'); the command line, read after the file, overrides it. Each command
 * has its own getopt_long table (cli.h's convention); the tournament's
 * table also names the config file's keys. The CLI
 * (src/cli/referee_main.c) owns only the parse loop, the usage text and the
 * commands.
 *
 * Config file: one JSON object of options. Values are strings or numbers
 * (integral: 1.5 is refused, not rounded), true/false for resume,
 * analyze, ponder and force-concurrency; "engines" is a list of SPECs or
 * objects of SPEC keys ({"name", "cmd", "dir", ...}: spec.h).
 * Errors are placed at the offending key: FILE:LINE:COL: what is wrong.
 */
#ifndef ARENA_REFOPTS_H
#define ARENA_REFOPTS_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include "arena/analyze.h"
#include "arena/cgroup.h"
#include "arena/cpus.h"
#include "arena/refbench.h"
#include "arena/cluster.h"
#include "arena/report.h"
#include "arena/sandbox.h"
#include "arena/similarity.h"
#include "arena/tournament.h"

/* The referee's commands. */
enum refopts_command {
    REF_CMD_MATCH,
    REF_CMD_TOURNAMENT,
    REF_CMD_REPORT,
    REF_CMD_VERIFY,
    REF_CMD_MERGE,
    REF_CMD_ANALYZE,
    REF_CMD_BENCH,
    REF_CMD_SLURM,     /* a tournament's options and cluster.h's */
    REF_CMD_STATUS,
    REF_CMD_PLAY,
    REF_CMD_SIMILARITY,
    REF_CMD_GRADE,     /* grade.h reads its own options */
};

/* Option ids (getopt_long's val). */
enum refopts_opt_id {
    REF_OPT_GAME = 256, REF_OPT_ENGINE, REF_OPT_GAMES, REF_OPT_DEPTH, REF_OPT_PLIES,
    REF_OPT_OPENINGS, REF_OPT_SEED, REF_OPT_TIMEOUT, REF_OPT_CPU, REF_OPT_MEM, REF_OPT_DRAW,
    REF_OPT_KEEP, REF_OPT_LOG, REF_OPT_CONFIG, REF_OPT_FORMAT, REF_OPT_ROUNDS,
    REF_OPT_CONCURRENCY, REF_OPT_JOURNAL, REF_OPT_RESUME, REF_OPT_SPRT, REF_OPT_SHARD,
    REF_OPT_ANALYZE, REF_OPT_BUDGET, REF_OPT_MAX_EMPTY, REF_OPT_JSON, REF_OPT_SVG, REF_OPT_EACH,
    REF_OPT_SANDBOX, REF_OPT_SANDBOX_RO, REF_OPT_SANDBOX_ENV, REF_OPT_TABLE, REF_OPT_ANCHOR, REF_OPT_SEEDS, REF_OPT_JUDGE, REF_OPT_TC,
    REF_OPT_PONDER, REF_OPT_JUDGE_SANDBOX, REF_OPT_FORCE_CONCURRENCY,
    /* referee bench's own */
    REF_OPT_DEPTHS, REF_OPT_POSITIONS, REF_OPT_RANDOM_POSITIONS, REF_OPT_BENCH_PLIES,
    REF_OPT_REPEAT, REF_OPT_BENCH_BUDGET,
    REF_OPT_SHARDS, REF_OPT_PARTITION, REF_OPT_TIME, REF_OPT_CPUS, REF_OPT_SBATCH_ARG,
    REF_OPT_OUT, REF_OPT_DRY_RUN, REF_OPT_PARALLEL, REF_OPT_SSHLOGIN,
    REF_OPT_PORT, REF_OPT_LISTEN, REF_OPT_PAGE_TIMEOUT,  /* referee play's own */
    REF_OPT_SIMIL_POSITIONS                              /* referee similarity's own */
};

#define REF_CONFIG_CAP (1 << 20)  /* bytes of a config file */

/* The options of a job array that referee slurm takes for a tournament and
 * for a class (grade.h) alike; each sets a field of struct cluster_opts
 * (refopts_cluster_apply). */
#define REFOPTS_ARRAY_OPTIONS                                         \
    { "shards", required_argument, NULL, REF_OPT_SHARDS },            \
    { "partition", required_argument, NULL, REF_OPT_PARTITION },      \
    { "time", required_argument, NULL, REF_OPT_TIME },                \
    { "cpus-per-shard", required_argument, NULL, REF_OPT_CPUS },      \
    { "sbatch-arg", required_argument, NULL, REF_OPT_SBATCH_ARG },    \
    { "dry-run", no_argument, NULL, REF_OPT_DRY_RUN }

/* What the options of one command set. */
struct refopts_settings {
    enum refopts_command command;
    struct tour_config t;       /* rules, engines (unresolved until
                                 * spec_resolve_all), tournament fields */
    struct spec_keys each;      /* --each */
    long games;
    char openings[PATH_MAX], keep[PATH_MAX], log[PATH_MAX], journal[PATH_MAX], json[PATH_MAX];
    char svg[PATH_MAX];         /* bench --svg: the plot's file; "": none */
    int analyze;
    struct ana_opts ana;
    enum report_format report_format;
    enum report_csv_table report_table;   /* --table */
    int report_table_given;
    struct book book;
    struct sbx_policy sandbox;  /* --sandbox, --sandbox-ro, --sandbox-env */
    struct cg_root cg;          /* where each move's cgroup goes, when
                                 * rules.acct points here (cgroup.h) */
    int acct_sought;            /* cg was looked for (preflight_accounting,
                                 * or for a judge's cgroup, before the judge
                                 * starts): it is looked for once */
    int force_concurrency;      /* --force-concurrency: --concurrency may
                                 * exceed the referee's CPUs */
    struct cpu_plan cpus;       /* the CPUs of games at once, when
                                 * rules.cpus points here (cpus.h) */
    struct refbench_opts bench; /* bench: --depths (0-0: not given),
                                 * --random-positions, --repeat, --budget-ms;
                                 * --positions goes to openings, --plies to
                                 * the rules' random_plies, --json to json */
    struct similarity_opts simil; /* similarity: --positions, --format */
    struct cluster_opts cluster;  /* slurm's own options */
    char *judge_cmd;            /* --judge: never started while the options
                                 * are read (--judge-sandbox may follow).
                                 * match, tournament, slurm, bench,
                                 * similarity: started
                                 * by refopts_judge_start, which frees it
                                 * (the judge keeps its words); report, verify,
                                 * analyze: the judge to replay a judge's
                                 * journal with, started once checked against
                                 * its header. malloc'd, NULL: none */
    enum sbx_mode judge_sandbox;  /* --judge-sandbox: SBX_NAMESPACES (the
                                 * judge in a sandbox of its own, judge.h;
                                 * the default) or SBX_NONE */
    int port;                   /* play --port; 0: any free one */
    char listen[64];            /* play --listen: PLAYSRV_DEFAULT_LISTEN */
    int page_timeout_s;         /* play --page-timeout-s: PLAYSRV_PAGE_TIMEOUT_S */
};

/* The defaults of command. */
void refopts_settings_init(struct refopts_settings *s, enum refopts_command command);
/* Frees the engines, the opening book and the sandbox paths. */
void refopts_settings_free(struct refopts_settings *s);

/* The getopt_long table of command's options, ending with
 * CLI_STD_OPTIONS (--help, --version): static, not to be freed. */
const struct option *refopts_options(enum refopts_command command);
/* "--NAME" of option id into buf (cap bytes); "--?" for an unknown id. */
void refopts_option_flag(int id, char *buf, size_t cap);

/* Applies option id with value val (name: how the user wrote it, --rounds
 * on the command line, "rounds" in a config file, which every message
 * names). Returns 0, or -1 with e (no place: line and column 0). */
int refopts_settings_apply(struct refopts_settings *s, int id, const char *name, const char *val,
                       struct err *e);

/* The judge the user named and how it runs, into *j (judge.h's struct
 * judge_cmd; its cmd NULL when none was named): its sandbox takes s's
 * --sandbox-ro paths and --sandbox-env names, whatever --sandbox says, and
 * its cgroup goes under the moves' root, s's rules' acct once found
 * (NULL: none). */
struct judge_cmd;
void refopts_judge(const struct refopts_settings *s, struct judge_cmd *j);

/* After every option is read (so that --judge-sandbox is known before the
 * judge starts): for a command that plays (match, tournament, slurm,
 * bench, similarity), starts --judge's judge into s's rules, its game theirs. 0 (also
 * without --judge, and for the commands that read journals, whose judge
 * starts once checked against a journal's header); -1 with e when the
 * command is refused (judge.h's judge_open); JUDGE_FAILED with e when the
 * judge failed to start or its hello. */
int refopts_judge_start(struct refopts_settings *s, struct err *e);

/* Applies slurm's own option id (REFOPTS_ARRAY_OPTIONS, --out, --parallel,
 * --sshlogin) with value val to o, as refopts_settings_apply does. Returns
 * 0, -1 with e when the value is bad, or REFOPTS_NOT_MINE when id is not
 * one of them. */
#define REFOPTS_NOT_MINE 1
int refopts_cluster_apply(struct cluster_opts *o, int id, const char *name, const char *val,
                          struct err *e);

/* Applies a config file's text (len bytes, NUL-terminated at text[len]) to
 * s, which must be a tournament's. Returns 0, or -1 with e holding the line
 * and column of the bad key or JSON, and what is wrong. */
int refopts_config_parse(struct refopts_settings *s, const char *text, size_t len, struct err *e);
/* Reads path (at most REF_CONFIG_CAP bytes) and applies it; 0, or -1 with e
 * (line 0 when the file cannot be read). */
int refopts_config_read(struct refopts_settings *s, const char *path, struct err *e);

/* The config file of s's tournament once its engines are resolved
 * (spec_resolve_all): every rule of play, the format and rounds, each engine
 * in full ({"name", "cmd", "dir", "stderr", "depth"}, --each folded in) and
 * every path absolute, so that reading it anywhere gives the same journal
 * header. Not in it: journal, resume, shard, concurrency,
 * force-concurrency, sprt (the caller's). A new cJSON object (the caller
 * deletes it), or NULL when out of memory or a path cannot be made
 * absolute. */
struct cJSON *refopts_config_json(const struct refopts_settings *s);

#endif
