"""The gate writes nothing in the judged folder: only the outputs it was asked for.

Its verdict process used to keep pytest's cache and Hypothesis's example database in the working
folder (the judged repository), where a committed symlink sends those writes anywhere the user can
write. The rule: a gate keeps no pytest cache and no example database (issue 36, files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BPE_KATA = Path(sys.executable).with_name("bpe-kata")


@pytest.mark.heavy
def test_a_gate_writes_nothing_through_the_judged_folders_symlinks(tmp_path):
    judged, elsewhere = tmp_path / "judged", tmp_path / "elsewhere"
    judged.mkdir()
    for name in (".hypothesis", ".pytest_cache"):
        (elsewhere / name).mkdir(parents=True)
        (judged / name).symlink_to(elsewhere / name)
    env = {**os.environ, "HYPOTHESIS_PROFILE": "default"}
    run = subprocess.run([str(BPE_KATA), "gate", "reference", "--level", "bytes", "-q"], cwd=judged, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    written = sorted(str(p.relative_to(elsewhere)) for p in elsewhere.rglob("*") if p.is_file())
    assert written == [], f"the gate wrote through the judged folder's symlinks: {written[:10]}"
    assert sorted(p.name for p in judged.iterdir()) == [".hypothesis", ".pytest_cache"]
