/* referee_main.c - the referee binary: matches, tournaments, reports,
 * verify and merge between any engines through board files. Each command's
 * option table and the config file's keys are in refopts.h (a config key is
 * a tournament option's name, with '_' or '-'); the config file is applied
 * before the command line's options, which override it. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/analyze.h"
#include "arena/cli.h"
#include "arena/cluster.h"
#include "arena/limits.h"
#include "arena/refopts.h"
#include "arena/rules.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "arena/tournament.h"
#include "arena/textfile.h"
#include "arena/verify.h"

/* match and tournament: every game was played, but an engine forfeited all
 * of its games for one reason (a line at the end says which), so a grading
 * script notices. */
#define EXIT_FORFEITED 3

static const char usage_text[] =
    "Usage: %1$s match --game G --engine SPEC --engine SPEC [OPTIONS]\n"
    "       %1$s tournament (--config FILE.json | --game G --engine SPEC ...) [OPTIONS]\n"
    "       %1$s report JOURNAL|LOG [--format text|json|html|csv [--table T]]\n"
    "       %1$s verify JOURNAL|LOG\n"
    "       %1$s analyze JOURNAL|LOG [--budget-ms N] [--max-empty N] [--json FILE]\n"
    "       %1$s merge OUT JOURNAL...\n"
    "       %1$s bench --game G --engine SPEC... --depths A-B\n"
    "             (--positions FILE | --random-positions N [--plies P] [--seed S])\n"
    "             [--repeat R] [--budget-ms MS] [--json FILE] [--svg FILE]\n"
    "       %1$s slurm TOURNAMENT-OPTIONS --shards N --out DIR [SLURM-OPTIONS]\n"
    "       %1$s slurm --resume DIR [--dry-run]\n"
    "       %1$s status DIR\n"
    "\n"
    "Plays games between engines through board files: for every move the\n"
    "referee writes the position to a private folder, runs the engine (no shell,\n"
    "its own process group, resource limits, a wall deadline) and accepts its\n"
    "output file only when it is the position plus one legal move. Any other\n"
    "ending loses the game with a named reason (timeout, cpu-limit, memory-limit,\n"
    "file-limit, crashed: SIGNAL, exit-status N, cannot-run, no-output,\n"
    "unreadable, oversized, illegal-move, wrong-player, tampered-board). Colours\n"
    "alternate; each pair of games shares its opening. No engine process\n"
    "outlives its move.\n"
    "\n"
    "Match and tournament options:\n"
    "  --game G             connect4, maxconnect4, nim, ... (the registry)\n"
    "  --engine SPEC        KEY=VALUE options (name=, cmd=, dir=, args=, stderr=,\n"
    "                       depth=, proto=file|persistent) or a COMMAND (repeat).\n"
    "                       Placeholders {in} {out} {depth} {player} {time} {inc};\n"
    "                       none: {in} {out} {depth} are appended (file engines)\n"
    "  --each KEY=VALUE...  options shared by every engine (its own win)\n"
    "  --depth N            the {depth} given to engines (default "
    CLI_STR(REF_DEFAULT_DEPTH) ")\n"
    "  --random-plies N     opening: N random plies from the start (default 0)\n"
    "  --openings FILE      opening book: one line of moves per opening\n"
    "  --seed N             seed of the random openings (default 1)\n"
    "  --timeout-ms N       wall time per move (default " CLI_STR(REF_DEFAULT_TIMEOUT_MS) ")\n"
    "  --tc BASE+INC        a game clock per engine in CPU seconds: BASE to start,\n"
    "                       each move's CPU time off, INC on (10+0.1); out-of-time\n"
    "                       below zero. The wall deadline (--timeout-ms) is then\n"
    "                       at least the clock left + 1 s\n"
    "  --cpu-limit-s N      CPU seconds per move (RLIMIT_CPU; default none)\n"
    "  --mem-limit-mb N     address space per move (RLIMIT_AS; default none)\n"
    "  --draw-plies N       games that can go on forever (checkers) are drawn\n"
    "                       after N plies without capture or promotion (100)\n"
    "  --keep-files DIR     keep every move's board files in DIR/game-N\n"
    "  --sandbox MODE       namespaces (default): each engine in Linux namespaces of\n"
    "                       its own, seeing the system, its own files read-only and\n"
    "                       its move folder, no network, no other process; none:\n"
    "                       engines run as you, with all your files\n"
    "  --sandbox-ro PATH    let every engine read PATH too (repeat)\n"
    "  --analyze            judge every move with the game's exact oracle (as\n"
    "                       analyze does) and record it in the log or journal\n"
    "Match:\n"
    "  --games N            games in all (default " CLI_STR(REF_DEFAULT_GAMES) ")\n"
    "  --log FILE           the JSON log (schema arena.match/1), written atomically\n"
    "Tournament:\n"
    "  --config FILE        a JSON object of these options ('engines': a list of\n"
    "                       SPECs or {\"name\", \"cmd\"}); options given here win\n"
    "  --format F           round-robin (default) or gauntlet (engine 1 vs the rest)\n"
    "  --rounds N           each pair plays 2 games per round (default 1)\n"
    "  --concurrency N      games at once (default 1)\n"
    "  --journal FILE       one JSON line per finished game (required to resume)\n"
    "  --resume             finish the journal's tournament\n"
    "  --sprt elo0=A,elo1=B,alpha=X,beta=Y[,model=M]   stop a 2-engine run when decided;\n"
    "                       M: normalized (default) or logistic Elo, on game pairs\n"
    "  --shard K/N          play every N-th game from game K (merge them after)\n"
    "Slurm (the tournament in N shards: a job array, then a merge job; see\n"
    "docs/cluster.md). DIR must be on a file system every node shares:\n"
    "  --shards N           shards, each its own array task and journal DIR/shard-K.jsonl\n"
    "  --out DIR            where the config, job scripts, journals and reports go\n"
    "  --cpus-per-shard C   CPUs per task, and games at once in a shard (default 1)\n"
    "  --partition P        --time T    --sbatch-arg ARG (repeat): passed to sbatch\n"
    "  --dry-run            write DIR and print the sbatch commands, submit nothing\n"
    "  --parallel           run the shards with GNU parallel instead (and\n"
    "  --sshlogin S         on these machines, repeat), then merge\n"
    "  --resume DIR         run again exactly the shards not finished (each resumes\n"
    "                       its journal) and a new merge job\n"
    "Status: each shard's games played and to play, from its journal.\n"
    "Report:\n"
    "  --format F           text (default), json, html (one self-contained page) or\n"
    "                       csv (RFC 4180, one table)\n"
    "  --table T            csv: standings (default), pairs, cpu or forfeits\n"
    "Analyze (and --analyze): the outcome with perfect play (win, draw, loss)\n"
    "before and after every engine move; a move that makes it worse for the mover\n"
    "is a blunder, and a game's last blunder its decisive mistake. Oracles:\n"
    "connect4 the solver, nim the closed form, maxconnect4 a full search.\n"
    "  --budget-ms N        connect4: CPU per position, else \"unknown\" (1000)\n"
    "  --max-empty N        maxconnect4: exact within N empty cells (16)\n"
    "  --json FILE          analyze: also write the analysed records as JSON\n"
    "Bench: every engine moves once from every position at every depth, each move\n"
    "run and judged as in a game (sandbox, limits, the child's CPU time); per\n"
    "engine and depth the moves, failed moves (with their reasons, not timed),\n"
    "median, p95 and max CPU ms, peak RSS and the median's growth.\n"
    "  --depths A-B         the {depth}s, each engine from A up to B\n"
    "  --positions FILE     one line of moves from the start per position\n"
    "  --random-positions N N positions of P random plies (--plies, default "
    CLI_STR(REF_BENCH_DEFAULT_PLIES) ") from\n"
    "                       --seed S (default 1)\n"
    "  --repeat R           moves per position and depth (default 1)\n"
    "  --budget-ms MS       an engine whose median passes MS is not run deeper\n"
    "  --json FILE          the figures (schema arena.bench/1)\n"
    "  --svg FILE           their plot: CPU time per move against depth, a line per\n"
    "                       engine (drawn by plot-bench.sh with gnuplot and jq)\n"
    "  (and --each, --seed, --timeout-ms, --cpu-limit-s, --mem-limit-mb, --sandbox,\n"
    "  --sandbox-ro as for a match)\n"
    "--version prints the version.\n";

