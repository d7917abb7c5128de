"""Attacks on the verdict itself (issue 36, kinds 4, 7, 8, 9): what the judged code answers, what an
expectations file says, and what a report or JUnit file claims afterwards must never turn a red run green.

Each test is written as the attack; each failed on the code before the rule it checks was built.
"""

from __future__ import annotations

import sys

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
