"""docs/EXTENDING.md's recipe for a new claim, followed in a copy of the repository (issue 39, item 5).

The recipe lists every file a new claim touches. Here a made-up claim of level merge goes through it step
by step: its ledger entry, a worked case, a spec test, the README's claim count and docs/COURSES.md's
counts. Then the self-tests that watch those files and the spec on the reference, for that claim, must be
green. Leaving out any one step must make a named self-test fail: so the recipe lists no step too many
and, as far as these self-tests see, none too few.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

CLAIM = "merge.kata-recipe"

#: What the copy needs: the spec, the runner, the reference, the suite's tests and the pages they check
#: (the docs-facts test checks every file a page names, so the pages' folders come too).
COPIED = ("spec", "bpe_kata", "reference", "solutions", "tests", "docs", "benchmarks", "mutation", ".ci",
          "conftest.py", "pyproject.toml", "README.md", "CHANGELOG.md", "action.yml", "MANIFEST.in")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", "*.egg-info")


#: The self-tests the recipe's ✓ marks name.
SELF_TESTS = ("tests/test_ledger.py", "tests/test_docs_facts.py", "tests/test_cases.py",
              "tests/test_case_collector.py", "tests/test_course_counts.py")


def _copy(destination: Path) -> Path:
    destination.mkdir()
    for name in COPIED:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=LEFT_OUT)
        elif source.exists():
            shutil.copy2(source, destination / name)
    return destination


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: the recipe test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _claim_count(root: Path) -> int:
    return len(re.findall(r"^\[\[claim\]\]$", (root / "spec/claims.toml").read_text(encoding="utf-8"), re.M))


def follow_the_claim_recipe(root: Path, skip: str = "") -> None:
    """docs/EXTENDING.md, "A new claim", on ``root``: every step but ``skip``."""
    total = _claim_count(root)
    if skip != "ledger":
        with (root / "spec/claims.toml").open("a", encoding="utf-8") as ledger:
            ledger.write(f'\n[[claim]]\nid = "{CLAIM}"\nlevel = "merge"\nkind = "contract"\n'
                         'rests_on = ["merge.left-to-right"]\nsources = ["d0"]\nadded = true\n'
                         'statement = "A made-up claim of the recipe test: merging a pair that is absent '
                         'gives the ids back as they came, merge([4, 5], (6, 7), 300) == [4, 5]."\n')
    if skip != "case":
        cases = root / "spec/cases/merge.json"
        data = json.loads(cases.read_text(encoding="utf-8"))
        data["cases"].append({"id": "merge-kata-recipe", "claims": [CLAIM], "operation": "merge",
                              "input": {"ids": [4, 5], "pair": [6, 7], "idx": 300}, "expected": {"ids": [4, 5]}})
        cases.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if skip != "spec test":
        with (root / "spec/test_merge.py").open("a", encoding="utf-8") as module:
            module.write(f'\n\n@pytest.mark.claim("{CLAIM}")\ndef test_merge_of_an_absent_pair_changes_nothing(bpe):\n'
                         '    assert ids_of(bpe.merge([4, 5], (6, 7), 300)) == [4, 5]\n')
    if skip != "readme":
        _replace(root / "README.md", f"{total} checkable claims", f"{total + 1} checkable claims")
    if skip != "courses":
        courses = root / "docs/COURSES.md"
        text = courses.read_text(encoding="utf-8")
        # cs336 has no merge: the claim joins its "no merge" row; the minbpe shapes judge it.
        text = re.sub(r"\*\*(\d+) of (\d+)\*\*", lambda m: f"**{int(m[1]) + 1} of {int(m[2]) + 1}**", text)
        text = re.sub(r"\*\*(\d+) of", lambda m: f"**{int(m[1]) - 1} of", text, count=1)
        courses.write_text(text, encoding="utf-8")
        _replace(courses, "`merge.the-tree`, `merge.pure` |", f"`merge.the-tree`, `merge.pure`, `{CLAIM}` |")


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}  # the copy's spec/, bpe_kata/ and reference/, not this checkout's
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=600)


def _pytest(root: Path, *targets: str) -> subprocess.CompletedProcess:
    return _run(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", *targets)


@pytest.mark.heavy
def test_the_claim_recipe_followed_whole_leaves_the_self_tests_and_the_spec_green(tmp_path):
    root = _copy(tmp_path / "repo")
    follow_the_claim_recipe(root)
    done = _pytest(root, *SELF_TESTS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    checked = _run(root, "-m", "bpe_kata.cli", "check", "reference", "--claim", CLAIM)
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
    assert re.search(r"^merge +2 +0 +0 +0 +green$", checked.stdout, re.M), checked.stdout[-3000:]


#: Each step left out, the self-test that fails, and what its message says.
WITHOUT = [
    ("ledger", "tests/test_ledger.py::test_every_spec_test_names_a_level_and_known_claims", CLAIM),
    ("courses", "tests/test_course_counts.py::test_the_page_states_a_count_and_a_table_for_every_shape", "cs336"),
]


@pytest.mark.heavy
@pytest.mark.parametrize("skip, self_test, said", WITHOUT, ids=[row[0] for row in WITHOUT])
def test_leaving_out_a_step_of_the_claim_recipe_fails_a_named_self_test(tmp_path, skip, self_test, said):
    root = _copy(tmp_path / "repo")
    follow_the_claim_recipe(root, skip=skip)
    done = _pytest(root, "-n", "0", self_test)
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    assert said in done.stdout, done.stdout[-4000:]


@pytest.mark.heavy
def test_leaving_out_the_readme_edit_names_the_line_to_change(tmp_path):
    root = _copy(tmp_path / "repo")
    total = _claim_count(root)
    line = next(n for n, text in enumerate((root / "README.md").read_text(encoding="utf-8").splitlines(), 1)
                if f"{total} checkable claims" in text)
    follow_the_claim_recipe(root, skip="readme")
    done = _pytest(root, "-n", "0", "tests/test_docs_facts.py::test_every_count_the_pages_state_matches_the_repository")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"README.md:{line}: '{total} checkable claims' -> '{total + 1} checkable claims'" in done.stdout, \
        done.stdout[-4000:]


@pytest.mark.heavy
def test_a_claim_with_neither_a_case_nor_a_spec_test_fails_the_ledger(tmp_path):
    """The case and the spec test are each enough to name the claim: leaving out both fails."""
    root = _copy(tmp_path / "repo")
    follow_the_claim_recipe(root, skip="case")
    (root / "spec/test_merge.py").write_text(
        (REPO_ROOT / "spec/test_merge.py").read_text(encoding="utf-8"), encoding="utf-8")
    done = _pytest(root, "-n", "0", "tests/test_ledger.py::test_every_asserted_claim_has_a_test")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    assert CLAIM in done.stdout, done.stdout[-4000:]
