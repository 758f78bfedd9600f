/* referee.c - matches, tournaments, reports, verify and merge between any
 * engines through board files. Options and config-file keys are one table:
 * a config key is an option's name (with '_' or '-'), applied before the
 * command line's options, which override it. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/analyze.h"
#include "arena/cli.h"
#include "arena/search.h"
#include "arena/textfile.h"
#include "arena/tournament.h"

#define PROG "referee"
#define DEFAULT_GAMES 2
#define DEFAULT_DEPTH 4
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_FILE_LIMIT_KB 1024
#define DEFAULT_PROC_EXTRA 64      /* tasks an engine may start (RLIMIT_NPROC) */
#define MAX_GAMES 1000000
#define MAX_TIMEOUT_MS 86400000L
#define CONFIG_CAP (1 << 20)
#define NUMBER_TEXT 64

static const char usage_text[] =
    "Usage: referee match --game G --engine SPEC --engine SPEC [OPTIONS]\n"
    "       referee tournament (--config FILE.json | --game G --engine SPEC ...) [OPTIONS]\n"
    "       referee report JOURNAL|LOG [--format text|json|csv]\n"
    "       referee verify JOURNAL|LOG\n"
    "       referee analyze JOURNAL|LOG [--budget-ms N] [--max-empty N] [--json FILE]\n"
    "       referee merge OUT JOURNAL...\n"
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
    "  --engine SPEC        name=NAME,cmd=COMMAND or COMMAND (repeat). Placeholders\n"
    "                       {in} {out} {depth} {player}; none: {in} {out} {depth}\n"
    "                       are appended\n"
    "  --depth N            the {depth} given to engines (default 4)\n"
    "  --random-plies N     opening: N random plies from the start (default 0)\n"
    "  --openings FILE      opening book: one line of moves per opening\n"
    "  --seed N             seed of the random openings (default 1)\n"
    "  --timeout-ms N       wall time per move (default 10000)\n"
    "  --cpu-limit-s N      CPU seconds per move (RLIMIT_CPU; default none)\n"
    "  --mem-limit-mb N     address space per move (RLIMIT_AS; default none)\n"
    "  --draw-plies N       games that can go on forever (checkers) are drawn\n"
    "                       after N plies without capture or promotion (100)\n"
    "  --keep-files DIR     keep every move's board files in DIR/game-N\n"
    "  --analyze            judge every move with the game's exact oracle (as\n"
    "                       analyze does) and record it in the log or journal\n"
    "Match:\n"
    "  --games N            games in all (default 2)\n"
    "  --log FILE           the JSON log (schema arena.match/1), written atomically\n"
    "Tournament:\n"
    "  --config FILE        a JSON object of these options ('engines': a list of\n"
    "                       SPECs or {\"name\", \"cmd\"}); options given here win\n"
    "  --format F           round-robin (default) or gauntlet (engine 1 vs the rest)\n"
    "  --rounds N           each pair plays 2 games per round (default 1)\n"
    "  --concurrency N      games at once (default 1)\n"
    "  --journal FILE       one JSON line per finished game (required to resume)\n"
    "  --resume             finish the journal's tournament\n"
    "  --sprt elo0=A,elo1=B,alpha=X,beta=Y   stop a 2-engine run when decided\n"
    "  --shard K/N          play every N-th game from game K (merge them after)\n"
    "Report:\n"
    "  --format F           text (default), json or csv\n"
    "Analyze (and --analyze): the outcome with perfect play (win, draw, loss)\n"
    "before and after every engine move; a move that makes it worse for the mover\n"
    "is a blunder, and a game's last blunder its decisive mistake. Oracles:\n"
    "connect4 the solver, nim the closed form, maxconnect4 a full search.\n"
    "  --budget-ms N        connect4: CPU per position, else \"unknown\" (1000)\n"
    "  --max-empty N        maxconnect4: exact within N empty cells (16)\n"
    "  --json FILE          analyze: also write the analysed records as JSON\n";

enum command { CMD_MATCH = 1, CMD_TOURNAMENT = 2, CMD_REPORT = 4, CMD_ANALYZE = 8 };

enum opt_id {
    OPT_GAME = 256, OPT_ENGINE, OPT_GAMES, OPT_DEPTH, OPT_PLIES, OPT_OPENINGS, OPT_SEED,
    OPT_TIMEOUT, OPT_CPU, OPT_MEM, OPT_DRAW, OPT_KEEP, OPT_LOG, OPT_CONFIG, OPT_FORMAT,
    OPT_ROUNDS, OPT_CONCURRENCY, OPT_JOURNAL, OPT_RESUME, OPT_SPRT, OPT_SHARD, OPT_ANALYZE,
    OPT_BUDGET, OPT_MAX_EMPTY, OPT_JSON
};

