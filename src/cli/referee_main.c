/* referee_main.c - the referee binary: matches, tournaments, reports,
 * verify and merge between any engines through board files. Each command's
 * option table and the config file's keys are in refopts.h (a config key is
 * a tournament option's name, with '_' or '-'); the config file is applied
 * before the command line's options, which override it. */
#define _GNU_SOURCE
#include <assert.h>
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
#include "arena/grade.h"
#include "arena/limits.h"
#include "arena/refopts.h"
#include "arena/registry.h"
#include "arena/similarity.h"
#include "arena/rules.h"
#include "arena/sandbox.h"
#include "arena/swiss.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "arena/preflight.h"
#include "arena/tournament.h"
#include "arena/playsrv.h"
#include "referee_learn.h"
#include "referee/judge/judge.h"
#include "arena/textfile.h"
#include "arena/verify.h"

/* match and tournament: every game was played, but an engine forfeited all
 * of its games, or every game was a forfeit (a line at the end says which
 * and why), so a grading script notices (docs/referee.md, exit statuses). */
#define EXIT_FORFEITED 3

/* Bytes of a spaced --sprt joined: its five KEY=VALUE words are some 60
 * bytes; more is no SPRT. */
#define SPRT_TEXT_MAX 256

/* The help: the description every command shares, then sections of
 * options; `referee --help` prints all of them once, `referee CMD --help`
 * its command's usage and sections (the command table below). */
static const char about_text[] =
    "Plays games between engines through board files: for every move the\n"
    "referee writes the position to a private folder, runs the engine (no shell,\n"
    "its own process group, resource limits, a wall deadline) and accepts its\n"
    "output file only when it is the position plus one legal move. Any other\n"
    "ending loses the game with a named reason (timeout, cpu-limit, memory-limit,\n"
    "file-limit, crashed: SIGNAL, exit-status N, cannot-run, no-output,\n"
    "unreadable, oversized, illegal-move, wrong-player, tampered-board; see\n"
    "docs/referee.md). Colours alternate; each pair of games shares its opening.\n"
    "No engine process outlives its move.\n";

/* --judge-sandbox, wherever --judge is. */
#define JUDGE_SANDBOX_HELP                                                              \
    "  --judge-sandbox MODE namespaces (default): the judge in a sandbox of its own,\n"  \
    "                       seeing the system and its own files read-only, no\n"        \
    "                       network, its processes killed with it (--sandbox-ro and\n"  \
    "                       --sandbox-env reach it too); none: a judge you trust\n"     \
    "                       runs as you, with all your files\n"

static const char rules_help[] =
    "Match and tournament options:\n"
    "  --game G             %1$s\n"
    "  --judge CMD          instead of --game: a game whose rules the program CMD\n"
    "                       answers over JSON lines (docs/judges.md)\n"
    JUDGE_SANDBOX_HELP
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
    "  --ponder             let persistent engines think between their moves,\n"
    "                       billed to their next move (default: they are frozen)\n"
    "  --cpu-limit-s N      CPU seconds per move (RLIMIT_CPU; default none)\n"
    "  --mem-limit-mb N     address space per move (RLIMIT_AS; default none)\n"
    "  --draw-plies N       games that can go on forever (%2$s) are drawn\n"
    "                       after N plies without capture or promotion (100)\n"
    "  --keep-files DIR     keep every move's board files in DIR/game-N\n"
    "  --concurrency N      games at once, each on CPUs of its own (default 1; at\n"
    "                       most the CPUs the referee may use)\n"
    "  --force-concurrency  let --concurrency exceed the CPUs: games share them\n"
    "  --rounds N           each pair plays 2 games per round (default 1)\n"
    "  --sandbox MODE       namespaces (default): each engine in Linux namespaces of\n"
    "                       its own, seeing the system, its own files read-only and\n"
    "                       its move folder, no network, no other process; none:\n"
    "                       engines run as you, with all your files\n"
    "  --sandbox-ro PATH    let every engine read PATH too (repeat)\n"
    "  --sandbox-env NAME   pass the variable NAME to every engine, whose\n"
    "                       environment is otherwise PATH, LANG, TZ, HOME=/tmp and\n"
    "                       TMPDIR=/tmp (repeat)\n"
    "  --analyze            judge every move with the game's exact oracle (as\n"
    "                       analyze does) and record it in the log or journal\n";

static const char match_help[] =
    "Match:\n"
    "  --games N            games in all (default " CLI_STR(REF_DEFAULT_GAMES) "; --rounds N: 2N)\n"
    "  --log FILE           the JSON log (schema arena.match/1), written atomically\n";

static const char tournament_help[] =
    "Tournament:\n"
    "  --config FILE        a JSON object of these options ('engines': a list of\n"
    "                       SPECs or {\"name\", \"cmd\"}); options given here win\n"
    "  --format F           round-robin (default), gauntlet (engine 1, or --seeds,\n"
    "                       against the rest)\n"
    "                       or swiss (--rounds N rounds of game pairs, each round\n"
    "                       pairing equal scores, never a pair twice) or knockout\n"
    "                       (a bracket of game pairs, a level match another pair)\n"
    "  --seeds N1[,N2...]   the gauntlet's seeds: every other engine plays them only\n"
    "  --anchor NAME=ELO    fix NAME's rating (repeatable); the others are fitted on\n"
    "                       that scale with intervals\n"
    "  --journal FILE       one JSON line per finished game (required to resume)\n"
    "  --resume             finish the journal's tournament\n"
    "  --sprt elo0=A,elo1=B,alpha=X,beta=Y[,model=M]   stop a 2-engine run when decided;\n"
    "                       M: normalized (default) or logistic Elo, on game pairs;\n"
    "                       blanks instead of commas too (fastchess's form)\n"
    "  --shard K/N          play every N-th game from game K (merge them after)\n";

