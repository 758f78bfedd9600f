/*
 * tournament.c - the schedule and the run of a tournament: worker processes
 * playing games concurrently, the journal, resume, SPRT, SIGINT, progress
 * (tournament.h).
 *
 * Why processes, not threads: a worker is a child subreaper with no other
 * children, so after every move it can kill and reap whatever the engine
 * left behind, setsid escapees included (runner.h); and a worker that the
 * parent's death takes down (PR_SET_PDEATHSIG) kills its engine on the way.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/clock.h"
#include "arena/textfile.h"
#include "arena/journal.h"
#include "arena/report.h"
#include "arena/stats.h"
#include "arena/tally.h"
#include "arena/tournament.h"

#define WORKER_CANCELLED 3          /* a worker's exit status when stopped */
#define WORKER_FAILED 4             /* the referee's own failure in a worker */
#define PROGRESS_EVERY_MS 250
#define READ_CHUNK 65536
#define NS_PER_S 1e9

/* The one process-wide variable: a signal handler can reach nothing else.
 * The parent's stops the tournament; a worker's copy cancels its engine. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static long pairs_per_round(const struct tour_config *c)
{
    return c->format == TOUR_GAUNTLET ? c->nengines - 1
                                      : (long)c->nengines * (c->nengines - 1) / 2;
}

long tour_games(const struct tour_config *c)
{
    return (long)c->rounds * pairs_per_round(c) * 2;
}

void tour_game_at(const struct tour_config *c, long index, struct tour_game *g)
{
    long i = index - 1, per_round = pairs_per_round(c);
    long k = (i / 2) % per_round;   /* the engine pair within the round */
    int a = 0, b = 1;
    if (c->format == TOUR_GAUNTLET) {
        b = (int)k + 1;
    } else {
        /* Pairs in order (0,1) (0,2) ... (0,n-1) (1,2) ... */
        while (k >= c->nengines - 1 - a) {
            k -= c->nengines - 1 - a;
            a++;
        }
        b = a + 1 + (int)k;
    }
    g->index = index;
    g->pair = i / 2;
    g->side[0] = i % 2 ? b : a;
    g->side[1] = i % 2 ? a : b;
}

cJSON *tour_header(const struct tour_config *c)
{
    cJSON *h = cJSON_CreateObject();
    cJSON_AddStringToObject(h, "schema", JOURNAL_SCHEMA);
    ref_rules_to_json(&c->rules, h);
    cJSON *engines = cJSON_AddArrayToObject(h, "engines");
    for (int i = 0; i < c->nengines; i++)
        cJSON_AddItemToArray(engines, ref_engine_json(&c->engine[i]));
    cJSON_AddStringToObject(h, "format", c->format == TOUR_GAUNTLET ? "gauntlet" : "round-robin");
    cJSON_AddNumberToObject(h, "rounds", c->rounds);
    char shard[32];
    snprintf(shard, sizeof shard, "%d/%d", c->shard_k, c->shard_n);
    cJSON_AddStringToObject(h, "shard", shard);
    cJSON_AddNumberToObject(h, "games", (double)tour_games(c));
    if (c->sprt.on) {
        cJSON *s = cJSON_AddObjectToObject(h, "sprt");
        cJSON_AddNumberToObject(s, "elo0", c->sprt.elo0);
        cJSON_AddNumberToObject(s, "elo1", c->sprt.elo1);
        cJSON_AddNumberToObject(s, "alpha", c->sprt.alpha);
        cJSON_AddNumberToObject(s, "beta", c->sprt.beta);
    } else {
        cJSON_AddNullToObject(h, "sprt");
    }
    return h;
}

/* --- the worker --------------------------------------------------------- */

/* In the worker: plays one game, sends its record, never returns. */
struct run_state;
struct slot;
static void worker_free(struct run_state *s, struct slot *slots);

