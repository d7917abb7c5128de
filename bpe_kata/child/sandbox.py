"""The sandbox an implementation child runs in under ``bpe-kata gate`` and ``grade`` (docs/GATE.md).

Layers, each applied in the child between ``fork`` and ``exec`` (``Sandbox.preexec``), the
best the machine has first:

- **Landlock** (Linux >= 5.13, no root needed; ctypes, below): only an allow list is readable
  (bpe_kata/child/view.py: the system, the interpreter, the implementation's own folder, the
  working directory outside the suite, the server's own modules; never the suite's packages, its
  checkout, ``.git``, worktrees or the user's caches); writes only under the run's scratch directory
  (and ``/dev/null``); no TCP (ABI >= 4); no ptrace of a process outside the child's domain
  (always); signals and abstract Unix sockets scoped to the domain (ABI >= 6).
- **namespaces**, when the process may create them (root): a mount namespace with an empty
  tmpfs over ``/run`` (no Unix socket of a system service is reachable) and a private one over
  ``/dev/shm``, a network namespace with no interface (abstract Unix sockets are per network
  namespace), and an IPC namespace (System V queues, semaphores, shared memory and POSIX
  message queues reach no process outside).
- **capabilities dropped**, when root: the bounding set is emptied, so the exec'd program is
  uid 0 with no capability (no mount, no raw socket, no module, no ``CAP_DAC_OVERRIDE``).

Always: ``PR_SET_NO_NEW_PRIVS``, a new session, an allow-listed environment (never the
parent's), and rlimits on address space, file size (``FILE_SIZE``: what the verdict process may
have to look at), core dumps (none) and (when not root) processes.

The configuration travels from the supervisor to the verdict process (and its xdist
workers) in one environment variable, ``BPE_KATA_SANDBOX``, as JSON.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import platform
import resource
import signal
from dataclasses import asdict, dataclass, field

from bpe_kata.child import view

ENV_VAR = "BPE_KATA_SANDBOX"
NOT_SANDBOXED = ("NOT SANDBOXED: no sandbox layer is available on this machine (Landlock, namespaces, root); "
                 "the implementation runs with your user's rights. Use --require-sandbox to refuse instead.")

#: What an implementation child inherits from the parent's environment (nothing else: no tokens).
ENV_ALLOW = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE", "TZ", "TERM", "PYTHONHASHSEED", "PYTHONUTF8",
             "PYTHONIOENCODING", "NODE_PATH", "JAVA_HOME", "GOROOT")

# --- Landlock (include/uapi/linux/landlock.h) --------------------------------------------------
_SYS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_BITS_BY_ABI = {1: 13, 2: 14, 3: 15, 4: 15, 5: 16}  # how many access bits each ABI knows
FS_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | (1 << 14) | (1 << 15)  # + truncate, ioctl_dev
READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_CHILD_SUBREAPER = 38, 24, 36
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC = 0x00020000, 0x40000000, 0x08000000
#: The largest file a child may write: a saved table of the largest published vocabulary is a few MB.
FILE_SIZE = 256 << 20
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc():
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when it has none (or this is not Linux)."""
    numbers = _SYS.get(platform.machine())
    if platform.system() != "Linux" or numbers is None:
        return 0
    value = _libc().syscall(numbers[0], None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(value), 0)


