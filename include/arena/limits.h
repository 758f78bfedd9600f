/*
 * limits.h - every default and limit a user of the command lines can see or
 * set, in one place, each with its reason: an option's default, an option's
 * range, a size the tools refuse beyond.
 *
 * Not here: values an assignment fixes, which are rules of its game and stay
 * with it (spfiar.h's levels 1-7, checkers.h's CK_SEED_DEPTH, train.h's
 * learning rates of the Q-learning seed); buffer sizes and representation
 * bounds, which stay beside the representation they size (game.h,
 * err.h, ...).
 */
#ifndef ARENA_LIMITS_H
#define ARENA_LIMITS_H

/* ---- search (engine, maxconnect4, checkers, the referee's {depth}) ---- */

/* Deepest search any --depth asks for: the search keeps a stack of
 * SEARCH_MAX_DEPTH + 2 positions, and no game here needs more (Connect-4
 * has 42 plies). */
#define SEARCH_MAX_DEPTH 64

/* MiB of the search's transposition table by default: 2 million 16-byte
 * entries, every node of a depth-12 Max-Connect4 search (588,661) three
 * times over, and small enough for several engines at once. */
#define TT_DEFAULT_MB 32
/* Largest --tt-mb: 64 GiB, beyond any machine this runs on; a larger
 * request is a typo, not a wish. */
#define TT_MAX_MB 65536L

/* ---- engine -------------------------------------------------------------- */

/* engine one-move without --game: `engine one-move IN OUT DEPTH` is then a
 * drop-in for the Max-Connect4 assignment's command line. */
#define ENGINE_DEFAULT_GAME "maxconnect4"
/* engine one-move without DEPTH or --depth: a move of every game in well
 * under 0.1 s (Max-Connect4 from the empty board: 3,450 nodes, 6 ms) that
 * still sees every threat three moves ahead. */
#define ENGINE_DEFAULT_DEPTH 6
/* engine bench without --depth/--depths: 1-10 takes 1-2 s per game
 * and its node total is the search's signature; changing it changes every
 * recorded signature. */
#define BENCH_DEFAULT_DEPTH_MIN 1
#define BENCH_DEFAULT_DEPTH_MAX 10
/* engine train: a log line every 1000 games, the window of the win rates
 * it reports (LEARN_WINDOW). */
#define TRAIN_DEFAULT_LOG_EVERY 1000

/* ---- referee -------------------------------------------------------------- */

/* The {depth} the referee gives engines without --depth. Lower than the
 * engine's own default on purpose: matches and tournaments play thousands
 * of moves, and at depth 4 a built-in engine's move costs less than
 * starting its process, so the referee's own overhead is what a quick
 * match measures. */
#define REF_DEFAULT_DEPTH 4
/* referee match without --games: one pair, each engine with each colour. */
#define REF_DEFAULT_GAMES 2
/* Most games a match or a round count asks for: a million games are days
 * of play; more is a typo. */
#define REF_MAX_GAMES 1000000
/* Wall time of a move without --timeout-ms: generous for any engine a
 * student writes, short enough that a hung one costs seconds. */
#define REF_DEFAULT_TIMEOUT_MS 10000
/* Longest --timeout-ms (and, in seconds, --cpu-limit-s): one day. */
#define REF_MAX_TIMEOUT_MS 86400000L
/* With --tc, the wall time a move may take beyond the engine's clock:
 * the clock counts CPU time, and an engine that waits (for a disk, for a
 * machine busy with other work) must lose on its clock, not on the wall. */
#define PLAY_TC_WALL_MARGIN_MS 1000
/* A move that passed its wall deadline within its CPU limit (cpu_ms) while
 * its processes had waited for a CPU at least this share of the deadline
 * was starved by a busy machine, not slow: a sleeping or blocked engine
 * waits for no CPU, and one computing on a machine too busy for it waits
 * nearly all the time (forfeit_starved). */
