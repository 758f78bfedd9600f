#!/usr/bin/python3
"""hostile.py ATTACK PARAM ENGINE ARGS...: an engine that attacks whoever
runs it, then plays ENGINE ARGS (a sound engine) in its place. The referee's
sandbox must make every attack harmless (test_e2e_sandbox.c); where an
attack that worked would leave no trace of its own, it exits 3 (a forfeit
the test notices). PARAM is the attack's own argument, "-" when it has none.

  kill-parent     SIGKILL to its parent (unsandboxed: the tournament's worker)
  kill-parent-once  the same, once: only when the file $ARENA_ONCE is not
                  there yet, which it creates
  kill-ancestors  SIGKILL to every ancestor it finds by walking /proc/PID/stat
  kill-all        kill(-1, SIGKILL): every process it may signal
  read-other      reads $ARENA_VICTIM (another engine's program) and writes
                  it as its move, in PARAM (its {out})
  append-journal  exits 3 if it can read $ARENA_JOURNAL; appends a line to it
  network         a TCP connection and a UDP datagram to 127.0.0.1:$ARENA_PORT
  fork-bomb       starts `sleep 6095.$ARENA_TAG` until that fails; exits 3
                  past 300
  ptrace-parent   exits 3 if PTRACE_ATTACH to its parent works
  write-outside   writes the file $ARENA_ESCAPE in /tmp, $HOME and $ARENA_CWD
  setsid-sleeper  plays, then leaves a child that calls setsid and runs
                  `sleep 6096.$ARENA_TAG`
  watch           exits 3 if it sees a process `sleep PARAM` (the
                  opponent's leftover)
  needs           exits 1 unless it can read the file $ARENA_DATA, saying why
  precreate       plays, then creates the temporary names the built-in engine
                  writes its answer through (out.txt.tmpPID-N, the small pids
                  of a PID namespace) in its move folder and in every
                  arena-game-* folder it finds beside it
  fill-disk       writes $TMPDIR (its /tmp) and its move folder full of 1 MiB
                  files; exits 3 if its move folder takes 48 of them (no cap)
  write-tmp       writes $ARENA_ESCAPE into /tmp (run with dir=/tmp or
                  --sandbox-ro /tmp: the host's /tmp must stay untouched)
  sysv            exits 3 if it sees the SysV segment of key PARAM (left by
                  its last move or the other engine), then creates one of
                  1 MiB and leaves it
  userns          exits 3 if it can make a nested user namespace
  env             exits 3 if $SECRET_TOKEN reaches it or $HOME is not /tmp
  lock            a covert channel through file locks: locks the system file
                  PARAM (read-only, the same inode in every sandbox) with
                  flock and with an open-file-description fcntl lock, holds
                  it for LOCK_HOLD seconds; exits 3 if a second open of the
                  file sees either lock held (its own, or the engine's in the
                  concurrent game)
  keys            a covert channel through the key quota of its uid: exits 3
                  if add_key or keyctl works
  file-watches    a covert channel through file watches: exits 3 unless
                  inotify_init, inotify_init1, inotify_add_watch,
                  fanotify_init and fanotify_mark each fail with ENOSYS (the
                  seccomp filter's answer; the kernel's own would differ)
  io-uring        exits 3 unless io_uring_setup, io_uring_enter and
                  io_uring_register each fail with ENOSYS (io_uring's
                  requests would pass the seccomp filter by)
  leftovers       leaves in its move folder a folder tree deeper than
                  PATH_MAX and a chmod 000 folder with a file
"""
import ctypes
import errno
import fcntl
import os
import signal
import socket
import struct
import time
import subprocess
import sys

FORK_CAP = 300
PRECREATE_PIDS = 120     # a game's PID namespace gives small pids
PRECREATE_TRIES = 100    # the names tf_write_atomic tries per pid
FILL_FILES = 48          # MiB past every cap of the sandbox's move folder
PTRACE_ATTACH = 16


def marked(seconds):
    """A sleep argument that names the test (ARENA_TAG) for pgrep."""
    return f"{seconds}.{os.environ.get('ARENA_TAG', '0')}"


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def kill_ancestors(_):
    pid = os.getppid()
    while pid > 1:
        try:
            parent = parent_of(pid)
            os.kill(pid, signal.SIGKILL)
        except OSError:
            return
        pid = parent


def kill_parent_once(_):
    try:
        os.close(os.open(os.environ["ARENA_ONCE"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os.kill(os.getppid(), signal.SIGKILL)


def read_other(out):
    try:
        with open(os.environ["ARENA_VICTIM"]) as f:
            secret = f.read()
    except OSError:
        return
    with open(out, "w") as f:
        f.write(secret)
    sys.exit(0)


def append_journal(_):
    path = os.environ["ARENA_JOURNAL"]
    try:
        with open(path) as f:
            if f.read():
                sys.exit(3)
    except OSError:
        pass
    try:
        with open(path, "a") as f:
            f.write('{"index": 1, "result": "1-0"}\n')
    except OSError:
        pass


def network(_):
    port = int(os.environ["ARENA_PORT"])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"escaped")
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
            u.sendto(b"escaped", ("127.0.0.1", port))
    except OSError:
        pass


def fork_bomb(_):
    # posix_spawn (a vfork) rather than fork: a copy of Python costs far more.
    for _ in range(FORK_CAP):
        try:
            os.posix_spawnp("sleep", ["sleep", marked(6095)], os.environ)
        except OSError:
            return
    sys.exit(3)


def ptrace_parent(_):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None) == 0:
        sys.exit(3)   # exiting detaches


def write_outside(_):
    name = os.environ["ARENA_ESCAPE"]
    for folder in ("/tmp", os.environ.get("HOME", "/"), os.environ["ARENA_CWD"]):
        try:
            with open(os.path.join(folder, name), "w") as f:
                f.write("escaped\n")
        except OSError:
            pass


def setsid_sleeper(_):
    status = subprocess.run(sys.argv[3:]).returncode
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", marked(6096)])
    sys.exit(status)


def watch(arg):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().split(b"\0")[:2] == [b"sleep", arg.encode()]:
                    sys.exit(3)
        except OSError:
            pass


def needs(_):
    path = os.environ["ARENA_DATA"]
    try:
        with open(path):
            pass
    except OSError as e:
        sys.exit(f"cannot read {path}: {e.strerror}")


def precreate(_):
    # Its own answer first: the names would stop its own engine too.
    status = subprocess.run(sys.argv[3:]).returncode
    here = os.path.dirname(os.path.abspath(sys.argv[-2]))   # its {out}'s folder
    folders = [here]
    try:
        beside = os.path.dirname(here)
        folders += [os.path.join(beside, n) for n in os.listdir(beside)
                    if n.startswith("arena-game-") and os.path.join(beside, n) != here]
    except OSError:
        pass
    for folder in folders:
        for pid in range(2, PRECREATE_PIDS):
            for n in range(PRECREATE_TRIES):
                try:
                    os.close(os.open(os.path.join(folder, f"out.txt.tmp{pid}-{n}"),
                                     os.O_CREAT | os.O_WRONLY, 0o644))
                except OSError:
                    break
    sys.exit(status)


def fill(folder):
    """Files of 1 MiB (RLIMIT_FSIZE) until the folder is full; the number
    written, FILL_FILES when nothing stopped it."""
    block = b"\0" * (1 << 20)
    for i in range(FILL_FILES):
        try:
            with open(os.path.join(folder, f"filler{i}"), "wb") as f:
                f.write(block)
        except OSError:
            return i
    return FILL_FILES


def fill_disk(_):
    own = os.path.dirname(os.path.abspath(sys.argv[-2]))
    fill(os.environ.get("TMPDIR", "/tmp"))
    if fill(own) == FILL_FILES:
        sys.exit(3)   # 48 MiB and no end: the host's disk
    # Its own folder is full: the answer must still fit.
    for name in os.listdir(own):
        if name.startswith("filler"):
            os.unlink(os.path.join(own, name))


def write_tmp(_):
    try:
        with open(os.path.join("/tmp", os.environ["ARENA_ESCAPE"]), "w") as f:
            f.write("escaped\n")
    except OSError:
        pass


IPC_CREAT = 0o1000


def sysv(key):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
    with open("/proc/sysvipc/shm") as f:
        for line in f.readlines()[1:]:
            if int(line.split()[0]) == int(key):
                sys.exit(3)
    libc.shmget(int(key), 1 << 20, IPC_CREAT | 0o600)


CLONE_NEWUSER = 0x10000000


def userns(_):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER) == 0:
        sys.exit(3)


LOCK_HOLD = 0.2
F_OFD_GETLK, F_OFD_SETLK = 36, 37


def ofd_lock(fd, cmd, kind):
    """struct flock (short, short, off_t, off_t, pid_t) on the whole file;
    returns the l_type the kernel answers."""
    flock = struct.pack("hhqqi4x", kind, os.SEEK_SET, 0, 0, 0)
    return struct.unpack("hhqqi4x", fcntl.fcntl(fd, cmd, flock))[0]


def lock(path):
    held = os.open(path, os.O_RDONLY)
    probe = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        ofd_lock(held, F_OFD_SETLK, fcntl.F_RDLCK)
    except OSError:
        sys.exit(3)   # the concurrent game's engine holds it: a bit passed
    try:
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(3)
    if ofd_lock(probe, F_OFD_GETLK, fcntl.F_WRLCK) != fcntl.F_UNLCK:
        sys.exit(3)
    time.sleep(LOCK_HOLD)


KEY_SPEC_USER_KEYRING = -4
KEYCTL_GET_KEYRING_ID = 0


def keys(_):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    nr = {"x86_64": (248, 250), "aarch64": (217, 219)}[os.uname().machine]
    if libc.syscall(nr[0], b"user", b"arena-covert", b"1", ctypes.c_size_t(1),
                    ctypes.c_int(KEY_SPEC_USER_KEYRING)) >= 0:
        sys.exit(3)
    if libc.syscall(nr[1], ctypes.c_int(KEYCTL_GET_KEYRING_ID),
                    ctypes.c_int(KEY_SPEC_USER_KEYRING), ctypes.c_int(0)) >= 0:
        sys.exit(3)


# System call numbers, by machine: inotify_init (None: AArch64 has only
# inotify_init1), inotify_init1, inotify_add_watch, fanotify_init,
# fanotify_mark; io_uring_setup, io_uring_enter, io_uring_register.
WATCH_NRS = {"x86_64": (253, 294, 254, 300, 301), "aarch64": (None, 26, 27, 262, 263)}
URING_NRS = (425, 426, 427)


def all_absent(calls):
    """Exits 3 unless each (number, args) call fails with ENOSYS."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    for nr, args in calls:
        if nr is None:
            continue
        ctypes.set_errno(0)
        rc = libc.syscall(ctypes.c_long(nr), *args)
        if rc >= 0 or ctypes.get_errno() != errno.ENOSYS:
            sys.exit(3)


def file_watches(_):
    nr = WATCH_NRS[os.uname().machine]
    c_int = ctypes.c_int
    all_absent([(nr[0], ()), (nr[1], (c_int(0),)),
                (nr[2], (c_int(-1), b"/etc", ctypes.c_uint(0xfff))),
                (nr[3], (ctypes.c_uint(0), ctypes.c_uint(0))),
                (nr[4], (c_int(-1), ctypes.c_uint(1), ctypes.c_ulong(1), c_int(-100), b"/etc"))])


def io_uring(_):
    params = ctypes.create_string_buffer(120)   # struct io_uring_params
    c_int, c_uint = ctypes.c_int, ctypes.c_uint
    all_absent([(URING_NRS[0], (c_uint(8), params)),
                (URING_NRS[1], (c_int(-1), c_uint(0), c_uint(0), c_uint(0), None, ctypes.c_size_t(0))),
                (URING_NRS[2], (c_int(-1), c_uint(0), None, c_uint(0)))])


def env(_):
    if "SECRET_TOKEN" in os.environ or os.environ.get("HOME") != "/tmp":
        sys.exit(3)


def deep_tree(top):
    """A chain of folders longer than PATH_MAX, made by relative steps."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(250):
            os.mkdir("d" * 30, dir_fd=fd)
            child = os.open("d" * 30, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
    finally:
        os.close(fd)


def leftovers(_):
    for top in (os.path.dirname(os.path.abspath(sys.argv[-2])),):
        try:
            deep = os.path.join(top, f"deep{os.getpid()}")
            os.mkdir(deep)
            deep_tree(deep)
            locked = os.path.join(top, f"locked{os.getpid()}")
            os.mkdir(locked)
            with open(os.path.join(locked, "file"), "w") as f:
                f.write("left\n")
            os.chmod(locked, 0)
        except OSError:
            pass


ATTACKS = {
    "kill-parent": lambda _: os.kill(os.getppid(), signal.SIGKILL),
    "kill-parent-once": kill_parent_once,
    "kill-ancestors": kill_ancestors,
    "kill-all": lambda _: os.kill(-1, signal.SIGKILL),
    "read-other": read_other,
    "append-journal": append_journal,
    "network": network,
    "fork-bomb": fork_bomb,
    "ptrace-parent": ptrace_parent,
    "write-outside": write_outside,
    "setsid-sleeper": setsid_sleeper,
    "watch": watch,
    "needs": needs,
    "precreate": precreate,
    "fill-disk": fill_disk,
    "write-tmp": write_tmp,
    "sysv": sysv,
    "userns": userns,
    "env": env,
    "lock": lock,
    "keys": keys,
    "file-watches": file_watches,
    "io-uring": io_uring,
    "leftovers": leftovers,
}

try:
    ATTACKS[sys.argv[1]](sys.argv[2])
except OSError:
    pass
os.execvp(sys.argv[3], sys.argv[3:])
