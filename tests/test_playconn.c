/*
 * test_playconn.c - referee play's open connections (playconn.h): one
 * waiting for a request longer than its time is cut (its peer sees the end)
 * and only once, one being answered never, an answer starts the next
 * request's time, a closed one's place is free again.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "referee/serve/playconn.h"

#define S_NS 1000000000ull

/* 1 when the peer of a cut socket sees the end of it. */
static int ended(int peer)
{
    struct pollfd p = { .fd = peer, .events = POLLIN };
    char c;
    return poll(&p, 1, 0) == 1 && recv(peer, &c, 1, MSG_DONTWAIT) == 0;
}

Test(playconn, a_connection_late_with_its_request_is_cut_once)
{
    struct pconns t;
    pconns_init(&t);
    int late[2], busy[2], fresh[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, late), 0);
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, busy), 0);
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fresh), 0);
    struct pconn *a = pconn_open(&t, late[0], 1 * S_NS);
    struct pconn *b = pconn_open(&t, busy[0], 1 * S_NS);
    struct pconn *c = pconn_open(&t, fresh[0], 1 * S_NS);
    cr_assert(a && b && c && a != b && b != c);
    pconn_busy(&t, b, 1, 0);               /* its request is being answered */
    pconn_busy(&t, c, 1, 0);
    pconn_busy(&t, c, 0, 5 * S_NS);        /* answered at 5 s: the next one's time */
    cr_assert_eq(pconn_sweep(&t, 6 * S_NS, 5 * S_NS), 0, "cut within its time");
    cr_assert_eq(pconn_sweep(&t, 7 * S_NS, 5 * S_NS), 1, "the late one cut");
    cr_assert(ended(late[1]), "the late one's peer sees no end");
    cr_assert(!ended(busy[1]) && !ended(fresh[1]), "another was cut");
    cr_assert_eq(pconn_sweep(&t, 8 * S_NS, 5 * S_NS), 0, "cut twice");
    cr_assert_eq(pconn_sweep(&t, 11 * S_NS, 5 * S_NS), 1, "the answered one's next request");
    cr_assert(ended(fresh[1]) && !ended(busy[1]));
    cr_assert_eq(pconn_sweep(&t, 3 * S_NS, 5 * S_NS), 0, "a clock read before another");
    pconn_close(&t, a);
    pconn_close(&t, b);
    pconn_close(&t, c);
    for (int i = 0; i < 2; i++)
        close(late[i]), close(busy[i]), close(fresh[i]);
    pconns_destroy(&t);
}

Test(playconn, a_closed_connections_place_is_free_again)
{
    struct pconns t;
    pconns_init(&t);
    struct pconn *c[PLAYSRV_MAX_CONNS];
    for (int i = 0; i < PLAYSRV_MAX_CONNS; i++)
        cr_assert_not_null(c[i] = pconn_open(&t, 1000 + i, 0), "place %d", i);
    cr_assert_null(pconn_open(&t, 5000, 0), "a place past PLAYSRV_MAX_CONNS");
    pconn_close(&t, c[7]);
    cr_assert_eq(pconn_open(&t, 5000, 0), c[7], "the closed one's place");
    pconn_close(&t, NULL);
    pconn_busy(&t, NULL, 1, 0);
    pconns_destroy(&t);
}
