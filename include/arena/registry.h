/*
 * registry.h - the games the suite knows, by name (src/engine/registry.c).
 *
 * A new game is one folder under src/games plus one line in registry.c:
 * everything else (search, players, one-move, bench, the referee, analysis)
 * sees a game only through its struct game (game.h), capabilities included.
 */
#ifndef ARENA_REGISTRY_H
#define ARENA_REGISTRY_H

#include "arena/game.h"

/* The game registered as name, or NULL for an unknown name. */
const struct game *registry_find(const char *name);
/* The registered games in registration order, NULL-terminated. */
const struct game *const *registry_all(void);
/* Writes into buf (cap > 0 bytes, NUL-terminated, cut short if need be) the
 * names of the registered games for which keep is 1 (keep NULL: every
 * game), in registration order: "a, b, c", the last two joined by last_sep
 * (", " or " and "). Returns the length written. Every list of games in a
 * help text or a message is made here. */
size_t registry_names(char *buf, size_t cap, int (*keep)(const struct game *g),
                      const char *last_sep);
/* Bytes enough for registry_names of every game. */
#define REGISTRY_NAMES_MAX 256

#endif
