/*
 * e2e_field.h - a field of five Nim engines for the tournament formats'
 * end-to-end suites: the perfect player, three seeded random ones and a
 * slow random one (tests/engines/slow.sh), so that a kill lands mid-run.
 * Every engine is deterministic, so equal runs have equal results.
 */
#ifndef ARENA_E2E_FIELD_H
#define ARENA_E2E_FIELD_H

#include <limits.h>

#define E2E_FIELD 5
#define E2E_FIELD_SPEC_MAX (2 * PATH_MAX + 256)
#define E2E_FIELD_GAMES 64   /* room for a journal's games, 1-based */

struct e2e_field {
    char spec[E2E_FIELD][E2E_FIELD_SPEC_MAX];   /* --engine values */
    const char *name[E2E_FIELD];
};

/* The journal's games: who[i][0..1] the engines of game i (1-based),
 * pair[i] its pair number; n the games. */
struct e2e_field_games {
    int n;
    int who[E2E_FIELD_GAMES][2];
    long pair[E2E_FIELD_GAMES];
};

void e2e_field_make(struct e2e_field *f);
/* The number of the engine named name; fails the test when none is. */
int e2e_field_engine(const struct e2e_field *f, const char *name);
/* Reads dir/name, a journal whose header's format is format, into g. */
void e2e_field_read_journal(const struct e2e_field *f, const char *dir, const char *name,
                            const char *format, struct e2e_field_games *g);
/* Plays the field's Nim tournament of --format format (more: its other
 * options, "--rounds 2" say) in dir into j.jsonl through dir/run.sh,
 * SIGKILLs it once the journal holds lines lines, reads the journal as it
 * was into part, and resumes it to the end. */
void e2e_field_kill_and_resume(const struct e2e_field *f, const char *dir, const char *format,
                               const char *more, int lines, struct e2e_field_games *part);

#endif