static const char slurm_help[] =
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
    "  grade ...            a class instead of a tournament: referee grade's options\n"
    "                       and these (referee slurm grade --help; docs/grading.md)\n";

static const char status_help[] =
    "Status: each shard's games played and to play, from its journal.\n";

static const char report_help[] =
    "Report:\n"
    "  --format F           text (default), json, html (one self-contained page) or\n"
    "                       csv (RFC 4180, one table)\n"
    "  --table T            csv: standings (default), pairs, cpu, forfeits or\n"
    "                       forfeit-games\n"
    "  --anchor NAME=ELO    fix NAME's rating (repeatable; instead of the journal's)\n";

static const char verify_help[] =
    "Verify: replays every game of a journal or match log and checks each move,\n"
    "result and forfeit as the referee would have judged it.\n";

/* report's, verify's and analyze's: a journal is data (docs/judges.md). */
static const char read_judge_help[] =
    "A judge's journal (report, verify, analyze):\n"
    "  --judge CMD          the judge to replay its games with; its program and every\n"
    "                       file its words name must have the SHA-256s the journal\n"
    "                       recorded. A journal's own command is never run: without\n"
    "                       --judge, verify, analyze and report --format html refuse\n"
    "                       a judge's journal (report's tables read results only)\n"
    JUDGE_SANDBOX_HELP
    "  --sandbox-ro PATH    let the judge read PATH too (repeat)\n"
    "  --sandbox-env NAME   pass the variable NAME to the judge (repeat)\n";

static const char merge_help[] =
    "Merge: the journals of one tournament's shards into the journal OUT.\n";

static const char analyze_help[] =
    "Analyze (and --analyze): the outcome with perfect play (win, draw, loss)\n"
    "before and after every engine move; a move that makes it worse for the mover\n"
    "is a blunder, and a game's last blunder its decisive mistake. Oracles:\n"
    "connect4 the solver, nim the closed form, maxconnect4 a full search.\n"
    "  --budget-ms N        connect4: CPU per position, else \"unknown\" (1000)\n"
    "  --max-empty N        maxconnect4: exact within N empty cells (16)\n"
    "  --json FILE          analyze: also write the analysed records as JSON\n";

static const char bench_help[] =
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
    "  (and --judge, --judge-sandbox, --each, --seed, --timeout-ms, --cpu-limit-s,\n"
    "  --mem-limit-mb, --sandbox, --sandbox-ro, --sandbox-env as for a match)\n";

static const char similarity_help[] =
    "Similarity: engines that copy each other. Every engine answers the same\n"
    "positions (before a random ply of seeded random games; none over, none with a\n"
    "single legal move, no two alike), each move run and judged as in a game; each\n"
    "pair's agreement is its share of identical moves over the positions both\n"
    "answered, compared as log-odds. A pair is flagged above the field's median +\n"
    "max(K x S x MAD, G) (K " CLI_STR(AGREE_FLAG_K) ", S " CLI_STR(AGREE_MAD_SCALE) ", G "
    CLI_STR(AGREE_FLAG_MIN_GAP) "), with the positions where the\n"
    "two agree and no other engine does.\n"
    "  --positions N        positions every engine answers (default "
    CLI_STR(SIMIL_DEFAULT_POSITIONS) ", at most\n"
    "                       " CLI_STR(SIMIL_MAX_POSITIONS) ")\n"
    "  --seed S             the random games' seed (default 1): the same seed, the\n"
    "                       same positions\n"
    "  --depth D            the {depth} of every move (default " CLI_STR(REF_DEFAULT_DEPTH) ")\n"
    "  --format F           text (default) or json\n"
    "  (and --judge, --judge-sandbox, --each, --timeout-ms, --cpu-limit-s,\n"
    "  --mem-limit-mb, --sandbox, --sandbox-ro, --sandbox-env as for a match)\n";

#define REF_HELP_SECTIONS 3

/* One referee command: its word, its settings' kind, what runs it, its
 * usage lines ("%1$s": the program) and its help sections. */
struct ref_cmd {
    const char *name;
    enum refopts_command id;
    int (*run)(const char *prog, enum refopts_command id, int argc, char **argv);
    const char *usage;
    const char *help[REF_HELP_SECTIONS];
};

static const char play_help[] =
    "Play: serves a page where a person plays any player of the game: a person, the\n"
    "built-in players (random, alphabeta:D, minimax:D, perfect) and every --engine,\n"
    "run as a tournament runs it. It listens on 127.0.0.1 and prints its address.\n"
    "  --port N             the port (default: any free one)\n"
    "  --listen ADDR        another IPv4 address to listen on (anyone reaching it\n"
    "                       can run the engines)\n"
    "  --journal FILE       every finished game, as a tournament's journal\n"
    "  --page-timeout-s S   a game whose page has asked nothing for S seconds is\n"
    "                       closed, its search stopped (default "
    CLI_STR(PLAYSRV_PAGE_TIMEOUT_S) ")\n"
    "  --depth D, --timeout-ms, --cpu-limit-s, --mem-limit-mb, --draw-plies,\n"
    "  --sandbox, --sandbox-ro, --sandbox-env, --each   as for tournament\n";