#define COMMANDS "match, tournament, report, verify, merge, analyze, bench, slurm, status"

static const char *const command_names[] = {
    [REF_CMD_MATCH] = "match",   [REF_CMD_TOURNAMENT] = "tournament",
    [REF_CMD_REPORT] = "report", [REF_CMD_VERIFY] = "verify",
    [REF_CMD_MERGE] = "merge",   [REF_CMD_ANALYZE] = "analyze",
    [REF_CMD_BENCH] = "bench",
    [REF_CMD_SLURM] = "slurm",   [REF_CMD_STATUS] = "status",
};

/* Reads a tournament's --config files (in any spelling getopt_long takes)
 * into s before the other options, so that the command line overrides
 * them; 0, -1 after --help or --version (printed), or EXIT_BAD_INPUT. */
static int read_config(const char *prog, struct ref_settings *s, int argc, char **argv)
{
    struct cli_parse p = { .prog = prog, .cmd = command_names[s->command],
                           .opts = ref_options(s->command), .help = usage_text,
                           .argc = argc, .argv = argv };
    int c;
    while ((c = cli_next(&p)) != -1) {
        if (c == CLI_BAD || c == CLI_DONE)
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        struct err e;
        if (c == REF_OPT_CONFIG && ref_config_read(s, optarg, &e) != 0) {
            err_print(stderr, optarg, &e);
            return EXIT_BAD_INPUT;
        }
    }
    return 0;
}

