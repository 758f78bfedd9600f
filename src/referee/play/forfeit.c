/*
 * forfeit.c - the forfeit reason of a move whose run failed (forfeit.h):
 * what play writes in the record and grade shows a student, from run's
 * result and limits. Out of rules.c so that the rules, at the bottom of the
 * referee, know nothing of runs.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "arena/forfeit.h"
#include "arena/limits.h"
#include "arena/record.h"

void forfeit_run_reason(const struct run_result *r, char *reason)
{
    switch (r->end) {
    case RUN_TIMEOUT:
        strcpy(reason, "timeout");
        break;
    case RUN_CPU_LIMIT:
        strcpy(reason, "cpu-limit");
        break;
    case RUN_MEM_LIMIT:
        strcpy(reason, "memory-limit");
        break;
    case RUN_FILE_LIMIT:
        strcpy(reason, "file-limit");
        break;
    case RUN_SIGNALED: {
        const char *abbrev = sigabbrev_np(r->signal);
        if (abbrev)
            snprintf(reason, REC_REASON_MAX, "crashed: SIG%s", abbrev);
        else
            snprintf(reason, REC_REASON_MAX, "crashed: signal %d", r->signal);
        break;
    }
    case RUN_EXEC_FAILED:
        strcpy(reason, "cannot-run");
        break;
    case RUN_CANCELLED:
        strcpy(reason, "cancelled");
        break;
    case RUN_EXITED:
        assert(r->status != 0);
        snprintf(reason, REC_REASON_MAX, "exit-status %d", r->status);
        break;
    }
}

int forfeit_hit_file_limit(const struct run_result *r, const struct run_limits *l,
                           long long out_size)
{
    return (r->end == RUN_EXITED || r->end == RUN_SIGNALED) && l->file_limit_kb > 0 &&
           out_size >= l->file_limit_kb * 1024;
}

/* The limit a limit's kind names, and the option that sets it, appended
 * to reason: a student sees what was exceeded and what to change. */
void forfeit_name_limit(const struct run_limits *l, int by_tree, char *reason)
{
    char detail[REC_REASON_MAX] = "";
    int in_ms = l->cpu_ms > 0 && (l->cpu_limit_s == 0 || l->cpu_ms < l->cpu_limit_s * 1000);
    if (strcmp(reason, "timeout") == 0 && l->cpu_ms > 0)
        snprintf(detail, sizeof detail, "no answer within %ld ms of wall time, the guard against "
                 "an engine that sleeps or hangs (its CPU limit: %ld ms)", l->timeout_ms,
                 l->cpu_ms);
    else if (strcmp(reason, "timeout") == 0)
        snprintf(detail, sizeof detail, "no answer within %ld ms of wall time (--timeout-ms)",
                 l->timeout_ms);
    else if (strcmp(reason, "cpu-limit") == 0 && in_ms)
        snprintf(detail, sizeof detail, "%s %ld ms of CPU time%s, its limit",
                 by_tree ? "its processes used" : "used", l->cpu_ms, by_tree ? " together" : "");
    else if (strcmp(reason, "cpu-limit") == 0 && l->cpu_limit_s > 0 && by_tree)
        snprintf(detail, sizeof detail, "its processes used %ld s of CPU time together "
                 "(--cpu-limit-s)", l->cpu_limit_s);
    else if (strcmp(reason, "cpu-limit") == 0 && l->cpu_limit_s > 0)
        snprintf(detail, sizeof detail, "used %ld s of CPU time (--cpu-limit-s)", l->cpu_limit_s);
    else if (strcmp(reason, "memory-limit") == 0 && l->mem_limit_mb > 0 && by_tree)
        snprintf(detail, sizeof detail, "its processes held more than %ld MB of memory "
                 "together (--mem-limit-mb)", l->mem_limit_mb);
    else if (strcmp(reason, "memory-limit") == 0 && l->mem_limit_mb > 0)
        snprintf(detail, sizeof detail, "ran out of its %ld MB of address space (--mem-limit-mb)",
                 l->mem_limit_mb);
    else if (strcmp(reason, "file-limit") == 0 && l->file_limit_kb > 0)
        snprintf(detail, sizeof detail, "wrote a file past %ld KB, the most an engine may write",
                 l->file_limit_kb);
    if (detail[0]) {
        size_t n = strlen(reason);
        snprintf(reason + n, REC_REASON_MAX - n, ": %s", detail);
    }
}

void forfeit_explain_missing(const struct run_result *r, int persistent, int out_written,
                             char *reason)
{
    char detail[REC_REASON_MAX] = "";
    const struct run_tail *o = &r->out;
    /* A last line without its newline is a line too. */
    long long lines = o->lines + (o->len && o->text[o->len - 1] != '\n');
    if (strcmp(reason, "no-output") == 0 && persistent)
        snprintf(detail, sizeof detail, "it printed done and wrote no OUT file");
    else if (strcmp(reason, "no-output") == 0 && o->total > 0)
        snprintf(detail, sizeof detail, "it wrote %lld line%s to stdout and no OUT file", lines,
                 lines == 1 ? "" : "s");
    else if (strcmp(reason, "no-output") == 0)
        /* A file engine's stdin is empty: an engine waiting there for a
         * move line ends at once, without a word. */
        snprintf(detail, sizeof detail, "it read nothing from stdin and wrote no OUT: is it a "
                 "persistent engine? add proto=persistent");
    else if (strncmp(reason, "timeout", 7) == 0 && persistent && out_written)
        snprintf(detail, sizeof detail, "OUT was written but no done line came (flush stdout "
                 "after done)");
    if (detail[0]) {
        size_t n = strlen(reason);
        snprintf(reason + n, REC_REASON_MAX - n, ": %s", detail);
    }
}

int forfeit_starved(const struct run_result *r, const struct run_limits *l)
{
    return r->end == RUN_TIMEOUT && l->cpu_ms > 0 &&
           r->cpu_user_ms + r->cpu_sys_ms < (double)l->cpu_ms &&
           r->wait_ms >= (double)l->timeout_ms * PLAY_STARVED_SHARE;
}