static int run_command(const char *prog, enum refopts_command id, int argc, char **argv);
static int cmd_slurm(const char *prog, enum refopts_command id, int argc, char **argv);

/* The one list of the referee's commands, in the order help shows them. */
static const struct ref_cmd commands[] = {
    { "match", REF_CMD_MATCH, run_command,
      "%1$s match (--game G | --judge CMD) --engine SPEC --engine SPEC [OPTIONS]\n",
      { rules_help, match_help } },
    { "tournament", REF_CMD_TOURNAMENT, run_command,
      "%1$s tournament (--config FILE.json | --game G|--judge CMD --engine SPEC ...)\n"
      "        [OPTIONS]\n",
      { rules_help, tournament_help } },
    { "report", REF_CMD_REPORT, run_command,
      "%1$s report JOURNAL|LOG [--judge CMD [--judge-sandbox none]]\n"
      "        [--format text|json|html|csv [--table T]]\n",
      { report_help, read_judge_help } },
    { "verify", REF_CMD_VERIFY, run_command,
      "%1$s verify JOURNAL|LOG [--judge CMD [--judge-sandbox none]]\n",
      { verify_help, read_judge_help } },
    { "merge", REF_CMD_MERGE, run_command, "%1$s merge OUT JOURNAL...\n", { merge_help } },
    { "analyze", REF_CMD_ANALYZE, run_command,
      "%1$s analyze JOURNAL|LOG [--judge CMD [--judge-sandbox none]] [--budget-ms N]\n"
      "        [--max-empty N] [--json FILE]\n",
      { analyze_help, read_judge_help } },
    { "bench", REF_CMD_BENCH, run_command,
      "%1$s bench (--game G | --judge CMD) --engine SPEC... --depths A-B\n"
      "      (--positions FILE | --random-positions N [--plies P] [--seed S])\n"
      "      [--repeat R] [--budget-ms MS] [--json FILE] [--svg FILE]\n", { bench_help } },
    { "slurm", REF_CMD_SLURM, cmd_slurm,
      "%1$s slurm TOURNAMENT-OPTIONS --shards N --out DIR [SLURM-OPTIONS]\n"
      "%1$s slurm --resume DIR [--dry-run]\n"
      "%1$s slurm grade GRADE-OPTIONS --shards N [SLURM-OPTIONS]\n",
      { slurm_help, rules_help, tournament_help } },
    { "status", REF_CMD_STATUS, run_command, "%1$s status DIR\n", { status_help } },
    { "play", REF_CMD_PLAY, run_command,
      "%1$s play --game G [--engine SPEC]... [--port N] [--listen ADDR] [--journal FILE]\n"
      "        [--page-timeout-s S]\n",
      { play_help } },
    { "similarity", REF_CMD_SIMILARITY, run_command,
      "%1$s similarity (--game G | --judge CMD) --engine SPEC --engine SPEC...\n"
      "        [--depth D] [--positions N] [--seed S] [--format text|json]\n",
      { similarity_help } },
    { "grade", REF_CMD_GRADE, grade_command, grade_usage, { grade_help } },
};
#define NCOMMANDS (int)(sizeof commands / sizeof *commands)

static const struct ref_cmd *command_of(enum refopts_command id)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (commands[i].id == id)
            return &commands[i];
    assert(!"a command without an entry");
    return &commands[0];
}

/* Prints a command's usage lines, the first after "Usage: ", the others
 * under it. */
static void print_usage(const char *prog, const char *usage, int *first)
{
    for (const char *line = usage; *line;) {
        size_t n = strcspn(line, "\n");
        char fmt[256];
        snprintf(fmt, sizeof fmt, "%s%.*s\n", *first ? "Usage: " : "       ", (int)n, line);
        printf(fmt, prog);
        *first = 0;
        line += n + (line[n] == '\n');
    }
}

/* The help sections' lists, made from the registry: a section is printed
 * as a format, %1$s the games, %2$s those the draw rule applies to
 * (game.h, irreversible). */
struct help_lists {
    char games[REGISTRY_NAMES_MAX], endless[REGISTRY_NAMES_MAX];
};

static int endless(const struct game *g)
{
    return g->irreversible != NULL;
}

static void help_lists(struct help_lists *l)
{
    registry_names(l->games, sizeof l->games, NULL, ", ");
    registry_names(l->endless, sizeof l->endless, endless, ", ");
}

static void put_section(const char *section, const struct help_lists *l)
{
    printf(section, l->games, l->endless);
}

/* referee --help: every command's usage, the description, every section
 * once, in the table's order. */
static int help_all(const char *prog)
{
    struct help_lists lists;
    help_lists(&lists);
    int first = 1;
    for (int i = 0; i < NCOMMANDS; i++)
        print_usage(prog, commands[i].usage, &first);
    printf("\n%s\n", about_text);
    const char *shown[NCOMMANDS * REF_HELP_SECTIONS];
    int nshown = 0;
    for (int i = 0; i < NCOMMANDS; i++)
        for (int k = 0; k < REF_HELP_SECTIONS && commands[i].help[k]; k++) {
            int seen = 0;
            for (int j = 0; j < nshown; j++)
                seen |= shown[j] == commands[i].help[k];
            if (!seen)
                put_section(shown[nshown++] = commands[i].help[k], &lists);
        }
    printf("%s CMD --help shows one command's help; --version prints the version.\n", prog);
    return 0;
}