/* Parses the options of s->command into s; 0, -1 (--help or --version
 * shown) or EXIT_BAD_INPUT (usage error printed). Positional arguments are
 * left at argv[optind..]. */
static int parse(const char *prog, struct ref_settings *s, int argc, char **argv)
{
    int rc = s->command == REF_CMD_TOURNAMENT || s->command == REF_CMD_SLURM
                 ? read_config(prog, s, argc, argv) : 0;
    if (rc)
        return rc;
    struct cli_parse p = { .prog = prog, .cmd = command_names[s->command],
                           .opts = ref_options(s->command), .help = usage_text,
                           .argc = argc, .argv = argv };
    int c;
    while ((c = cli_next(&p)) != -1) {
        char msg[ERR_MSG_MAX], name[64];
        if (c == CLI_BAD || c == CLI_DONE)
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        if (c == REF_OPT_CONFIG)
            continue;
        ref_option_flag(c, name, sizeof name);
        if (ref_settings_apply(s, c, name, optarg ? optarg : "", msg, sizeof msg) != 0)
            return cli_usage(prog, "%s", msg);
    }
    return 0;
}

/* Makes an engine's stderr= file now if it is not there, so that a mask
 * can hide it from the other engines from the first move on (only what
 * exists can be masked). 0, or -1 with e. */
static int stderr_file(const char *path, struct err *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return err_set(e, 0, 0, "stderr=%s: %s", path, strerror(errno));
    close(fd);
    return 0;
}

/* The sandbox's masks (the referee's own files: journal, log, keep
 * folder, the engines' stderr= files; every engine's dir= and own paths:
 * sandbox.h), and the probe that it can be made here at all. Prints why
 * not and returns -1. */
static int sandbox_rules(const char *prog, struct ref_settings *s)
{
    struct sbx_policy *p = &s->sandbox;
    const char *mine[] = { s->journal, s->log, s->keep };
    struct err e = { 0, 0, "" };
    int rc = 0;
    for (size_t i = 0; !rc && i < sizeof mine / sizeof *mine; i++)
        if (mine[i][0])
            rc = sbx_paths_add(&p->mask, mine[i], &e);
    for (int i = 0; !rc && i < s->t.nengines; i++) {
        const struct spec *eng = &s->t.engine[i];
        rc = sbx_paths_add(&p->mask, eng->dir, &e) ||
             (eng->stderr_path && (stderr_file(eng->stderr_path, &e) ||
                                   sbx_paths_add(&p->mask, eng->stderr_path, &e))) ||
             sbx_own_paths(eng->argv, eng->dir, &p->mask, &e);
    }
    if (!rc)
        rc = sbx_probe(&e);
    if (rc) {
        err_print(stderr, prog, &e);
        return -1;
    }
    s->t.rules.sandbox = p;
    return 0;
}

/* Where each move's cgroup goes (cgroup.h), found before the first game;
 * without one the referee says so, once, and the journal says "accounting":
 * "process". */
static void accounting(const char *prog, struct ref_settings *s)
{
    struct err e = { 0, 0, "" };
    if (cg_root_find(&s->cg, REF_DEFAULT_PROC_EXTRA, &e) == 0) {
        s->t.rules.acct = &s->cg;
        /* pids.max bounds each move's tree; RLIMIT_NPROC would count every
         * task of the engines' user, other referees' engines included. */
        s->t.rules.limits.proc_limit = 0;
        return;
    }
    fprintf(stderr, "%s: accounting: process: %s; a move's CPU is then its own and that of "
            "the children it reaped, and --cpu-limit-s and --mem-limit-mb hold per process\n",
            prog, e.msg);
}

/* Checks what match and tournament share and loads the opening book. */
static int finish_rules(const char *prog, struct ref_settings *s, const char *cmd)
{
    if (!s->t.rules.game)
        return cli_usage(prog, "%s: --game is required", cmd);
    if (s->openings[0]) {
        struct err e;
        if (book_read(s->t.rules.game, s->openings, &s->book, &e) != 0) {
            err_print(stderr, s->openings, &e);
            return EXIT_BAD_INPUT;
        }
        s->t.rules.book = &s->book;
    }
    s->t.rules.keep_dir = s->keep[0] ? s->keep : NULL;
    if (s->analyze) {
        if (!ana_supports(s->t.rules.game))
            return cli_usage(prog, "%s: --analyze has no oracle for %s (connect4, maxconnect4, "
                             "nim)", cmd, s->t.rules.game->name);
        s->t.rules.analyze = &s->ana;
    }
    return 0;
}

/* Checks path for option opt (skipped when path is ""); 0 or -1 with e. */
static int check_output(const char *opt, const char *path, struct err *e)
{
    if (!path || !path[0] || tf_check_creatable(path, e) == 0)
        return 0;
    char msg[ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", e->msg);
    return err_set(e, 0, 0, "%s %s: %s", opt, path, msg);
}

/* Once the options are consistent, before the first game: the engines'
 * folders and programs (spec.h), every file the run will write, so a run
 * never plays its games and then loses them, then the engines' sandbox and
 * RLIMIT_NPROC, then where each move's cgroup goes. 0 or EXIT_BAD_INPUT. */
static int preflight(const char *prog, struct ref_settings *s)
{
    struct err e;
    char keep_probe[PATH_MAX + 8] = "";
    int rc = 0;
    if (s->keep[0]) {
        if (mkdir(s->keep, 0700) != 0 && errno != EEXIST)
            rc = err_set(&e, 0, 0, "--keep-files %s: %s", s->keep, strerror(errno));
        snprintf(keep_probe, sizeof keep_probe, "%s/game-1", s->keep);
    }
    rc = rc || spec_resolve_all(s->t.engine, s->t.nengines, &s->each, 1, &e) != 0 ||
         check_output("--log", s->log, &e) != 0 ||
         check_output("--journal", s->journal, &e) != 0 ||
         check_output("--json", s->json, &e) != 0 ||
         check_output("--svg", s->svg, &e) != 0 ||
         check_output("--keep-files", keep_probe, &e) != 0;
    for (int i = 0; !rc && i < s->t.nengines; i++)
        rc = check_output("stderr=", s->t.engine[i].stderr_path, &e) != 0;
    if (rc) {
        err_print(stderr, prog, &e);
        return EXIT_BAD_INPUT;
    }
    if (s->sandbox.mode == SBX_NAMESPACES && sandbox_rules(prog, s) != 0)
        return EXIT_BAD_INPUT;
    /* Only commands that run engines pay for the /proc scan. */
    s->t.rules.limits.proc_limit =
        run_proc_limit(sbx_engine_uid(s->t.rules.sandbox), REF_DEFAULT_PROC_EXTRA);
    if (s->command != REF_CMD_SLURM)
        accounting(prog, s);
    return 0;
}

/* Splits the referee in two (run_guard) so that its engines die with it,
 * even by SIGKILL. Returns 1 in the parent once the child has done the work
 * (doing: what it did, for the message when it was killed; file: what it
 * then did not write), *status the exit status to return; 0 in the process
 * that does the work (the child, or this one when fork failed), now a
 * subreaper that sweeps every process of an engine after its move. */
static int guard(const char *prog, struct ref_settings *s, const char *doing, const char *file,
                 int *status)
{
    if (run_guard(&s->t.rules.limits.cancel, status) == RUN_GUARD_PARENT) {
        /* The child said everything, unless it was killed (an engine
         * without a sandbox, the OOM killer). */
        const char *sig = *status > RUN_GUARD_SIGNALED
                              ? sigabbrev_np(*status - RUN_GUARD_SIGNALED) : NULL;
        if (sig)
            fprintf(stderr, "%s: the process %s was killed by SIG%s: no %s written\n", prog,
                    doing, sig, file);
        return 1;
    }
    run_become_reaper();
    s->t.rules.limits.reap_all = 1;
    return 0;
}

static int cmd_match(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_MATCH);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0) {
        ref_settings_free(&s);
        return 0;
    }
    if (!rc && optind < argc)
        rc = cli_usage(prog, "match: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = finish_rules(prog, &s, "match");
    if (!rc && s.t.nengines != 2)
        rc = cli_usage(prog, "match: give two --engine options, got %d", s.t.nengines);
    if (!rc)
        rc = preflight(prog, &s);
    int status;
    if (!rc && guard(prog, &s, "playing the match", "log", &status)) {
        ref_settings_free(&s);
        return status;
    }
    if (!rc) {
        struct match_opts o = {
            .rules = s.t.rules,
            .engine = { &s.t.engine[0], &s.t.engine[1] },
            .games = (int)s.games,
            .log_path = s.log[0] ? s.log : NULL,
        };
        struct err e;
        int r = match_run(&o, stdout, &e);
        if (r < 0) {
            err_print(stderr, o.log_path && !strstr(e.msg, o.log_path) ? o.log_path : prog, &e);
            rc = 1;
        } else if (r == MATCH_FORFEITED) {
            rc = EXIT_FORFEITED;
        }
    }
    ref_settings_free(&s);
    return rc;
}

/* What tournament and slurm check of a tournament's options, before and
 * after the engines are resolved; 0 or EXIT_BAD_INPUT (printed). */
