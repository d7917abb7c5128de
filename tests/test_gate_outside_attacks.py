"""Attacks an outside tester wrote against the landed gate, each closed as a kind (issue 36; docs/GATE.md,
"Channel inventory"): a save that leaves a link or a FIFO for the verdict process to read, a link to the
suite's reference passed off as one's own implementation, an old report left at the output path, a gate
stopped by its CI job, a graded submission importing a classmate's. Each runs a real ``bpe-kata`` command.
"""

from __future__ import annotations

import csv
import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

BPE_KATA = str(Path(sys.executable).with_name("bpe-kata"))
QUIET = ("-q", "-p", "no:cacheprovider", "-n", "0")


def bpe_kata(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([BPE_KATA, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def own_copy_of_the_reference(folder: Path, name: str = "my_bpe", extra: str = "") -> str:
    """A user's implementation: a copy of the reference (the suite's own is hidden from the child), plus ``extra``."""
    shutil.copytree(REPO_ROOT / "reference", folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / name / "__init__.py", "a", encoding="utf-8") as init:
        init.write(extra)
    return name


SAVE_LEAVES = {
    "a link to a secret": "    os.symlink({secret!r}, path)\n",
    "a FIFO": "    os.mkfifo(path)\n",
}


@pytest.mark.heavy
@pytest.mark.parametrize("leaves", SAVE_LEAVES.values(), ids=SAVE_LEAVES.keys())
def test_a_save_leaving_anything_but_a_file_is_a_protocol_error(tmp_path, leaves):
    """The verdict process reads what ``save`` left: through a link it would show what the sandbox hides, on
    a FIFO it would block forever. Either is a protocol error, and the run ends red, soon."""
    secret = tmp_path / "token"
    secret.write_text("SECRET-TOKEN-4711\n", encoding="utf-8")
    secret.chmod(0o600)
    impl = own_copy_of_the_reference(tmp_path, extra="\n\nimport os\n\n\ndef save(path, merges, **kwargs):\n"
                                     + leaves.format(secret=str(secret)))
    start = time.monotonic()
    done = bpe_kata("gate", impl, "--claim", "persist.format", *QUIET, cwd=tmp_path, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output[-3000:]
    assert "SECRET-TOKEN-4711" not in output
    assert "not a file" in output, output[-3000:]
    assert time.monotonic() - start < 240


@pytest.mark.heavy
def test_a_link_to_the_suites_reference_is_not_the_reference(tmp_path):
    """Gating a repository whose implementation is a link into the suite: the child is shown nothing of it."""
    (tmp_path / "my_bpe").symlink_to(REPO_ROOT / "reference")
    done = bpe_kata("gate", "my_bpe", "--level", "bytes", *QUIET, "--bpe-report", "r.json", cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert json.loads((tmp_path / "r.json").read_text("utf-8"))["sandbox"]["visible_to_child"] == []


def test_an_output_path_never_holds_a_file_this_run_did_not_write(tmp_path):
    """A run that stops before its report (an expectations file refused: exit 2) leaves no report behind: an old
    or committed one would be attested, summarised and verified as this run's."""
    (tmp_path / "expect.toml").write_text('[[expected]]\nclaim = "no.such-claim"\nreason = "x"\n', encoding="utf-8")
    for name in ("report.json", "junit.xml", "page.html"):
        (tmp_path / name).write_text("committed by the judged repository\n", encoding="utf-8")
    done = bpe_kata("gate", "reference", "--level", "bytes", *QUIET, "--expect", "expect.toml", "--bpe-report",
                    "report.json", "--junitxml", "junit.xml", "--bpe-html", "page.html", cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["expect.toml"]


def processes_naming(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.heavy
def test_a_gate_stopped_by_its_ci_job_leaves_no_process(tmp_path):
    """A CI timeout sends SIGTERM to the gate: the verdict process and the child, in sessions of their own,
    are killed with it, and the exit status says it was stopped."""
    impl = tmp_path / "hangs_in_every_call.py"
    impl.write_text("import time\n\n\ndef get_stats(ids):\n    time.sleep(3600)\n", encoding="utf-8")
    gate = subprocess.Popen([BPE_KATA, "gate", str(impl), "--level", "pairs", *QUIET, "--call-timeout", "600"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(processes_naming(str(impl))) < 3 and time.monotonic() < deadline:  # the gate, its verdict, the child
        time.sleep(0.5)
    assert len(processes_naming(str(impl))) >= 3, "the child never started"
    time.sleep(2)
    gate.send_signal(signal.SIGTERM)
    output, _ = gate.communicate(timeout=60)
    assert gate.returncode == 128 + signal.SIGTERM, output[-2000:]
    time.sleep(1)
    assert processes_naming(str(impl)) == [], "processes of the stopped gate live on"


@pytest.mark.heavy
def test_a_graded_submission_cannot_import_a_classmates(tmp_path):
    """Under grade the child reads its own submission's folder, never the class folder beside it."""
    own_copy_of_the_reference(tmp_path, "alice")
    (tmp_path / "mallory").mkdir()
    (tmp_path / "mallory" / "__init__.py").write_text("from alice import *  # noqa\n", encoding="utf-8")
    done = bpe_kata("grade", "alice", "mallory", "--csv", "class.csv", "--", "--level", "bytes",
                    "--hypothesis-profile", "fast", cwd=tmp_path)
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    assert rows["alice"]["bytes"] == "green", (rows, done.stdout[-2000:])
    # mallory cannot import alice from its sandbox: it could not load, or (given a way) fails its levels
    assert rows["mallory"]["bytes"] != "green" and rows["mallory"]["result"] in ("failed", "could not load"), rows
    assert done.returncode != 0


def test_the_log_shows_the_judged_codes_text_but_none_of_its_terminal_control():
    from bpe_kata.gate.log_text import shown

    assert shown("\x1b[2J\x1b[1;1Hfake table\n") == "\\x1b[2J\\x1b[1;1Hfake table\n"
    assert shown("red\rgreen\u202e\x07\n") == "red\\rgreen\\u202e\\x07\n"
    assert shown("\x1b[32mpassed\x1b[0m\tok\r\n") == "\x1b[32mpassed\x1b[0m\tok\n"  # pytest's colours, a CRLF end
    imitation = shown("  bpe-kata: report sha256 " + "0" * 64 + " r.json\n")
    marked = "  bpe-kata: report sha256 [printed by the run, not by the supervisor] "
    assert imitation == marked + "0" * 64 + " r.json\n"


@pytest.mark.heavy
def test_an_error_message_cannot_clear_or_rewrite_the_gates_log(tmp_path):
    impl = tmp_path / "shouts.py"
    impl.write_text('def get_stats(ids):\n    raise ValueError("\\x1b[2J\\x1b[H\\rbytes  9  0  green\\u202e")\n',
                    encoding="utf-8")
    done = bpe_kata("gate", str(impl), "--level", "pairs", *QUIET, cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output[-2000:]
    assert "\x1b" not in output and "\r" not in output and "\u202e" not in output, repr(output[-2000:])
    assert "\\x1b[2J" in output, output[-3000:]