#define PLAY_STARVED_SHARE 0.25
/* Longest --tc BASE or INC, in seconds: a day, as --timeout-ms. */
#define PLAY_TC_MAX_S (REF_MAX_TIMEOUT_MS / 1000)
/* RLIMIT_FSIZE of an engine: a board file is under 1 KiB; 1 MiB leaves
 * room for logs an engine writes, and stops a runaway writer early. */
#define REF_DEFAULT_FILE_LIMIT_KB 1024
/* RLIMIT_NPROC of an engine: tasks it may start above what the user
 * already runs; enough for a shell script engine, not for a fork bomb. */
#define REF_DEFAULT_PROC_EXTRA 64
/* Most games a tournament runs at once (--concurrency): each is a worker
 * process and an engine; more than this is a typo on any machine here.
 * Below it, --concurrency is at most the CPUs the referee may use, each
 * game on CPUs of its own (cpus.h), unless --force-concurrency lets games
 * share them (preflight.c). */
#define TOUR_MAX_CONCURRENCY 256
/* Times a game is played again after its worker died (a signal, the OOM
 * killer): a passing accident does not strike thrice, and a game that kills
 * its worker every time must not hold the tournament for ever. */
#define TOUR_GAME_REPLAYS 2
/* Bytes the referee reads of an engine's output file: a board file is under
 * 1 KiB; more is not a board, and the judge says so. */
#define PLAY_OUTPUT_CAP 65536
/* The draw rule's default (--draw-plies): a game with no capture or
 * promotion for this many plies is a draw, as checkers towers can go round
 * forever; games that always end by themselves never apply it. */
#define PLAY_DRAW_PLIES 100
/* Bytes of an opening book (--openings): a million bytes hold tens of
 * thousands of lines, more than any tournament plays. */
#define BOOK_CAP (1 << 20)
/* Bytes of a journal or match log that report, verify, analyze, merge and
 * resume read (journal.h): a game's record is a few KiB, so a gigabyte is
 * hundreds of thousands of games, more than REF_MAX_GAMES of any real
 * engine; a bigger file (or a device such as /dev/zero) is refused before
 * it is read, so a wrong argument cannot take the machine's memory. */
#define JOURNAL_READ_CAP (1L << 30)

/* referee bench's positions without --plies: a few moves in, where engines
 * already differ, instead of N copies of the empty board. */
#define REF_BENCH_DEFAULT_PLIES 6
/* Most --random-positions and --repeat: each is a process per engine and
 * depth; ten thousand moves of each are hours at a real depth. */
#define REF_BENCH_MAX_POSITIONS 10000
#define REF_BENCH_MAX_REPEAT 10000

/* Virtual draws each engine plays against an opponent rated 0 in the
 * ratings of a field (stats_ratings): BayesElo's default prior, enough to
 * keep a perfect score finite, and worth little once an engine has played
 * a few dozen games. */
#define RATING_PRIOR_DRAWS 2.0

/* Bytes of one word of an engine's command (spec.h): each word is expanded
 * ({in}, {out}: the move folder's paths) into a buffer of PATH_MAX bytes
 * when a move is played, and a longer word would be cut without a word;
 * 2048 leaves room for a placeholder's path. */
#define SPEC_WORD_MAX 2048

/* ---- the engines' sandbox (--sandbox, sandbox.h) ------------------------- */

/* The user a root referee's engines run as: nobody, an unprivileged user
 * that every system has. Not root, because the kernel never applies
 * RLIMIT_NPROC to root, so a root engine's fork bomb would have no bound. */
#define SBX_ROOT_ENGINE_UID 65534
/* The private /tmp of an engine: bounded, since tmpfs pages are memory
 * that RLIMIT_AS does not count; 64 MiB and 4096 files hold a JVM's perf
 * data and any sane scratch file. */
#define SBX_TMP_OPTIONS "size=64m,nr_inodes=4096,mode=1777"
/* An engine's move folder in the sandbox: a tmpfs of its own, so that it
 * cannot fill the host's disk or starve the other engine; a board and an
 * answer (PLAY_OUTPUT_CAP) need a few KiB, and 16 MiB hold many files of
 * REF_DEFAULT_FILE_LIMIT_KB (RLIMIT_FSIZE); scratch files go to /tmp. Its
 * size and files are named apart because grading's limits follow them
 * (GRADE_BUILD_FILE_LIMIT_KB, GRADE_BACK_MAX_BYTES). */
