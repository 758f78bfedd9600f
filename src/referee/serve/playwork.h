/*
 * playwork.h - the thread that runs a game's engines for `referee play`'s
 * server (playsrv.c): it starts them, asks them for moves and stops them,
 * and lives as long as the game.
 *
 * Why a thread of the game's own: an engine's processes (its sandbox's
 * init, a persistent engine) die with the thread that started them
 * (PR_SET_PDEATHSIG follows the thread, not the process: runner.h,
 * sandbox.h), and a request's thread ends with its connection, so an engine
 * started by one request would be gone by the next. Every call on a game's
 * engines goes through its thread, so none is started by a thread that
 * ends first.
 */
#ifndef ARENA_PLAYWORK_H
#define ARENA_PLAYWORK_H

struct pwork;

/* A new thread waiting for work into *w: 0, or -1 (no thread or memory). */
int pwork_start(struct pwork **w);

/* Runs fn(arg) in w's thread and returns once it has. Assumes one caller
 * at a time (the game's lock, playtab.h). */
void pwork_run(struct pwork *w, void (*fn)(void *arg), void *arg);

/* Ends w's thread (it has run every fn given) and frees w; NULL: nothing. */
void pwork_stop(struct pwork *w);

#endif