static int check_tournament(const char *prog, struct ref_settings *s, const char *cmd)
{
    int rc = 0;
    if (!s->t.rules.game)
        rc = cli_usage(prog, "%s: --game is required", cmd);
    if (!rc && s->t.nengines < 2)
        rc = cli_usage(prog, "%s: give at least two engines, got %d", cmd, s->t.nengines);
    if (!rc && s->t.sprt.on && s->t.nengines != 2)
        rc = cli_usage(prog, "%s: --sprt needs exactly two engines", cmd);
    if (!rc && s->t.resume && !s->journal[0])
        rc = cli_usage(prog, "%s: --resume needs --journal", cmd);
    if (!rc)
        rc = finish_rules(prog, s, cmd);
    if (!rc)
        rc = preflight(prog, s);
    return rc;
}

static int cmd_tournament(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_TOURNAMENT);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0) {
        ref_settings_free(&s);
        return 0;
    }
    if (!rc && optind < argc)
        rc = cli_usage(prog, "tournament: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = check_tournament(prog, &s, "tournament");
    if (!rc) {
        s.t.journal = s.journal[0] ? s.journal : NULL;
        s.t.progress = isatty(STDERR_FILENO);
        struct err e;
        int r = tour_run(&s.t, stdout, &e);
        if (r < 0) {
            err_print(stderr, s.t.journal && e.line ? s.t.journal : prog, &e);
            rc = r == TOUR_BAD_JOURNAL ? EXIT_BAD_INPUT : 1;
        } else if (r == TOUR_STOPPED) {
            rc = 128 + SIGINT;
        } else if (r == TOUR_FORFEITED) {
            rc = EXIT_FORFEITED;
        }
    }
    ref_settings_free(&s);
    return rc;
}

/* slurm's options that a shard sets itself, or that shards cannot split;
 * 0 or EXIT_BAD_INPUT (printed). */
static int check_slurm(const char *prog, const struct ref_settings *s)
{
    const struct cluster_opts *o = &s->cluster;
    if (s->journal[0] || s->t.shard_n > 1 || s->t.concurrency > 1)
        return cli_usage(prog, "slurm: --journal, --shard and --concurrency are the shards' own "
                         "(DIR/shard-K.jsonl, K/N, --cpus-per-shard)");
    if (s->t.sprt.on)
        return cli_usage(prog, "slurm: --sprt stops on the games of one process; shards cannot "
                         "share it");
    if (!o->shards)
        return cli_usage(prog, "slurm: --shards is required");
    if (!o->out[0])
        return cli_usage(prog, "slurm: --out DIR is required");
    if (o->nssh && !o->parallel)
        return cli_usage(prog, "slurm: --sshlogin belongs to --parallel");
    return 0;
}

/* The referee binary's absolute path, for the job scripts; 0 or -1. */
static int own_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0 || (size_t)n == cap - 1)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* referee slurm --resume DIR [--dry-run]. */
static int slurm_resume(const char *prog, const struct ref_settings *s, int argc, char **argv)
{
    if (s->t.rules.game || s->t.nengines || s->cluster.shards || s->cluster.out[0] ||
        s->cluster.parallel || argc - optind != 1)
        return cli_usage(prog, "slurm: --resume takes the folder alone (DIR/config holds the "
                         "tournament): referee slurm --resume DIR [--dry-run]");
    struct err e;
    int rc = cluster_run(argv[optind], s->cluster.dry_run, stdout, &e);
    if (rc < 0)
        err_print(stderr, prog, &e);
    return rc == CLUSTER_BAD_DIR ? EXIT_BAD_INPUT : rc ? 1 : 0;
}