/* referee CMD --help: its usage and its sections only. */
static int help_command(const char *prog, const struct ref_cmd *c)
{
    struct help_lists lists;
    help_lists(&lists);
    int first = 1;
    print_usage(prog, c->usage, &first);
    fputs("\n", stdout);
    for (int k = 0; k < REF_HELP_SECTIONS && c->help[k]; k++)
        put_section(c->help[k], &lists);
    printf("%s --help shows every command.\n", prog);
    return 0;
}

/* "match, tournament, ..." into buf. */
static void command_list(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < NCOMMANDS && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
                                 commands[i].name);
}


/* The run stops because its game's judge failed (judge.h): says e, the
 * judge's words, under prog (not at a journal's line: the judge's failure
 * is not the journal's) and returns JUDGE_EXIT_FAILED. */
static int judge_stop(const char *prog, struct err *e)
{
    e->line = e->col = 0;
    err_print(stderr, prog, e);
    return JUDGE_EXIT_FAILED;
}

/* A run that failed because its game's judge did: judge_stop with the
 * judge's words; 0 otherwise. */
static int judge_failed(const char *prog, const struct refopts_settings *s)
{
    struct err e;
    return judge_error(s->t.rules.judge, &e) != 0 ? judge_stop(prog, &e) : 0;
}

/* Reads a tournament's --config files (in any spelling getopt_long takes)
 * into s before the other options, so that the command line overrides
 * them; 0, -1 after --help or --version (printed), or EXIT_BAD_INPUT. */
static int read_config(const char *prog, struct refopts_settings *s, int argc, char **argv)
{
    const struct ref_cmd *cmd = command_of(s->command);
    struct cli_parse p = { .prog = prog, .cmd = cmd->name, .opts = refopts_options(s->command),
                           .argc = argc, .argv = argv };
    int c;
    while ((c = cli_next(&p)) != -1) {
        if (c == CLI_OPT_HELP)
            return help_command(prog, cmd), -1;
        if (c == CLI_BAD || c == CLI_DONE)
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        struct err e;
        int rc = c == REF_OPT_CONFIG ? refopts_config_read(s, optarg, &e) : 0;
        if (rc) {
            err_print(stderr, optarg, &e);
            return EXIT_BAD_INPUT;
        }
    }
    return 0;
}

/* Looks, once, for where the moves' cgroups go (cgroup.h): in preflight
 * for a command that plays (slurm's shards look for their own), or
 * earlier, before a sandboxed judge starts with the options or with a
 * journal's reading, so that its cgroup goes there too (judge.h). A
 * command that plays says so when there is none (preflight_accounting); a
 * command that reads journals runs its judge without one, unsaid: none of
 * its moves runs an engine. */
static void seek_accounting(const char *prog, struct refopts_settings *s)
{
    if (s->acct_sought || s->command == REF_CMD_SLURM)
        return;
    s->acct_sought = 1;
    struct err why;
    int reads = s->command == REF_CMD_REPORT || s->command == REF_CMD_VERIFY ||
                s->command == REF_CMD_ANALYZE;
    if (!reads)
        preflight_accounting(&s->cg, &s->t.rules, prog, stderr, &why);
    else if (cg_root_find(&s->cg, REF_DEFAULT_PROC_EXTRA, &why) == 0)
        s->t.rules.acct = &s->cg;
}

/* Parses the options of s->command into s, then starts --judge's judge
 * (refopts_judge_start: --judge-sandbox is known by then); 0, -1 (--help or
 * --version shown), EXIT_BAD_INPUT (usage error printed) or
 * JUDGE_EXIT_FAILED (the judge failed to start: judge_stop). Positional
 * arguments are left at argv[optind..]. */
static int parse(const char *prog, struct refopts_settings *s, int argc, char **argv)
{
    int rc = s->command == REF_CMD_TOURNAMENT || s->command == REF_CMD_SLURM
                 ? read_config(prog, s, argc, argv) : 0;
    if (rc)
        return rc;
    const struct ref_cmd *cmd = command_of(s->command);
    struct cli_parse p = { .prog = prog, .cmd = cmd->name, .opts = refopts_options(s->command),
                           .argc = argc, .argv = argv };
    int c;
    while ((c = cli_next(&p)) != -1) {
        char name[64];
        struct err e;
        if (c == CLI_OPT_HELP)
            return help_command(prog, cmd), -1;
        if (c == CLI_BAD || c == CLI_DONE)
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        if (c == REF_OPT_CONFIG)
            continue;
        refopts_option_flag(c, name, sizeof name);
        if (refopts_settings_apply(s, c, name, optarg ? optarg : "", &e) != 0)
            return cli_usage(prog, "%s", e.msg);
    }
    struct err e;
    if (s->judge_cmd && s->judge_sandbox != SBX_NONE)
        seek_accounting(prog, s);   /* its cgroup goes there (judge.h) */
    int started = refopts_judge_start(s, &e);
    if (started == JUDGE_FAILED)
        return judge_stop(prog, &e);
    return started ? cli_usage(prog, "%s", e.msg) : 0;
}

