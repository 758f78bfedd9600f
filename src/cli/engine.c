/* engine.c - the one-move engine for every game, and its benchmark. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/bench.h"
#include "arena/c4book.h"
#include "arena/c4bookmake.h"
#include "arena/c4moves.h"
#include "arena/c4solvelines.h"
#include "arena/c4solver.h"
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/connect4.h"
#include "arena/onemove.h"
#include "arena/spfiar.h"
#include "arena/textfile.h"
#include "arena/train.h"
#include "arena/weights.h"

#define PROG "engine"
#define DEFAULT_GAME "maxconnect4"
#define DEFAULT_DEPTH 6
#define BENCH_DEFAULT_MIN 1
#define BENCH_DEFAULT_MAX 10
#define TT_MAX_MB 65536L

static const char usage_text[] =
    "Usage: engine COMMAND [OPTIONS]\n"
    "\n"
    "  engine one-move [--game G] [--depth N] [--player P] [--seed N] [--tt-mb N]\n"
    "                  [--weights F] [--eval game|spfiar] IN OUT [DEPTH]\n"
    "      Reads the board file IN, makes one move, writes the new board to OUT and\n"
    "      prints the board before and after (the Max-Connect4 sample program's\n"
    "      shape). One line of statistics goes to stderr:\n"
    "        info game G player P depth D nodes N cpu_ms T move M value V\n"
    "      DEPTH (or --depth) is the search depth in plies, default 6.\n"
    "      A finished game is reported and nothing is written.\n"
    "      Players: alphabeta (default), minimax (the plain reference), random\n"
    "      (uniform, a function of --seed and the position), perfect (the game's\n"
    "      solver: connect4, nim; the quickest win, then the lowest column), and\n"
    "      for connect4 the learned players qlearn (the move of highest Q) and\n"
    "      qlearn-ab (alpha-beta, a leaf worth its best Q), which need\n"
    "      --weights F (a weights file of engine train). --eval spfiar scores the\n"
    "      leaves of alphabeta and minimax on connect4 with the SPFIAR span\n"
    "      histogram instead of the game's evaluation.\n"
    "\n"
    "  engine bench [--game G] [--player alphabeta|minimax] [--depth N | --depths A-B]\n"
    "               [--tt-mb N] [--json FILE]\n"
    "      Searches fixed positions at fixed depths with the TT cleared before each\n"
    "      search; prints nodes, CPU seconds, nodes/s and effective branching factor\n"
    "      per depth, then the total node count (the search's signature).\n"
    "      Default depths 1-10.\n"
    "\n"
    "  engine solve [--weak] [--tt-mb N] [--threads N] [--book BOOK] [FILE...]\n"
    "      The perfect Connect-4 solver. Reads move strings (1-based column digits\n"
    "      from the empty board, e.g. 4453), one per line, from the FILEs or stdin;\n"
    "      a line may also carry the expected score after a space (the public test\n"
    "      sets' format), which is then checked. Prints per line:\n"
    "        MOVES SCORE NODES MICROSECONDS\n"
    "      MICROSECONDS: the solve's elapsed time, to a hundredth (monotonic clock).\n"
    "      SCORE: 0 draw; 22 minus the discs the winner has played at the end when\n"
    "      the side to move wins, its negation when it loses. --weak prints only\n"
    "      1, 0 or -1 (win, draw, loss). A bad line is reported with file:line:col\n"
    "      and the run goes on (exit status 2 at the end; 1 when a score differs\n"
    "      from the expected one). The table (default 64 MiB) is kept across lines.\n"
    "      --book BOOK takes the score of every position BOOK holds from it instead\n"
    "      of searching (fixtures/connect4/book.txt is the shipped one).\n"
    "      --threads N (1-64, default 1) searches with N threads sharing the table;\n"
    "      scores are the same for any N, NODES (all threads') and times vary.\n"
    "\n"
    "  engine book --depth N [--from MOVES] [--tt-mb N] OUT\n"
    "      Makes a Connect-4 opening book with the solver: the exact score of every\n"
    "      position at most N moves (1-12) after MOVES (default: the empty board),\n"
    "      one line 'MOVES SCORE' each (the solve format; a position and its mirror\n"
    "      image once), in OUT, written whole at the end. The deepest positions are\n"
    "      solved, the others follow from their moves. Prints the positions, the\n"
    "      solves, the solver's nodes and the CPU seconds.\n"
    "\n"
    "  engine train --games N --weights-out F [--opponent O] [--weights-in F]\n"
    "               [--opponent-weights F] [--gamma X] [--alpha X] [--alpha-final X]\n"
    "               [--epsilon X] [--switch-prob X] [--seed N] [--log F] [--log-every K]\n"
    "      Trains the Q-learning Connect-4 player in N games against O, in process:\n"
    "      random (default), trained, alphabeta:D, learning or self. Try\n"
    "      'engine train --help'.\n"
    "\n"
    "  engine weights [--json] FILE\n"
    "      Prints a weights file: one attribute and its weight per line.\n"
    "\n"
    "Games: connect4, maxconnect4 (default), nim, checkers. --tt-mb sets the transposition\n"
    "table size in MiB (default 32). Bad input exits with status 2 and writes nothing.\n";

enum { OPT_GAME = 256, OPT_DEPTH, OPT_DEPTHS, OPT_PLAYER, OPT_SEED, OPT_TT, OPT_JSON,
       OPT_WEIGHTS, OPT_EVAL, OPT_WEAK, OPT_BOOK, OPT_FROM, OPT_THREADS };

static const struct option long_opts[] = {
    { "game", required_argument, NULL, OPT_GAME },
    { "depth", required_argument, NULL, OPT_DEPTH },
    { "depths", required_argument, NULL, OPT_DEPTHS },
    { "player", required_argument, NULL, OPT_PLAYER },
    { "seed", required_argument, NULL, OPT_SEED },
    { "tt-mb", required_argument, NULL, OPT_TT },
    { "json", required_argument, NULL, OPT_JSON },
    { "weights", required_argument, NULL, OPT_WEIGHTS },
    { "eval", required_argument, NULL, OPT_EVAL },
    { "weak", no_argument, NULL, OPT_WEAK },
    { "book", required_argument, NULL, OPT_BOOK },
    { "from", required_argument, NULL, OPT_FROM },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

struct engine_args {
    const struct game *game;
    int player;
    long depth, depth_min, depth_max;
    unsigned long long seed;
    long tt_mb;
    const char *json;
    const char *weights;                /* --weights */
    int (*evaluate)(const void *state); /* --eval spfiar */
    int depth_given, depths_given, tt_given;
    int weak;                           /* solve --weak */
    const char *book;                   /* solve --book */
    const char *from;                   /* book --from */
    long threads;                       /* solve --threads; 0: not given */
};

