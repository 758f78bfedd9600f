/*
 * playwork.c - the thread that runs a game's engines in `referee play`
 * (playwork.h): one job at a time, handed over under a mutex.
 */
#include "playwork.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct pwork {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;           /* a job given, or done, or quit */
    void (*fn)(void *);          /* the job; NULL: none */
    void *arg;
    int quit;
};

static void *work_main(void *vw)
{
    struct pwork *w = vw;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->fn && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->fn)
            break;
        void (*fn)(void *) = w->fn;
        pthread_mutex_unlock(&w->mu);
        fn(w->arg);
        pthread_mutex_lock(&w->mu);
        w->fn = NULL;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int pwork_start(struct pwork **w)
{
    *w = calloc(1, sizeof **w);
    if (!*w)
        return -1;
    pthread_mutex_init(&(*w)->mu, NULL);
    pthread_cond_init(&(*w)->cv, NULL);
    if (pthread_create(&(*w)->thread, NULL, work_main, *w) != 0) {
        pthread_cond_destroy(&(*w)->cv);
        pthread_mutex_destroy(&(*w)->mu);
        free(*w);
        *w = NULL;
        return -1;
    }
    return 0;
}

void pwork_run(struct pwork *w, void (*fn)(void *arg), void *arg)
{
    assert(fn);
    pthread_mutex_lock(&w->mu);
    assert(!w->fn && !w->quit);
    w->fn = fn;
    w->arg = arg;
    pthread_cond_broadcast(&w->cv);
    while (w->fn)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

void pwork_stop(struct pwork *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