/* Checks what match and tournament share and loads the opening book. */
static int finish_rules(const char *prog, struct refopts_settings *s, const char *cmd)
{
    if (!s->t.rules.game)
        return cli_usage(prog, "%s: --game is required", cmd);
    if (s->openings[0]) {
        struct err e;
        if (book_read(s->t.rules.game, s->openings, &s->book, &e) != 0) {
            int rc = judge_failed(prog, s);   /* not the book's fault, then */
            if (!rc)
                err_print(stderr, s->openings, &e);
            return rc ? rc : EXIT_BAD_INPUT;
        }
        s->t.rules.book = &s->book;
    }
    s->t.rules.keep_dir = s->keep[0] ? s->keep : NULL;
    if (s->analyze) {
        if (!ana_supports(s->t.rules.game))
        {
            char games[REGISTRY_NAMES_MAX];
            registry_names(games, sizeof games, ana_supports, ", ");
            return cli_usage(prog, "%s: --analyze has no oracle for %s (%s)", cmd,
                             s->t.rules.game->name, games);
        }
        s->t.rules.analyze = &s->ana;
    }
    return 0;
}

/* preflight.h's checks and set-up before the first game. 0 or
 * EXIT_BAD_INPUT, the error printed; without a cgroup for the moves, says
 * so (preflight_accounting), and likewise without a cpuset for games at
 * once (preflight_cpus). */
static int preflight(const char *prog, struct refopts_settings *s)
{
    struct err e;
    if (preflight_check(s, &e) != 0) {
        err_print(stderr, prog, &e);
        return EXIT_BAD_INPUT;
    }
    preflight_shims(s, prog, stderr);
    if (s->command != REF_CMD_SLURM) {
        seek_accounting(prog, s);
        preflight_cpus(s, prog, stderr);
    }
    return 0;
}

/* Splits the referee in two (run_guard) so that its engines die with it,
 * even by SIGKILL. Returns 1 in the parent once the child has done the work
 * (doing: what it did, for the message when it was killed; file: what it
 * then did not write), *status the exit status to return; 0 in the process
 * that does the work (the child, or this one when fork failed), now a
 * subreaper that sweeps every process of an engine after its move. */
static int guard(const char *prog, struct refopts_settings *s, const char *doing, const char *file,
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
        return 1;   /* its moves' cgroups: settings_end */
    }
    run_become_reaper();
    s->t.rules.limits.reap_all = 1;
    return 0;
}

/* A match's worker frees the settings it was forked with (match.h). */
static void free_settings(void *ctx)
{
    refopts_settings_free(ctx);
}

static int match_check(const char *prog, struct refopts_settings *s)
{
    int rc = finish_rules(prog, s, "match");
    if (!rc && s->games && s->t.rounds)
        rc = cli_usage(prog, "match: give --games or --rounds (2 games each), not both");
    if (!rc && s->t.nengines != 2)
        rc = cli_usage(prog, "match: give two --engine options, got %d", s->t.nengines);
    s->games = s->t.rounds ? 2L * s->t.rounds : s->games ? s->games : REF_DEFAULT_GAMES;
    if (!rc)
        rc = preflight(prog, s);
    return rc;
}

static int match_work(const char *prog, struct refopts_settings *s)
{
    s->t.rules.show_waiting = isatty(STDERR_FILENO);
    struct match_opts o = {
        .rules = s->t.rules,
        .engine = { &s->t.engine[0], &s->t.engine[1] },
        .games = (int)s->games,
        .log_path = s->log[0] ? s->log : NULL,
        .concurrency = s->t.concurrency,
        .worker_free = free_settings,
        .worker_ctx = s,
    };
    struct err e;
    int r = match_run(&o, stdout, &e);
    int judge = r < 0 ? judge_failed(prog, s) : 0;
    if (r < 0 && !judge)
        err_print(stderr, o.log_path && !strstr(e.msg, o.log_path) ? o.log_path : prog, &e);
    if (r < 0)
        return judge ? judge : 1;
    return r == MATCH_FORFEITED ? EXIT_FORFEITED : 0;
}

/* 1 when one of the tournament's engines is named name. */
static int names_engine(const struct refopts_settings *s, const char *name)
{
    for (int i = 0; i < s->t.nengines; i++)
        if (strcmp(s->t.engine[i].name, name) == 0)
            return 1;
    return 0;
}

/* A Swiss tournament's own limits: rounds a field is sure to be paired in
 * (swiss.h), and one process, as each round waits for the last. */
static int check_swiss(const char *prog, const struct refopts_settings *s, const char *cmd)
{
    int most = swiss_max_rounds(s->t.nengines);
    if (s->t.rounds > most)
        return cli_usage(prog, "%s: --rounds %d: a Swiss of %d engines has at most %d round%s",
                         cmd, s->t.rounds, s->t.nengines, most, most == 1 ? "" : "s");
    if (s->t.shard_n > 1 || strcmp(cmd, "slurm") == 0)
        return cli_usage(prog, "%s: a Swiss tournament pairs each round from the last one's "
                         "results, so it cannot be split into shards", cmd);
    return 0;
}

/* A knockout's: its matches are game pairs until one engine wins, so no
 * --rounds; one process, as each round waits for the last. */
static int check_knockout(const char *prog, const struct refopts_settings *s, const char *cmd)
{
    if (s->t.rounds != 1)
        return cli_usage(prog, "%s: --rounds %d: a knockout's matches are game pairs until one "
                         "engine wins; --rounds does not apply", cmd, s->t.rounds);
    if (s->t.shard_n > 1 || strcmp(cmd, "slurm") == 0)
        return cli_usage(prog, "%s: a knockout pairs each round from the last one's "
                         "results, so it cannot be split into shards", cmd);
    return 0;
}

/* What tournament and slurm check of a tournament's options, before and
 * after the engines are resolved; 0 or EXIT_BAD_INPUT (printed). */