#define BOTH (CMD_MATCH | CMD_TOURNAMENT)
static const struct { struct option opt; int commands; } table[] = {
    { { "game", required_argument, NULL, OPT_GAME }, BOTH },
    { { "engine", required_argument, NULL, OPT_ENGINE }, BOTH },
    { { "games", required_argument, NULL, OPT_GAMES }, CMD_MATCH },
    { { "depth", required_argument, NULL, OPT_DEPTH }, BOTH },
    { { "random-plies", required_argument, NULL, OPT_PLIES }, BOTH },
    { { "openings", required_argument, NULL, OPT_OPENINGS }, BOTH },
    { { "seed", required_argument, NULL, OPT_SEED }, BOTH },
    { { "timeout-ms", required_argument, NULL, OPT_TIMEOUT }, BOTH },
    { { "cpu-limit-s", required_argument, NULL, OPT_CPU }, BOTH },
    { { "mem-limit-mb", required_argument, NULL, OPT_MEM }, BOTH },
    { { "draw-plies", required_argument, NULL, OPT_DRAW }, BOTH },
    { { "keep-files", required_argument, NULL, OPT_KEEP }, BOTH },
    { { "log", required_argument, NULL, OPT_LOG }, CMD_MATCH },
    { { "config", required_argument, NULL, OPT_CONFIG }, CMD_TOURNAMENT },
    { { "format", required_argument, NULL, OPT_FORMAT }, CMD_TOURNAMENT | CMD_REPORT },
    { { "rounds", required_argument, NULL, OPT_ROUNDS }, CMD_TOURNAMENT },
    { { "concurrency", required_argument, NULL, OPT_CONCURRENCY }, CMD_TOURNAMENT },
    { { "journal", required_argument, NULL, OPT_JOURNAL }, CMD_TOURNAMENT },
    { { "resume", no_argument, NULL, OPT_RESUME }, CMD_TOURNAMENT },
    { { "sprt", required_argument, NULL, OPT_SPRT }, CMD_TOURNAMENT },
    { { "shard", required_argument, NULL, OPT_SHARD }, CMD_TOURNAMENT },
    { { "analyze", no_argument, NULL, OPT_ANALYZE }, BOTH },
    { { "budget-ms", required_argument, NULL, OPT_BUDGET }, BOTH | CMD_ANALYZE },
    { { "max-empty", required_argument, NULL, OPT_MAX_EMPTY }, BOTH | CMD_ANALYZE },
    { { "json", required_argument, NULL, OPT_JSON }, CMD_ANALYZE },
};
#define NOPTS ((int)(sizeof table / sizeof *table))

struct settings {
    int command;
    struct tour_config t;       /* rules, engines, tournament fields */
    long games;
    char openings[PATH_MAX], keep[PATH_MAX], log[PATH_MAX], journal[PATH_MAX], json[PATH_MAX];
    int analyze;
    struct ana_opts ana;
    enum tour_report_format report_format;
    struct ref_book book;
};

/* Applies one option (from the command line or the config file) to s.
 * Returns 0, or -1 with msg filled. */
static int apply(struct settings *s, int id, const char *name, const char *val, char *msg,
                 size_t cap)
{
    struct { int id; long lo, hi; long *out; } nums[] = {
        { OPT_GAMES, 1, MAX_GAMES, &s->games },
        { OPT_TIMEOUT, 1, MAX_TIMEOUT_MS, &s->t.rules.limits.timeout_ms },
        { OPT_CPU, 0, MAX_TIMEOUT_MS / 1000, &s->t.rules.limits.cpu_limit_s },
        { OPT_MEM, 0, LONG_MAX / (1 << 20), &s->t.rules.limits.mem_limit_mb },
        { OPT_BUDGET, 1, MAX_TIMEOUT_MS, &s->ana.budget_ms },
    };
    for (size_t k = 0; k < sizeof nums / sizeof *nums; k++)
        if (nums[k].id == id) {
            if (cli_int(val, nums[k].lo, nums[k].hi, nums[k].out) != 0)
                return snprintf(msg, cap, "%s must be a number from %ld to %ld, got '%s'", name,
                                nums[k].lo, nums[k].hi, val), -1;
            return 0;
        }
    struct { int id; long lo, hi; int *out; } ints[] = {
        { OPT_DEPTH, 1, SEARCH_MAX_DEPTH, &s->t.rules.depth },
        { OPT_PLIES, 0, GAME_MAX_MOVES, &s->t.rules.random_plies },
        { OPT_DRAW, 0, MAX_GAMES, &s->t.rules.draw_plies },
        { OPT_ROUNDS, 1, MAX_GAMES, &s->t.rounds },
        { OPT_CONCURRENCY, 1, TOUR_MAX_CONCURRENCY, &s->t.concurrency },
        { OPT_MAX_EMPTY, 0, C4_CELLS, &s->ana.max_empty },
    };
    for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
        if (ints[k].id == id) {
            long v;
            if (cli_int(val, ints[k].lo, ints[k].hi, &v) != 0)
                return snprintf(msg, cap, "%s must be a number from %ld to %ld, got '%s'", name,
                                ints[k].lo, ints[k].hi, val), -1;
            *ints[k].out = (int)v;
            return 0;
        }
    struct { int id; char *out; } paths[] = {
        { OPT_OPENINGS, s->openings }, { OPT_KEEP, s->keep },
        { OPT_LOG, s->log }, { OPT_JOURNAL, s->journal }, { OPT_JSON, s->json },
    };
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++)
        if (paths[k].id == id) {
            snprintf(paths[k].out, PATH_MAX, "%s", val);
            return 0;
        }
    switch (id) {
    case OPT_GAME:
        if (!(s->t.rules.game = game_find(val))) {
            int n = snprintf(msg, cap, "unknown game '%s' (", val);
            for (const struct game *const *g = game_all(); *g && n > 0 && (size_t)n < cap; g++)
                n += snprintf(msg + n, cap - (size_t)n, "%s%s", (*g)->name, g[1] ? ", " : ")");
            return -1;
        }
        return 0;
    case OPT_ENGINE: {
        struct err e;
        if (s->t.nengines == TOUR_MAX_ENGINES)
            return snprintf(msg, cap, "at most %d engines", TOUR_MAX_ENGINES), -1;
        if (ref_engine_parse(val, &s->t.engine[s->t.nengines], &e) != 0)
            return snprintf(msg, cap, "%s '%.100s': column %d: %.120s", name, val, e.col, e.msg), -1;
        s->t.nengines++;
        return 0;
    }
    case OPT_SEED: {
        long v;
        if (cli_int(val, 0, LONG_MAX, &v) != 0)
            return snprintf(msg, cap, "%s must be a number from 0 to %ld, got '%s'", name,
                            LONG_MAX, val), -1;
        s->t.rules.seed = (uint64_t)v;
        return 0;
    }
    case OPT_FORMAT:
        if (s->command == CMD_REPORT) {
            if (strcmp(val, "text") == 0)
                s->report_format = REPORT_TEXT;
            else if (strcmp(val, "json") == 0)
                s->report_format = REPORT_JSON;
            else if (strcmp(val, "csv") == 0)
                s->report_format = REPORT_CSV;
            else
                return snprintf(msg, cap, "format must be text, json or csv, got '%s'", val), -1;
        } else if (strcmp(val, "round-robin") == 0) {
            s->t.format = TOUR_ROUND_ROBIN;
        } else if (strcmp(val, "gauntlet") == 0) {
            s->t.format = TOUR_GAUNTLET;
        } else {
            return snprintf(msg, cap, "format must be round-robin or gauntlet, got '%s'", val), -1;
        }
        return 0;
    case OPT_RESUME:
        s->t.resume = 1;
        return 0;
    case OPT_ANALYZE:
        s->analyze = 1;
        return 0;
    case OPT_SHARD: {
        int k, n, used = 0;
        if (sscanf(val, "%d/%d%n", &k, &n, &used) != 2 || val[used] || n < 1 || k < 1 || k > n)
            return snprintf(msg, cap, "shard must be K/N with 1 <= K <= N, got '%s'", val), -1;
        s->t.shard_k = k;
        s->t.shard_n = n;
        return 0;
    }
    case OPT_SPRT: {
        struct tour_sprt p = { 1, 0, 0, 0, 0 };
        int used = 0;
        if (sscanf(val, "elo0=%lf,elo1=%lf,alpha=%lf,beta=%lf%n", &p.elo0, &p.elo1, &p.alpha,
                   &p.beta, &used) != 4 || val[used] || p.elo1 <= p.elo0 || p.alpha <= 0 ||
            p.alpha >= 1 || p.beta <= 0 || p.beta >= 1)
            return snprintf(msg, cap,
                            "sprt must be elo0=A,elo1=B,alpha=X,beta=Y with A < B and 0 < X, Y "
                            "< 1, got '%s'", val), -1;
        s->t.sprt = p;
        return 0;
    }
    }
    return snprintf(msg, cap, "'%s' is not an option of this command", name), -1;
}

