"""Attacks on the verdict itself (issue 36, kinds 4, 7, 8, 9): what the judged code answers, what an
expectations file says, and what a report or JUnit file claims afterwards must never turn a red run green.

Each test is written as the attack; each failed on the code before the rule it checks was built.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.support import REPO_ROOT, run_gate_inline

RED_TEAM = REPO_ROOT / "tests" / "red_team"
LOW_LEVELS = ("--level", "merge", "-m", "not corpus")
LOW_FILES = ["spec/test_facts.py", "spec/test_bytes.py", "spec/test_pairs.py", "spec/test_merge.py"]


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- kind 4: the child must not choose which claim its failures are charged to -------------------------


def test_blaming_every_failure_on_encode_frozen_excuses_nothing_else(tmp_path):
    """Every call answered "changed input": each failure is blamed on encode.frozen, and one entry for that
    claim must still excuse only tests whose own claims include it (none of these levels' tests do)."""
    command = f'cmd:"{sys.executable}" "{RED_TEAM / "attack_blames_frozen.py"}"'
    expect = write(tmp_path, "expect.toml", '[[expected]]\nclaim = "encode.frozen"\nreason = "known"\n')
    run = run_gate_inline(tmp_path, command, *LOW_LEVELS, "--expect", expect, files=LOW_FILES)
    assert run.returncode == 1, run.report["expectations"]
    assert run.report["expectations"]["unexpected_failures"] and not run.report["expectations"]["expected_failures"]
    assert run.claim_status("encode.frozen") == "failed"  # the report still says what the child did


# --- kind 8: expectations that hide regressions ---------------------------------------------------------

PAIRS_IMPL = '''
def encode(text, merges):
    return list(text.encode("utf-8"))

def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    if {WRONG_ON}:
        return dict(reversed(list(counts.items())))
    return counts
'''
#: v1 is wrong on one case of pairs.first-seen-order; v2 regresses on another test of that claim.
V1 = PAIRS_IMPL.replace("{WRONG_ON}", "list(ids) == [300, 5, 2, 5, 300]")
V2 = PAIRS_IMPL.replace("{WRONG_ON}",
                        "list(ids) in ([300, 5, 2, 5, 300], [97, 97, 97, 98, 100, 97, 97, 97, 98, 97, 99])")
PAIRS = ("--level", "pairs", "-m", "not corpus")
PAIRS_FILES = ["spec/test_facts.py", "spec/test_bytes.py", "spec/test_pairs.py"]


def test_a_written_expectations_file_does_not_hide_a_later_regression(tmp_path):
    written = tmp_path / "written.toml"
    first = run_gate_inline(tmp_path, write(tmp_path, "v1.py", V1), *PAIRS, "--write-expect", str(written),
                            files=PAIRS_FILES)
    assert first.returncode == 1 and len(first.report["expectations"]["unexpected_failures"]) == 1
    assert run_gate_inline(tmp_path, write(tmp_path, "v1_again.py", V1), *PAIRS, "--expect", str(written),
                           files=PAIRS_FILES).returncode == 0
    regressed = run_gate_inline(tmp_path, write(tmp_path, "v2.py", V2), *PAIRS, "--expect", str(written),
                                files=PAIRS_FILES)
    assert regressed.returncode == 1, written.read_text("utf-8")
    assert list(regressed.report["expectations"]["unexpected_failures"]) == [
        "spec/test_pairs.py::test_get_stats_case[pairs-aaabdaaabac]"]


BAD_ENTRIES = {
    "everything": 'claim = "*"',
    "levels by prefix": 'claim = "p*"',  # pairs.*, persist.*, pretrained.*: every claim of level pairs
    "a whole level by prefix": 'claim = "merge.*"',
    "unknown claim": 'claim = "merge.no-such-claim"',
    "unknown level": 'level = "no-such-level"',
    "unknown test": 'test = "spec/test_merge.py::test_no_such_test"',
    "a whole module": 'test = "spec/test_merge.py::*"',
    "any test": 'test = "*"',
}


def gate_process(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpe_kata.cli", "gate", *args, "-n", "0", "-p", "no:cacheprovider"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("entry", BAD_ENTRIES.values(), ids=BAD_ENTRIES.keys())
def test_blanket_and_unknown_entries_are_refused_naming_your_file(tmp_path, entry):
    """Without --strict-expect, before any test runs: exit 2, one line naming the file given and the entry."""
    good = '[[expected]]\nclaim = "merge.pure"\nreason = "known"\n'
    write(tmp_path, "my-expect.toml", f'{good}\n[[expected]]\n{entry}\nreason = "hide it all"\n')
    done = gate_process(tmp_path, str(RED_TEAM / "_wrong_merge.py"), "--level", "merge", "--expect", "my-expect.toml")
    lines = [line for line in done.stderr.splitlines() if "my-expect.toml" in line]
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert len(lines) == 1 and "entry 2" in lines[0] and "--expect my-expect.toml" in lines[0], done.stderr
    assert "run-" not in done.stderr  # never the supervisor's private copy


def test_a_syntax_error_names_your_file_and_exits_2(tmp_path):
    write(tmp_path, "my-expect.toml", "[[expected]\nclaim = \n")
    done = gate_process(tmp_path, str(RED_TEAM / "_wrong_merge.py"), "--level", "merge", "--expect", "my-expect.toml")
    assert done.returncode == 2 and "--expect my-expect.toml" in done.stderr and "run-" not in done.stderr, done.stderr


def test_a_bad_flag_of_gate_exits_2_not_pytest_4(tmp_path):
    done = gate_process(tmp_path, str(RED_TEAM / "_wrong_merge.py"), "--level", "no-such-level")
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]


# --- kind 7: a report edited by hand ----------------------------------------------------------------------

EXPECTED = '[[expected]]\nclaim = "merge.pure"\nreason = "known"\n'


@pytest.fixture(scope="module")
def red_report(tmp_path_factory) -> tuple[Path, dict, str | None]:
    """A real gate's report of a wrong merge (red), its expectations file, and the digest the gate printed."""
    folder = tmp_path_factory.mktemp("red")
    write(folder, "expect.toml", EXPECTED)
    done = gate_process(folder, str(RED_TEAM / "_wrong_merge.py"), *LOW_LEVELS, "--expect", "expect.toml",
                        "--bpe-report", "report.json", "--junitxml", "junit.xml")
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    printed = re.search(r"bpe-kata: report sha256 ([0-9a-f]{64}) (.*report\.json)$", done.stderr, re.M)
    return folder, json.loads((folder / "report.json").read_text("utf-8")), printed.group(1) if printed else None


def verify(folder: Path, data: dict | None, *args: str) -> subprocess.CompletedProcess:
    name = "report.json"
    if data is not None:
        name = "edited.json"
        (folder / name).write_text(json.dumps(data), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "bpe_kata.cli", "verify-report", name, "--allow-unsandboxed", *args],
                          cwd=folder, capture_output=True, text=True, timeout=120)


def _green(report: dict) -> None:
    report["complete"], report["exit_status"] = True, 0


def _levels_green(report: dict) -> None:
    _green(report)
    for row in report["levels"].values():
        row["passed"], row["failed"], row["status"] = row["passed"] + row["failed"], 0, "green"


def _outcomes_passed(report: dict) -> None:
    _levels_green(report)
    for record in report["tests"].values():
        record["outcome"] = "passed" if record["outcome"] == "failed" else record["outcome"]


def _nothing_unexpected(report: dict) -> None:
    _green(report)
    unexpected = report["expectations"].pop("unexpected_failures")
    report["expectations"]["unexpected_failures"] = {}
    report["expectations"]["expected_failures"].update(dict.fromkeys(unexpected, "known"))


EDITS = {"complete and exit_status": _green, "levels green": _levels_green,
         "outcomes passed": _outcomes_passed, "nothing unexpected": _nothing_unexpected}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_an_edited_red_report_is_refused(red_report, edit):
    folder, report, _ = red_report
    edited = copy.deepcopy(report)
    edit(edited)
    done = verify(folder, edited, "--expect", "expect.toml")
    assert done.returncode == 1 and "does not follow" in done.stderr, done.stdout + done.stderr


def test_the_report_digest_and_the_expectations_file_are_checked(red_report):
    folder, _, digest = red_report
    assert digest, "the gate prints the report's digest ('bpe-kata: report sha256 HEX FILE')"
    honest = verify(folder, None, "--expect", "expect.toml", "--sha256", digest)
    assert honest.returncode == 1 and "does not follow" not in honest.stderr, honest.stderr  # red, but consistent
    assert "sha256" in verify(folder, None, "--expect", "expect.toml", "--sha256", "0" * 64).stderr
    assert "pass it with --expect" in verify(folder, None).stderr
    write(folder, "other.toml", EXPECTED + "\n")
    assert "not the file the run used" in verify(folder, None, "--expect", "other.toml").stderr


# --- kind 9: every output says what the exit status says ----------------------------------------------------

STUB = "def encode(text, merges):\n    raise NotImplementedError\n"
HANGS = "import time\ntime.sleep(3600)\n"


def junit_failures(path: Path) -> int:
    root = ElementTree.parse(path).getroot()
    return int(root.get("failures") or sum(int(s.get("failures", 0)) for s in root.iter("testsuite")))


@pytest.mark.heavy
def test_junit_summary_badge_report_and_exit_status_agree(tmp_path):
    """Green, red, not started and a supervisor failure (the wall limit): the JUnit file has failures exactly
    when the gate exits non-zero, and the report, the job summary and the badge say the same."""
    runs = {"green": (str(REPO_ROOT / "reference"), "--level", "bytes", "-m", "not corpus"),
            "red": (str(RED_TEAM / "_wrong_merge.py"), *LOW_LEVELS),
            "not started": (write(tmp_path, "stub.py", STUB), "--level", "pairs", "-m", "not corpus"),
            "wall limit": (write(tmp_path, "hangs.py", HANGS), "--level", "bytes", "--wall-limit", "6")}
    seen = {}
    for name, args in runs.items():
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        done = gate_process(folder, *args, "--bpe-report", "report.json", "--junitxml", "junit.xml")
        report = json.loads((folder / "report.json").read_text("utf-8"))
        subprocess.run([sys.executable, "-m", "bpe_kata.cli", "summary", "report.json", "--markdown", "summary.md",
                        "--badge", "badge.json"], cwd=folder, check=True, capture_output=True, timeout=60)
        summary = (folder / "summary.md").read_text("utf-8").splitlines()[0]
        badge = json.loads((folder / "badge.json").read_text("utf-8"))
        seen[name] = (done.returncode, report["exit_status"], junit_failures(folder / "junit.xml") > 0,
                      "FAILED" in summary, badge["color"] == "red")
    assert seen == {"green": (0, 0, False, False, False), "red": (1, 1, True, True, True),
                    "not started": (1, 1, True, True, True), "wall limit": (1, 1, True, True, True)}, seen


@pytest.mark.heavy
def test_failures_an_expectations_file_excused_are_named_and_refused_on_request(tmp_path):
    """An expectations file may excuse whole levels (the judged repository writes it): verify-report says how
    many failures it excused, and --no-expected refuses any."""
    write(tmp_path, "expect.toml", '[[expected]]\nclaim = "merge.left-to-right"\nreason = "known"\n\n'
                                   '[[expected]]\nlevel = "bytes"\nreason = "no encode yet"\n')
    done = gate_process(tmp_path, str(RED_TEAM / "_wrong_merge.py"), *LOW_LEVELS, "--expect", "expect.toml",
                        "--bpe-report", "report.json")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    accepted = verify(tmp_path, None, "--expect", "expect.toml", "--partial")
    assert accepted.returncode == 0 and "failures excused by the expectations file" in accepted.stdout, accepted
    refused = verify(tmp_path, None, "--expect", "expect.toml", "--partial", "--no-expected")
    assert refused.returncode == 1 and "excused by the expectations file (--no-expected)" in refused.stderr