static int check_tournament(const char *prog, struct refopts_settings *s, const char *cmd)
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
    if (!rc && s->t.format == SCHEDULE_SWISS)
        rc = check_swiss(prog, s, cmd);
    if (!rc && s->t.format == SCHEDULE_KNOCKOUT)
        rc = check_knockout(prog, s, cmd);
    if (!rc && s->t.nseeds && s->t.format != SCHEDULE_GAUNTLET)
        rc = cli_usage(prog, "%s: --seeds names a gauntlet's seeds (--format gauntlet)", cmd);
    if (!rc)
        rc = finish_rules(prog, s, cmd);
    if (!rc)
        rc = preflight(prog, s);
    /* The engines' names are known once preflight resolved them. */
    for (int k = 0; !rc && k < s->t.nanchors; k++)
        if (!names_engine(s, s->t.anchor[k].name))
            rc = cli_usage(prog, "%s: --anchor %s: no engine of the tournament is named %s", cmd,
                           s->t.anchor[k].name, s->t.anchor[k].name);
    return rc;
}

static int tournament_check(const char *prog, struct refopts_settings *s)
{
    return check_tournament(prog, s, "tournament");
}

static int tournament_work(const char *prog, struct refopts_settings *s)
{
    s->t.journal = s->journal[0] ? s->journal : NULL;
    s->t.progress = isatty(STDERR_FILENO);
    struct err e;
    int r = tour_run(&s->t, stdout, &e);
    int judge = r < 0 ? judge_failed(prog, s) : 0;
    if (r < 0 && !judge)
        err_print(stderr, s->t.journal && e.line ? s->t.journal : prog, &e);
    if (r < 0)
        return judge ? judge : r == TOUR_BAD_JOURNAL ? EXIT_BAD_INPUT : 1;
    return r == TOUR_STOPPED ? 128 + SIGINT : r == TOUR_FORFEITED ? EXIT_FORFEITED : 0;
}

/* slurm's options that a shard sets itself, or that shards cannot split;
 * 0 or EXIT_BAD_INPUT (printed). */
static int check_slurm(const char *prog, const struct refopts_settings *s)
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
static int slurm_resume(const char *prog, const struct refopts_settings *s, int argc, char **argv)
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

static int cmd_slurm(const char *prog, enum refopts_command id, int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "grade") == 0)   /* a class: grade.h reads its options */
        return grade_slurm_command(prog, argc - 1, argv + 1);
    struct refopts_settings s;
    refopts_settings_init(&s, id);
    int rc = parse(prog, &s, argc, argv);
    if (rc < 0) {
        refopts_settings_free(&s);
        return 0;
    }
    if (!rc && s.t.resume) {
        rc = slurm_resume(prog, &s, argc, argv);
        refopts_settings_free(&s);
        return rc;
    }
    if (!rc && optind < argc)
        rc = cli_usage(prog, "slurm: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = check_slurm(prog, &s);
    if (!rc)
        rc = check_tournament(prog, &s, "slurm");
    cJSON *config = rc ? NULL : refopts_config_json(&s);
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
    refopts_settings_free(&s);
    return rc;
}