def can_unshare() -> bool:
    """Root with CAP_SYS_ADMIN (a namespace per child is cheap then); a user namespace is not tried."""
    if platform.system() != "Linux" or os.geteuid() != 0:
        return False
    try:
        effective = int(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff:")), 16)
    except (OSError, StopIteration, ValueError):
        return False
    return bool(effective & (1 << 21))  # CAP_SYS_ADMIN


@dataclass
class Sandbox:
    """What a child gets: set up by the supervisor, applied by ``preexec`` in every child."""

    scratch: str
    hidden: list[str] = field(default_factory=list)  # protected: never granted beneath a granted folder
    reads: list[str] = field(default_factory=list)  # folders granted (minus ``hidden``): bpe_kata/child/view.py
    files: list[str] = field(default_factory=list)  # single files granted (the server's own modules)
    landlock: int = 0  # the ABI used, 0 for none
    namespaces: bool = False
    drop_caps: bool = False
    address_space: int = 16 << 30
    file_size: int = FILE_SIZE
    processes: int = 512

    @classmethod
    def probe(cls, scratch: str, view) -> Sandbox:
        """The best layers this machine has, reading what ``view`` (a bpe_kata.child.view.View) grants."""
        root = platform.system() == "Linux" and os.geteuid() == 0
        return cls(scratch, view.protected, view.roots, view.files, landlock=landlock_abi(), namespaces=can_unshare(),
                   drop_caps=root)

    @classmethod
    def from_env(cls, environ=os.environ) -> Sandbox | None:
        text = environ.get(ENV_VAR)
        return cls(**json.loads(text)) if text else None

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    def layers(self) -> list[str]:
        """The layers this sandbox applies, as the report and the one-line banner name them."""
        found = []
        if self.landlock:
            found.append(f"landlock-abi-{self.landlock}" + ("" if self.landlock >= 6 else " (signals not scoped)"))
        if self.namespaces:
            found.append("mount+net+ipc namespaces (/run hidden, private /dev/shm, no network, no shared IPC)")
        if self.drop_caps:
            found.append("capabilities dropped")
        if found:
            found.append("no_new_privs, scrubbed environment, rlimits")
        return found

    @property
    def sandboxed(self) -> bool:
        return bool(self.landlock or self.namespaces)

    def environment(self, extra: dict[str, str]) -> dict[str, str]:
        """The child's whole environment: the allow-list, a private home and temp, and ``extra``."""
        env = {name: os.environ[name] for name in ENV_ALLOW if name in os.environ}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        # No PYTHONPYCACHEPREFIX: with one, Python reads no __pycache__ beside the sources and would
        # compile the standard library again in every child. The child cannot write a .pyc anywhere
        # the verdict process reads one (Landlock), and writes none itself.
        env.update(HOME=self.scratch, TMPDIR=self.scratch, PYTHONDONTWRITEBYTECODE="1")
        env.update(extra)
        return env

    # --- in the child, after fork, before exec ------------------------------------------------

    def preexec(self, file_size: int | None = None) -> None:
        """Apply every layer; a layer that was probed but fails here makes the exec fail (never silently weaker)."""
        libc = _libc()
        if self.namespaces:
            _check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC), "unshare")
            _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
            if os.path.isdir("/run"):
                _check(libc.mount(b"tmpfs", b"/run", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=64k,mode=0555"),
                       "mount tmpfs /run")
            if os.path.isdir("/dev/shm"):  # POSIX shared memory and semaphores: the child's own, not the machine's
                _check(libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                                  b"size=64m,mode=1777"), "mount tmpfs /dev/shm")
        if self.drop_caps:
            last = int(open("/proc/sys/kernel/cap_last_cap").read())
            for cap in range(last + 1):
                libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
            libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
        _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        limit = min(file_size, self.file_size) if file_size is not None else self.file_size
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        resource.setrlimit(resource.RLIMIT_AS, (self.address_space, self.address_space))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if os.geteuid() != 0:  # root (in the first user namespace) is exempt from RLIMIT_NPROC
            resource.setrlimit(resource.RLIMIT_NPROC, (self.processes, self.processes))
        if self.landlock:
            self._landlock(libc)

    def _landlock(self, libc) -> None:
        abi = self.landlock
        syscall = _SYS[platform.machine()]
        handled = (1 << _FS_BITS_BY_ABI.get(abi, 16)) - 1
        attr = _RulesetAttr(handled, (NET_BIND_TCP | NET_CONNECT_TCP) if abi >= 4 else 0,
                            (SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL) if abi >= 6 else 0)
        size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else (16 if abi >= 4 else 8)
        ruleset = libc.syscall(syscall[0], ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
        _check(ruleset, "landlock_create_ruleset")
        try:
            add = lambda path, rights: _add_rule(libc, syscall[1], ruleset, path, rights & handled)  # noqa: E731
            add("/", FS_READ_DIR)  # listing anywhere: names only, never a file's contents
            for path in view.granted_paths(self.reads, self.hidden):
                add(path, READ_RIGHTS)
            for path in self.files:
                add(path, READ_RIGHTS)
            add(self.scratch, handled)
            if self.namespaces and os.path.isdir("/dev/shm"):
                add("/dev/shm", handled)  # the private tmpfs mounted above; never the machine's
            for device in ("/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random"):
                add(device, FS_READ_FILE | FS_WRITE_FILE)
            _check(libc.syscall(syscall[2], ruleset, ctypes.c_uint32(0)), "landlock_restrict_self")
        finally:
            os.close(ruleset)


def _add_rule(libc, number: int, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= FS_FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        _check(libc.syscall(number, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0)),
               f"landlock_add_rule {path}")
    finally:
        os.close(fd)


def _check(value: int, what: str) -> None:
    if value < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"sandbox: {what} failed: {os.strerror(errno)}")


def become_subreaper() -> bool:
    """Orphans of our descendants (a ``setsid`` daemon) become our children, so none is missed."""
    if platform.system() != "Linux":
        return False
    return _libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def descendants(root: int | None = None) -> list[int]:
    """Every living process below ``root`` (this process by default), from /proc."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat", "rb").read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, queue = [], [root]
    while queue:
        for pid in children.get(queue.pop(), []):
            found.append(pid)
            queue.append(pid)
    return found


def kill_descendants(timeout: float = 10.0) -> int:
    """SIGKILL every descendant and reap until none is left; how many were killed."""
    import time

    killed, deadline = 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = descendants()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not pids:
            break
        time.sleep(0.01)
    return killed
