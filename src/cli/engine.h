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

/* Option values shared by commands: each parses optarg-like text val into
 * *out and returns 0, or prints the usage error and returns
 * EXIT_BAD_INPUT. */
int eopt_game(const char *prog, const char *val, const struct game **out);
int eopt_depth(const char *prog, const char *val, long *out);
int eopt_tt_mb(const char *prog, const char *val, long *out);
int eopt_player(const char *prog, const char *val, int *out);
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

/* Loads the weights file path into *f; 0, or EXIT_BAD_INPUT after printing
 * path: why. */
int eopt_load_weights(const char *path, struct wts_file *f);

#endif