static int status_read(const char *prog, struct refopts_settings *s, char **args, int n)
{
    (void)s;
    (void)n;
    struct err e;
    if (cluster_status(args[0], stdout, &e) == 0)
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

static int report_check(const char *prog, struct refopts_settings *s)
{
    if (s->report_table_given && s->report_format != REPORT_CSV)
        return cli_usage(prog, "report: --table is for --format csv (text, json and html show "
                         "every table)");
    return 0;
}

/* report and verify: one journal or match log. */
static int file_read(const char *prog, struct refopts_settings *s, char **args, int n)
{
    struct err e;
    struct judge_cmd named;
    refopts_judge(s, &named);
    const struct judge_cmd *judge = named.cmd ? &named : NULL;
    say_if_written(prog, args, n);
    int rc = s->command == REF_CMD_REPORT
                 ? report_file_anchored(args[0], judge, s->t.anchor, s->t.nanchors,
                                        s->report_format, s->report_table, stdout, &e)
                 : verify_file(args[0], judge, stdout, &e);
    if (rc == 0)
        return 0;
    if (rc == JUDGE_FAILED)
        return judge_stop(prog, &e);
    err_print(stderr, args[0], &e);
    return rc > 0 ? 1 : EXIT_BAD_INPUT;
}

static int analyze_read(const char *prog, struct refopts_settings *s, char **args, int n)
{
    struct err e;
    struct judge_cmd named;
    refopts_judge(s, &named);
    say_if_written(prog, args, n);
    int rc = ana_log(args[0], &s->ana, named.cmd ? &named : NULL, s->json[0] ? s->json : NULL,
                     stdout, &e);
    if (rc == 0)
        return 0;
    if (rc == JUDGE_FAILED)
        return judge_stop(prog, &e);
    err_print(stderr, e.line || !s->json[0] ? args[0] : s->json, &e);
    return EXIT_BAD_INPUT;
}

/* merge OUT JOURNAL...: args[0] is written, the rest read. */
static int merge_read(const char *prog, struct refopts_settings *s, char **args, int n)
{
    (void)s;
    struct err e;
    const char *bad = NULL;
    say_if_written(prog, args + 1, n - 1);
    if (journal_merge(args[0], args + 1, n - 1, &e, &bad) == 0)
        return 0;
    err_print(stderr, bad, &e);
    return EXIT_BAD_INPUT;
}

/* Bench's own checks, once the options are read: engines, --depths, one
 * kind of positions. */
static int bench_checks(const char *prog, struct refopts_settings *s)
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

static int bench_check(const char *prog, struct refopts_settings *s)
{
    int rc = bench_checks(prog, s);
    if (!rc)
        rc = finish_rules(prog, s, "bench");
    if (!rc)
        rc = preflight(prog, s);
    for (int i = 0; !rc && i < s->t.nengines; i++)
        rc = bench_engine_check(prog, &s->t.engine[i]);
    return rc;
}

static int bench_work(const char *prog, struct refopts_settings *s)
{
    s->bench.positions_path = s->openings;
    s->bench.json_path = s->json[0] ? s->json : NULL;
    s->bench.svg_path = s->svg[0] ? s->svg : NULL;
    struct err e;
    int r = refbench_run(&s->t.rules, s->t.engine, s->t.nengines, &s->bench, stdout, &e);
    int judge = r < 0 ? judge_failed(prog, s) : 0;
    if (r < 0 && !judge) {
        int json_failed = s->bench.json_path && !strstr(e.msg, s->json) &&
                          strncmp(e.msg, "--svg", 5) != 0;
        err_print(stderr, json_failed ? s->json : prog, &e);
    }
    if (r < 0)
        return judge ? judge : 1;
    return r == REFBENCH_CANCELLED ? 128 + SIGINT : 0;
}

/* similarity's own checks, once the options are read: a field of engines,
 * then the rules and the checks before the first move. */
static int similarity_check(const char *prog, struct refopts_settings *s)
{
    if (s->t.nengines < 2)
        return cli_usage(prog, "similarity: give at least two --engine options, got %d",
                         s->t.nengines);
    int rc = finish_rules(prog, s, "similarity");
    return rc ? rc : preflight(prog, s);
}

static int similarity_work(const char *prog, struct refopts_settings *s)
{
    struct err e;
    s->simil.progress = isatty(STDERR_FILENO) ? stderr : NULL;
    int r = similarity_run(&s->t.rules, s->t.engine, s->t.nengines, &s->simil, stdout, &e);
    int judge = r < 0 ? judge_failed(prog, s) : 0;
    if ((r < 0 && !judge) || r == SIMILARITY_TOO_FEW)
        err_print(stderr, prog, &e);
    if (r < 0)
        return judge ? judge : 1;
    return r == SIMILARITY_TOO_FEW   ? EXIT_BAD_INPUT
           : r == SIMILARITY_CANCELLED ? 128 + SIGINT
           : r == SIMILARITY_BUSY      ? 1   /* no busy_retries here: never */
                                       : 0;
}

static int play_check(const char *prog, struct refopts_settings *s)
{
    int rc = finish_rules(prog, s, "play");
    return rc ? rc : preflight(prog, s);
}

static int play_work(const char *prog, struct refopts_settings *s)
{
    static const volatile sig_atomic_t never = 0;   /* no guard: no stop flag */
    struct playsrv_opts o = {
        .rules = &s->t.rules, .engines = s->t.engine, .nengines = s->t.nengines,
        .listen = s->listen, .port = s->port, .journal = s->journal[0] ? s->journal : NULL,
        .page_timeout_s = s->page_timeout_s,
        .stop = s->t.rules.limits.cancel ? s->t.rules.limits.cancel : &never,
        .trainer = &referee_trainer,
    };
    struct err e;
    int r = playsrv_run(&o, stdout, &e);
    if (r == 0)
        return 0;
    err_print(stderr, prog, &e);
    return r == PLAYSRV_BAD_INPUT ? EXIT_BAD_INPUT : 1;
}

/* The operands a command takes: from min to max words after its options;
 * max 0: none ("unexpected argument"), else missing is the usage error. */
struct ref_operands {
    int min, max;
    const char *missing;
};

/* How run_command runs a command: its operands; its checks once the
 * options are read, finish_rules and preflight among them in the
 * command's order (the first error is the one shown; NULL: none); for a
 * command that runs engines, guard's words (doing NULL: no guard) and its
 * work; for one that reads files, read, given the operands. */
struct ref_steps {
    struct ref_operands operands;
    int (*check)(const char *prog, struct refopts_settings *s);
    struct {
        const char *doing, *file;
    } guard;
    int (*work)(const char *prog, struct refopts_settings *s);
    int (*read)(const char *prog, struct refopts_settings *s, char **args, int n);
};

#define ONE_LOG { 1, 1, "give one journal or match log" }

/* Every command's steps but slurm's and grade's (they run themselves). */
static const struct ref_steps steps[] = {
    [REF_CMD_MATCH] = { .check = match_check, .guard = { "playing the match", "log" },
                        .work = match_work },
    [REF_CMD_TOURNAMENT] = { .check = tournament_check, .work = tournament_work },
    [REF_CMD_REPORT] = { ONE_LOG, .check = report_check, .read = file_read },
    [REF_CMD_VERIFY] = { ONE_LOG, .read = file_read },
    [REF_CMD_MERGE] = { { 2, INT_MAX, "give OUT and at least one journal" },
                        .read = merge_read },
    [REF_CMD_ANALYZE] = { ONE_LOG, .read = analyze_read },
    [REF_CMD_BENCH] = { .check = bench_check, .guard = { "running the bench", "JSON" },
                        .work = bench_work },
    [REF_CMD_STATUS] = { { 1, 1, "give the folder of a referee slurm run" },
                         .read = status_read },
    [REF_CMD_PLAY] = { .check = play_check, .guard = { "serving the page", "game" },
                       .work = play_work },
    [REF_CMD_SIMILARITY] = { .check = similarity_check,
                             .guard = { "comparing the engines", "comparison" },
                             .work = similarity_work },
};

/* Frees s, then, in the process that found the cgroups' root, removes
 * what is left of its cgroups: the root's own (the freezer's frozen one,
 * cgroup.h), and a guard's child's moves' when it was killed in the middle
 * of one (guard: the guard's parent, which says how many could not be
 * removed). A guard's child leaves them to its parent. After s's judge is
 * closed: its cgroup is its own to end (judge.h), not a leftover. s->cg
 * and s->t.rules.acct outlive refopts_settings_free. */
static void settings_end(const char *prog, struct refopts_settings *s, int guard)
{
    refopts_settings_free(s);
    const struct cg_root *acct = s->t.rules.acct;
    if (!acct || acct->owner != (long)getpid())
        return;
    int left = cg_root_sweep(acct);
    if (left && guard)
        fprintf(stderr, "%s: %d of its moves' cgroups could not be removed (arena-%ld-*)\n",
                prog, left, acct->owner);
}

/* The prologue of every command run_command runs: s set up for command id
 * and its options read, then its operands counted. Returns 0 (s to free),
 * or 1 when the command is over (s freed): *status 0 when the options were
 * answered already (--help), else the usage error's. */
static int begin(const char *prog, struct refopts_settings *s, enum refopts_command id,
                 int argc, char **argv, int *status)
{
    const struct ref_operands *want = &steps[id].operands;
    const char *cmd = command_of(id)->name;
    refopts_settings_init(s, id);
    int rc = parse(prog, s, argc, argv);
    int n = argc - optind;
    if (!rc && !want->max && n > 0)
        rc = cli_usage(prog, "%s: unexpected argument '%s'", cmd, argv[optind]);
    else if (!rc && want->max && (n < want->min || n > want->max))
        rc = cli_usage(prog, "%s: %s", cmd, want->missing);
    if (!rc)
        return 0;
    settings_end(prog, s, 0);   /* a judge's start may have found the cgroups */
    *status = rc < 0 ? 0 : rc;
    return 1;
}

/* Runs command id by its steps; its exit status. */
static int run_command(const char *prog, enum refopts_command id, int argc, char **argv)
{
    assert(id >= 0 && (size_t)id < sizeof steps / sizeof *steps);
    const struct ref_steps *st = &steps[id];
    assert(!st->work != !st->read);
    struct refopts_settings s;
    int rc;
    if (begin(prog, &s, id, argc, argv, &rc))
        return rc;
    rc = st->check ? st->check(prog, &s) : 0;
    int status;
    if (!rc && st->guard.doing && guard(prog, &s, st->guard.doing, st->guard.file, &status)) {
        settings_end(prog, &s, 1);
        return status;
    }
    if (!rc)
        rc = st->work ? st->work(prog, &s) : st->read(prog, &s, argv + optind, argc - optind);
    settings_end(prog, &s, 0);
    return rc;
}

/* fastchess's spaced --sprt (`--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05`):
 * the words of the form KEY=VALUE after a --sprt that are its own keys are
 * joined with commas into its one value, in argv itself (argc shrinks), the
 * joined text in buf (cap bytes: on the caller's stack, so that no worker
 * forked later holds it). Returns the new argc, or -1 when the words do
 * not fit in buf. */
static int join_spaced_sprt(int argc, char **argv, char *buf, size_t cap)
{
    static const char *const keys[] = { "elo0=", "elo1=", "alpha=", "beta=", "model=" };
    for (int i = 1; i + 1 < argc; i++) {
        int eq = strncmp(argv[i], "--sprt=", 7) == 0;
        if (strcmp(argv[i], "--sprt") != 0 && !eq)
            continue;
        int v = eq ? i : i + 1, end = v + 1;
        for (size_t k = 0; end < argc && k < sizeof keys / sizeof *keys; k++)
            if (strncmp(argv[end], keys[k], strlen(keys[k])) == 0) {
                end++;
                k = (size_t)-1;   /* any key may follow: the loop starts again */
            }
        if (end == v + 1)
            continue;
        size_t used = 0;
        for (int k = v; k < end; k++) {
            int n = snprintf(buf + used, cap - used, "%s%s", k > v ? "," : "", argv[k]);
            if (n < 0 || (size_t)n >= cap - used)
                return -1;
            used += (size_t)n;
        }
        argv[v] = buf;
        memmove(argv + v + 1, argv + end, (size_t)(argc - end + 1) * sizeof *argv);
        return argc - (end - v - 1);
    }
    return argc;
}

int main(int argc, char **argv)
{
    /* A game's sandbox init is this program again (sandbox.h). */
    sbx_init_main(argc, argv);
    const char *prog = cli_prog(argv[0], "referee");
    char list[256];
    command_list(list, sizeof list);
    if (argc < 2)
        return cli_usage(prog, "missing command (%s)", list);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return help_all(prog);
    if (strcmp(argv[1], "--version") == 0)
        return cli_version(prog);
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            char sprt[SPRT_TEXT_MAX];
            int n = join_spaced_sprt(argc - 1, argv + 1, sprt, sizeof sprt);
            return n < 0 ? cli_usage(prog, "--sprt: its words are over %d bytes",
                                     SPRT_TEXT_MAX - 1)
                         : commands[i].run(prog, commands[i].id, n, argv + 1);
        }
    return cli_usage(prog, "unknown command '%s' (%s)", argv[1], list);
}
