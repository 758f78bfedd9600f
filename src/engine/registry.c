/* registry.c - the games the suite knows, by name (registry.h). A new game
 * is one line here: the only file outside a game's folder that names it. */
#include <string.h>
#include "arena/checkers.h"
#include "arena/connect4.h"
#include "arena/nimgame.h"
#include "arena/registry.h"

static const struct game *const registry[] = {
    &game_connect4,
    &game_maxconnect4,
    &game_nim,
    &game_checkers,
    NULL,
};

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
