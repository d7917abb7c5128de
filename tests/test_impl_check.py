"""Kind 11 of issue 36: ``bpe-kata gate IMPL`` where IMPL names nothing stops at once, with one line.

Before, ``gate nosuch.py`` ran the whole suite and printed a failure for every test."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bpe_kata.run import impl_check
from tests.support import REPO_ROOT

GATE = [sys.executable, "-m", "bpe_kata.cli", "gate"]


@pytest.mark.parametrize("value", ["nosuch.py", "nosuch_module_xyz", "solutions.nosuch", "a_folder"])
def test_a_gate_of_nothing_says_so_in_one_line_and_exits_2(tmp_path, value):
    (tmp_path / "a_folder").mkdir()  # a folder without the module: no __init__.py
    done = subprocess.run([*GATE, value, "--level", "bytes"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1, lines[:20]
    assert "implementation not found" in lines[0] and value in lines[0] and "cmd:" in lines[0]


@pytest.mark.parametrize("value", ["reference", "tests.red_team.hangs", "tests/red_team/hangs.py", "reference/",
                                   "cmd:whatever", "cs336:anything"])
def test_what_exists_is_found_without_importing_it(value):
    assert impl_check.problem(value, REPO_ROOT) is None
    assert "tests.red_team.hangs" not in sys.modules


def test_the_reference_is_found_from_a_folder_outside_the_clone(tmp_path):
    assert impl_check.problem("reference", tmp_path) is None