/* Parses the options of a command; 0, 1 for --help, or EXIT_BAD_INPUT. */
static int parse_options(int argc, char **argv, const char *cmd, struct engine_args *a)
{
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
        long v;
        switch (c) {
        case 'h':
            return 1;
        case OPT_GAME:
            if (!(a->game = game_find(optarg)))
                return cli_usage(PROG, "unknown game '%s' (connect4, maxconnect4, nim, checkers)",
                                 optarg);
            break;
        case OPT_DEPTH:
            if (cli_int(optarg, 1, SEARCH_MAX_DEPTH, &a->depth) != 0)
                return cli_usage(PROG, "--depth must be a number from 1 to %d", SEARCH_MAX_DEPTH);
            a->depth_given = 1;
            break;
        case OPT_DEPTHS: {
            char lo[16], hi[16];
            if (sscanf(optarg, "%15[0-9]-%15[0-9]", lo, hi) != 2
                || cli_int(lo, 1, SEARCH_MAX_DEPTH, &a->depth_min) != 0
                || cli_int(hi, a->depth_min, SEARCH_MAX_DEPTH, &a->depth_max) != 0)
                return cli_usage(PROG, "--depths must be A-B with 1 <= A <= B <= %d",
                                 SEARCH_MAX_DEPTH);
            a->depths_given = 1;
            break;
        }
        case OPT_PLAYER:
            if ((a->player = player_parse(optarg)) < 0)
                return cli_usage(PROG,
                                 "unknown player '%s' (alphabeta, minimax, random, perfect, "
                                 "qlearn, qlearn-ab)",
                                 optarg);
            break;
        case OPT_SEED:
            if (cli_int(optarg, 0, LONG_MAX, &v) != 0)
                return cli_usage(PROG, "--seed must be a non-negative number");
            a->seed = (unsigned long long)v;
            break;
        case OPT_TT:
            if (cli_int(optarg, 1, TT_MAX_MB, &a->tt_mb) != 0)
                return cli_usage(PROG, "--tt-mb must be a number from 1 to %ld", TT_MAX_MB);
            a->tt_given = 1;
            break;
        case OPT_WEAK:
            a->weak = 1;
            break;
        case OPT_BOOK:
            a->book = optarg;
            break;
        case OPT_FROM:
            a->from = optarg;
            break;
        case OPT_THREADS:
            if (cli_int(optarg, 1, C4S_MAX_THREADS, &a->threads) != 0)
                return cli_usage(PROG, "--threads must be a number from 1 to %d",
                                 C4S_MAX_THREADS);
            break;
        case OPT_JSON:
            a->json = optarg;
            break;
        case OPT_WEIGHTS:
            a->weights = optarg;
            break;
        case OPT_EVAL:
            if (strcmp(optarg, "spfiar") == 0)
                a->evaluate = spf_evaluate;
            else if (strcmp(optarg, "game") == 0)
                a->evaluate = NULL;
            else
                return cli_usage(PROG, "unknown evaluation '%s' (game, spfiar)", optarg);
            break;
        case ':':
            return cli_usage(PROG, "%s: option '%s' needs a value", cmd, argv[optind - 1]);
        default:
            return cli_usage(PROG, "%s: unknown option '%s'", cmd, argv[optind - 1]);
        }
    }
    return 0;
}

