/*
 * forfeit.h - the forfeit reason of a move whose run failed: which limit it
 * passed and the option that sets it, what the engine did instead of
 * answering, and whether the machine, not the engine, was to blame (a
 * starved run is played again). play writes these reasons in the record,
 * grade shows them to a student; reports count them by their kind
 * (record.h's rec_reason_split).
 *
 * Representation: nothing of its own; reasons are text of at most
 * REC_REASON_MAX bytes (record.h), runs are runner.h's.
 */
#ifndef ARENA_FORFEIT_H
#define ARENA_FORFEIT_H

#include "arena/runner.h"

/* The forfeit reason (REC_REASON_MAX bytes) of a run that did not exit
 * with status 0: timeout, cpu-limit, memory-limit, file-limit, crashed:
 * SIGNAME, cannot-run, cancelled, exit-status N. */
void forfeit_run_reason(const struct run_result *r, char *reason);
/* 1 when a run that did not end well (it failed, or its output was refused)
 * left an output file of out_size bytes (-1: none) that reached the
 * file-size limit: its forfeit is then file-limit, whatever its exit status
 * says (Python ignores SIGXFSZ and dies of EFBIG with status 1). Only runs
 * that ended on their own (exit or signal) count. */
int forfeit_hit_file_limit(const struct run_result *r, const struct run_limits *l,
                           long long out_size);
/* Appends to a limit's reason (timeout, cpu-limit, memory-limit,
 * file-limit: REC_REASON_MAX bytes) the limit l set and the option that
 * sets it: "timeout: no answer within 10000 ms of wall time (--timeout-ms)";
 * by_tree (run_result's): a CPU or memory limit the move's processes
 * passed together. Other reasons are left as they are. */
void forfeit_name_limit(const struct run_limits *l, int by_tree, char *reason);
/* Appends to a no-output or a timeout reason (REC_REASON_MAX bytes, after
 * forfeit_name_limit) what the engine did instead of answering, from r's
 * stdout: a file engine that printed its board ("no-output: it wrote 7
 * lines to stdout and no OUT file"), or printed nothing (an engine that
 * waits for a move line on stdin needs proto=persistent); a persistent
 * engine that printed done before OUT, or (out_written) wrote OUT and
 * timed out waiting for its done line to be flushed. Other reasons are
 * left as they are. */
void forfeit_explain_missing(const struct run_result *r, int persistent, int out_written,
                             char *reason);
/* 1 when r passed l's wall deadline within its CPU limit in ms while its
 * processes had waited for a CPU PLAY_STARVED_SHARE of the deadline or
 * more: the machine was too busy for it, which is not the engine's fault. */
int forfeit_starved(const struct run_result *r, const struct run_limits *l);

#endif
