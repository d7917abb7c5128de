"""Red team: what a sandboxed child can see, share and make the verdict process read (issue 36, kinds 3, 5,
6 and 10's ``cmd:``; docs/GATE.md, "Channels").

Each test is an attack under a real ``bpe-kata gate`` (supervisor, verdict process, sandboxed child), with
the same real mistake as tests/red_team (a merge from the right): it must end red, the suite unchanged,
and the attack must not have reached what it went for. A test whose layer this machine lacks is
skipped, naming the layer.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpe_kata.child import sandbox
from bpe_kata.gate.suite import suite_sha256
from tests.support import REPO_ROOT

RED_TEAM = REPO_ROOT / "tests" / "red_team"
LANDLOCK = sandbox.landlock_abi()
NAMESPACES = sandbox.can_unshare()
MERGE = ("--claim", "merge.*", "-k", "test_merge")
needs_landlock = pytest.mark.skipif(not LANDLOCK, reason="Landlock is not available in this kernel: "
                                    "the layer that limits what the child reads is missing (docs/GATE.md)")
needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason="no IPC namespace (not root with CAP_SYS_ADMIN): "
                                      "System V IPC stays shared (docs/GATE.md, Channels)")


@dataclass
class Run:
    returncode: int
    output: str
    report: dict | None
    max_rss_mib: float  # the largest resident set of any process of the run (the verdict process, in practice)


def gate(folder: Path, impl: str, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Run:
    """``bpe-kata gate IMPL`` from ``folder``, through a wrapper process that reports its descendants' peak RSS."""
    bpe_kata = shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata"))
    command = [bpe_kata, "gate", impl, "-q", "-n", "0", "-p", "no:cacheprovider", "--bpe-report", "report.json", *args]
    wrapper = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:])\n"
               "print('MAXRSS', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
               "sys.exit(done.returncode)\n")
    done = subprocess.run([sys.executable, "-c", wrapper, *command], cwd=folder, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=timeout)
    rss = next((int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("MAXRSS")), 0)
    report_file = folder / "report.json"
    report = json.loads(report_file.read_text("utf-8")) if report_file.is_file() else None
    return Run(done.returncode, done.stdout + done.stderr, report, rss / 1024)


def assert_red(run: Run) -> None:
    assert run.returncode == 1, run.output[-3000:]
    assert run.report is not None and run.report["exit_status"] == 1, run.output[-3000:]
    assert run.report["sandbox"]["suite_unchanged"] is True


@pytest.fixture
def unchanged_suite():
    before = suite_sha256()
    yield
    assert suite_sha256() == before, "an attack changed the suite"


def attack_copy(folder: Path, name: str) -> Path:
    """The attack and its helpers copied into ``folder`` (an implementation that lives outside the suite)."""
    folder.mkdir(parents=True, exist_ok=True)
    for helper in ("_wrong_merge.py", "_borrow.py", f"{name}.py"):
        shutil.copy(RED_TEAM / helper, folder / helper)
    return folder / f"{name}.py"


