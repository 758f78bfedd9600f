# arena - build, test, demo, bench, install.
#
#   make            the library and every binary, into bin/
#   make test       the layer check, the unit suites, then the end-to-end
#                   suite natively but its slow tier (the tiers: below)
#   make quick      a minute's check: unit, one end-to-end case a command
#   make test-slow  the end-to-end suite's slow tier
#   make test-valgrind  every end-to-end case under valgrind
#   make V=1 ...    the whole compiler commands, not one line a file
#   make demo       a Max-Connect4 round-robin tournament (random, depths 1-7)
#                   and its reports, results/demo/report.html among them
#   make test-browser  the HTML report in headless Chromium (the demo's and a
#                   fixture's): DOM, replay, console, screenshot; then referee
#                   play's API and page (scripts/test-play.sh)
#   make bench      search speed and node-count signatures
#   make bench-referee  referee overhead, concurrency, a 10,000-game tournament
#   make bench-report   referee report (text, json, html) on a 10,000-game journal
#   make bench-persist  persistent engines against file engines, the CPU clock
#                   under load
#   make bench-solver   the Connect-4 solver on the six public test sets
#   make bench-learn    Q-learning: training speed, shipped weights, strength table
#   make bench-swiss    Swiss pairings: 9 rounds of 64 engines against the round robin
#   make bench-grade    referee grade: a class of 40 Python submissions (goal: 10 minutes)
#   make tsan       the solver's thread tests under ThreadSanitizer (build/tsan)
#   make check      the suites again under ASan/UBSan (build/check), slow tier
#                   included, tsan, test-valgrind, the fuzz regressions and a
#                   short fuzz run
#   make SAN=1 …    any target built with ASan/UBSan, in build/check
#   make fuzz       every libFuzzer target of tests/fuzz for FUZZ_SECONDS (20)
#   make fuzz-regress  every fuzz target once over its seeds and regressions
#   make install    arena and arena-TOOL commands, man pages, data, license;
#                   PREFIX (default /usr/local), DESTDIR, CFLAGS, CPPFLAGS,
#                   LDFLAGS as usual (docs/install.md)
#   make uninstall  the same PREFIX and DESTDIR: removes all of it
#   make test-install  installs into temporary folders, runs the installed
#                   commands from elsewhere, checks the man pages, uninstalls
#   make test-cluster  referee slurm against a single-node Slurm it starts
#                   (and stops), and through GNU parallel (docs/cluster.md)
#
# cJSON and Criterion come from the distribution via pkg-config; when
# pkg-config cannot find them, scripts/install-deps.sh installs them.

# Every rule is written below. Without this, make's built-in `%: %.o` link
# rule offers to remake an included dependency file (board_connect4.d) from
# an object the fuzz board rule can compile (board_connect4.d.o), and does
# so whenever the .d is older than board.c: a failed link in an incremental
# fuzz build.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

PREFIX  ?= /usr/local
DESTDIR ?=
# The GNU installation folders, each overridable.
bindir      ?= $(PREFIX)/bin
datarootdir ?= $(PREFIX)/share
datadir     ?= $(datarootdir)
mandir      ?= $(datarootdir)/man
docdir      ?= $(datarootdir)/doc/arena
# The installed data, compiled into the binaries (datadir.h).
ARENA_DATADIR = $(datadir)/arena
# include/arena/version.h is the one place the version is written.
VERSION := $(shell sed -n 's/^\#define ARENA_VERSION "\(.*\)"/\1/p' include/arena/version.h)
CC      ?= cc

# SAN=1: AddressSanitizer (with leak checking) and UndefinedBehaviorSanitizer,
# every finding fatal, in a folder of its own; -O1 keeps the solver tests fast
# enough under ASan. valgrind cannot run ASan binaries, so the e2e suite runs
# them directly. ARENA_DEEP_CHECKS turns on the asserts that cost a hot loop
# a noticeable share of its time (the solver's per-node invariants); the
# cheap asserts run in every build.
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SAN),1)
BUILD   := build/check
BIN     := build/check/bin
OPT     := -O1 -g $(SANITIZE) -DARENA_DEEP_CHECKS
LDOPT   := $(SANITIZE)
VALGRIND_E2E := 0
else ifeq ($(SAN),thread)
# SAN=thread: ThreadSanitizer, for the solver's threads (make tsan).
BUILD   := build/tsan
BIN     := build/tsan/bin
OPT     := -O1 -g -fsanitize=thread -DARENA_DEEP_CHECKS
LDOPT   := -fsanitize=thread
VALGRIND_E2E := 0
else
BUILD   := build/release
BIN     := bin
OPT     := -O2 -g
LDOPT   :=
VALGRIND_E2E := 1
endif

