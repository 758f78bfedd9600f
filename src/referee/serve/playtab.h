/*
 * playtab.h - the tables of `referee play`'s server (playsrv.c): the games
 * and the training series the pages hold, by id, shared by the threads that
 * answer requests (one per connection, playsrv.c says why).
 *
 * Each entry has its own lock, held by the one request working on it, and a
 * count of the requests holding or waiting for it. The table's lock is held
 * only to find, add or drop an entry, never while an entry's lock is waited
 * for, so a slow engine's move holds up its own page and no other. An entry
 * closed (or whose place goes to a new one after PLAYSRV_IDLE_S) while
 * requests hold or wait for it is no longer found, and freed by the last of
 * them to let go: an object is never freed under a request using it.
 *
 * Times are of the monotonic clock (clock.h), so a change of the system's
 * clock closes no game.
 */
#ifndef ARENA_PLAYTAB_H
#define ARENA_PLAYTAB_H

#include <pthread.h>
#include <stdint.h>
#include "arena/limits.h"

struct ptab_slot {
    long id;                  /* 0: free */
    void *obj;
    int refs;                 /* requests holding or waiting for lock */
    int closed;               /* no longer found; freed when refs drops to 0 */
    int closing;              /* closed, as the next holder of lock sees it
                               * (under lock, where closed is under mu) */
    uint64_t last_ns;         /* the last request's time (clock_wall_ns) */
    pthread_mutex_t lock;
};

struct ptab {
    pthread_mutex_t mu;       /* ids, refs, closed, last_ns; never held while lock is waited for */
    struct ptab_slot slot[PLAYSRV_MAX_GAMES];
    long next_id;
    void (*free_obj)(void *ctx, void *obj);
    void *ctx;
};

/* An empty table whose entries are freed by free_obj(ctx, obj). */
void ptab_init(struct ptab *t, void (*free_obj)(void *ctx, void *obj), void *ctx);
/* Frees every entry and the locks. Assumes no request is in flight (the
 * HTTP server is stopped). */
void ptab_destroy(struct ptab *t);

/* Adds obj under a new id (slot->id, from 1 up): its slot, held by the
 * caller as ptab_get's is, or NULL when every place is taken by an entry in
 * use or used within idle_s seconds (obj stays the caller's). An entry
 * idle for longer and not in use is freed to make room. */
struct ptab_slot *ptab_add(struct ptab *t, void *obj, int idle_s);

/* Entry id, its lock taken for the caller (waiting while another request
 * holds it): its slot, or NULL when there is no such entry (never added,
 * or closed, meanwhile too). */
struct ptab_slot *ptab_get(struct ptab *t, long id);

/* Lets go of a slot ptab_get or ptab_add gave; with close the entry goes
 * too (freed now, or by the last request waiting for it). */
void ptab_put(struct ptab *t, struct ptab_slot *s, int close);

/* Calls fn(obj) on entry id, or on every entry when id is 0, under the
 * table's lock but without the entry's: for what must reach an entry while
 * a request works on it (a flag that stops a search). fn only sets a flag. */
void ptab_poke(struct ptab *t, long id, void (*fn)(void *obj));

/* Entry id was asked about, without its lock (a page saying it is still
 * there while a request works on its game): 1, or 0 when there is no such
 * entry. */
int ptab_touch(struct ptab *t, long id);

/* Closes every entry no request has named (ptab_get, ptab_add, ptab_touch)
 * for idle_s seconds or more: it is no longer found, fn(obj) is called on
 * it under the table's lock as ptab_poke's (a flag that stops its search),
 * and it is freed now, or by the last request holding or waiting for it
 * when it lets go (that request finishes first). Returns how many. */
int ptab_expire(struct ptab *t, int idle_s, void (*fn)(void *obj));

#endif