static void worker(struct run_state *s, struct slot *slots, const struct tour_config *c,
                   const struct tour_game *tg, int fd, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, (long)SIGTERM, 0L, 0L, 0L);
    if (getppid() != parent)
        _exit(WORKER_CANCELLED);
    run_become_reaper();
    struct ref_rules rules = c->rules;
    rules.limits.reap_all = 1;
    rules.limits.cancel = &stop_signal;
    const struct ref_engine *const side[2] = { &c->engine[tg->side[0]], &c->engine[tg->side[1]] };
    struct game_record rec;
    struct err e;
    int rc = ref_play(&rules, tg->index, tg->pair, side, &rec, &e);
    int status = rc == REF_PLAYED ? 0 : rc == REF_CANCELLED ? WORKER_CANCELLED : WORKER_FAILED;
    cJSON *gj = rc == REF_PLAYED ? rec_encode(&rec) : NULL;
    char *text = gj ? cJSON_PrintUnformatted(gj) : NULL;
    if (rc < 0)
        err_print(stderr, "referee", &e);
    if (rc == REF_PLAYED && (!text || tf_write_all(fd, text, strlen(text)) != 0))
        status = WORKER_FAILED;
    free(text);
    cJSON_Delete(gj);
    rec_free(&rec);
    close(fd);
    worker_free(s, slots);
    _exit(status);
}

/* --- the parent --------------------------------------------------------- */

struct slot {
    pid_t pid;      /* 0: free */
    int fd;         /* the worker's pipe */
    long index;
    char *buf;      /* what it sent */
    size_t len, cap;
};

struct run_state {
    const struct tour_config *c;
    struct tally tally;
    char *done;              /* done[i]: game i is in the journal */
    long ndone, nwanted;     /* of this shard */
    long played_now;         /* games finished by this run */
    int journal_fd;
    int sprt_decided;        /* -1 H0 accepted, 1 H1 accepted, 0 not yet */
    FILE *out;
    uint64_t t0;
    int progress_shown;
};

static int in_shard(const struct tour_config *c, long index)
{
    return (index - 1) % c->shard_n == c->shard_k - 1;
}

/* A finished game, from the journal or a worker: count it. */
static int count_game(struct run_state *s, const struct game_record *rec, struct err *e)
{
    long i = rec->index;
    if (i < 1 || i > tour_games(s->c) || !in_shard(s->c, i))
        return err_set(e, 0, 0, "a game whose index (%ld) is not in this schedule", i);
    if (s->done[i])
        return err_set(e, 0, 0, "game %ld is in the journal twice", i);
    s->done[i] = 1;
    s->ndone++;
    return tally_add(&s->tally, rec, e);
}

static int resume_game(void *ctx, const cJSON *json, int is_header, int line, struct err *e)
{
    (void)is_header;
    struct game_record rec;
    int rc = rec_decode(json, &rec, e) || count_game(ctx, &rec, e) ? -1 : 0;
    rec_free(&rec);
    if (rc && !e->line)
        e->line = line, e->col = 1;
    return rc;
}

static void sprt_check(struct run_state *s)
{
    const struct tour_sprt *p = &s->c->sprt;
    if (!p->on || s->sprt_decided)
        return;
    long w = s->tally.beat[0][1], l = s->tally.beat[1][0], d = s->tally.drew[0][1];
    double lo, hi, llr = stats_sprt_llr(w, l, d, p->elo0, p->elo1);
    stats_sprt_bounds(p->alpha, p->beta, &lo, &hi);
    if (llr >= hi)
        s->sprt_decided = 1;
    else if (llr <= lo)
        s->sprt_decided = -1;
}

static void clear_progress(struct run_state *s)
{
    if (s->progress_shown) {
        fputs("\r\033[K", stderr);
        s->progress_shown = 0;
    }
}

static void show_progress(struct run_state *s)
{
    if (!s->c->progress)
        return;
    double secs = (double)(clock_wall_ns() - s->t0) / NS_PER_S;
    double rate = secs > 0 ? (double)s->played_now / secs : 0.0;
    long left = s->nwanted - s->ndone;
    int leader = 0;
    for (int i = 1; i < s->tally.n; i++)
        if (2 * s->tally.win[i] + s->tally.draw[i] > 2 * s->tally.win[leader] + s->tally.draw[leader])
            leader = i;
    char eta[32] = "--:--";
    if (rate > 0) {
        long t = (long)((double)left / rate);
        snprintf(eta, sizeof eta, "%ld:%02ld", t / 60, t % 60);
    }
    fprintf(stderr, "\r\033[K%ld/%ld games  %.2f games/s  ETA %s  leader %s (%.1f)", s->ndone,
            s->nwanted, rate, eta, s->tally.name[leader],
            (double)s->tally.win[leader] + 0.5 * (double)s->tally.draw[leader]);
    fflush(stderr);
    s->progress_shown = 1;
}