# Bitboards count bits; every x86-64 CPU since 2008 has the instruction.
ARCH_FLAGS ?= $(if $(filter x86_64,$(shell uname -m)),-mpopcnt,)

PKGS     := libcjson criterion libmicrohttpd
# Deferred (=), so pkg-config runs after the deps step may have installed them.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
CJSON_LIBS = $(shell pkg-config --libs libcjson)
CRIT_LIBS  = $(shell pkg-config --libs criterion)
MHD_LIBS   = $(shell pkg-config --libs libmicrohttpd)

# Quiet by default: one line a file (`CC src/core/err.c`); V=1 prints the
# whole commands, as kbuild and git do.
ifneq ($(V),1)
QUIET_CC   = @printf '  CC      %s\n' $<;
QUIET_AR   = @printf '  AR      %s\n' $@;
QUIET_LINK = @printf '  LINK    %s\n' $@;
QUIET_LN   = @printf '  LN      %s\n' $@;
endif

# Every build runs on every core unless the caller chose (-j1, -j8): a
# newcomer's `make test` is mostly compiling and then tests that can run
# side by side. Not with clean among the goals, which must finish first.
NPROC := $(shell nproc 2>/dev/null || echo 2)
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(NPROC)
endif

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Werror
CFLAGS  ?=
CPPFLAGS ?=
LDFLAGS ?=
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE $(OPT) $(ARCH_FLAGS) $(WARN) -Iinclude -Isrc -MMD -MP $(PKG_CFLAGS) \
             $(CPPFLAGS) $(CFLAGS)