#define SBX_MOVE_MB 16
#define SBX_MOVE_FILES 256
#define ARENA_STR_(x) #x
#define ARENA_STR(x) ARENA_STR_(x)
#define SBX_MOVE_OPTIONS "size=" ARENA_STR(SBX_MOVE_MB) "m,nr_inodes=" ARENA_STR(SBX_MOVE_FILES)
/* Paths of one list (--sandbox-ro, the masks, one engine's own paths): a
 * round-robin of 32 engines with a few folders each. */
#define SBX_MAX_PATHS 256
/* --sandbox-env names: a few variables an engine needs (a licence server,
 * a thread count); more is a sign the sandbox is the wrong tool. */
#define SBX_MAX_ENV 32

/* ---- analysis (referee analyze, --analyze) -------------------------------- */

/* Connect-4: CPU per position (--budget-ms) for the solver; most positions
 * of a played game solve in far less, and one second bounds the rest. */
#define ANA_DEFAULT_BUDGET_MS 1000
/* Max-Connect4: positions with at most this many empty cells (--max-empty)
 * are searched to the end; at 16 that stays under a second a position. */
#define ANA_DEFAULT_MAX_EMPTY 16
/* The largest --max-empty accepted: the cells of the largest board whose
 * oracle counts empty cells (maxconnect4's 7 x 6); any more is the same. */
#define ANA_MAX_EMPTY_LIMIT 42
/* MiB of the analyzer's solver table: one per analysis, kept across the
 * positions of a journal, small beside a tournament's engines. */
#define ANA_TT_MB 16

/* ---- solver (engine solve, engine book, --player perfect) ------------------ */

/* MiB of the solver's table without --tt-mb: enough for the public test
 * sets' positions; the empty board wants --tt-mb 1024. */
#define C4S_DEFAULT_TT_MB 64
/* The most searchers one solve runs (--threads): far more than the cores
 * of the machines this runs on, and a bound on the near tables (512 KiB
 * each) a command line can make it allocate. */
#define C4S_MAX_THREADS 64

/* ---- nim ------------------------------------------------------------------ */

/* Matches in a row of `nim FIRST R0 R1 ...`: the table limit
 * (NIM_MAX_BOARDS) refuses large rows first; this only keeps the number in
 * an int. */
#define NIM_ROW_MAX 1000000L
/* Rows on nim's command line; NIM_MAX_BOARDS binds long before. */
#define NIM_ARGV_ROWS 64

/* ---- judges (a game defined by a program, judge.h) ------------------------ */

/* Wall time a judge has for any answer: a judge answers a position in
 * milliseconds (it is a rule book, not a search); ten seconds is far past
 * a slow interpreter's start-up, and not yet a user wondering. */
#define JUDGE_TIMEOUT_MS 10000
/* Bytes of a judge's canonical board text, NUL included: a judge-defined
 * position is its judge's address and its board text in a state buffer of
 * GAME_MAX_STATE bytes (judge.h), so the largest board a judge may use is
 * this less its NUL, 247 bytes (Kalah's is 40). */
#define JUDGE_BOARD_MAX 248
/* Bytes of one line of a judge's answer: GAME_MAX_MOVES moves, each with a
 * whole board and its text, escaped, with room to spare. */
#define JUDGE_LINE_MAX (1 << 20)
/* Bytes of a judge's drawing's style rules and labels (its hello's
 * "drawing", NUL included): the built-in games' rules are under 600 bytes. */
#define JUDGE_STYLE_MAX 4096
#define JUDGE_LABELS_MAX 256
/* RLIMIT_NPROC of a judge in its sandbox: tasks it may start above what its
 * user already runs, an engine's allowance. A judge is a rule book in one
 * process; a helper or two fit, a fork bomb does not. */
