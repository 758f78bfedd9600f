/* engine_learn.c - the Q-learning player's commands: `engine train` (a
 * series of games in process, the weights file written at the end;
 * train.h) with its progress line, and `engine weights` (a weights file as
 * text or JSON; weights.h). */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/cli.h"
#include "arena/clock.h"
#include "arena/limits.h"
#include "arena/learn.h"
#include "arena/weights.h"
#include "engine.h"

#define TRAIN_PROGRESS_EVERY 256      /* games between looks at the clock */
#define TRAIN_PROGRESS_NS 100000000   /* redraw the progress line 10 times a second */
#define NS_PER_S 1e9
#define SECONDS_PER_MINUTE 60
#define PERCENT 100.0
#define WEIGHTS_NAME_WIDTH 24         /* the longest name, RivalSlotCreates2Threats */

static const char train_usage_text[] =
    "Usage: %1$s train --games N --weights-out F [OPTIONS]\n"
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

enum { OPT_T_GAMES = 256, OPT_T_OUT, OPT_T_IN, OPT_T_OPP, OPT_T_OPP_W, OPT_T_GAMMA, OPT_T_ALPHA,
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
    CLI_STD_OPTIONS,
};

struct train_args {
    struct learn_opts o;
    const char *weights_in, *weights_out, *opponent_weights, *log;
    long log_every;
    int alpha_final_given;
};

/* A probability or rate option: a number in [lo, hi]. */
static int train_real(const char *prog, const char *name, double lo, double hi, double *out)
{
    if (cli_real(optarg, lo, hi, out) != 0)
        return cli_usage(prog, "--%s must be a number from %g to %g", name, lo, hi);
    return 0;
}

/* Parses train's options; 0, -1 after --help or --version (printed), or
 * EXIT_BAD_INPUT. */
static int parse_train(const char *prog, int argc, char **argv, struct train_args *a)
{
    struct cli_parse p = { .prog = prog, .cmd = "train", .opts = train_long_opts,
                           .help = train_usage_text, .argc = argc, .argv = argv };
    int c;
    long v;
    while ((c = cli_next(&p)) != -1) {
        int rc = 0;
        switch (c) {
        case OPT_T_GAMES:
            if (cli_int(optarg, 1, LONG_MAX, &v) != 0)
                return cli_usage(prog, "--games must be a positive number");
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
                return cli_usage(prog,
                                 "unknown opponent '%s' (random, trained, alphabeta:D with D "
                                 "from 1 to %d, learning, self)",
                                 optarg, LEARN_MAX_DEPTH);
            break;
        case OPT_T_OPP_W:
            a->opponent_weights = optarg;
            break;
        case OPT_T_GAMMA:
            rc = train_real(prog, "gamma", 0, 1, &a->o.gamma);
            break;
        case OPT_T_ALPHA:
            rc = train_real(prog, "alpha", 0, FEAT_COUNT, &a->o.alpha);
            break;
        case OPT_T_ALPHA_FINAL:
            rc = train_real(prog, "alpha-final", 0, FEAT_COUNT, &a->o.alpha_final);
            a->alpha_final_given = 1;
            break;
        case OPT_T_EPSILON:
            rc = train_real(prog, "epsilon", 0, 1, &a->o.epsilon);
            break;
        case OPT_T_SWITCH:
            rc = train_real(prog, "switch-prob", 0, 1, &a->o.switch_prob);
            break;
        case OPT_T_SEED: {
            unsigned long long seed;
            rc = eopt_seed(prog, optarg, &seed);
            a->o.seed = (uint64_t)seed;
            break;
        }
        case OPT_T_LOG:
            a->log = optarg;
            break;
        case OPT_T_LOG_EVERY:
            if (cli_int(optarg, 1, LONG_MAX, &a->log_every) != 0)
                return cli_usage(prog, "--log-every must be a positive number");
            break;
        default:
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        }
        if (rc)
            return rc;
    }
    if (optind != argc)
        return cli_usage(prog, "train takes no arguments, found '%s'", argv[optind]);
    if (!a->o.games)
        return cli_usage(prog, "train needs --games N");
    if (!a->weights_out)
        return cli_usage(prog, "train needs --weights-out FILE");
    if (!a->alpha_final_given)
        a->o.alpha_final = a->o.alpha;
    int uses_opp_weights = a->o.opponent == LEARN_TRAINED || a->o.opponent == LEARN_ALPHABETA
                           || a->o.opponent == LEARN_LEARNING;
    if (a->opponent_weights && !uses_opp_weights)
        return cli_usage(prog, "--opponent-weights is for --opponent trained, alphabeta:D or "
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

static int run_training(const char *prog, struct train_args *a, const struct qf_weights *start,
                        const struct qf_weights *opponent, long long prior_total, FILE *log)
{
    struct learn_series t;
    struct err e;
    if (learn_series_init(&t, &a->o, start, opponent, &e) != 0) {
        err_print(stderr, prog, &e);
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

int cmd_train(const char *prog, int argc, char **argv)
{
    struct train_args a = { .o = learn_opts_default(), .log_every = TRAIN_DEFAULT_LOG_EVERY };
    int rc = parse_train(prog, argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    struct wts_file in = { 0 }, opp;
    if (a.weights_in && (rc = eopt_load_weights(a.weights_in, &in)) != 0)
        return rc;
    if (a.opponent_weights && (rc = eopt_load_weights(a.opponent_weights, &opp)) != 0)
        return rc;
    if ((rc = check_writable(a.weights_out)) != 0)
        return rc;
    FILE *log = NULL;
    if (a.log && !(log = fopen(a.log, "w"))) {
        perror(a.log);
        return EXIT_BAD_INPUT;
    }
    rc = run_training(prog, &a, &in.weights, a.opponent_weights ? &opp.weights : NULL,
                      in.settings.total_games, log);
    if (log && fclose(log) != 0 && rc == 0) {
        perror(a.log);
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

static const char weights_usage_text[] =
    "Usage: %1$s weights [--json] FILE\n"
    "\n"
    "Prints the weights file FILE (written by %1$s train): one line per\n"
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

int cmd_weights(const char *prog, int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' },
        CLI_STD_OPTIONS,
    };
    struct cli_parse p = { .prog = prog, .cmd = "weights", .opts = opts,
                           .help = weights_usage_text, .argc = argc, .argv = argv };
    int c, json = 0;
    while ((c = cli_next(&p)) != -1) {
        if (c != 'j')
            return cli_stop(c);
        json = 1;
    }
    if (argc - optind != 1)
        return cli_usage(prog, "weights needs one FILE");
    struct wts_file f;
    int rc = eopt_load_weights(argv[optind], &f);
    if (rc)
        return rc;
    if (json) {
        cJSON *root = weights_json(&f);
        char *text = cJSON_Print(root);
        cJSON_Delete(root);
        if (!text) {
            fprintf(stderr, "%s: out of memory\n", prog);
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

