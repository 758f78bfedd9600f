/* registry.c - the games the suite knows, by name (registry.h): the only
 * file outside a game's folder that names a game. A new game is one line in
 * REGISTRY_GAMES: its `const struct game game_NAME` (defined in its folder)
 * is declared and registered from it. The order is the order of every list
 * of games the suite prints. */
#include <string.h>
#include "arena/registry.h"

#define REGISTRY_GAMES(GAME) \
    GAME(connect4)           \
    GAME(maxconnect4)        \
    GAME(nim)                \
    GAME(checkers)           \
    GAME(othello)            \
    GAME(tictactoe)

#define REGISTRY_DECLARE(name) extern const struct game game_##name;
#define REGISTRY_ENTRY(name) &game_##name,

REGISTRY_GAMES(REGISTRY_DECLARE)

static const struct game *const registry[] = { REGISTRY_GAMES(REGISTRY_ENTRY) NULL };

const struct game *const *registry_all(void)
{
    return registry;
}

const struct game *registry_find(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

size_t registry_names(char *buf, size_t cap, int (*keep)(const struct game *g),
                      const char *last_sep)
{
    int left = 0;
    for (int i = 0; registry[i]; i++)
        left += !keep || keep(registry[i]);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0, n = 0; registry[i] && len < cap; i++) {
        if (keep && !keep(registry[i]))
            continue;
        left--;
        int w = snprintf(buf + len, cap - len, "%s%s",
                         n++ == 0 ? "" : left == 0 ? last_sep : ", ", registry[i]->name);
        len += w > 0 ? (size_t)w : 0;
    }
    return len < cap ? len : cap - 1;
}
