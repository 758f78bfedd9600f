/*
 * test_playtab.c - referee play's tables (playtab.h): ids, an entry found
 * until closed, freed once and only once, a full table's idle entry given
 * up for a new one and one in use never; an entry no request names for its
 * time closed (its search poked) and freed once let go, one touched kept.
 */
#include <criterion/criterion.h>
#include <time.h>
#include "referee/serve/playtab.h"

struct freed {
    int n;
    void *last;
};

static void count_free(void *ctx, void *obj)
{
    struct freed *f = ctx;
    f->n++;
    f->last = obj;
}

Test(playtab, a_closed_entry_is_gone_and_freed_once)
{
    struct freed f = { 0, NULL };
    struct ptab t;
    ptab_init(&t, count_free, &f);
    int a, b;
    struct ptab_slot *s = ptab_add(&t, &a, PLAYSRV_IDLE_S);
    cr_assert(s && s->id == 1 && s->obj == &a, "the first entry: id %ld", s ? s->id : 0);
    ptab_put(&t, s, 0);
    s = ptab_add(&t, &b, PLAYSRV_IDLE_S);
    cr_assert(s && s->id == 2, "the second entry: id %ld", s ? s->id : 0);
    ptab_put(&t, s, 0);
    s = ptab_get(&t, 1);
    cr_assert(s && s->obj == &a, "entry 1 found");
    ptab_put(&t, s, 1);
    cr_assert(f.n == 1 && f.last == &a, "freed %d times", f.n);
    cr_assert_null(ptab_get(&t, 1), "a closed entry is found");
    cr_assert_null(ptab_get(&t, 0), "entry 0 is found");
    ptab_destroy(&t);
    cr_assert(f.n == 2 && f.last == &b, "destroy freed %d entries", f.n);
}

Test(playtab, a_full_table_gives_up_an_idle_entry_not_in_use)
{
    struct freed f = { 0, NULL };
    struct ptab t;
    ptab_init(&t, count_free, &f);
    int obj[PLAYSRV_MAX_GAMES + 2];
    struct ptab_slot *held = NULL;
    for (int i = 0; i < PLAYSRV_MAX_GAMES; i++) {
        struct ptab_slot *s = ptab_add(&t, &obj[i], PLAYSRV_IDLE_S);
        cr_assert_not_null(s, "entry %d", i + 1);
        if (i == 0)
            held = s;   /* the oldest, in use */
        else
            ptab_put(&t, s, 0);
    }
    cr_assert_null(ptab_add(&t, &obj[PLAYSRV_MAX_GAMES], PLAYSRV_IDLE_S),
                   "a full table took an entry");
    /* Idle for 0 s is idle enough: the oldest not in use (entry 2) goes. */
    struct ptab_slot *s = ptab_add(&t, &obj[PLAYSRV_MAX_GAMES + 1], 0);
    cr_assert(s && f.n == 1 && f.last == &obj[1], "freed %d, the last %p", f.n, f.last);
    ptab_put(&t, s, 0);
    cr_assert_null(ptab_get(&t, 2), "the entry given up is found");
    ptab_put(&t, held, 0);
    ptab_destroy(&t);
    cr_assert_eq(f.n, PLAYSRV_MAX_GAMES + 1, "freed %d", f.n);
}

static int pokes;

static void poke(void *obj)
{
    (void)obj;
    pokes++;
}

Test(playtab, an_entry_unnamed_for_its_time_is_closed_and_freed_once_let_go)
{
    struct freed f = { 0, NULL };
    struct ptab t;
    ptab_init(&t, count_free, &f);
    int a, b;
    struct ptab_slot *s = ptab_add(&t, &a, PLAYSRV_IDLE_S);
    ptab_put(&t, s, 0);
    struct ptab_slot *searching = ptab_add(&t, &b, PLAYSRV_IDLE_S);   /* held by a request */
    cr_assert_eq(ptab_expire(&t, 3600, poke), 0, "an entry named just now was closed");
    pokes = 0;
    cr_assert_eq(ptab_expire(&t, 0, poke), 2, "both entries closed");
    cr_assert_eq(pokes, 2, "%d entries poked (their searches stopped)", pokes);
    cr_assert(f.n == 1 && f.last == &a, "freed %d: the one not in use, now", f.n);
    cr_assert_null(ptab_get(&t, 2), "a closed entry is found");
    cr_assert_eq(ptab_touch(&t, 2), 0, "a closed entry is touched");
    ptab_put(&t, searching, 0);   /* its request ends */
    cr_assert(f.n == 2 && f.last == &b, "freed %d: the held one once let go", f.n);
    cr_assert_eq(ptab_expire(&t, 0, poke), 0, "an entry closed twice");
    ptab_destroy(&t);
    cr_assert_eq(f.n, 2, "freed %d", f.n);
}

Test(playtab, a_touched_entry_stays)
{
    struct freed f = { 0, NULL };
    struct ptab t;
    ptab_init(&t, count_free, &f);
    int a, b;
    struct ptab_slot *s = ptab_add(&t, &a, PLAYSRV_IDLE_S);
    ptab_put(&t, s, 0);
    s = ptab_add(&t, &b, PLAYSRV_IDLE_S);
    ptab_put(&t, s, 0);
    struct timespec half = { 0, 600000000L };
    nanosleep(&half, NULL);
    cr_assert_eq(ptab_touch(&t, 1), 1, "entry 1 is not there");
    cr_assert_eq(ptab_touch(&t, 99), 0, "entry 99 is there");
    cr_assert_eq(ptab_touch(&t, 0), 0, "entry 0 is there");
    nanosleep(&half, NULL);
    cr_assert_eq(ptab_expire(&t, 1, poke), 1, "not the untouched entry alone closed");
    cr_assert(f.n == 1 && f.last == &b, "freed %d", f.n);
    s = ptab_get(&t, 1);
    cr_assert_not_null(s, "the touched entry is gone");
    ptab_put(&t, s, 0);
    ptab_destroy(&t);
}
