/*
 * engine.h - the parts of the engine binary (private to src/cli/engine_*.c).
 *
 * engine_main.c dispatches to one command per file: one-move
 * (engine_onemove.c), bench (engine_bench.c), perft (engine_perft.c), solve
 * and book, the commands of a game's solver (engine_solve.c: their options,
 * then struct game_solver), train and weights, the Q-learning player's
 * (engine_learn.c). Each command has its own option table (the
 * convention of cli.h) and gets argv with argv[0] its own name; it returns
 * the exit status. engine_opts.c holds the option values several commands
 * share, each checked one way with one message.
 */
#ifndef ARENA_CLI_ENGINE_H
#define ARENA_CLI_ENGINE_H

#include "arena/cli.h"
#include "arena/game.h"
#include "arena/registry.h"
#include "arena/weights.h"

int cmd_one_move(const char *prog, int argc, char **argv);
int cmd_bench(const char *prog, int argc, char **argv);
int cmd_perft(const char *prog, int argc, char **argv);
int cmd_solve(const char *prog, int argc, char **argv);
int cmd_book(const char *prog, int argc, char **argv);
int cmd_train(const char *prog, int argc, char **argv);
int cmd_weights(const char *prog, int argc, char **argv);

/* The engine's usage text (every command), for cli_help. */
extern const char engine_usage_text[];

/* --seed's value: parses val into *out and returns 0, or prints the usage
 * error and returns EXIT_BAD_INPUT (eopt_next reads it this way, and train
 * too). */
int eopt_seed(const char *prog, const char *val, unsigned long long *out);

/* --eval NAME: "game" or the name of an evaluation some registered game
 * offers (game.h, struct game_eval); 0 or EXIT_BAD_INPUT naming them all. */
int eopt_eval(const char *prog, const char *val);
/* The registered games offering the evaluation name, "a, b", into buf. */
void eopt_eval_games(const char *name, char *buf, size_t cap);

/* The usage text's lists, made from the registry: %2$s every game (the
 * default marked), %3$s the games with a perfect player, %4$s those with a
 * learned one. */
struct eopt_help {
    char games[REGISTRY_NAMES_MAX + sizeof " (default)"];
    char perfect[REGISTRY_NAMES_MAX], learned[REGISTRY_NAMES_MAX];
    const char *args[CLI_HELP_ARGS];
};
/* Fills h; returns h->args, for cli_help_args or cli_parse.help_args. */
const char *const *eopt_help_args(struct eopt_help *h);

/* The ids of the options several commands share, the same in each
 * command's table; eopt_next reads them. A command's own ids start at
 * EOPT_OWN. */
enum { EOPT_GAME = 256, EOPT_PLAYER, EOPT_DEPTH, EOPT_TT, EOPT_SEED, EOPT_OWN };

/* The shared options' values: the command sets its defaults, eopt_next
 * stores what is given. */
struct eopt_values {
    const struct game *game;   /* --game */
    int player;                /* --player, an enum player_kind */
    long depth;                /* --depth, 1 to SEARCH_MAX_DEPTH */
    int depth_given;           /* --depth was given */
    long tt_mb;                /* --tt-mb */
    unsigned long long seed;   /* --seed */
};

/* One engine command's command line being read: its usage text is the
 * engine's (--help prints it with the registry's lists). Set v's defaults,
 * then eopt_start; p points into the struct, which must not move. */
struct eopt_parse {
    struct cli_parse p;
    struct eopt_help help;
    struct eopt_values v;
};
void eopt_start(struct eopt_parse *ep, const char *prog, const char *cmd,
                const struct option *opts, int argc, char **argv);
/* cli_next that reads the shared options (EOPT_GAME to EOPT_SEED) into
 * ep->v itself, each checked one way with one message: returns the
 * command's own options (optarg set), -1 when the options end, CLI_DONE,
 * or CLI_BAD after printing the usage error (a bad shared value too). */
int eopt_next(struct eopt_parse *ep);

/* Loads the weights file path into *f; 0, or EXIT_BAD_INPUT after printing
 * path: why. */
int eopt_load_weights(const char *path, struct wts_file *f);

#endif