LIB_SRC  := $(wildcard src/core/*.c) $(wildcard src/games/*/*.c) $(wildcard src/engine/*.c) \
            $(wildcard src/referee/*.c) $(wildcard src/referee/*/*.c) $(wildcard src/learn/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libarena.a

# src/cli: one NAME_main.c per binary (bin/NAME), and the parts of the
# binaries with subcommands (engine_*.c), in an archive of their own so that
# each binary links only what it calls.
CLI_MAINS := $(wildcard src/cli/*_main.c)
CLI_PARTS := $(filter-out $(CLI_MAINS),$(wildcard src/cli/*.c))
CLI_LIB   := $(BUILD)/libarena-cli.a
BINARIES  := $(CLI_MAINS:src/cli/%_main.c=$(BIN)/%)
# The tools `arena TOOL` runs, installed as arena-TOOL (bin/ keeps the
# assignments' names, with arena-TOOL links beside them for bin/arena).
TOOLS       := engine referee maxconnect4 spfiar checkers nim
ARENA_LINKS := $(TOOLS:%=$(BIN)/arena-%)
MAN_PAGES   := $(wildcard man/*.1)
DOC_FILES   := LICENSE NEWS README.md docs/install.md

UNIT_SRC := $(filter-out tests/test_e2e%.c,$(wildcard tests/test_*.c)) tests/c4_testutil.c tests/unit_main.c \
            tests/report_testutil.c tests/swiss_sim.c
E2E_SRC  := $(wildcard tests/test_e2e*.c) tests/e2e_util.c tests/e2e_field.c
UNIT_BIN := $(BUILD)/tests/unit
E2E_BIN  := $(BUILD)/tests/e2e


.PHONY: all deps test quick test-slow test-valgrind test-gradescope test-tools check-layers unit e2e check check-compute check-tests check-unit-compute check-unit-timed check-e2e tsan demo test-browser bench bench-referee bench-report bench-judge bench-persist bench-solver bench-learn bench-grade bench-swiss clean install \
        uninstall test-install test-cluster

all: $(BINARIES) $(ARENA_LINKS)

# The data folder is compiled into datadir.o alone; the stamp changes (and
# the object is rebuilt) only when the folder does, e.g. another PREFIX.
DATADIR_STAMP := $(BUILD)/datadir.stamp
$(DATADIR_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(ARENA_DATADIR)' | cmp -s - $@ 2>/dev/null || echo '$(ARENA_DATADIR)' > $@
$(BUILD)/src/core/datadir.o: $(DATADIR_STAMP)
$(BUILD)/src/core/datadir.o: ALL_CFLAGS += -DARENA_DATADIR='"$(ARENA_DATADIR)"'
.PHONY: FORCE
FORCE:

deps:
	@pkg-config --exists $(PKGS) 2>/dev/null || sh scripts/install-deps.sh

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(CLI_LIB): $(CLI_PARTS:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(BIN)/%: $(BUILD)/src/cli/%_main.o $(CLI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDOPT) $(LDFLAGS) -o $@ $< $(CLI_LIB) $(LIB) $(CJSON_LIBS) $(LINK_EXTRA) -lm -pthread
# referee play's HTTP server (playsrv.h).
$(BIN)/referee: LINK_EXTRA = $(MHD_LIBS)

$(BIN)/arena-%: $(BIN)/%
	$(QUIET_LN)ln -sf $* $@

$(UNIT_BIN): $(UNIT_SRC:%.c=$(BUILD)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDOPT) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(CRIT_LIBS) $(CJSON_LIBS) -lm -pthread

$(E2E_BIN): $(E2E_SRC:%.c=$(BUILD)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDOPT) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(CRIT_LIBS) $(CJSON_LIBS) -lm -pthread

# The include graph against the layer order (the script's header lists it).
check-layers:
	@sh scripts/check-layers.sh

# ---- the test tiers (docs/hardening.md, "Which tests to run when") ---------
#   make test           layers, every unit case, the end-to-end cases natively
#                       but the slow tier, the cases side by side
#   make quick          the unit cases but the deep tier, the smoke tier (one
#                       end-to-end case a command): under a minute
#   make test-slow      the slow tier natively
#   make test-valgrind  every end-to-end case under valgrind --leak-check=full
#   make unit / e2e     the unit suites / the end-to-end cases but the slow tier
# T=PATTERN narrows any of them to the cases whose suite/test matches the
# glob (without a /, whole suites: T=e2e_grade; T='e2e_cli/*usage*'), slow
# ones included. tests/tiers lists each tier's cases and why they are there.
tier = $(shell sed -n 's/^$(1)[[:space:]][[:space:]]*\([^[:space:]#]*\).*/\1/p' tests/tiers)
SLOW_CASES  := $(call tier,slow)
DEEP_CASES  := $(call tier,deep)
TIMED_CASES := $(call tier,timed)
SMOKE_CASES := $(call tier,smoke)
empty :=
space := $(empty) $(empty)
any_of = @($(subst $(space),|,$(strip $(1))))
T ?=
T_GLOB = $(if $(findstring /,$(T)),$(T),$(T)/*)
# Criterion's arguments for a run of N jobs over the cases of glob G (none:
# all); T, when given, replaces G.
crit = --jobs $(1) $(if $(T),--filter '$(T_GLOB)',$(if $(2),--filter '$(2)'))
NOT_SLOW = !($(call any_of,$(SLOW_CASES)))
# The end-to-end cases spend most of their time waiting on engines, timeouts
# and sandboxes, so twice the cores keeps both busy; the unit cases compute.
UNIT_JOBS ?= $(NPROC)
E2E_JOBS  ?= $(shell echo $$(( $(NPROC) * 2 )))
# The binaries valgrind reads and the tools the tests run besides them come
# from install-deps too.
TEST_TOOLS := valgrind gnuplot jq xmllint
E2E_ENV     = ARENA_BIN=$(BIN) ARENA_VALGRIND=0

test-tools: deps
	@for t in $(TEST_TOOLS); do command -v $$t >/dev/null 2>&1 || { sh scripts/install-deps.sh; break; }; done

test: check-layers all $(UNIT_BIN) $(E2E_BIN) test-tools
	@echo '  TEST    unit'
	@$(UNIT_BIN) $(call crit,$(UNIT_JOBS))
	@echo '  TEST    e2e (all but the slow tier: make test-slow)'
	@$(E2E_ENV) $(E2E_BIN) $(call crit,$(E2E_JOBS),$(NOT_SLOW))

quick: check-layers all $(UNIT_BIN) $(E2E_BIN) test-tools
	@echo '  TEST    unit (all but the deep tier)'
	@$(UNIT_BIN) $(call crit,$(UNIT_JOBS),!($(call any_of,$(DEEP_CASES))))
	@echo '  TEST    e2e (the smoke tier)'
	@$(E2E_ENV) $(E2E_BIN) $(call crit,$(E2E_JOBS),$(call any_of,$(SMOKE_CASES)))

test-slow: all $(E2E_BIN) test-tools
	@echo '  TEST    e2e (the slow tier)'
	@$(E2E_ENV) $(E2E_BIN) $(call crit,$(E2E_JOBS),$(call any_of,$(SLOW_CASES)))

# valgrind runs the binaries at a tenth of their speed or less: the cases
# mostly compute, one job a core; VALGRIND_JOBS=N for more (the cases that
# wait on timeouts, sandboxes and interpreters leave a core idle a while).
# scripts/valgrind-symbols.sh: valgrind reads the C library's symbol table,
# not its whole DWARF, at each of the suite's thousands of starts (a third
# of a short run's CPU; root only, as it takes a mount namespace).
VALGRIND_JOBS ?= $(NPROC)
test-valgrind: all $(E2E_BIN) test-tools
	@echo '  TEST    e2e under valgrind'
	@ARENA_BIN=$(BIN) ARENA_VALGRIND=$(VALGRIND_E2E) sh scripts/valgrind-symbols.sh $(BIN) \
	    $(E2E_BIN) $(call crit,$(VALGRIND_JOBS))

unit: $(UNIT_BIN)
	@$(UNIT_BIN) $(call crit,$(UNIT_JOBS))

e2e: all $(E2E_BIN) test-tools
	@$(E2E_ENV) $(E2E_BIN) $(call crit,$(E2E_JOBS),$(NOT_SLOW))

# The hardening checks: the whole test suite again on binaries built with
# the sanitizers (a finding exits non-zero, so the case fails), slow tier
# included, ThreadSanitizer, then the fuzz targets on their regression
# inputs and FUZZ_SECONDS (default 20) each. CHECK_VALGRIND=1 (the default)
# also runs test-valgrind. ARENA_ENGINE_BIN: the engines the tests hand the
# referee are release builds (tests/e2e_util.h's e2e_engine_bin_path), as
# in the valgrind tier: the tiers check the program under test, a sanitized
# engine's start and leak check cost 0.1 s of CPU a move (a native one 15
# ms), and ASan cannot run under --mem-limit-mb's RLIMIT_AS. CHECK_SLOW=0 leaves out the slow tier under the
# sanitizers: CI runs it under valgrind (test-valgrind runs every case), and
# it is mostly waiting on timeouts, sandboxes and interpreters, the same
# under any build.
#
# Two halves, which .ci/run schedules apart: check-compute is computation
# with no deadline to miss (the sanitizer, ThreadSanitizer and fuzz builds,
# tsan, the fuzz regressions and the fuzz run), which CI runs at the lowest
# priority beside the valgrind tier, so that it takes only the CPU
# valgrind's waits leave; check-tests is the unit and end-to-end cases
# under the sanitizers, whose deadlines (a move's timeout, a child's limit)
# want the machine to themselves. Each builds what it needs, so either runs
# alone too. check-tests is three parts, each a target: check-unit-compute
# (the unit cases that only compute: CI runs them at nice 19 beside the
# valgrind tier too), check-unit-timed (tests/tiers' timed tier: unit cases
# that wait on the clock) and check-e2e.
CHECK_VALGRIND ?= 1
CHECK_SLOW ?= 1
CHECK_SAN = LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp $(MAKE) SAN=1 ARENA_ENGINE_BIN=$(BIN)
check: all $(E2E_BIN) check-layers
	$(MAKE) check-compute
	$(MAKE) check-tests
	$(if $(filter 1,$(CHECK_VALGRIND)),$(MAKE) test-valgrind)

check-compute: all
	$(MAKE) SAN=1 all build/check/tests/unit build/check/tests/e2e
	$(MAKE) tsan
	$(MAKE) fuzz-regress
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

check-tests: check-unit-compute check-unit-timed check-e2e

check-e2e: all
	$(CHECK_SAN) e2e
	$(if $(filter 1,$(CHECK_SLOW)),$(CHECK_SAN) test-slow)

check-unit-compute: all
	$(CHECK_SAN) unit T='!($(call any_of,$(TIMED_CASES)))'

check-unit-timed: all
	$(CHECK_SAN) unit T='$(call any_of,$(TIMED_CASES))'

# The solver's threads (lazy SMP) under ThreadSanitizer, in build/tsan; `make
# check` runs it. A plain program, not the Criterion suite: Criterion cannot
# start under ThreadSanitizer (Snaipe/Criterion#274). halt_on_error makes a
# race fail the run.
TSAN_PROG := build/tsan/tests/solver_threads
tsan:
	$(MAKE) SAN=thread $(TSAN_PROG)
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_PROG)

# Only the solver's part of the library: the rest has no threads, and
# compiling it all again under ThreadSanitizer was most of CI's minute here.
TSAN_SRC := $(wildcard src/core/*.c src/games/connect4/*.c)
TSAN_LIB := $(BUILD)/libsolver.a
$(TSAN_LIB): $(TSAN_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(BUILD)/tests/solver_threads: $(BUILD)/tests/tsan/solver_threads.o $(TSAN_LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDOPT) -o $@ $< $(TSAN_LIB) $(CJSON_LIBS) -lm -pthread

demo: all
	@sh scripts/demo.sh $(BIN)

# The HTML report in a real browser (scripts/test-browser.sh): the demo's
# journal (the demo is run first; its output goes to results/demo.log),
# fixtures/report/html.jsonl (Connect-4: a hostile engine name, forfeits,
# blunders), html-nim.jsonl and html-checkers.jsonl, a tournament
# through docs/judges/tictactoe.py (drawn as the judge says) and one through
# docs/judges/kalah.py (no drawing: a plain grid of its characters); then
# referee grade's class and feedback pages (scripts/test-browser-grade.sh).
# Chromium comes from install-deps; without it the test fails.
test-browser: all
	@command -v chromium >/dev/null 2>&1 || sh scripts/install-deps.sh
	@mkdir -p results
	sh scripts/demo.sh $(BIN) > results/demo.log
	rm -f results/judge-tictactoe.jsonl
	$(BIN)/referee tournament --judge "python3 docs/judges/tictactoe.py" --random-plies 2 \
	    --engine "name=d1,depth=1,cmd=$(abspath $(BIN))/engine one-move --game tictactoe" \
	    --engine "name=d3,depth=3,cmd=$(abspath $(BIN))/engine one-move --game tictactoe" \
	    --journal results/judge-tictactoe.jsonl > /dev/null
	rm -f results/judge-kalah.jsonl
	$(BIN)/referee tournament --judge "python3 docs/judges/kalah.py" --random-plies 1 \
	    --engine "name=greedy,dir=docs/judges,cmd=python3 kalah_engine.py greedy {in} {out}" \
	    --engine "name=random,dir=docs/judges,cmd=python3 kalah_engine.py random {player} {in} {out}" \
	    --journal results/judge-kalah.jsonl > /dev/null
	sh scripts/test-browser.sh $(BIN) results/demo/journal.jsonl fixtures/report/html.jsonl \
	    fixtures/report/html-nim.jsonl fixtures/report/html-checkers.jsonl \
	    fixtures/report/html-othello.jsonl fixtures/report/html-tictactoe.jsonl \
	    --judge "python3 docs/judges/tictactoe.py" results/judge-tictactoe.jsonl \
	    --judge "python3 docs/judges/kalah.py" results/judge-kalah.jsonl
	sh scripts/test-play.sh $(BIN)
	sh scripts/test-browser-grade.sh $(BIN)

bench: all
	@mkdir -p results
	$(BIN)/engine bench --game maxconnect4 --depths 1-12 --json results/bench-maxconnect4.json
	$(BIN)/engine bench --game connect4 --depths 1-12 --json results/bench-connect4.json
	$(BIN)/engine bench --game maxconnect4 --player minimax --depths 1-8
	$(BIN)/engine bench --game checkers --json results/bench-checkers.json
	for g in connect4:10 maxconnect4:10 nim:8 checkers:9 othello:10 tictactoe:9; do \
	    $(BIN)/engine perft --game $${g%:*} --depth $${g#*:} || exit 1; done
	$(BIN)/spfiar --bench --level 7
	$(BIN)/nim --bench 3 5 7 9 11 13
	@sh scripts/plot-bench.sh results/bench-maxconnect4.json results/bench-maxconnect4.svg

bench-referee: all
	@sh scripts/bench-referee.sh $(BIN)

bench-report: all
	@sh scripts/bench-report.sh $(BIN)

bench-judge: all
	@sh scripts/bench-judge.sh $(BIN)

bench-persist: all
	@sh scripts/bench-persist.sh $(BIN)

# ALL=1 solves all 1000 Begin-Hard positions instead of the first 50.
bench-solver: all
	@sh scripts/bench-solver.sh $(BIN)

bench-grade: all
	@mkdir -p results
	sh scripts/bench-grade.sh $(BIN)

# The Swiss pairing's ranking against the round robin's on a simulated
# field (tests/bench_swiss.c says why simulated); exits 1 when the goal of
# docs/benchmarks.md is missed.
BENCH_SWISS_BIN := $(BUILD)/tests/bench_swiss
$(BENCH_SWISS_BIN): $(BUILD)/tests/bench_swiss.o $(BUILD)/tests/swiss_sim.o $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(LDOPT) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) -lm
bench-swiss: $(BENCH_SWISS_BIN)
	@$(BENCH_SWISS_BIN)

bench-learn: all
	@sh scripts/bench-learn.sh $(BIN)

# Nothing goes under a bare name another package owns: arena, arena-TOOL,
# man pages arena(1) and arena-TOOL(1), data and docs in folders named arena.
# The man pages name the data folder and the version as installed.
install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(ARENA_DATADIR) $(DESTDIR)$(mandir)/man1 \
	    $(DESTDIR)$(docdir)
	install -m 755 $(BIN)/arena $(DESTDIR)$(bindir)/arena
	for t in $(TOOLS); do install -m 755 $(BIN)/$$t $(DESTDIR)$(bindir)/arena-$$t || exit 1; done
	install -m 644 fixtures/learn/trained.weights $(DESTDIR)$(ARENA_DATADIR)/qlearn.weights
	install -m 644 fixtures/connect4/book.txt $(DESTDIR)$(ARENA_DATADIR)/connect4-book.txt
	install -m 755 scripts/plot-bench.sh $(DESTDIR)$(ARENA_DATADIR)/plot-bench.sh
	for p in $(MAN_PAGES); do \
	    sed -e 's|@DATADIR@|$(ARENA_DATADIR)|g' -e 's|@VERSION@|$(VERSION)|g' $$p \
	        > $(DESTDIR)$(mandir)/man1/$${p#man/} && chmod 644 $(DESTDIR)$(mandir)/man1/$${p#man/} \
	        || exit 1; \
	done
	install -m 644 $(DOC_FILES) $(DESTDIR)$(docdir)

uninstall:
	rm -f $(DESTDIR)$(bindir)/arena $(TOOLS:%=$(DESTDIR)$(bindir)/arena-%)
	rm -f $(DESTDIR)$(ARENA_DATADIR)/qlearn.weights $(DESTDIR)$(ARENA_DATADIR)/connect4-book.txt \
	    $(DESTDIR)$(ARENA_DATADIR)/plot-bench.sh
	rm -f $(MAN_PAGES:man/%=$(DESTDIR)$(mandir)/man1/%)
	rm -f $(patsubst %,$(DESTDIR)$(docdir)/%,$(notdir $(DOC_FILES)))
	rmdir $(DESTDIR)$(ARENA_DATADIR) $(DESTDIR)$(docdir) 2>/dev/null || true

# Install into temporary folders, run the installed commands from another
# folder against the installed data, check every man page, uninstall
# (scripts/test-install.sh). CI runs it after `make test`.
test-install: all
	@command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1 || sh scripts/install-deps.sh
	MAKE="$(MAKE)" sh scripts/test-install.sh

# A single-node Slurm (munged, slurmctld, slurmd) started in a temporary
# folder, `referee slurm` against it, GNU parallel, then every daemon
# stopped (scripts/test-cluster.sh). Installs nothing: install-deps.sh does.
# CI runs it after `make test`.
test-cluster: all
	ARENA_BIN=$(BIN) sh scripts/test-cluster.sh

# docs/gradescope's setup.sh and run_autograder end to end under a temporary
# /autograder: apt-get, arena built there from the tree's files, a
# submission graded, results.json checked (scripts/test-gradescope.sh). As
# root, as Gradescope's image builder runs setup.sh.
test-gradescope: all
	sh scripts/test-gradescope.sh

clean:
	rm -rf build bin

# ---- fuzzing (tests/fuzz/README) -------------------------------------------
#   make fuzz                 every target FUZZ_SECONDS seconds (default 20)
#   make fuzz FUZZ_RUNS=N     every target exactly N executions instead
#   make fuzz FUZZ_SEED=S     libFuzzer's seed: with FUZZ_RUNS and a clean
#                             clone's corpus, the same inputs every run (CI)
#   make fuzz FUZZ_TARGETS="journal weights"   only those
#   make fuzz-regress         every target once over its seeds and regression
#                             inputs (seconds; fails on any finding)
# libFuzzer targets built by clang with ASan and UBSan into build/fuzz, over
# the library compiled there again (never mixed with build/release or
# build/check). Corpora grow under build/fuzz/corpus, findings land in
# build/fuzz/artifacts; nothing generated is written into the source tree.
# scripts/install-deps.sh fuzz installs clang and libFuzzer when missing.

FUZZ_CC      ?= clang
FUZZ_BUILD   := build/fuzz
FUZZ_SECONDS ?= 20
FUZZ_RUNS    ?=
FUZZ_SEED    ?=
FUZZ_TIMEOUT ?= 10
FUZZ_SAN      = $(SANITIZE)
FUZZ_IGNORE  := tests/fuzz/coverage.ignore
FUZZ_CFLAGS   = -std=c11 -D_DEFAULT_SOURCE -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
                -fsanitize-coverage-ignorelist=$(FUZZ_IGNORE) \
                $(ARCH_FLAGS) $(WARN) -Iinclude -Isrc -Itests/fuzz -MMD -MP $(PKG_CFLAGS)
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
# One board target per registered game (the GAME lines of the registry).
FUZZ_GAMES   := $(shell sed -nE 's/^ *GAME\(([a-z0-9_]+)\).*/\1/p' src/engine/registry.c)
FUZZ_ALL     := $(FUZZ_GAMES:%=board_%) checkers_session spfiar_command spfiar_session \
                nim_session engine_spec referee_config journal journal_commands weights \
                c4_moves c4_book opening_book interactive rubric grade_journal \
                play_requests
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB     := $(FUZZ_BUILD)/libarena.a
FUZZ_BINS     = $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/bin/%)

# Seed corpora: the fixtures each input path reads, plus the hand-written
# seeds and regression inputs under tests/fuzz (scripts/fuzz.sh adds those).
FUZZ_C4_BOARDS := $(wildcard fixtures/connect4/*.txt fixtures/connect4/*.board \
                  fixtures/connect4/*.after fixtures/connect4/bad/*.txt fixtures/maxconnect4/*.txt \
                  fixtures/maxconnect4/*.board fixtures/maxconnect4/bad/*.txt)
FUZZ_SEEDS_board_connect4    := $(FUZZ_C4_BOARDS)
FUZZ_SEEDS_board_maxconnect4 := $(FUZZ_C4_BOARDS)
FUZZ_SEEDS_board_checkers    := $(wildcard fixtures/checkers/*.board fixtures/checkers/bad/*.txt)
FUZZ_SEEDS_board_nim         := $(wildcard fixtures/nim/*.txt fixtures/nim/*.board fixtures/nim/bad/*.txt)
FUZZ_SEEDS_board_othello     := $(wildcard fixtures/othello/*.txt fixtures/othello/*.board)
FUZZ_SEEDS_board_tictactoe   := $(wildcard fixtures/tictactoe/*.txt fixtures/tictactoe/*.board)
FUZZ_SEEDS_checkers_session  := $(wildcard fixtures/checkers/*.in)
FUZZ_SEEDS_spfiar_command    := $(wildcard fixtures/spfiar/*.in)
FUZZ_SEEDS_spfiar_session    := $(wildcard fixtures/spfiar/*.in)
FUZZ_SEEDS_journal           := $(wildcard fixtures/analyze/*.json fixtures/analyze/*.jsonl)
FUZZ_SEEDS_journal_commands  := $(FUZZ_SEEDS_journal) $(wildcard tests/fuzz/seeds/journal/*)
FUZZ_SEEDS_weights           := $(wildcard fixtures/learn/*.weights fixtures/learn/bad/*.weights)
FUZZ_SEEDS_c4_moves          := $(wildcard fixtures/connect4/solve/*.txt fixtures/connect4/solve/*.scores)
FUZZ_SEEDS_c4_book           := fixtures/connect4/book.txt $(wildcard fixtures/connect4/book/*.txt)
FUZZ_SEEDS_rubric            := $(wildcard docs/rubrics/*.json tests/grade/*.json tests/grade/*/*.json)
# grade_journal: journals referee grade wrote for tests/grade (seeds/grade_journal).
# Longest input per target: a little more than the largest valid input.
FUZZ_MAXLEN                  := 4096
FUZZ_MAXLEN_journal          := 16384
FUZZ_MAXLEN_journal_commands := 16384
FUZZ_MAXLEN_grade_journal    := 16384

.PHONY: fuzz fuzz-build fuzz-regress fuzz-deps

fuzz-deps:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 \
	  && test -f "$$($(FUZZ_CC) -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$$(uname -m).a" \
	  || sh scripts/install-deps.sh fuzz

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_IGNORE) | deps fuzz-deps
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# One board target per game, from one source.
$(FUZZ_BUILD)/tests/fuzz/board_%.o: tests/fuzz/board.c $(FUZZ_IGNORE) | deps fuzz-deps
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_GAME='"$*"' -c $< -o $@

$(FUZZ_LIB): $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
	@rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(FUZZ_BUILD)/bin/%: $(FUZZ_BUILD)/tests/fuzz/%.o $(FUZZ_BUILD)/tests/fuzz/fuzz.o $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $(filter %.o,$^) $(FUZZ_LIB) $(CJSON_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

# Each target is a goal of its own, so that make runs as many at once as it
# has jobs (every core): each still gets FUZZ_SECONDS of one core, and the
# summary is sorted by target.
fuzz: $(FUZZ_BINS)
	@rm -f $(FUZZ_BUILD)/summary.txt; status=0; \
	$(MAKE) --no-print-directory -k $(FUZZ_TARGETS:%=fuzz-run-%) || status=1; \
	sort $(FUZZ_BUILD)/summary.txt; exit $$status

fuzz-run-%: $(FUZZ_BUILD)/bin/%
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SEED=$(FUZZ_SEED) \
	  FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) sh scripts/fuzz.sh run $(FUZZ_BUILD) $* $(or $(FUZZ_MAXLEN_$*),$(FUZZ_MAXLEN)) $(FUZZ_SEEDS_$*)

fuzz-regress: $(FUZZ_BINS)
	@$(MAKE) --no-print-directory -k $(FUZZ_TARGETS:%=fuzz-regress-%)

fuzz-regress-%: $(FUZZ_BUILD)/bin/%
	@FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) sh scripts/fuzz.sh regress $(FUZZ_BUILD) $* 0 $(FUZZ_SEEDS_$*)

-include $(shell find build -name '*.d' 2>/dev/null)
.SECONDARY:
