/*
 * weights.h - the weights file of the Q-learning player: the learned weight
 * vector and the settings that trained it, as self-describing text.
 *
 * Format (version 1): one `key value` per line, in this fixed order, keys and
 * values separated by spaces or tabs, any line ending (textfile.h):
 *
 *   arena-qlearn-weights 1      magic word and format version
 *   gamma 0.95                  discount rate, [0, 1]
 *   alpha 0.2                   step size before the division by 14, >= 0
 *   alpha-final 0.2             step size reached at the last game (linear
 *                               schedule from alpha; equal: constant), >= 0
 *   epsilon 0.1                 exploration probability, [0, 1]
 *   switch-prob 0.3             side-switch probability per game, [0, 1]
 *   opponent random             who the learner played (train.h), one word
 *   seed 1                      the series' seed, 0 .. 2^64-1
 *   games 100000                games of the run that wrote the file
 *   total-games 100000          games since the weights were all zero
 *   2Threats -0.0123            then one line per attribute, name and
 *   ...                         weight, in the order of features.h
 *   RivalSlotCreates2Threats 0.5
 *
 * Numbers are written as the shortest decimal that reads back to the same
 * double (at most 17 significant digits), so a save/load round trip is
 * bit-exact and the file stays readable. A file whose attribute lines name
 * other attributes, or the same ones in another order, was made for another
 * feature set and is rejected: its weights would mean nothing here.
 */
#ifndef ARENA_WEIGHTS_H
#define ARENA_WEIGHTS_H

#include <stdint.h>
#include "arena/err.h"
#include "arena/qfunc.h"

#define WTS_MAGIC   "arena-qlearn-weights"
#define WTS_VERSION 1
#define WTS_TOKEN_MAX 32     /* bytes of the opponent word, with its NUL */
#define WTS_NUM_MAX   32     /* bytes of a formatted number, with its NUL */
#define WTS_FILE_MAX  4096   /* bytes of the largest file read */
#define WTS_TEXT_MAX  2048   /* bytes wts_format may write */

/* How the weights were trained (train.h explains each). */
struct wts_settings {
    double gamma, alpha, alpha_final, epsilon, switch_prob;
    char opponent[WTS_TOKEN_MAX];
    uint64_t seed;
    long long games, total_games;
};

struct wts_file {
    struct wts_settings settings;
    struct qf_weights weights;
};

/* Parses the text of a weights file (len bytes). Returns 0, or -1 with e
 * holding line, column and reason; f is then unspecified. */
int wts_parse(const char *text, size_t len, struct wts_file *f, struct err *e);

/* Reads and parses path. Returns 0, or -1 with e filled (the caller prints
 * it with the path). */
int wts_load(const char *path, struct wts_file *f, struct err *e);

/* Writes the canonical text into buf (WTS_TEXT_MAX bytes, NUL-terminated);
 * returns its length. */
size_t wts_format(const struct wts_file *f, char *buf);

/* Writes the file atomically (tf_write_atomic): on failure path is
 * untouched. Returns 0, or -1 with e filled. */
int wts_save(const char *path, const struct wts_file *f, struct err *e);

/* The shortest decimal text of v that strtod reads back to v exactly, into
 * buf (WTS_NUM_MAX bytes). */
void wts_format_double(double v, char *buf);

#endif
