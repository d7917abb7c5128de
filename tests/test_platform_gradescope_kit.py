"""``bpe-kata autograder gradescope DIR`` (issue 40): the kit's files, the shapes its runner recognises, and
Gradescope simulated offline: an ``/autograder`` tree in a temporary root, ``run_autograder`` run as Gradescope
runs it, on the reference (full marks), a wrong submission (scored by level) and a hanging one (results.json
all the same)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from bpe_kata import cli
from bpe_kata.tools import gradescope_runner
from tests.support import REPO_ROOT, assert_valid

SHAPES = REPO_ROOT / "tests" / "course_shapes"


def test_the_kit_pins_this_version_and_its_scripts_are_valid_bash(tmp_path):
    assert cli.main(["autograder", "gradescope", str(tmp_path / "kit"), "--", "--level", "train"]) == 0
    kit = tmp_path / "kit"
    assert sorted(p.name for p in kit.iterdir()) == ["points.toml", "run_autograder", "setup.sh"]
    setup, run = (kit / "setup.sh").read_text(), (kit / "run_autograder").read_text()
    assert f'REQUIREMENT="bpe-kata[tables]=={metadata.version("bpe-kata")}"' in setup
    assert "uv python install 3.12" in setup
    assert "bpe-kata\" data fetch" in setup
    assert run.rstrip().endswith("-- --level train")
    for script in ("setup.sh", "run_autograder"):
        assert os.access(kit / script, os.X_OK)
        assert subprocess.run(["bash", "-n", str(kit / script)]).returncode == 0


def test_a_kit_with_a_wheel_installs_that_wheel_by_a_requirement_pip_and_uv_both_read(tmp_path):
    from packaging.requirements import Requirement

    wheel = tmp_path / "bpe_kata-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"not a real wheel: only its name is read here")
    assert cli.main(["autograder", "gradescope", str(tmp_path / "kit"), "--wheel", str(wheel)]) == 0
    assert (tmp_path / "kit" / wheel.name).is_file()
    setup = (tmp_path / "kit" / "setup.sh").read_text()
    line = next(line for line in setup.splitlines() if "@ file://" in line)
    requirement = Requirement(line.split('REQUIREMENT="', 1)[1].rstrip('"; fi').replace("$WHEEL", str(wheel)))
    assert (requirement.name, requirement.extras, requirement.url) == ("bpe-kata", {"tables"}, f"file://{wheel}")


def test_the_kit_refuses_a_wrong_points_file(tmp_path, capsys):
    bad = tmp_path / "points.toml"
    bad.write_text("[levels]\nmerges = 5\n", encoding="utf-8")
    assert cli.main(["autograder", "gradescope", str(tmp_path / "kit"), "--points", str(bad)]) == 2
    assert "'merges'" in capsys.readouterr().err and not (tmp_path / "kit").exists()


def test_the_runner_finds_each_shape_check_accepts(tmp_path):
    find = gradescope_runner.impl_value
    cs336 = tmp_path / "cs336"
    shutil.copytree(SHAPES / "cs336_right", cs336)
    assert find(cs336) == f"cs336:{cs336}"
    minbpe = tmp_path / "minbpe"
    shutil.copytree(SHAPES / "minbpe_right", minbpe)
    assert find(minbpe) == f"minbpe:{minbpe}"
    package = tmp_path / "package"
    shutil.copytree(REPO_ROOT / "reference", package / "mybpe")
    assert find(package) == str(package / "mybpe")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "helpers.py").write_text("def tidy(x):\n    return x\n", encoding="utf-8")
    (plain / "work.py").write_text("def train(text, vocab_size):\n    ...\ndef encode(text, merges):\n    ...\n",
                                   encoding="utf-8")
    assert find(plain) == str(plain / "work.py")
    (plain / "bpe.py").write_text("", encoding="utf-8")
    assert find(plain) == str(plain / "bpe.py")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(gradescope_runner.NotFound, match="no Python file"):
        find(empty)


def _autograder(tmp_path: Path, submission: Path | None, *gate: str) -> Path:
    """An /autograder tree as Gradescope lays it out: the kit unzipped in source/, run_autograder at the root."""
    root = tmp_path / "autograder"
    assert cli.main(["autograder", "gradescope", str(tmp_path / "kit"), "--", *gate]) == 0
    shutil.copytree(tmp_path / "kit", root / "source")
    shutil.copy2(tmp_path / "kit" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    if submission is not None:
        shutil.copytree(submission, root / "submission", dirs_exist_ok=True)
    return root


def _run_autograder(root: Path, timeout: float, **env: str) -> dict:
    environment = {**os.environ, "BPE_KATA_AUTOGRADER_ROOT": str(root), "BPE_KATA_PYTHON": sys.executable, **env}
    subprocess.run([str(root / "run_autograder")], cwd=root, env=environment, timeout=timeout,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert_valid("gradescope", results, "results.json")
    return results


def test_an_empty_submission_still_gets_results_saying_why(tmp_path):
    results = _run_autograder(_autograder(tmp_path, None), timeout=60)
    assert results["score"] == 0 and "no Python file" in results["output"]


def _wrong_reference(tmp_path: Path) -> Path:
    """The reference with get_stats counting (a, a) in (a, a, a) once: overlapping pairs skipped."""
    folder = tmp_path / "wrong_src"
    shutil.copytree(REPO_ROOT / "reference", folder)
    core = folder / "core.py"
    text = core.read_text(encoding="utf-8")
    right = "    return dict(Counter(zip(ids, islice(ids, 1, None))))\n"
    assert right in text
    core.write_text(text.replace(right, "    counts, k = {}, 0\n    while k + 1 < len(ids):\n"
                                        "        pair = (ids[k], ids[k + 1])\n"
                                        "        counts[pair] = counts.get(pair, 0) + 1\n"
                                        "        k += 2 if k + 2 < len(ids) and ids[k + 2] == ids[k + 1] == ids[k] "
                                        "else 1\n    return counts\n"), encoding="utf-8")
    return folder


@pytest.mark.heavy
def test_gradescope_simulated_scores_the_reference_full_and_a_wrong_submission_by_level(tmp_path):
    right = _run_autograder(_autograder(tmp_path / "right", REPO_ROOT / "reference", "--level", "pairs"), 600)
    assert right["score"] == 20 and [t["status"] for t in right["tests"]] == ["passed", "passed"]
    wrong = _run_autograder(_autograder(tmp_path / "wrong", _wrong_reference(tmp_path), "--level", "pairs"), 600)
    assert [t["status"] for t in wrong["tests"]] == ["passed", "failed"]
    assert 10 <= wrong["score"] < 20 and "pairs.adjacent-overlapping" in wrong["output"]


@pytest.mark.heavy
def test_gradescope_simulated_a_hanging_submission_still_writes_results(tmp_path):
    hanging = tmp_path / "hanging_src"
    shutil.copytree(REPO_ROOT / "reference", hanging)
    core = hanging / "core.py"
    core.write_text(core.read_text(encoding="utf-8").replace('    ids = _sequence(ids)\n',
                                                              "    while True:\n        pass\n", 1), encoding="utf-8")
    root = _autograder(tmp_path, hanging, "--level", "pairs")
    results = _run_autograder(root, timeout=300, BPE_KATA_WALL_LIMIT="30")
    assert results["score"] < 20 and results["tests"]
    assert "wall limit" in results["output"]


def test_a_kit_can_hide_the_tests_until_the_due_date(tmp_path):
    assert cli.main(["autograder", "gradescope", str(tmp_path / "kit"), "--visibility", "after_due_date"]) == 0
    assert "--visibility after_due_date --" in (tmp_path / "kit" / "run_autograder").read_text()
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"score": 1, "output": "", "tests": [
        {"name": "level bytes", "number": "1", "score": 1, "max_score": 1, "status": "passed", "output": "",
         "visibility": "visible"}]}), encoding="utf-8")
    gradescope_runner.set_visibility(results, "after_due_date")
    document = json.loads(results.read_text(encoding="utf-8"))
    assert_valid("gradescope", document)
    assert [t["visibility"] for t in document["tests"]] == ["after_due_date"]