static int cmd_slurm(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_SLURM);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0) {
        ref_settings_free(&s);
        return 0;
    }
    if (!rc && s.t.resume) {
        rc = slurm_resume(prog, &s, argc, argv);
        ref_settings_free(&s);
        return rc;
    }
    if (!rc && optind < argc)
        rc = cli_usage(prog, "slurm: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = check_slurm(prog, &s);
    if (!rc)
        rc = check_tournament(prog, &s, "slurm");
    cJSON *config = rc ? NULL : ref_config_json(&s);
    char self[PATH_MAX];
    struct err e = { 0, 0, "" };
    if (!rc && (!config || own_path(self, sizeof self) != 0))
        rc = err_set(&e, 0, 0, "cannot write the config: a path too long, or out of memory");
    if (!rc) {
        struct schedule sched = tour_schedule(&s.t);
        rc = cluster_write(&s.cluster, config, schedule_games(&sched), self, &e);
    }
    if (!rc) {
        printf("%s: config, shard.sh, merge.sh, parallel.sh written\n", s.cluster.out);
        rc = cluster_run(s.cluster.out, s.cluster.dry_run, stdout, &e);
        if (rc < 0)
            err_print(stderr, prog, &e);
        rc = rc ? 1 : 0;
    } else if (rc < 0) {
        err_print(stderr, prog, &e);
        rc = EXIT_BAD_INPUT;
    }
    cJSON_Delete(config);
    ref_settings_free(&s);
    return rc;
}

static int cmd_status(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_STATUS);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0)
        return 0;
    if (!rc && argc - optind != 1)
        rc = cli_usage(prog, "status: give the folder of a referee slurm run");
    if (rc)
        return rc;
    struct err e;
    if (cluster_status(argv[optind], stdout, &e) == 0)
        return 0;
    err_print(stderr, prog, &e);
    return EXIT_BAD_INPUT;
}

/* Says so when a referee is appending to a journal the command is about
 * to read: reading waits for it to end (journal.h). */
static void say_if_written(const char *prog, char *const paths[], int n)
{
    for (int i = 0; i < n; i++) {
        long pid = journal_writer(paths[i]);
        if (pid > 0)
            fprintf(stderr, "%s: %s: waiting for the referee writing it (pid %ld) to finish\n",
                    prog, paths[i], pid);
        else if (pid < 0)
            fprintf(stderr, "%s: %s: waiting for the referee writing it to finish\n", prog,
                    paths[i]);
    }
}

/* report and verify: one file argument. */
static int cmd_file(const char *prog, enum ref_command command, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, command);
    const char *name = command == REF_CMD_REPORT ? "report" : "verify";
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0)
        return 0;
    if (!rc && argc - optind != 1)
        rc = cli_usage(prog, "%s: give one journal or match log", name);
    if (rc)
        return rc;
    if (s.report_table_given && s.report_format != REPORT_CSV)
        return cli_usage(prog, "report: --table is for --format csv (text, json and html show "
                         "every table)");
    const char *path = argv[optind];
    struct err e;
    say_if_written(prog, argv + optind, 1);
    if (command == REF_CMD_REPORT) {
        if (report_file(path, s.report_format, s.report_table, stdout, &e) == 0)
            return 0;
        err_print(stderr, path, &e);
        return EXIT_BAD_INPUT;
    }
    rc = verify_file(path, stdout, &e);
    if (rc == 0)
        return 0;
    err_print(stderr, path, &e);
    return rc > 0 ? 1 : EXIT_BAD_INPUT;
}

static int cmd_analyze(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_ANALYZE);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0)
        return 0;
    if (!rc && argc - optind != 1)
        rc = cli_usage(prog, "analyze: give one journal or match log");
    if (rc)
        return rc;
    const char *path = argv[optind];
    struct err e;
    say_if_written(prog, argv + optind, 1);
    if (ana_log(path, &s.ana, s.json[0] ? s.json : NULL, stdout, &e) == 0)
        return 0;
    err_print(stderr, e.line || !s.json[0] ? path : s.json, &e);
    return EXIT_BAD_INPUT;
}

static int cmd_merge(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_MERGE);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0)
        return 0;
    if (!rc && argc - optind < 2)
        rc = cli_usage(prog, "merge: give OUT and at least one journal");
    if (rc)
        return rc;
    struct err e;
    const char *bad = NULL;
    say_if_written(prog, argv + optind + 1, argc - optind - 1);
    if (journal_merge(argv[optind], argv + optind + 1, argc - optind - 1, &e, &bad) == 0)
        return 0;
    err_print(stderr, bad, &e);
    return EXIT_BAD_INPUT;
}

