"""Red team against the sandboxed gate and grader (issue 22; docs/GATE.md, "Threat model").

Each attack of tests/red_team/attack_*.py runs under a real ``bpe-kata gate`` (its supervisor,
its verdict process, a sandboxed child) and, all together, under one ``bpe-kata grade``. Every
one must end non-zero and not green, without a hang, with the suite and the expectations file
unchanged and no process of the attack left alive. An attack whose stopping layer this machine
lacks is skipped, and the reason names the layer.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpe_kata.child import sandbox
from bpe_kata.gate.suite import suite_sha256
from tests.support import REPO_ROOT

RED_TEAM = REPO_ROOT / "tests" / "red_team"
LANDLOCK = sandbox.landlock_abi()
NAMESPACES = sandbox.can_unshare()
SECRET = "hunter2-red-team-secret"
#: The merge level's own tests only: each attack's one real mistake (its merge) is what must show.
MERGE = ("--claim", "merge.*", "-k", "test_merge")
#: Suite files an attack tries to change: restored (and the test failed) if one ever succeeds.
TARGETS = [REPO_ROOT / "bpe_kata" / "verdict" / "html_report.py", REPO_ROOT / "spec" / "test_merge.py"]

needs_landlock = pytest.mark.skipif(not LANDLOCK, reason="Landlock is not available in this kernel: "
                                    "the layer that stops this attack is missing (docs/GATE.md)")
needs_signal_scope = pytest.mark.skipif(LANDLOCK < 6, reason=f"Landlock ABI {LANDLOCK} < 6 does not scope signals: "
                                        "the layer that stops this attack is missing")
needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason="no mount namespace (not root with CAP_SYS_ADMIN): "
                                      "Unix sockets under /run stay reachable")
#: One worker runs them all, one after another: each checks that no attack process is left, which
#: another attack running beside it would spoil.
pytestmark = [pytest.mark.heavy, pytest.mark.xdist_group("red_team")]


def bpe_kata() -> str:
    return shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata"))


@dataclass
class Run:
    returncode: int
    output: str
    seconds: float
    report: dict | None


@pytest.fixture
def guarded(tmp_path):
    """The suite as it was, checked (and put back) after the attack; no attack process left alive."""
    saved = {path: path.read_bytes() for path in TARGETS}
    before = suite_sha256()
    yield
    changed = [path for path, data in saved.items() if path.read_bytes() != data]
    for path in changed:
        path.write_bytes(saved[path])
    assert not changed, f"an attack changed the suite: {changed}"
    assert suite_sha256() == before
    left = attack_processes()
    for pid in left:  # failed either way; killed so that one miss does not spoil the next attack's check
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert not left, "a process of the attack outlived the run"


def attack_processes() -> list[int]:
    """This checkout's attack processes: their command line names this checkout's red team folder
    (a process forked from the child keeps it), so a red team run in another checkout is left alone."""
    mine = str(RED_TEAM).encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = open(f"/proc/{entry}/cmdline", "rb").read()
            except OSError:
                continue
            if mine in cmdline and b"attack_" in cmdline and b"pytest" not in cmdline:
                found.append(int(entry))
    return found


def gate(folder: Path, impl: str, *args: str, timeout: float = 300) -> Run:
    env = {**os.environ, "BPE_KATA_RED_TEAM_SECRET": SECRET, "CI_TOKEN": SECRET}
    command = [bpe_kata(), "gate", impl, "-q", "-n", "0", "-p", "no:cacheprovider", "--bpe-report", "report.json",
               "--junitxml", "junit.xml", *args]
    start = time.monotonic()
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
    seconds = time.monotonic() - start
    time.sleep(1.0)  # a daemon that outlived the run would rewrite the report now
    report_file = folder / "report.json"
    report = json.loads(report_file.read_text("utf-8")) if report_file.is_file() else None
    return Run(done.returncode, done.stdout + done.stderr, seconds, report)


def assert_red(run: Run) -> None:
    assert run.returncode == 1, run.output[-3000:]
    assert run.report is not None and run.report["exit_status"] == 1, run.output[-3000:]
    assert run.report["sandbox"]["suite_unchanged"] is True
    assert "red_team" not in run.report


def red(name: str) -> str:
    return str(RED_TEAM / f"{name}.py")


@needs_landlock
def test_a_late_rewrite_of_a_suite_module_is_refused(tmp_path, guarded):
    run = gate(tmp_path, red("attack_late_module_rewrite"), *MERGE, "--bpe-html", "report.html")
    assert_red(run)


@needs_landlock
def test_appending_to_an_installed_suite_module_is_refused(tmp_path, guarded):
    run = gate(tmp_path, red("attack_append_suite_module"), *MERGE)
    assert_red(run)


@needs_landlock
def test_a_setsid_daemon_cannot_rewrite_the_reports(tmp_path, guarded):
    run = gate(tmp_path, red("attack_setsid_daemon"), *MERGE)
    assert_red(run)
    # The daemon never ends by itself, so it is alive when the verdict process ends: the sweep must find it.
    assert run.report["sandbox"]["descendants_killed_after_verdict"] >= 1, run.output[-3000:]
    assert "red_team" not in (tmp_path / "junit.xml").read_text("utf-8")


@needs_landlock
def test_ptrace_of_the_verdict_process_is_refused(tmp_path, guarded):
    run = gate(tmp_path, red("attack_ptrace_verdict"), *MERGE, timeout=200)
    assert_red(run)


@needs_signal_scope
def test_sigstop_of_the_verdict_processes_is_refused(tmp_path, guarded):
    run = gate(tmp_path, red("attack_sigstop_pytest"), *MERGE, timeout=200)
    assert_red(run)


@needs_landlock
def test_the_expectations_file_cannot_be_rewritten(tmp_path, guarded):
    expect = tmp_path / "expect.toml"
    expect.write_text('[[expected]]\nclaim = "merge.pure"\nreason = "known"\n', encoding="utf-8")
    digest = hashlib.sha256(expect.read_bytes()).hexdigest()
    run = gate(tmp_path, red("attack_rewrite_expect"), *MERGE, "--expect", "expect.toml")
    assert_red(run)
    assert hashlib.sha256(expect.read_bytes()).hexdigest() == digest
    assert run.report["sandbox"]["expect"]["sha256"] == digest
    assert run.report["expectations"]["file"] == "expect.toml"


@needs_landlock
def test_nothing_reaches_the_parents_stdout(tmp_path, guarded):
    run = gate(tmp_path, red("attack_parent_stdout"), *MERGE)
    assert_red(run)
    assert "RED-TEAM-FAKE-TABLE" not in run.output.replace("FAKE = ", "")


def test_a_malformed_answer_to_an_invalid_request_is_a_protocol_error(tmp_path, guarded):
    command = f'cmd:"{sys.executable}" "{red("attack_malformed_result")}"'
    run = gate(tmp_path, command, "--claim", "train.min-vocab")
    assert_red(run)
    assert run.report["claims"]["train.min-vocab"]["status"] == "failed"
    assert set(run.report["faults"].values()) == {"protocol error"}
    assert "nonsense" in run.output


def test_sleeping_in_every_call_spends_the_time_budget(tmp_path, guarded):
    run = gate(tmp_path, red("attack_sleeps_per_call"), *MERGE, "--call-timeout", "10", "--time-budget", "4",
               timeout=200)
    assert_red(run)
    assert "over budget" in run.report["faults"].values(), (run.report["faults"], run.output[-3000:])
    assert run.seconds < 120


@needs_landlock
def test_the_suites_reference_cannot_be_imported(tmp_path, guarded):
    run = gate(tmp_path, red("attack_imports_reference"), *MERGE)
    assert_red(run)
    assert run.report["sandbox"]["hidden_from_child"]


@needs_landlock
def test_no_other_implementation_the_suite_ships_can_be_borrowed(tmp_path, guarded):
    run = gate(tmp_path, red("attack_imports_shipped_implementation"), *MERGE)
    assert_red(run)
    assert "BORROWED" not in run.output
    assert any(path.endswith("implementations") for path in run.report["sandbox"]["hidden_from_child"])


def test_not_implemented_where_wrong_fails_under_the_gate(tmp_path, guarded):
    run = gate(tmp_path, red("attack_notimplemented_where_wrong"), *MERGE)
    assert_red(run)
    assert run.report["levels"]["merge"]["status"] == "FAILED"


@needs_namespaces
def test_no_secret_in_the_environment_and_no_socket_under_run(tmp_path, guarded):
    path = Path("/run") / f"bpe-kata-red-team-{os.getpid()}.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(5)
    server.settimeout(0.2)
    accepted: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            accepted.append(connection.recv(100))
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        run = gate(tmp_path, red("attack_env_and_sockets"), *MERGE)
    finally:
        stop.set()
        thread.join()
        server.close()
        path.unlink(missing_ok=True)
    assert_red(run)
    assert SECRET not in run.output and "LEAKED" not in run.output
    assert accepted == [] and "CONNECTED" not in run.output


ATTACKS = ["attack_late_module_rewrite", "attack_append_suite_module", "attack_setsid_daemon", "attack_ptrace_verdict",
           "attack_sigstop_pytest", "attack_parent_stdout", "attack_sleeps_per_call", "attack_imports_reference",
           "attack_imports_shipped_implementation", "attack_notimplemented_where_wrong", "attack_env_and_sockets"]


@needs_signal_scope
@needs_namespaces
def test_every_attack_under_grade(tmp_path, guarded):
    """One class of attackers, graded side by side: no row green, no row rewritten, nothing left."""
    submissions = [red(name) for name in ATTACKS] + [f'cmd:"{sys.executable}" "{red("attack_malformed_result")}"']
    command = [bpe_kata(), "grade", *submissions, "--timeout", "240", "--jobs", "2", "--plain",
               "--csv", str(tmp_path / "class.csv"), "--reports", str(tmp_path / "reports"),
               "--", "--claim", "merge.*", "--claim", "train.min-vocab", "-k", "test_merge or test_vocab_below",
               "--time-budget", "4"]
    env = {**os.environ, "BPE_KATA_RED_TEAM_SECRET": SECRET}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    time.sleep(1.0)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    import csv

    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    assert len(rows) == len(submissions)
    assert all(not row["result"].startswith("green") for row in rows.values()), rows
    assert rows["attack_imports_reference"]["flags"].startswith("imports the suite's reference")
    assert rows["attack_notimplemented_where_wrong"]["merge"].startswith("failed")
    assert SECRET not in done.stdout + done.stderr
    for report in (tmp_path / "reports").glob("*.json"):
        data = json.loads(report.read_text("utf-8"))
        assert data["exit_status"] == 1 and "red_team" not in data, report.name