#define JUDGE_PROC_EXTRA REF_DEFAULT_PROC_EXTRA
/* Memory (MB) a judge in its sandbox may hold with every process it starts,
 * the limit of its cgroup (judge.h), where the referee has cgroups: a rule
 * book in CPython, docs/judges/kalah.py answering, holds about 10 MB, and
 * one answer line (JUDGE_LINE_MAX) a few MB more; 256 MB leaves room for a
 * heavier interpreter (a JVM's or Node's heap starts at tens of MB), while
 * a judge that leaks or hogs memory is stopped long before it takes the
 * engines' (each game's engines have --mem-limit-mb of their own). */
#define JUDGE_MEM_MB 256

/* referee play (playsrv.h): the address it listens on unless --listen
 * says otherwise (this machine only: the page runs engines for whoever
 * reaches it); a request's body, room for a new game's two weights files
 * (WTS_FILE_MAX each) escaped in JSON, so a 10 MB body is refused unkept;
 * games held at once (a page each), so abandoned pages cannot take the
 * memory; and training series likewise, an unclosed one giving its place
 * to a new one after PLAYSRV_IDLE_S without a request (a game goes sooner:
 * PLAYSRV_PAGE_TIMEOUT_S). */
#define PLAYSRV_DEFAULT_LISTEN "127.0.0.1"
#define PLAYSRV_BODY_CAP 16384
#define PLAYSRV_MAX_GAMES 64
#define PLAYSRV_IDLE_S 3600
/* Random bytes of the token the page sends with every request that changes
 * something (playgate.h), shown as twice as many hex digits: 128 bits, which
 * a page of another site guessing a billion times a second would not find
 * in the age of the universe. */
#define PLAYSRV_TOKEN_BYTES 16
/* referee play's connections (playconn.h). Each is a thread of the server
 * (playsrv.c says why) until it closes, so:
 *  - PLAYSRV_REQUEST_S: the seconds a connection has to send a whole request,
 *    headers and body, counted from its start or from its previous answer.
 *    A browser sends a request at once (microseconds on this machine,
 *    milliseconds over a network); a connection still short of one after
 *    five seconds is cut, whether it sends nothing (a half-open connection;
 *    a browser's idle keep-alive, which then opens another) or a byte at a
 *    time (slowloris), so a burst of idle connections frees its places
 *    within seconds. An answer the client stops reading is cut after as
 *    long without progress.
 *  - PLAYSRV_MAX_CONNS: connections at once. A browser opens at most six to
 *    one server (HTTP/1.1), so 256 are forty pages, more than a class in a
 *    room; 256 threads' stacks are address space, not memory.
 *  - PLAYSRV_MAX_CLIENT_CONNS: connections at once from one address: ten
 *    browsers behind one address (a NAT), and all a program opening hundreds
 *    gets, so other addresses still find places.
 * A connection beyond either cap is closed as it comes, before it has sent
 * a request to answer. */
#define PLAYSRV_REQUEST_S 5
#define PLAYSRV_MAX_CONNS 256
#define PLAYSRV_MAX_CLIENT_CONNS 64
/* Computer moves (a built-in player's search, an engine's move) running at
 * once: each takes a core for as long as it runs, and a person may ask for
 * any depth. One asked beyond is answered 503 with Retry-After
 * PLAYSRV_RETRY_S, and the page asks again then: eight pages thinking at
 * once share a laptop's cores already, and a class's pages take turns. */
#define PLAYSRV_MAX_SEARCHES 8
#define PLAYSRV_RETRY_S 1
/* --page-timeout-s: a game whose page has asked nothing for that long is
 * closed, its search or engine's move stopped and its place freed; an open
 * page asks PLAYSRV_PAGE_POLLS times per timeout (POST /api/alive). Three
 * minutes by default: a browser slows the timers of a tab in the
 * background to one a minute, so such a page still asks in time, and a
 * page gone without closing its game (a crash, a script) costs at most
 * three minutes of a core. At most a day: a longer wait is a game left
 * open, not a page. */
#define PLAYSRV_PAGE_TIMEOUT_S 180
#define PLAYSRV_MAX_PAGE_TIMEOUT_S 86400
#define PLAYSRV_PAGE_POLLS 6
/* Training games per request of the learning window: a connect4 game of
 * two learners takes well under a millisecond, so a step answers within a
 * fraction of a second and the progress bar moves smoothly. */
#define PLAYSRV_TRAIN_STEP 200
/* Games of one training series from the page, as `engine train` allows. */
#define PLAYSRV_TRAIN_MAX_GAMES 100000000LL
/* Ids of games and series above this are no game's (a JSON number keeps
 * every integer below it exactly: header.h's HDR_SEED_NUMBER_LIMIT). */
#define PLAYSRV_ID_MAX 1e15
/* How soon the server sees its stop flag (a signal's) while its threads
 * answer requests; as often, it cuts the connections late with a request
 * (PLAYSRV_REQUEST_S) and closes the games whose page went quiet. */
#define PLAYSRV_STOP_POLL_MS 200
/* ---- referee grade (rubric.h, grade.h) ------------------------------------ */

/* A rubric's "build" without "build_timeout_ms": `make` or `javac *.java` of
 * a student's project takes seconds; a minute leaves room on a busy machine. */
#define GRADE_DEFAULT_BUILD_TIMEOUT_MS 60000
/* Random plies of a match check's openings: enough that pairs differ, few
 * enough that the student's engine plays most of the game. */
#define GRADE_DEFAULT_RANDOM_PLIES 2
/* A cpu check's positions are this many random plies in: the search is
 * full size there. */
#define GRADE_CPU_PLIES 2
/* Most positions and games of one check: each is a process of every
 * submission; a thousand is an hour of a class's grading already. */
#define GRADE_MAX_POSITIONS 1000
#define GRADE_MAX_GAMES 1000
/* Most shards of a grade (--shard K/N): a task per chunk of a class of
 * hundreds, never one per submission and check. */
#define GRADE_MAX_SHARDS 1000
/* Bytes of a rubric: a few checks and globs; anything bigger is not one. */
#define GRADE_RUBRIC_CAP (1 << 20)
/* Bytes of a build log kept for the feedback: its end says why it failed. */
#define GRADE_BUILD_TAIL 2048
/* Random playouts tried per position of a legal or exact check before the
 * check is refused as unable to find its positions (a game whose playouts
 * never come within the depth of the end). */
#define GRADE_MAX_TRIES 10000
/* Positions an exact check's full search may visit to tell a position is
 * within depth of the end: bounds the set-up of a deep exact check. */
#define GRADE_END_NODES 200000
/* A rubric's timeout_ms is CPU time; the wall deadline of a move or io run
 * is only a guard against an engine that sleeps or hangs: this many times
 * the CPU limit plus GRADE_WALL_MARGIN_MS. An engine computing on a machine
 * with one busy process per core gets half a CPU: its wall time is about
 * twice its CPU; with four runnable processes a core (a test suite's jobs
 * beside a grading), four times: both well inside the guard. */
#define GRADE_WALL_FACTOR 10
#define GRADE_WALL_MARGIN_MS 1000
/* A move starved by a busy machine (PLAY_STARVED_SHARE) is run again up to
 * this many times, then its check is left not graded for the next --resume. */
#define GRADE_BUSY_RETRIES 2
/* A submission's folder, copied into OUT/.work/ID/src before it is graded
 * (gradecopy.h); more is that submission's error, and the class goes on.
 * Bytes: its regular files' sizes together, each at its apparent size
 * (st_size: a sparse file is copied whole): a hand-in is sources and a data
 * file or two, a few MiB; 256 MiB hold a trained network's weights, and a
 * class graded two at a time keeps OUT/.work under a GiB. */
#define GRADE_COPY_MAX_BYTES (256LL << 20)
/* Its files and folders: a hand-in has tens, a Python virtual environment
 * with a library or two some thousands; each costs the copy and the hash a
 * few system calls. */
#define GRADE_COPY_MAX_ENTRIES 10000
/* Folder levels below the submission's own: a Java package path is five or
 * six deep. The copy holds a descriptor a level, no recursion: 64 stay far
 * from RLIMIT_NOFILE, and 2,000 nested folders are refused by name. */
#define GRADE_COPY_MAX_DEPTH 64
/* RLIMIT_FSIZE of a build (KiB): its move folder, a tmpfs of SBX_MOVE_MB,
 * holds no larger file, but a sparse one (`truncate -s 3G big`) takes no
 * room there and would be copied back whole: the build cannot make it. */
#define GRADE_BUILD_FILE_LIMIT_KB (SBX_MOVE_MB * 1024)
/* Bytes a build's or an io run's move folder may hold when it is copied
 * back into OUT/.work, each file at its apparent size: what the tmpfs holds,
 * so up to SBX_MOVE_FILES sparse files under the file-size limit cannot put
 * GiBs there. More fails the build (or the io input) as the submission's. */
#define GRADE_BACK_MAX_BYTES ((long long)SBX_MOVE_MB << 20)

/* Places a grading's submissions see or never see (gradepaths.h): the
 * system folders, a PATH's folders with the installations above them (a
 * PATH of 30 folders is a long one), every --sandbox-ro path; and the class,
 * OUT, the rubric's folder and one folder per io check's inputs and
 * expected outputs (RUBRIC_MAX_CHECKS checks of a glob each; a glob across
 * folders adds more). */
#define GRADE_MAX_PLACES (SBX_MAX_PATHS + 128)

/* ---- referee similarity (similarity.h) and move agreement (agree.h) ---- */

/* Positions every engine answers without --positions. A pair's agreement
 * is a share over them: at 300 its standard error is under 0.03 (at most
 * sqrt(0.25 / 300)), well inside the gap between copies (0.96 and more in
 * the test field) and independent engines (0.76 and less), and 300 moves
 * of a Python engine in the sandbox are some 45 s (0.15 s a move
 * measured, interpreter start and sandbox included). */
#define SIMIL_DEFAULT_POSITIONS 300
/* Most --positions: each is a move of every engine, and the positions are
 * compared for duplicates (quadratic in their number). */
#define SIMIL_MAX_POSITIONS 5000
/* Plies of one seeded random game a position is drawn from: longer than a
 * game of Connect-4, Othello or Nim from the start; a checkers game that
 * wanders on is cut there. */
#define SIMIL_GAME_PLIES 200
/* Random games tried per position asked for: a position is refused when
 * it is over, has one legal move (no choice, no signal) or was drawn
 * already; a game with few distinct positions (Nim's small heaps) runs
 * out, and the referee says how many it found. */
#define SIMIL_TRIES_PER_POSITION 20

/* The flag (agree.h), on the log-odds of the pairs' agreements: a pair
 * above the field's median by more than AGREE_FLAG_K robust standard
 * deviations (MAD x AGREE_MAD_SCALE), and by AGREE_FLAG_MIN_GAP at least.
 * Measured on the test field (tests/engines/similarity, Connect-4, 300
 * positions): copies stand 3.3 to 6.2 deviations above the median (a copy
 * with two constants changed agrees on 0.963 of the positions), no
 * independently written pair above 0.7 (the highest agreement 0.57); with
 * the referee's alpha-beta added, its pair with the field's two-ply
 * minimax (0.76, a like evaluation) stands at 1.5. 2.5 lies between with
 * room on both sides, at the tests' 30 positions too (copies 4.8). The deviation is the
 * robust one so that the copies themselves cannot widen the field. The gap
 * (1 in log-odds: a pair's odds of agreeing e times the median pair's)
 * keeps a field of near-equal pairs (a MAD near 0) from flagging a pair a
 * few positions above the rest. */
#define AGREE_FLAG_K 2.5
#define AGREE_FLAG_MIN_GAP 1.0
/* The MAD of a normal distribution times this is its standard deviation. */
#define AGREE_MAD_SCALE 1.4826
/* Positions shown as a flagged pair's evidence (the JSON and the text). */
#define AGREE_EVIDENCE_MAX 5

#endif
