/*
 * grade.h - `referee grade`: a folder of submissions graded by a rubric
 * (rubric.h) into OUT (docs/grading.md).
 *
 *   referee grade --rubric RUBRIC.json --submissions DIR --out OUT
 *                 [--concurrency N] [--resume] [--shard K/N] [--sandbox none]
 *
 * DIR holds one folder per submission (its name the submission's id;
 * hidden ones skipped). Each submission, in a worker process of its own
 * (pool.h, N at once): its files copied by descriptor to OUT/.work/ID/src
 * within limits.h's GRADE_COPY_* (gradecopy.h: a symbolic link refused,
 * never followed; fifos and the like skipped) and hashed as copied
 * (SHA-256 over each regular file in byte order of its relative path: the
 * path, a NUL, the size in decimal, a NUL, the bytes), its build run there
 * (`sh -c`, in its sandbox, build_timeout_ms, RLIMIT_FSIZE
 * GRADE_BUILD_FILE_LIMIT_KB, its folder copied back within
 * GRADE_BACK_MAX_BYTES), then each check (gradecheck.h) with the rubric's
 * command or its own ENGINE file's first line, in its sandbox seeing its
 * own copy and nothing of DIR or OUT besides. A submission's own fault (an
 * id that is the name of one of OUT's files, a folder refused by the copy,
 * a failed build) scores 0 on every check, with the reason in its journal
 * lines ("error") and its row; the class goes on. Every check's result is
 * a line of the journal OUT/journal.jsonl (gradejournal.h: schema
 * arena.grade/1, the rubric's SHA-256 and seed in its header), appended by
 * this process as each submission ends; --resume grades only what the
 * journal lacks.
 * Then the outputs (gradeout.h) from the journal, and the table.
 *
 * --shard K/N: only the submissions i (0-based, in id order) with i % N ==
 * K - 1, into OUT/journal-K.jsonl, and no outputs. A run without --shard
 * counts every OUT/journal-K.jsonl of the same rubric and seed as graded
 * and writes the outputs from all of them: shards merged.
 *
 * referee slurm grade (grade_slurm_command) runs those shards and that
 * merge as Slurm jobs.
 *
 * Exit status: 0 graded (submissions with errors included), 3 graded but
 * for checks a busy machine kept from grading, 2 bad input (rubric,
 * options, folders: nothing written), 1 the referee's own failure, 130
 * stopped by a signal (the journal holds what was graded).
 */
#ifndef ARENA_GRADE_H
#define ARENA_GRADE_H

#include "arena/refopts.h"

/* The command's usage lines ("%1$s": the program) and its help section,
 * for the referee's command table. */
extern const char grade_usage[];
extern const char grade_help[];

/* Runs the command (id REF_CMD_GRADE): argv[0] is "grade"; prints to
 * stdout and stderr and returns the exit status. */
int grade_command(const char *prog, enum refopts_command id, int argc, char **argv);

/* referee slurm grade (docs/grading.md): grade's options without
 * --concurrency and --shard, and a job array's (refopts.h's
 * REFOPTS_ARRAY_OPTIONS: --shards N required, at most the class's
 * submissions). Checks the rubric and the folders as grade does (exit
 * status 2, and OUT with journals refused without --resume), then has
 * cluster_grade (cluster.h) write OUT/shard.sh and OUT/merge.sh and submit
 * them: task K grades shard K/N, the merge job after the array grades what
 * is left and writes the outputs. argv[0] is "grade"; returns the exit
 * status (1: sbatch failed). */
extern const char grade_slurm_usage[];
int grade_slurm_command(const char *prog, int argc, char **argv);

#endif