def reference_wheel(path: Path) -> Path:
    """A wheel-shaped zip holding the suite's reference, as ``pip wheel`` or ``python -m build`` leaves it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for source in sorted((REPO_ROOT / "reference").glob("*.py")):
            archive.write(source, f"reference/{source.name}")
    return path


# --- kind 3: copies of the reference the child could read --------------------------------------------


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
@needs_landlock
def test_the_reference_cannot_be_read_out_of_the_clones_git_history(tmp_path, unchanged_suite):
    if not (REPO_ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("the suite is not a git checkout here (or git is missing): no history to read")
    impl = attack_copy(tmp_path / "impl", "attack_reads_git_history")
    run = gate(tmp_path, str(impl), *MERGE)
    assert_red(run)
    assert "BORROWED" not in run.output


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
@needs_landlock
def test_no_wheel_in_the_clones_dist_folder_nor_in_the_cache_can_be_borrowed(tmp_path, unchanged_suite):
    dist = REPO_ROOT / "dist"
    made_dist = not dist.exists()
    wheels = [reference_wheel(dist / f"bpe_kata_red_team-{os.getpid()}-py3-none-any.whl"),
              reference_wheel(tmp_path / "cache" / "pip" / "wheels" / "ab" / "bpe_kata-0.1.0-py3-none-any.whl")]
    impl = attack_copy(tmp_path / "impl", "attack_reads_suite_copies")
    (impl.parent / "copies.txt").write_text("\n".join(map(str, wheels)) + "\n", encoding="utf-8")
    try:
        run = gate(tmp_path, str(impl), *MERGE, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    finally:
        wheels[0].unlink()
        if made_dist:
            shutil.rmtree(dist, ignore_errors=True)
    assert_red(run)
    assert "BORROWED" not in run.output


def _other_worktrees() -> list[Path]:
    git = shutil.which("git")
    if git is None or not (REPO_ROOT / ".git").exists():
        return []
    listed = subprocess.run([git, "-C", str(REPO_ROOT), "worktree", "list", "--porcelain"], capture_output=True,
                            text=True).stdout
    found = [Path(line.split(" ", 1)[1]) for line in listed.splitlines() if line.startswith("worktree ")]
    return [path for path in found if path.resolve() != REPO_ROOT and (path / "reference" / "__init__.py").is_file()]


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
@needs_landlock
def test_no_sibling_worktree_of_the_clone_can_be_borrowed(tmp_path, unchanged_suite):
    others = _other_worktrees()
    if not others:
        pytest.skip("this clone has no other worktree to borrow from")
    impl = attack_copy(tmp_path / "impl", "attack_reads_suite_copies")
    (impl.parent / "copies.txt").write_text("\n".join(map(str, others)) + "\n", encoding="utf-8")
    run = gate(tmp_path, str(impl), *MERGE)
    assert_red(run)
    assert "BORROWED" not in run.output


# --- kind 10: a cmd: argument naming a suite folder -------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
@needs_landlock
def test_a_cmd_argument_naming_the_reference_does_not_show_it(tmp_path, unchanged_suite):
    server = attack_copy(tmp_path / "impl", "attack_cmd_names_reference")
    command = f'cmd:"{sys.executable}" "{server}" "{REPO_ROOT / "reference"}"'
    run = gate(tmp_path, command, *MERGE)
    assert_red(run)
    assert "BORROWED" not in run.output
    assert not run.report["sandbox"]["visible_to_child"]


# --- kind 5: IPC shared with a process outside ------------------------------------------------------------


IPC_KEY, IPC_CREAT, IPC_NOWAIT, IPC_RMID = 0x42504B41, 0o1000, 0o4000, 0


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
@needs_namespaces
def test_system_v_ipc_and_shared_memory_reach_no_process_outside(tmp_path, unchanged_suite):
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    queue = libc.msgget(IPC_KEY, IPC_CREAT | 0o666)
    assert queue >= 0, f"msgget: {os.strerror(ctypes.get_errno())}"
    shm = Path("/dev/shm/bpe-kata-red-team")
    shm.write_text("the answers, from outside", encoding="utf-8")
    try:
        run = gate(tmp_path, str(attack_copy(tmp_path / "impl", "attack_sysv_ipc")), *MERGE)
        message = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_long) + 64)
        received = libc.msgrcv(queue, message, 64, 0, IPC_NOWAIT)
    finally:
        libc.msgctl(queue, IPC_RMID, None)
        shm.unlink(missing_ok=True)
    assert_red(run)
    assert received < 0, "a message from inside the sandbox reached the queue outside"
    assert "IPC REACHED" not in run.output and "SHM REACHED" not in run.output


# --- kind 6: what the verdict process reads of what the child wrote ----------------------------------------


@pytest.mark.heavy
@pytest.mark.xdist_group("red_team")
def test_a_sparse_hole_in_the_childs_stderr_is_read_bounded(tmp_path, unchanged_suite):
    run = gate(tmp_path, str(attack_copy(tmp_path / "impl", "attack_sparse_stderr")), *MERGE)
    assert_red(run)
    assert run.max_rss_mib < 600, f"a process of the run held {run.max_rss_mib:.0f} MiB"


# --- the child's own end of the protocol ------------------------------------------------------------------


@pytest.mark.parametrize("value", ["reference", "cs336:nowhere", "minbpe:nowhere"])
def test_the_server_imports_only_the_suite_files_the_child_is_granted(value):
    """The child may read the suite's files only one by one (bpe_kata/child/view.py, SERVER_MODULES): a
    server importing any other suite module would fail every call under the gate."""
    from bpe_kata.child import view

    code = ("import sys\nfrom bpe_kata.child import server\nfrom bpe_kata.impl import loader\n"
            f"try:\n    loader.load_implementation({value!r})\nexcept Exception:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'bpe_kata')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    imported = set(done.stdout.split())
    assert imported and imported <= set(view.SERVER_MODULES), imported - set(view.SERVER_MODULES)


def test_every_suite_module_the_servers_modules_import_anywhere_is_granted():
    """Read from the source, every import of a bpe_kata module in any granted module (at its top or inside a
    function, run only on some path: the CS336 shape imports the repository's own tests package lazily) is
    itself granted: the loading test above sees only the paths its values take (issue 37: `gate cs336:` failed
    at every child's start, its lazily imported module unreadable under the sandbox)."""
    import ast
    import importlib.util

    from bpe_kata.child import view

    def imported_by(name: str) -> set[str]:
        spec = importlib.util.find_spec(name)
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        package = name if spec.submodule_search_locations else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
                found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
        return {module for module in found if module.split(".")[0] == "bpe_kata" and is_module(module)}

    def is_module(name: str) -> bool:  # not a name imported from a module (from x import CONSTANT)
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, AttributeError):
            return False

    granted = set(view.SERVER_MODULES)
    missing = {name: sorted(imported_by(name) - granted) for name in granted if imported_by(name) - granted}
    assert not missing, missing