/* Bench's own checks, once the options are read: engines, --depths, one
 * kind of positions. */
static int bench_checks(const char *prog, struct ref_settings *s)
{
    if (s->t.nengines < 1)
        return cli_usage(prog, "bench: give at least one --engine");
    if (!s->bench.depth_min)
        return cli_usage(prog, "bench: --depths A-B is required");
    if (!s->openings[0] == !s->bench.positions)
        return cli_usage(prog, "bench: give --positions FILE or --random-positions N (one of "
                               "them)");
    return 0;
}

/* An engine bench can vary: its {depth} is the bench's (no depth=, its
 * own or --each's) and reaches it (a command with placeholders must hold
 * {depth}, or every depth would be the same move; a persistent engine is
 * told it with each move). */
static int bench_engine_check(const char *prog, const struct spec *eng)
{
    if (eng->depth)
        return cli_usage(prog, "bench: engine '%s' has depth=, which would replace --depths",
                         eng->name);
    if (eng->proto == SPEC_PERSISTENT)
        return 0;
    const char *depth = rules_placeholder[2];   /* {in} {out} {depth} {player} */
    for (int k = 0; k < eng->argc; k++)
        if (strstr(eng->argv[k], depth))
            return 0;
    return cli_usage(prog, "bench: engine '%s': its command has no %s, so every depth would "
                     "be the same move", eng->name, depth);
}

static int cmd_bench(const char *prog, int argc, char **argv)
{
    struct ref_settings s;
    ref_settings_init(&s, REF_CMD_BENCH);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0) {
        ref_settings_free(&s);
        return 0;
    }
    if (!rc && optind < argc)
        rc = cli_usage(prog, "bench: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = bench_checks(prog, &s);
    if (!rc)
        rc = finish_rules(prog, &s, "bench");
    if (!rc)
        rc = preflight(prog, &s);
    for (int i = 0; !rc && i < s.t.nengines; i++)
        rc = bench_engine_check(prog, &s.t.engine[i]);
    int status;
    if (!rc && guard(prog, &s, "running the bench", "JSON", &status)) {
        ref_settings_free(&s);
        return status;
    }
    if (!rc) {
        s.bench.positions_path = s.openings;
        s.bench.json_path = s.json[0] ? s.json : NULL;
        s.bench.svg_path = s.svg[0] ? s.svg : NULL;
        struct err e;
        int r = refbench_run(&s.t.rules, s.t.engine, s.t.nengines, &s.bench, stdout, &e);
        if (r < 0) {
            int json_failed = s.bench.json_path && !strstr(e.msg, s.json) &&
                              strncmp(e.msg, "--svg", 5) != 0;
            err_print(stderr, json_failed ? s.json : prog, &e);
            rc = 1;
        } else if (r == REFBENCH_CANCELLED) {
            rc = 128 + SIGINT;
        }
    }
    ref_settings_free(&s);
    return rc;
}

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "referee");
    if (argc < 2)
        return cli_usage(prog, "missing command (" COMMANDS ")");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_help(usage_text, prog);
    if (strcmp(argv[1], "--version") == 0)
        return cli_version(prog);
    if (strcmp(argv[1], "match") == 0)
        return cmd_match(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "tournament") == 0)
        return cmd_tournament(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "report") == 0)
        return cmd_file(prog, REF_CMD_REPORT, argc - 1, argv + 1);
    if (strcmp(argv[1], "verify") == 0)
        return cmd_file(prog, REF_CMD_VERIFY, argc - 1, argv + 1);
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "analyze") == 0)
        return cmd_analyze(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "slurm") == 0)
        return cmd_slurm(prog, argc - 1, argv + 1);
    if (strcmp(argv[1], "status") == 0)
        return cmd_status(prog, argc - 1, argv + 1);
    return cli_usage(prog, "unknown command '%s' (" COMMANDS ")", argv[1]);
}
