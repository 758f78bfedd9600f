/*
 * version.h - the suite's version, the one place it is written: every
 * binary's --version prints it (cli_version), NEWS's first heading names it
 * (a test compares them).
 */
#ifndef ARENA_VERSION_H
#define ARENA_VERSION_H

#define ARENA_VERSION "1.0.0"

#endif
