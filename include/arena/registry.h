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

#endif
