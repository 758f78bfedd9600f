/*
 * playtab.c - referee play's tables of games and training series, shared by
 * the threads that answer requests (playtab.h).
 */
#include "playtab.h"

#include <assert.h>
#include <string.h>
#include "arena/clock.h"

#define NS_PER_S 1000000000ull

void ptab_init(struct ptab *t, void (*free_obj)(void *ctx, void *obj), void *ctx)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++)
        pthread_mutex_init(&t->slot[i].lock, NULL);
    t->free_obj = free_obj;
    t->ctx = ctx;
}

void ptab_destroy(struct ptab *t)
{
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        assert(t->slot[i].refs == 0);
        if (t->slot[i].id)
            t->free_obj(t->ctx, t->slot[i].obj);
        pthread_mutex_destroy(&t->slot[i].lock);
    }
    pthread_mutex_destroy(&t->mu);
    memset(t, 0, sizeof *t);
}

/* Under t->mu: a free place, else the entry idle longest if idle long
 * enough and not in use (its object into *old, to free once t->mu is let
 * go), else NULL. */
static struct ptab_slot *free_place(struct ptab *t, uint64_t now, int idle_s, void **old)
{
    struct ptab_slot *idle = NULL;
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        struct ptab_slot *s = &t->slot[i];
        if (!s->id)
            return s;
        if (!s->refs && (!idle || s->last_ns < idle->last_ns))
            idle = s;
    }
    if (!idle || now - idle->last_ns < (uint64_t)idle_s * NS_PER_S)
        return NULL;
    *old = idle->obj;
    return idle;
}

struct ptab_slot *ptab_add(struct ptab *t, void *obj, int idle_s)
{
    void *old = NULL;
    pthread_mutex_lock(&t->mu);
    uint64_t now = clock_wall_ns();   /* under mu: no slot's last_ns is later */
    struct ptab_slot *s = free_place(t, now, idle_s, &old);
    if (s) {
        s->id = ++t->next_id;
        s->obj = obj;
        s->refs = 1;
        s->closed = s->closing = 0;
        s->last_ns = now;
        /* Free, or idle and in no one's use: nobody holds its lock, and
         * nobody finds it before the caller has it. */
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&t->mu);
    if (old)
        t->free_obj(t->ctx, old);
    return s;
}

struct ptab_slot *ptab_get(struct ptab *t, long id)
{
    struct ptab_slot *s = NULL;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < PLAYSRV_MAX_GAMES && !s; i++)
        if (id > 0 && t->slot[i].id == id && !t->slot[i].closed)
            s = &t->slot[i];
    if (s) {
        s->refs++;
        s->last_ns = clock_wall_ns();
    }
    pthread_mutex_unlock(&t->mu);
    if (!s)
        return NULL;
    pthread_mutex_lock(&s->lock);
    if (!s->closing)
        return s;
    ptab_put(t, s, 0);   /* closed while we waited */
    return NULL;
}

void ptab_put(struct ptab *t, struct ptab_slot *s, int close)
{
    /* Let go first: t->mu is never taken with a slot's lock held (ptab_add
     * takes them the other way round). Until refs drops, the slot stays
     * ours all the same. A request waiting for the lock sees closing. */
    if (close)
        s->closing = 1;
    pthread_mutex_unlock(&s->lock);
    void *gone = NULL;
    pthread_mutex_lock(&t->mu);
    assert(s->refs > 0);
    s->closed |= close;
    if (--s->refs == 0 && s->closed) {   /* nobody holds or waits for it */
        gone = s->obj;
        s->id = 0;
        s->obj = NULL;
        s->closed = s->closing = 0;
    }
    pthread_mutex_unlock(&t->mu);
    if (gone)
        t->free_obj(t->ctx, gone);
}

void ptab_poke(struct ptab *t, long id, void (*fn)(void *obj))
{
    /* Under t->mu an entry in a slot is not freed (ptab_put takes it out
     * of its slot first), so obj is there to poke. */
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++)
        if (t->slot[i].id && (!id || t->slot[i].id == id))
            fn(t->slot[i].obj);
    pthread_mutex_unlock(&t->mu);
}

int ptab_touch(struct ptab *t, long id)
{
    int found = 0;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < PLAYSRV_MAX_GAMES && !found; i++)
        if (id > 0 && t->slot[i].id == id && !t->slot[i].closed) {
            t->slot[i].last_ns = clock_wall_ns();
            found = 1;
        }
    pthread_mutex_unlock(&t->mu);
    return found;
}

int ptab_expire(struct ptab *t, int idle_s, void (*fn)(void *obj))
{
    void *gone[PLAYSRV_MAX_GAMES];
    int ngone = 0, n = 0;
    pthread_mutex_lock(&t->mu);
    uint64_t now = clock_wall_ns();
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        struct ptab_slot *s = &t->slot[i];
        if (!s->id || s->closed || now - s->last_ns < (uint64_t)idle_s * NS_PER_S)
            continue;
        fn(s->obj);
        n++;
        s->closed = 1;   /* found no more; the last to let go frees it (ptab_put) */
        if (s->refs == 0) {
            gone[ngone++] = s->obj;
            s->id = 0;
            s->obj = NULL;
            s->closed = s->closing = 0;
        }
    }
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < ngone; i++)
        t->free_obj(t->ctx, gone[i]);
    return n;
}
