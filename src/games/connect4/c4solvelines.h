/*
 * c4solvelines.h - `engine solve`: move strings in, the solver's scores out.
 */
#ifndef ARENA_C4SOLVELINES_H
#define ARENA_C4SOLVELINES_H

#include <stdio.h>
#include "arena/c4solver.h"

/* Solves every line of in, named name in messages. A line is a move string,
 * optionally followed by spaces and the expected score (the test sets'
 * "MOVES SCORE" lines, c4moves.h); an empty line is the start position.
 * Prints "MOVES SCORE NODES MICROSECONDS" per line to out (elapsed time of
 * the solve alone, to a hundredth; with weak the score is 1, 0 or -1). A bad
 * line is reported on diag as name:line:col: why, and the run goes on; so
 * is a solved score that differs from the expected one (compared by sign
 * when weak). Returns 0, EXIT_BAD_INPUT when a line was bad, or 1 when a
 * score differed (and no line was bad). */
int c4solvelines_run(struct c4s *s, FILE *in, const char *name, int weak, FILE *out, FILE *diag);

#endif