/* A worker ended: journal and count its game if it finished one. */
static int reap_worker(struct run_state *s, struct slot *w, struct err *e)
{
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(w->fd);
    w->pid = 0;
    int rc = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !s->sprt_decided) {
        w->buf[w->len] = '\0';
        cJSON *json = cJSON_Parse(w->buf);
        struct game_record rec;
        rec_init(&rec, -1, -1);
        if (!json || rec_decode(json, &rec, e) != 0)
            rc = err_set(e, 0, 0, "game %ld: the worker's record is not a record", w->index);
        if (!rc && s->journal_fd >= 0)
            rc = journal_append(s->journal_fd, w->buf, e);
        if (!rc && (rc = count_game(s, &rec, e)) == 0) {
            s->played_now++;
            clear_progress(s);
            ref_print_result(s->out, &rec);
            fflush(s->out);
            sprt_check(s);
        }
        rec_free(&rec);
        cJSON_Delete(json);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == WORKER_FAILED) {
        rc = err_set(e, 0, 0, "game %ld: the referee could not play it", w->index);
    }
    w->len = 0;
    return rc;
}

/* The worker's copy of everything the parent allocated, freed before the
 * worker exits, so that each process frees what it holds (valgrind checks
 * workers too). The configuration is the caller's, but this copy of it
 * belongs to the worker alone. */
static void worker_free(struct run_state *s, struct slot *slots)
{
    struct tour_config *c = (struct tour_config *)s->c;
    for (int k = 0; k < c->concurrency; k++)
        free(slots[k].buf);
    free(slots);
    free(s->done);
    tally_free(&s->tally);
    for (int i = 0; i < c->nengines; i++)
        ref_engine_free(&c->engine[i]);
    if (c->rules.book)
        ref_book_free((struct ref_book *)c->rules.book);
}

static int spawn(struct run_state *s, struct slot *slots, struct slot *w, long index,
                 struct err *e)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return err_set(e, 0, 0, "pipe: %s", strerror(errno));
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    struct tour_game tg;
    tour_game_at(s->c, index, &tg);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return err_set(e, 0, 0, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        worker(s, slots, s->c, &tg, fds[1], parent);
    }
    close(fds[1]);
    w->pid = pid;
    w->fd = fds[0];
    w->index = index;
    w->len = 0;
    return 0;
}