static int option_of(const char *name, int command)
{
    char norm[64];
    snprintf(norm, sizeof norm, "%s", name);
    for (char *p = norm; *p; p++)
        if (*p == '_')
            *p = '-';
    for (int i = 0; i < NOPTS; i++)
        if (strcmp(table[i].opt.name, norm) == 0 && (table[i].commands & command))
            return table[i].opt.val;
    return 0;
}

/* Line and column of the first "key" in text, for a config error. */
static void key_place(const char *text, const char *key, struct err *e)
{
    char quoted[80];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = strstr(text, quoted);
    tf_place(text, at ? at : text, &e->line, &e->col);
}

/* Applies the config file's options; 0, or -1 with e (file place) filled. */
static int read_config(struct settings *s, const char *path, struct err *e)
{
    char *text;
    size_t len;
    if (tf_read(path, CONFIG_CAP, &text, &len, e) != 0)
        return -1;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    int rc = 0;
    if (!root || !cJSON_IsObject(root)) {
        tf_place(text, root ? text : end ? end : text, &e->line, &e->col);
        snprintf(e->msg, sizeof e->msg, root ? "expected a JSON object of options"
                                             : "not valid JSON");
        rc = -1;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        if (rc)
            break;
        char msg[ERR_MSG_MAX] = "", val[PATH_MAX];
        int id = option_of(item->string, CMD_TOURNAMENT);
        if (id == OPT_CONFIG)
            id = 0;
        if (strcmp(item->string, "engines") == 0 && cJSON_IsArray(item)) {
            const cJSON *eng;
            cJSON_ArrayForEach(eng, item) {
                const cJSON *n = cJSON_GetObjectItemCaseSensitive(eng, "name");
                const cJSON *c = cJSON_GetObjectItemCaseSensitive(eng, "cmd");
                if (cJSON_IsString(eng))
                    snprintf(val, sizeof val, "%s", eng->valuestring);
                else if (cJSON_IsString(n) && cJSON_IsString(c))
                    snprintf(val, sizeof val, "name=%s,cmd=%s", n->valuestring, c->valuestring);
                else
                    snprintf(msg, sizeof msg, "an engine is a SPEC string or {\"name\", \"cmd\"}");
                if (!msg[0])
                    apply(s, OPT_ENGINE, "engines", val, msg, sizeof msg);
                if (msg[0])
                    break;
            }
        } else if (!id) {
            snprintf(msg, sizeof msg, "unknown key \"%s\"", item->string);
        } else if (cJSON_IsString(item)) {
            apply(s, id, item->string, item->valuestring, msg, sizeof msg);
        } else if (cJSON_IsNumber(item)) {
            snprintf(val, sizeof val, "%.0f", item->valuedouble);
            apply(s, id, item->string, val, msg, sizeof msg);
        } else if (cJSON_IsBool(item) && id == OPT_RESUME) {
            s->t.resume = cJSON_IsTrue(item);
        } else if (cJSON_IsBool(item) && id == OPT_ANALYZE) {
            s->analyze = cJSON_IsTrue(item);
        } else {
            snprintf(msg, sizeof msg, "\"%s\" must be a string or a number", item->string);
        }
        if (msg[0]) {
            key_place(text, item->string, e);
            snprintf(e->msg, sizeof e->msg, "%s", msg);
            rc = -1;
        }
    }
    cJSON_Delete(root);
    free(text);
    return rc;
}

static void settings_free(struct settings *s)
{
    for (int i = 0; i < s->t.nengines; i++)
        ref_engine_free(&s->t.engine[i]);
    ref_book_free(&s->book);
}

/* Parses the options of command into s; 0, 1 (--help shown) or 2 (usage
 * error printed). Positional arguments are left at argv[optind..]. */
static int parse(struct settings *s, int command, int argc, char **argv)
{
    struct option opts[NOPTS + 2];
    int n = 0;
    for (int i = 0; i < NOPTS; i++)
        if (table[i].commands & command)
            opts[n++] = table[i].opt;
    opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
    opts[n] = (struct option){ NULL, 0, NULL, 0 };
    opterr = 0;
    /* The config file first, so that the command line overrides it. */
    for (int i = 1; i + 1 < argc; i++)
        if (command == CMD_TOURNAMENT && strcmp(argv[i], "--config") == 0) {
            struct err e;
            if (read_config(s, argv[i + 1], &e) != 0) {
                err_print(stderr, argv[i + 1], &e);
                return EXIT_BAD_INPUT;
            }
        }
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        char msg[ERR_MSG_MAX];
        if (c == 'h') {
            fputs(usage_text, stdout);
            return 1;
        }
        if (c == ':')
            return cli_usage(PROG, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage(PROG, "unknown option '%s'", argv[optind - 1]);
        if (c == OPT_CONFIG)
            continue;
        char name[64] = "--?";
        for (int i = 0; i < NOPTS; i++)
            if (table[i].opt.val == c)
                snprintf(name, sizeof name, "--%s", table[i].opt.name);
        if (apply(s, c, name, optarg ? optarg : "", msg, sizeof msg) != 0)
            return cli_usage(PROG, "%s", msg);
    }
    return 0;
}

/* Checks what match and tournament share and loads the opening book. */
static int finish_rules(struct settings *s, const char *cmd)
{
    if (!s->t.rules.game)
        return cli_usage(PROG, "%s: --game is required", cmd);
    if (s->openings[0]) {
        struct err e;
        if (ref_book_read(s->t.rules.game, s->openings, &s->book, &e) != 0) {
            err_print(stderr, s->openings, &e);
            return EXIT_BAD_INPUT;
        }
        s->t.rules.book = &s->book;
    }
    s->t.rules.keep_dir = s->keep[0] ? s->keep : NULL;
    if (s->analyze) {
        if (!ana_supports(s->t.rules.game))
            return cli_usage(PROG, "%s: --analyze has no oracle for %s (connect4, maxconnect4, "
                             "nim)", cmd, s->t.rules.game->name);
        s->t.rules.analyze = &s->ana;
    }
    /* Only commands that run engines pay for the /proc scan. */
    s->t.rules.limits.proc_limit = run_proc_limit(DEFAULT_PROC_EXTRA);
    return 0;
}

static void defaults(struct settings *s, int command)
{
    memset(s, 0, sizeof *s);
    s->command = command;
    s->games = DEFAULT_GAMES;
    s->t.rules.depth = DEFAULT_DEPTH;
    s->t.rules.seed = 1;
    s->t.rules.draw_plies = REF_DRAW_PLIES;
    s->t.rules.limits.timeout_ms = DEFAULT_TIMEOUT_MS;
    s->t.rules.limits.file_limit_kb = DEFAULT_FILE_LIMIT_KB;
    s->t.rounds = 1;
    s->t.concurrency = 1;
    s->t.shard_k = s->t.shard_n = 1;
    s->ana.budget_ms = ANA_DEFAULT_BUDGET_MS;
    s->ana.max_empty = ANA_DEFAULT_MAX_EMPTY;
}

static int cmd_match(int argc, char **argv)
{
    struct settings s;
    defaults(&s, CMD_MATCH);
    int rc = parse(&s, CMD_MATCH, argc, argv);
    if (rc == 1) {
        settings_free(&s);
        return 0;
    }
    if (!rc && optind < argc)
        rc = cli_usage(PROG, "match: unexpected argument '%s'", argv[optind]);
    if (!rc)
        rc = finish_rules(&s, "match");
    if (!rc && s.t.nengines != 2)
        rc = cli_usage(PROG, "match: give two --engine options, got %d", s.t.nengines);
    if (!rc) {
        run_become_reaper();
        s.t.rules.limits.reap_all = 1;
        struct match_opts o = {
            .rules = s.t.rules,
            .engine = { &s.t.engine[0], &s.t.engine[1] },
            .games = (int)s.games,
            .log_path = s.log[0] ? s.log : NULL,
        };
        struct err e;
        if (match_run(&o, stdout, &e) != 0) {
            err_print(stderr, o.log_path && !strstr(e.msg, o.log_path) ? o.log_path : PROG, &e);
            rc = 1;
        }
    }
    settings_free(&s);
    return rc;
}

