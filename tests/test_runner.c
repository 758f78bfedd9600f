/*
 * test_runner.c - what the runner keeps of an engine's stdout and stderr
 * (runner.h, through launcher.h's plain launcher): the last RUN_TAIL_MAX
 * bytes of each, byte for byte, with the total; the whole stderr copied to
 * the caller's file up to the file-size limit; an engine writing more than a
 * pipe holds is drained, not blocked.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/run/launcher.h"
#include "arena/runner.h"

#define LINES 1000
#define LINE_LEN 10   /* "line 0042\n" */

static struct run_limits limits(long file_limit_kb)
{
    struct run_limits l;
    memset(&l, 0, sizeof l);
    l.timeout_ms = 20000;
    l.file_limit_kb = file_limit_kb;
    return l;
}

static void run_sh(const char *script, const struct run_limits *l, int copy,
                   struct run_result *r)
{
    char *const argv[] = { "sh", "-c", (char *)script, NULL };
    struct err e;
    struct launcher lnc;
    cr_assert_eq(launcher_plain(&lnc, NULL, &e), 0, "%s", e.msg);
    struct launch_move m = { argv, "/", 0, copy, l, { -1, -1, -1 }, NULL, 0 };
    cr_assert_eq(launcher_move(&lnc, &m, r, &e), 0, "%s", e.msg);
    launcher_close(&lnc);
    cr_assert(r->end == RUN_EXITED && r->status == 0, "end %d, status %d", r->end, r->status);
}

/* What the script below writes to stderr. */
static char *numbered_lines(void)
{
    char *text = malloc(LINES * LINE_LEN + 1);
    for (unsigned i = 0; i < LINES; i++)
        snprintf(text + i * LINE_LEN, LINE_LEN + 1, "line %04u\n", i % 10000);
    return text;
}

static const char numbered_script[] =
    "i=0; while [ $i -lt 1000 ]; do printf 'line %04d\\n' $i; i=$((i+1)); done >&2";

Test(runner, keeps_both_streams)
{
    struct run_limits l = limits(0);
    struct run_result r;
    run_sh("printf 'to stdout\\n'; printf 'to stderr' >&2", &l, -1, &r);
    cr_assert_str_eq(r.out.text, "to stdout\n");
    cr_assert_str_eq(r.err.text, "to stderr");
    cr_assert(r.out.total == 10 && r.err.total == 9, "%lld %lld", r.out.total, r.err.total);
    cr_assert_eq(r.err_copied, 0);
}

Test(runner, keeps_the_last_bytes_of_a_long_stderr)
{
    struct run_limits l = limits(0);
    struct run_result r;
    run_sh(numbered_script, &l, -1, &r);
    char *want = numbered_lines();
    cr_assert_eq(r.err.total, LINES * LINE_LEN);
    cr_assert_eq(r.err.len, RUN_TAIL_MAX);
    cr_assert_str_eq(r.err.text, want + LINES * LINE_LEN - RUN_TAIL_MAX);
    free(want);
}

/* The copy gets everything, or the file-size limit's worth. */
Test(runner, copies_stderr_up_to_the_file_limit)
{
    char *want = numbered_lines();
    for (long kb = 0; kb <= 4; kb += 4) {
        FILE *f = tmpfile();
        struct run_limits l = limits(kb);
        struct run_result r;
        run_sh(numbered_script, &l, fileno(f), &r);
        long long n = kb ? kb * 1024 : LINES * LINE_LEN;
        cr_assert_eq(r.err_copied, n, "limit %ld KiB: copied %lld", kb, r.err_copied);
        char *got = calloc(1, (size_t)n + 1);
        rewind(f);
        cr_assert_eq(fread(got, 1, (size_t)n + 1, f), (size_t)n, "limit %ld KiB", kb);
        cr_assert(memcmp(got, want, (size_t)n) == 0, "limit %ld KiB: another text", kb);
        free(got);
        fclose(f);
    }
    free(want);
}

/* 1 MiB is far more than a pipe holds: a referee that read only at the
 * end would leave the engine blocked until its deadline. */
Test(runner, a_chatty_engine_is_not_blocked, .timeout = 60)
{
    struct run_limits l = limits(0);
    struct run_result r;
    run_sh("head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; printf end", &l, -1, &r);
    cr_assert_eq(r.out.total, 1048576 + 3);
    cr_assert_eq(r.err.total, 1048576);
    cr_assert(r.out.len == RUN_TAIL_MAX && memcmp(r.out.text + RUN_TAIL_MAX - 3, "end", 4) == 0,
              "stdout tail ends '%s'", r.out.text + RUN_TAIL_MAX - 3);
}