/* Reads what a worker sent; 1 at end of file. */
static int drain(struct slot *w)
{
    for (;;) {
        if (w->cap - w->len < READ_CHUNK + 1) {
            size_t cap = w->cap ? 2 * w->cap : 4 * READ_CHUNK;
            char *grown = realloc(w->buf, cap);
            if (!grown)
                return 1;
            w->buf = grown;
            w->cap = cap;
        }
        ssize_t r = read(w->fd, w->buf + w->len, READ_CHUNK);
        if (r > 0) {
            w->len += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        return r == 0 || errno != EAGAIN;
    }
}

static void print_sprt(struct run_state *s)
{
    const struct tour_sprt *p = &s->c->sprt;
    long w = s->tally.beat[0][1], l = s->tally.beat[1][0], d = s->tally.drew[0][1];
    double lo, hi, llr = stats_sprt_llr(w, l, d, p->elo0, p->elo1);
    stats_sprt_bounds(p->alpha, p->beta, &lo, &hi);
    fprintf(s->out, "SPRT: llr %.3f, lbound %.3f, ubound %.3f - %s\n", llr, lo, hi,
            s->sprt_decided > 0   ? "H1 was accepted"
            : s->sprt_decided < 0 ? "H0 was accepted"
                                  : "no decision yet");
}

static int run_loop(struct run_state *s, struct slot *slots, struct err *e)
{
    const struct tour_config *c = s->c;
    long next = 1, total = tour_games(c);
    int running = 0, rc = 0;
    for (;;) {
        while (!rc && !stop_signal && !s->sprt_decided && running < c->concurrency) {
            while (next <= total && (!in_shard(c, next) || s->done[next]))
                next++;
            if (next > total)
                break;
            int k = 0;
            while (slots[k].pid)
                k++;
            if ((rc = spawn(s, slots, &slots[k], next++, e)) == 0)
                running++;
        }
        if (running == 0)
            break;
        if (rc || stop_signal || s->sprt_decided)
            for (int k = 0; k < c->concurrency; k++)
                if (slots[k].pid)
                    kill(slots[k].pid, SIGTERM);
        struct pollfd pfd[TOUR_MAX_CONCURRENCY];
        int map[TOUR_MAX_CONCURRENCY], n = 0;
        for (int k = 0; k < c->concurrency; k++)
            if (slots[k].pid) {
                pfd[n].fd = slots[k].fd;
                pfd[n].events = POLLIN;
                map[n++] = k;
            }
        int ready = poll(pfd, (nfds_t)n, PROGRESS_EVERY_MS);
        if (ready < 0 && errno != EINTR) {
            rc = err_set(e, 0, 0, "poll: %s", strerror(errno));
            continue;
        }
        for (int i = 0; i < n && ready > 0; i++) {
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            struct slot *w = &slots[map[i]];
            if (drain(w)) {
                running--;
                int r = reap_worker(s, w, e);
                if (!rc)
                    rc = r;
            }
        }
        if (!rc)
            show_progress(s);
    }
    clear_progress(s);
    return rc;
}

int tour_run(const struct tour_config *c, FILE *out, struct err *e)
{
    struct run_state s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.out = out;
    s.journal_fd = -1;
    s.t0 = clock_wall_ns();
    long total = tour_games(c);
    for (long i = 1; i <= total; i++)
        s.nwanted += in_shard(c, i);
    cJSON *header = tour_header(c);
    const char *name[TOUR_MAX_ENGINES];
    for (int i = 0; i < c->nengines; i++)
        name[i] = c->engine[i].name;
    int rc = tally_init(&s.tally, c->nengines, name, e);
    s.done = calloc((size_t)total + 1, 1);
    struct slot *slots = calloc((size_t)c->concurrency, sizeof *slots);
    if (!rc && (!s.done || !slots))
        rc = err_set(e, 0, 0, "out of memory");
    int bad_journal = 0;
    if (!rc && c->journal) {
        rc = journal_open(c->journal, header, c->resume, resume_game, &s, &s.journal_fd, e);
        bad_journal = rc != 0;
    }
    cJSON_Delete(header);
    if (!rc && s.ndone)
        fprintf(out, "Resuming: %ld of %ld games are in the journal\n", s.ndone, s.nwanted);
    sprt_check(&s);

    /* Orphans of a worker killed mid-move come to us and are swept below. */
    run_become_reaper();
    struct run_stops saved;
    stop_signal = 0;
    run_catch_stops(on_stop, &saved);
    if (!rc)
        rc = run_loop(&s, slots, e);
    else
        stop_signal = 0;
    /* Every worker is reaped; take anything an engine left to us. */
    for (int k = 0; k < c->concurrency && slots; k++)
        if (slots[k].pid) {
            kill(slots[k].pid, SIGKILL);
            waitpid(slots[k].pid, NULL, 0);
        }
    run_sweep();
    int stopped = stop_signal != 0;
    run_release_stops(&saved);
    if (s.journal_fd >= 0)
        close(s.journal_fd);
    if (!rc) {
        if (c->sprt.on)
            print_sprt(&s);
        if (stopped)
            fprintf(out, "Stopped by a signal: %ld of %ld games in the journal; run again with "
                         "--resume to finish\n", s.ndone, s.nwanted);
        fputc('\n', out);
        report_print(&s.tally, REPORT_TEXT, out);
    }
    for (int k = 0; k < c->concurrency && slots; k++)
        free(slots[k].buf);
    free(slots);
    free(s.done);
    tally_free(&s.tally);
    return bad_journal ? TOUR_BAD_JOURNAL : rc ? -1 : stopped ? TOUR_STOPPED : 0;
}