static int cmd_tournament(int argc, char **argv)
{
    struct settings s;
    defaults(&s, CMD_TOURNAMENT);
    int rc = parse(&s, CMD_TOURNAMENT, argc, argv);
    if (rc == 1) {
        settings_free(&s);
        return 0;
    }
    if (!rc && optind < argc)
        rc = cli_usage(PROG, "tournament: unexpected argument '%s'", argv[optind]);
    if (!rc && !s.t.rules.game)
        rc = cli_usage(PROG, "tournament: --game is required");
    if (!rc && s.t.nengines < 2)
        rc = cli_usage(PROG, "tournament: give at least two engines, got %d", s.t.nengines);
    for (int i = 0; !rc && i < s.t.nengines; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(s.t.engine[i].name, s.t.engine[j].name) == 0) {
                rc = cli_usage(PROG, "tournament: two engines are named '%s' (use name=)",
                               s.t.engine[i].name);
                break;
            }
    if (!rc && s.t.sprt.on && s.t.nengines != 2)
        rc = cli_usage(PROG, "tournament: --sprt needs exactly two engines");
    if (!rc && s.t.resume && !s.journal[0])
        rc = cli_usage(PROG, "tournament: --resume needs --journal");
    if (!rc)
        rc = finish_rules(&s, "tournament");
    if (!rc) {
        s.t.journal = s.journal[0] ? s.journal : NULL;
        s.t.progress = isatty(STDERR_FILENO);
        struct err e;
        int r = tour_run(&s.t, stdout, &e);
        if (r < 0) {
            err_print(stderr, s.t.journal && e.line ? s.t.journal : PROG, &e);
            rc = r == TOUR_BAD_JOURNAL ? EXIT_BAD_INPUT : 1;
        } else if (r == TOUR_STOPPED) {
            rc = 128 + SIGINT;
        }
    }
    settings_free(&s);
    return rc;
}

/* report and verify: one file argument. */
static int cmd_file(int command, int argc, char **argv)
{
    struct settings s;
    defaults(&s, command);
    const char *name = command == CMD_REPORT ? "report" : "verify";
    int rc = parse(&s, command, argc, argv);
    if (rc == 1)
        return 0;
    if (!rc && argc - optind != 1)
        rc = cli_usage(PROG, "%s: give one journal or match log", name);
    if (rc)
        return rc;
    const char *path = argv[optind];
    struct err e;
    if (command == CMD_REPORT) {
        if (tour_report(path, s.report_format, stdout, &e) == 0)
            return 0;
        err_print(stderr, path, &e);
        return EXIT_BAD_INPUT;
    }
    rc = tour_verify(path, stdout, &e);
    if (rc == 0)
        return 0;
    err_print(stderr, path, &e);
    return rc > 0 ? 1 : EXIT_BAD_INPUT;
}

static int cmd_analyze(int argc, char **argv)
{
    struct settings s;
    defaults(&s, CMD_ANALYZE);
    int rc = parse(&s, CMD_ANALYZE, argc, argv);
    if (rc == 1)
        return 0;
    if (!rc && argc - optind != 1)
        rc = cli_usage(PROG, "analyze: give one journal or match log");
    if (rc)
        return rc;
    const char *path = argv[optind];
    struct err e;
    if (ana_log(path, &s.ana, s.json[0] ? s.json : NULL, stdout, &e) == 0)
        return 0;
    err_print(stderr, e.line || !s.json[0] ? path : s.json, &e);
    return EXIT_BAD_INPUT;
}

static int cmd_merge(int argc, char **argv)
{
    struct settings s;
    defaults(&s, CMD_REPORT);
    int rc = parse(&s, 0, argc, argv);
    if (rc == 1)
        return 0;
    if (!rc && argc - optind < 2)
        rc = cli_usage(PROG, "merge: give OUT and at least one journal");
    if (rc)
        return rc;
    struct err e;
    const char *bad = NULL;
    if (tour_merge(argv[optind], argv + optind + 1, argc - optind - 1, &e, &bad) == 0)
        return 0;
    err_print(stderr, bad, &e);
    return EXIT_BAD_INPUT;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage(PROG, "missing command (match, tournament, report, verify, merge, analyze)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "match") == 0)
        return cmd_match(argc - 1, argv + 1);
    if (strcmp(argv[1], "tournament") == 0)
        return cmd_tournament(argc - 1, argv + 1);
    if (strcmp(argv[1], "report") == 0)
        return cmd_file(CMD_REPORT, argc - 1, argv + 1);
    if (strcmp(argv[1], "verify") == 0)
        return cmd_file(0, argc - 1, argv + 1);
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc - 1, argv + 1);
    if (strcmp(argv[1], "analyze") == 0)
        return cmd_analyze(argc - 1, argv + 1);
    return cli_usage(PROG, "unknown command '%s' (match, tournament, report, verify, merge, analyze)",
                     argv[1]);
}
