/*
 * knockout.h - a knockout tournament's bracket: a pure function of the
 * field's size and the results it is told, so the tournament, a resumed
 * run and `referee report` draw the same bracket from the same journal.
 *
 * The field is seeded in the engines' order (engine 1 is seed 1) into a
 * bracket of the next power of two, seed 1 meeting the last seed; a slot
 * without an engine is a bye, and its match's other engine goes through.
 * A match is a game pair (one opening, colours swapped); when it ends
 * level, another pair, up to KNOCKOUT_MAX_PAIRS; still level after those,
 * the higher seed goes through (stated in the bracket).
 *
 * Game indices are fixed in advance: match m's (0-based, round by round,
 * top of the bracket first) pair p plays games 2 * (m * KNOCKOUT_MAX_PAIRS
 * + p) + 1 and + 2, so a tournament's journal holds a subset of them.
 * Representation: fixed arrays in the caller's struct; nothing allocated.
 */
#ifndef ARENA_KNOCKOUT_H
#define ARENA_KNOCKOUT_H

#include <stdio.h>

#define KNOCKOUT_MAX_ENGINES 32    /* a journal's (record.h's REC_MAX_ENGINES) */
/* Pairs a level match plays before the higher seed goes through: the
 * first and three more, as a tie-break rarely needs more than one. */
#define KNOCKOUT_MAX_PAIRS 4

struct knockout_match {
    int a, b;                          /* engines (a the upper slot), -1: not known yet */
    int byes;                          /* 1: a or b is a bye (the other goes through) */
    signed char half[KNOCKOUT_MAX_PAIRS][2];   /* a's half points in game 0 and 1 of each
                                        * pair; -1 not in */
    int winner;                        /* engine, -1 undecided */
    int by_seed;                       /* 1: level after every pair, the higher seed went on */
};

struct knockout {
    int n, size, rounds;               /* engines, bracket slots (2^rounds) */
    int nmatches;                      /* size - 1 */
    struct knockout_match match[KNOCKOUT_MAX_ENGINES];
};

/* A bracket of n engines (2 <= n <= KNOCKOUT_MAX_ENGINES), no result in. */
void knockout_init(struct knockout *k, int n);
/* Games of the whole schedule: every pair of every match, most of which
 * are never played. */
long knockout_games(int n);
/* Records game index's result: side 1's engine and side 1's half points
 * (0..2). 0, or -1 when index is not a game of the bracket as it stands
 * (its match's engines unknown, or not these engines, or not needed). */
int knockout_add(struct knockout *k, long index, int side1, int half1);
/* 1 when game index is to be played now (its match's engines known, its
 * pair needed) with its engines in side[0..1]; else 0. */
int knockout_game(const struct knockout *k, long index, int side[2]);
/* Games the bracket needs as it stands: every game of a pair that has to
 * be played, done or not. Once the final has a winner, the whole count. */
long knockout_needed(const struct knockout *k);
/* The champion, or -1 before the final is decided. */
int knockout_winner(const struct knockout *k);
/* The bracket as text, round by round (names[i]: engine i's). */
void knockout_print(const struct knockout *k, const char *const names[], FILE *out);

#endif