/* Loads path into *f, printing the error; 0 or EXIT_BAD_INPUT. */
static int load_weights(const char *path, struct wts_file *f)
{
    struct err e;
    if (wts_load(path, f, &e) != 0) {
        err_print(stderr, path, &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static int cmd_one_move(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "one-move", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    int npos = argc - optind;
    if (npos < 2 || npos > 3)
        return cli_usage(PROG, "one-move needs IN OUT [DEPTH]");
    if (npos == 3) {
        long d;
        if (cli_int(argv[optind + 2], 1, SEARCH_MAX_DEPTH, &d) != 0)
            return cli_usage(PROG, "DEPTH must be a number from 1 to %d", SEARCH_MAX_DEPTH);
        if (a->depth_given && d != a->depth)
            return cli_usage(PROG, "--depth %ld and DEPTH %ld disagree", a->depth, d);
        a->depth = d;
    }
    if (a->json)
        return cli_usage(PROG, "--json belongs to bench");
    enum player_kind kind = (enum player_kind)a->player;
    if (!player_supports(a->game, kind))
        return cli_usage(PROG, "game %s has no %s player", a->game->name, player_name(kind));
    int learned = kind == PLAYER_QLEARN || kind == PLAYER_QLEARN_AB;
    if (learned && !a->weights)
        return cli_usage(PROG, "--player %s needs --weights FILE", player_name(kind));
    if (!learned && a->weights)
        return cli_usage(PROG, "--weights belongs to --player qlearn or qlearn-ab");
    if (a->evaluate && a->game != &game_connect4)
        return cli_usage(PROG, "--eval spfiar is for --game connect4");
    if (a->evaluate && kind != PLAYER_ALPHABETA && kind != PLAYER_MINIMAX)
        return cli_usage(PROG, "--eval belongs to --player alphabeta or minimax");
    struct wts_file wf;
    if (learned && (rc = load_weights(a->weights, &wf)) != 0)
        return rc;
    struct onemove_opts o = {
        .game = a->game,
        .player = { .kind = kind, .depth = (int)a->depth, .seed = a->seed,
                    .evaluate = a->evaluate, .weights = learned ? &wf.weights : NULL },
        .tt_bytes = (size_t)a->tt_mb << 20,
        .in = argv[optind],
        .out = argv[optind + 1],
    };
    return onemove_run(&o, stdout, stderr);
}

static int cmd_bench(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "bench", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (optind != argc)
        return cli_usage(PROG, "bench takes no arguments, found '%s'", argv[optind]);
    if (a->player != PLAYER_ALPHABETA && a->player != PLAYER_MINIMAX)
        return cli_usage(PROG, "bench measures a search: --player alphabeta or minimax");
    if (a->weights || a->evaluate)
        return cli_usage(PROG, "--weights and --eval belong to one-move");
    if (a->depth_given && a->depths_given)
        return cli_usage(PROG, "give --depth or --depths, not both");
    if (a->depth_given)
        a->depth_min = a->depth_max = a->depth;
    struct bench_opts o = {
        .game = a->game,
        .player = (enum player_kind)a->player,
        .depth_min = (int)a->depth_min,
        .depth_max = (int)a->depth_max,
        .tt_bytes = (size_t)a->tt_mb << 20,
        .json_path = a->json,
    };
    struct err e;
    if (bench_run(&o, stdout, &e) != 0) {
        err_print(stderr, a->json ? a->json : PROG " bench", &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* ---- train and weights: the Q-learning player (train.h, weights.h) ------ */

#define TRAIN_DEFAULT_LOG_EVERY 1000
#define TRAIN_PROGRESS_EVERY 256      /* games between looks at the clock */
#define TRAIN_PROGRESS_NS 100000000   /* redraw the progress line 10 times a second */
#define NS_PER_S 1e9
#define SECONDS_PER_MINUTE 60
#define PERCENT 100.0
#define WEIGHTS_NAME_WIDTH 24         /* the longest name, RivalSlotCreates2Threats */

static const char train_usage_text[] =
    "Usage: engine train --games N --weights-out F [OPTIONS]\n"
    "\n"
    "Trains the Q-learning Connect-4 player (gradient-descent Q-learning over 14\n"
    "board attributes, epsilon-greedy) in N games played in this process, and\n"
    "writes its weights to F (atomically). Same settings and seed, same bytes.\n"
    "\n"
    "  --games N             games to play (required)\n"
    "  --weights-out F       the weights file to write (required)\n"
    "  --weights-in F        start from these weights (default: all 0)\n"
    "  --opponent O          random (default): uniform random moves\n"
    "                        trained: greedy on Q, no learning\n"
    "                        alphabeta:D: alpha-beta to depth D (1-12), leaves by\n"
    "                        the opponent's Q (the qlearn-ab player)\n"
    "                        learning: a second learner, weights not saved\n"
    "                        self: a second learner sharing the learner's weights\n"
    "  --opponent-weights F  the opponent's weights (default: the starting weights)\n"
    "  --gamma X             discount rate, 0-1 (default 0.95)\n"
    "  --alpha X             step size, divided by the 14 attributes (default 0.2)\n"
    "  --alpha-final X       step size at the last game, reached linearly\n"
    "                        (default: --alpha, constant)\n"
    "  --epsilon X           probability of a random move, 0-1 (default 0.1)\n"
    "  --switch-prob X       probability the sides swap after a game (default 0.3)\n"
    "  --seed N              the series' random seed (default 1)\n"
    "  --log F               JSON lines every K games: games, the learner's win,\n"
    "                        draw and loss rates over its last 1000 games, mean\n"
    "                        |TD error| since the previous line, step size\n"
    "  --log-every K         games between log lines (default 1000)\n"
    "\n"
    "A progress line is shown on stderr when it is a terminal. The last line on\n"
    "stdout gives the games, CPU time, games per minute and the final rates.\n";

enum { OPT_T_GAMES = 512, OPT_T_OUT, OPT_T_IN, OPT_T_OPP, OPT_T_OPP_W, OPT_T_GAMMA, OPT_T_ALPHA,
       OPT_T_ALPHA_FINAL, OPT_T_EPSILON, OPT_T_SWITCH, OPT_T_SEED, OPT_T_LOG, OPT_T_LOG_EVERY };

static const struct option train_long_opts[] = {
    { "games", required_argument, NULL, OPT_T_GAMES },
    { "weights-out", required_argument, NULL, OPT_T_OUT },
    { "weights-in", required_argument, NULL, OPT_T_IN },
    { "opponent", required_argument, NULL, OPT_T_OPP },
    { "opponent-weights", required_argument, NULL, OPT_T_OPP_W },
    { "gamma", required_argument, NULL, OPT_T_GAMMA },
    { "alpha", required_argument, NULL, OPT_T_ALPHA },
    { "alpha-final", required_argument, NULL, OPT_T_ALPHA_FINAL },
    { "epsilon", required_argument, NULL, OPT_T_EPSILON },
    { "switch-prob", required_argument, NULL, OPT_T_SWITCH },
    { "seed", required_argument, NULL, OPT_T_SEED },
    { "log", required_argument, NULL, OPT_T_LOG },
    { "log-every", required_argument, NULL, OPT_T_LOG_EVERY },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

struct train_args {
    struct learn_opts o;
    const char *weights_in, *weights_out, *opponent_weights, *log;
    long log_every;
    int alpha_final_given;
};

/* A probability or rate option: a number in [lo, hi]. */
static int train_real(const char *name, double lo, double hi, double *out)
{
    if (cli_real(optarg, lo, hi, out) != 0)
        return cli_usage(PROG, "--%s must be a number from %g to %g", name, lo, hi);
    return 0;
}

/* Parses train's options; 0, 1 for --help, or EXIT_BAD_INPUT. */
static int parse_train(int argc, char **argv, struct train_args *a)
{
    int c;
    long v;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", train_long_opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h':
            return 1;
        case OPT_T_GAMES:
            if (cli_int(optarg, 1, LONG_MAX, &v) != 0)
                return cli_usage(PROG, "--games must be a positive number");
            a->o.games = v;
            break;
        case OPT_T_OUT:
            a->weights_out = optarg;
            break;
        case OPT_T_IN:
            a->weights_in = optarg;
            break;
        case OPT_T_OPP:
            if (learn_opponent_parse(optarg, &a->o) != 0)
                return cli_usage(PROG,
                                 "unknown opponent '%s' (random, trained, alphabeta:D with D "
                                 "from 1 to %d, learning, self)",
                                 optarg, LEARN_MAX_DEPTH);
            break;
        case OPT_T_OPP_W:
            a->opponent_weights = optarg;
            break;
        case OPT_T_GAMMA:
            rc = train_real("gamma", 0, 1, &a->o.gamma);
            break;
        case OPT_T_ALPHA:
            rc = train_real("alpha", 0, FEAT_COUNT, &a->o.alpha);
            break;
        case OPT_T_ALPHA_FINAL:
            rc = train_real("alpha-final", 0, FEAT_COUNT, &a->o.alpha_final);
            a->alpha_final_given = 1;
            break;
        case OPT_T_EPSILON:
            rc = train_real("epsilon", 0, 1, &a->o.epsilon);
            break;
        case OPT_T_SWITCH:
            rc = train_real("switch-prob", 0, 1, &a->o.switch_prob);
            break;
        case OPT_T_SEED:
            if (cli_int(optarg, 0, LONG_MAX, &v) != 0)
                return cli_usage(PROG, "--seed must be a non-negative number");
            a->o.seed = (uint64_t)v;
            break;
        case OPT_T_LOG:
            a->log = optarg;
            break;
        case OPT_T_LOG_EVERY:
            if (cli_int(optarg, 1, LONG_MAX, &a->log_every) != 0)
                return cli_usage(PROG, "--log-every must be a positive number");
            break;
        case ':':
            return cli_usage(PROG, "train: option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage(PROG, "train: unknown option '%s'", argv[optind - 1]);
        }
        if (rc)
            return rc;
    }
    if (optind != argc)
        return cli_usage(PROG, "train takes no arguments, found '%s'", argv[optind]);
    if (!a->o.games)
        return cli_usage(PROG, "train needs --games N");
    if (!a->weights_out)
        return cli_usage(PROG, "train needs --weights-out FILE");
    if (!a->alpha_final_given)
        a->o.alpha_final = a->o.alpha;
    int uses_opp_weights = a->o.opponent == LEARN_TRAINED || a->o.opponent == LEARN_ALPHABETA
                           || a->o.opponent == LEARN_LEARNING;
    if (a->opponent_weights && !uses_opp_weights)
        return cli_usage(PROG, "--opponent-weights is for --opponent trained, alphabeta:D or "
                               "learning");
    return 0;
}

static void train_progress(const struct learn_series *t, uint64_t t0)
{
    double secs = (double)(clock_wall_ns() - t0) / NS_PER_S;
    double rate = secs > 0 ? (double)t->played / secs : 0.0;
    long long left = t->o.games - t->played;
    char eta[32] = "--:--";
    if (rate > 0) {
        long e = (long)((double)left / rate);
        snprintf(eta, sizeof eta, "%ld:%02ld", e / SECONDS_PER_MINUTE, e % SECONDS_PER_MINUTE);
    }
    double win, draw, loss;
    learn_rates(t, &win, &draw, &loss);
    fprintf(stderr, "\r\033[K%lld/%lld games  %.0f games/s  ETA %s  win %.1f%% draw %.1f%% loss %.1f%%",
            t->played, t->o.games, rate, eta, PERCENT * win, PERCENT * draw, PERCENT * loss);
    fflush(stderr);
}

/* The folder that will receive path can take a new file: checked before
 * training, so that a typo costs nothing. */
static int check_writable(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "%s: cannot write: no writable folder %s\n", path, dir);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static int run_training(struct train_args *a, const struct qf_weights *start,
                        const struct qf_weights *opponent, long long prior_total, FILE *log)
{
    struct learn_series t;
    struct err e;
    if (learn_series_init(&t, &a->o, start, opponent, &e) != 0) {
        err_print(stderr, PROG " train", &e);
        return 1;
    }
    int tty = isatty(STDERR_FILENO);
    uint64_t wall0 = clock_wall_ns(), cpu0 = clock_cpu_ns(), shown = wall0;
    int rc = 0;
    while (t.played < a->o.games) {
        learn_play_game(&t);
        if (log && (t.played % a->log_every == 0 || t.played == a->o.games)
            && learn_log_line(&t, log) != 0) {
            fprintf(stderr, "%s: cannot write the log\n", a->log);
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (tty && t.played % TRAIN_PROGRESS_EVERY == 0
            && clock_wall_ns() - shown >= TRAIN_PROGRESS_NS) {
            train_progress(&t, wall0);
            shown = clock_wall_ns();
        }
    }
    double cpu_s = (double)(clock_cpu_ns() - cpu0) / NS_PER_S;
    if (tty)
        fputs("\r\033[K", stderr);
    if (rc == 0) {
        struct wts_file f;
        learn_result(&t, prior_total, &f);
        if (wts_save(a->weights_out, &f, &e) != 0) {
            err_print(stderr, a->weights_out, &e);
            rc = EXIT_BAD_INPUT;
        }
    }
    if (rc == 0) {
        double win, draw, loss;
        char opp[WTS_TOKEN_MAX];
        learn_rates(&t, &win, &draw, &loss);
        learn_opponent_text(&a->o, opp);
        printf("trained %lld games against %s in %.2f s CPU (%.0f games/min); last %lld "
               "games: win %.1f%%, draw %.1f%%, loss %.1f%%\n",
               t.played, opp, cpu_s,
               cpu_s > 0 ? (double)t.played / cpu_s * SECONDS_PER_MINUTE : 0.0,
               t.played < LEARN_WINDOW ? t.played : (long long)LEARN_WINDOW, PERCENT * win,
               PERCENT * draw, PERCENT * loss);
    }
    learn_series_free(&t);
    return rc;
}

static int cmd_train(int argc, char **argv)
{
    struct train_args a = { .o = learn_opts_default(), .log_every = TRAIN_DEFAULT_LOG_EVERY };
    int rc = parse_train(argc, argv, &a);
    if (rc == 1) {
        fputs(train_usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    struct wts_file in = { 0 }, opp;
    if (a.weights_in && (rc = load_weights(a.weights_in, &in)) != 0)
        return rc;
    if (a.opponent_weights && (rc = load_weights(a.opponent_weights, &opp)) != 0)
        return rc;
    if ((rc = check_writable(a.weights_out)) != 0)
        return rc;
    FILE *log = NULL;
    if (a.log && !(log = fopen(a.log, "w"))) {
        perror(a.log);
        return EXIT_BAD_INPUT;
    }
    rc = run_training(&a, &in.weights, a.opponent_weights ? &opp.weights : NULL,
                      in.settings.total_games, log);
    if (log && fclose(log) != 0 && rc == 0) {
        perror(a.log);
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

static const char weights_usage_text[] =
    "Usage: engine weights [--json] FILE\n"
    "\n"
    "Prints the weights file FILE (written by engine train): one line per\n"
    "attribute, its name and its weight. --json prints the whole file as JSON:\n"
    "format version, training settings and the weights by name.\n";

/* cJSON prints some doubles a last digit off; the weights file's shortest
 * exact text is a valid JSON number, so it goes in as it is. */
static void add_exact(cJSON *obj, const char *key, double v)
{
    char num[WTS_NUM_MAX];
    wts_format_double(v, num);
    cJSON_AddRawToObject(obj, key, num);
}

static cJSON *weights_json(const struct wts_file *f)
{
    const struct wts_settings *st = &f->settings;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "arena.qlearn-weights/1");
    cJSON_AddNumberToObject(root, "format_version", WTS_VERSION);
    cJSON *set = cJSON_AddObjectToObject(root, "settings");
    add_exact(set, "gamma", st->gamma);
    add_exact(set, "alpha", st->alpha);
    add_exact(set, "alpha_final", st->alpha_final);
    add_exact(set, "epsilon", st->epsilon);
    add_exact(set, "switch_prob", st->switch_prob);
    cJSON_AddStringToObject(set, "opponent", st->opponent);
    cJSON_AddNumberToObject(set, "seed", (double)st->seed);
    cJSON_AddNumberToObject(set, "games", (double)st->games);
    cJSON_AddNumberToObject(set, "total_games", (double)st->total_games);
    cJSON *w = cJSON_AddObjectToObject(root, "weights");
    for (int i = 0; i < FEAT_COUNT; i++)
        add_exact(w, feat_name(i), f->weights.w[i]);
    return root;
}

static int cmd_weights(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c, json = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(weights_usage_text, stdout);
            return 0;
        }
        if (c == 'j')
            json = 1;
        else
            return cli_usage(PROG, "weights: unknown option '%s'", argv[optind - 1]);
    }
    if (argc - optind != 1)
        return cli_usage(PROG, "weights needs one FILE");
    struct wts_file f;
    int rc = load_weights(argv[optind], &f);
    if (rc)
        return rc;
    if (json) {
        cJSON *root = weights_json(&f);
        char *text = cJSON_Print(root);
        cJSON_Delete(root);
        if (!text) {
            fputs(PROG ": out of memory\n", stderr);
            return 1;
        }
        puts(text);
        cJSON_free(text);
        return 0;
    }
    for (int i = 0; i < FEAT_COUNT; i++) {
        char num[WTS_NUM_MAX];
        wts_format_double(f.weights.w[i], num);
        printf("%-*s %s\n", WEIGHTS_NAME_WIDTH, feat_name(i), num);
    }
    return 0;
}

/* The solver with the table of --tt-mb (default C4S_DEFAULT_TT_MB); 0, or
 * -1 after saying it is out of memory. */
static int init_solver(const struct engine_args *a, struct c4s *s)
{
    size_t tt_bytes = (size_t)(a->tt_given ? a->tt_mb : C4S_DEFAULT_TT_MB) << 20;
    if (c4s_init(s, tt_bytes) == 0)
        return 0;
    fprintf(stderr, PROG ": out of memory for a %zu-byte table\n", tt_bytes);
    return -1;
}

static int cmd_solve(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "solve", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (a->json || a->depth_given || a->depths_given || a->weights || a->evaluate || a->from)
        return cli_usage(PROG, "solve takes --weak, --tt-mb, --threads and --book only");
    struct c4book book;
    struct err e;
    if (a->book && c4book_load(a->book, &book, &e) != 0) {
        err_print(stderr, a->book, &e);
        return EXIT_BAD_INPUT;
    }
    struct c4s s;
    if (init_solver(a, &s) != 0) {
        if (a->book)
            c4book_free(&book);
        return 1;
    }
    if (a->book)
        c4s_set_book(&s, &book);
    if (a->threads > 1 && c4s_set_threads(&s, (int)a->threads) != 0)
        fprintf(stderr, PROG ": out of memory for %ld threads' tables, solving with one\n",
                a->threads);
    int status = 0;
    if (optind == argc)
        status = c4solvelines_run(&s, stdin, "<stdin>", a->weak, stdout, stderr);
    for (int i = optind; i < argc; i++) {
        FILE *in = fopen(argv[i], "r");
        int r;
        if (!in) {
            fprintf(stderr, "%s: cannot open: %s\n", argv[i], strerror(errno));
            r = EXIT_BAD_INPUT;
        } else {
            r = c4solvelines_run(&s, in, argv[i], a->weak, stdout, stderr);
            fclose(in);
        }
        if (r == EXIT_BAD_INPUT || (r && !status))
            status = r;
    }
    c4s_free(&s);
    if (a->book)
        c4book_free(&book);
    return status;
}

static int cmd_book(int argc, char **argv, struct engine_args *a)
{
    int rc = parse_options(argc, argv, "book", a);
    if (rc == 1) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (rc)
        return rc;
    if (a->json || a->depths_given || a->weights || a->evaluate || a->weak || a->book
        || a->threads)
        return cli_usage(PROG, "book takes --depth, --from and --tt-mb only");
    if (!a->depth_given || a->depth > C4BOOKMAKE_MAX_DEPTH)
        return cli_usage(PROG, "book needs --depth from 1 to %d", C4BOOKMAKE_MAX_DEPTH);
    if (optind != argc - 1)
        return cli_usage(PROG, "book takes one OUT file");
    const char *from = a->from ? a->from : "", *why;
    struct c4_pos root;
    int col = c4moves_parse(from, strlen(from), &root, &why);
    if (col != 0)
        return cli_usage(PROG, "--from '%s': move %d: %s", from, col, why);
    struct c4s s;
    if (init_solver(a, &s) != 0)
        return 1;
    char *text;
    size_t len;
    struct c4bookmake_stats st;
    uint64_t t0 = clock_cpu_ns();
    rc = c4bookmake_run(&s, from, (int)a->depth, &text, &len, &st);
    double secs = (double)(clock_cpu_ns() - t0) / NS_PER_S;
    c4s_free(&s);
    if (rc != 0) {
        fprintf(stderr, PROG ": out of memory making the book\n");
        return 1;
    }
    struct err e;
    rc = tf_write_atomic(argv[optind], text, len, &e);
    free(text);
    if (rc != 0) {
        err_print(stderr, argv[optind], &e);
        return 1;
    }
    printf("%s: %zu positions, %zu solved, %llu nodes, %.2f s\n", argv[optind], st.positions,
           st.solved, (unsigned long long)st.nodes, secs);
    return 0;
}

int main(int argc, char **argv)
{
    struct engine_args a = {
        .game = game_find(DEFAULT_GAME),
        .player = PLAYER_ALPHABETA,
        .depth = DEFAULT_DEPTH,
        .depth_min = BENCH_DEFAULT_MIN,
        .depth_max = BENCH_DEFAULT_MAX,
        .tt_mb = TT_DEFAULT_MB,
    };
    if (argc < 2)
        return cli_usage(PROG, "missing command (one-move, bench, solve, book, train, weights)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "one-move") == 0)
        return cmd_one_move(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "solve") == 0)
        return cmd_solve(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "book") == 0)
        return cmd_book(argc - 1, argv + 1, &a);
    if (strcmp(argv[1], "train") == 0)
        return cmd_train(argc - 1, argv + 1);
    if (strcmp(argv[1], "weights") == 0)
        return cmd_weights(argc - 1, argv + 1);
    return cli_usage(PROG, "unknown command '%s' (one-move, bench, solve, book, train, weights)",
                     argv[1]);
}
