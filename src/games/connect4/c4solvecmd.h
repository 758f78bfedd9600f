/*
 * c4solvecmd.h - Connect-4's solver as the engine's commands (private to
 * src/games/connect4): `engine solve` and `engine book` behind the game's
 * solver capability (game.h, struct game_solver), which connect4.c offers.
 */
#ifndef ARENA_C4SOLVECMD_H
#define ARENA_C4SOLVECMD_H

#include "arena/game.h"

extern const struct game_solver c4solvecmd_solver;

#endif
