/*
 * spec.h - an engine SPEC turned into an argv template, and its JSON.
 *
 * SPEC: `name=NAME,cmd=COMMAND` or a bare COMMAND. COMMAND is split into
 * words like a shell would (blanks separate; '...' and "..." quote; \ escapes
 * outside single quotes) but no shell runs. The placeholders (rules.h)
 * {in} {out} {depth} {player} are replaced inside words when a move is
 * played; a command without any gets `{in} {out} {depth}` appended. Without
 * name= the name is the first word's base name. A relative program path is
 * made absolute (engines run in their game's folder).
 *
 * Representation: the words malloc'd, owned by the struct (spec_free).
 */
#ifndef ARENA_SPEC_H
#define ARENA_SPEC_H

#include "arena/err.h"
#include "arena/record.h"
#include "arena/runner.h"
#include "arena/sha256.h"

struct cJSON;

struct spec {
    char name[REC_NAME_MAX];
    int argc;
    char *argv[RUN_MAX_ARGS];    /* the template, NULL-terminated */
    char sha256[SHA256_HEX];     /* of the program file; "" if none found */
};

/* Parses text into eng. Returns 0, or -1 with e filled (col: 1-based offset
 * in text) and eng empty. On success free with spec_free. */
int spec_parse(const char *text, struct spec *eng, struct err *e);
/* The same for a name and a COMMAND given apart (a config file's {"name",
 * "cmd"}), so a name may hold any text, ",cmd=" included. Errors as for
 * spec_parse, columns counted in cmd. */
int spec_make(const char *name, const char *cmd, struct spec *eng, struct err *e);
void spec_free(struct spec *eng);

/* The JSON of an engine in a log's header: {"name", "cmd": [words],
 * "sha256": HEX|null} (a new cJSON object; the caller deletes it). */
struct cJSON *spec_json(const struct spec *eng);

#endif
