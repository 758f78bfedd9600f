/* registry.c - the games the suite knows, by name. A new game is one line. */
#include <string.h>
#include "arena/game.h"
#include "arena/checkers.h"
#include "arena/connect4.h"
#include "arena/nimgame.h"

static const struct game *const registry[] = {
    &game_connect4,
    &game_maxconnect4,
    &game_nim,
    &game_checkers,
    NULL,
};

const struct game *const *game_all(void)
{
    return registry;
}

const struct game *game_find(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
