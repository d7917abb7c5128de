"""docs/GATE.md, tried from a scratch folder: write an expectations file, gate with it, publish JUnit.

Real ``bpe-kata gate`` processes: the report and the JUnit file
come from the main process, complete (the second run
uses two xdist workers, each with its own child). The spec is narrowed to the decode claims to stay quick.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from bpe_kata.verdict.outcomes import COLUMNS as OUTCOME_COLUMNS
from tests.support import REPO_ROOT

NARROW = ["--claim", "decode.*", "-m", "not corpus", "-q", "-p", "no:cacheprovider"]

#: A learner-style file: a copy of the reference with strict UTF-8 decoding (decode.replace-128
#: fails). A copy: under the gate the child cannot read the suite's own reference (docs/GATE.md).
MY_BPE = '''
from my_reference import *  # noqa: F403


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8")
'''


def gate(folder: Path, *args: str) -> subprocess.CompletedProcess:
    command = [shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata")), "gate", *args, *NARROW]
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def scratch(tmp_path) -> Path:
    (tmp_path / "my_bpe.py").write_text(MY_BPE, encoding="utf-8")
    shutil.copytree(REPO_ROOT / "reference", tmp_path / "my_reference", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.heavy
def test_the_recipe_from_a_scratch_folder(scratch):
    """The file itself writes the expectations; the same file served through cmd: is gated with them."""
    first = gate(scratch, "my_bpe.py", "--write-expect", "bpe-kata-expect.toml", "-n", "0")
    assert first.returncode == 1, first.stdout[-3000:] + first.stderr[-3000:]
    written = (scratch / "bpe-kata-expect.toml").read_text(encoding="utf-8")
    # exactly what failed: decode.replace-128 also has tests that pass, so its failing tests are named by id
    assert 'claim = "decode.replace-128"' not in written and 'test = "spec/test_decode.py::' in written, written

    served = f'cmd:"{sys.executable}" -m bpe_kata.child.server my_bpe.py'
    second = gate(scratch, served, "-n", "2", "--expect", "bpe-kata-expect.toml", "--junitxml", "bpe-kata.xml",
                  "--bpe-report", "bpe-kata.json")
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    report = json.loads((scratch / "bpe-kata.json").read_text(encoding="utf-8"))
    assert report["complete"] is True and report["exit_status"] == 0 and report["isolated"] is True
    assert report["selected"] == report["finished"] > 0
    assert report["expectations"]["unexpected_failures"] == {} and report["expectations"]["expected_failures"]
    assert report["claims"]["decode.replace-128"]["status"] == "failed"
    cases = list(ElementTree.parse(scratch / "bpe-kata.xml").getroot().iter("testcase"))
    assert len(cases) == report["selected"]
    # Each spec test case carries its outcome; tallied per level, JUnit says what the JSON says.
    tally: dict[str, Counter] = defaultdict(Counter)
    for case in cases:
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        if "bpe_level" in properties:
            tally[properties["bpe_level"]][properties["bpe_outcome"].replace("feature not started", "not started")] += 1
    assert {
        level: {o: n for o, n in counts.items() if o in OUTCOME_COLUMNS and n}
        for level, counts in report["levels"].items()
    } == {level: dict(counts) for level, counts in tally.items()}
