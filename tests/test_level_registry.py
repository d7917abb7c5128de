"""Level completeness: every level of spec/levels.py has what a learner and the suite need.

A new level is one entry in ``LEVELS``; these checks list what else it needs and fail until
it is there: the spec files it names (carrying its mark), a stub in the starter for every
function and keyword it adds, a known-wrong implementation that names one of its claims
(listed in tests/implementations/README.md), its rule in spec/CONTRACT.md and its row in
README.md's level table.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import solutions.starter as starter
from spec.ledger import load_claims
from spec.levels import BY_NAME, LEVELS, not_started_reason

ROOT = Path(__file__).resolve().parents[1]
LEVEL_IDS = [level.name for level in LEVELS]


def _module_level_mark(path: Path) -> str | None:
    """The level named by a spec file's module-wide ``pytestmark``, read without importing it."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            for call in ast.walk(node.value):
                if isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "level":
                    return ast.literal_eval(call.args[0])
    return None


def _mistake_claims(path: Path) -> tuple[str, ...]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if getattr(target, "id", "") == "MISTAKE_CLAIMS":
            return tuple(ast.literal_eval(node.value))
    return ()


KNOWN_WRONG = {path.name: _mistake_claims(path) for path in sorted((ROOT / "tests/implementations").glob("wrong_*.py"))}


def test_every_spec_file_with_a_level_mark_belongs_to_that_level():
    owners = {file: level.name for level in LEVELS for file in level.spec_files}
    marked = {f"spec/{path.name}": _module_level_mark(path) for path in sorted((ROOT / "spec").glob("test_*.py"))}
    assert {file: level for file, level in marked.items() if level} == owners


@pytest.mark.parametrize("name", LEVEL_IDS)
def test_the_starter_has_a_stub_for_every_function_and_keyword_the_level_adds(name):
    level = BY_NAME[name]
    if level.needs:
        assert not_started_reason(starter, level), f"the starter already passes for level {name}"
    source = "\n".join(line.lstrip("# ") for line in Path(starter.__file__).read_text(encoding="utf-8").splitlines())
    for feature in level.needs:
        function, _, keyword = feature.partition("(")
        assert callable(getattr(starter, function, None)), f"the starter has no {function} for level {name}"
        keyword = keyword.rstrip(")").rstrip("=")
        if keyword:
            assert re.search(rf"def {function}\([^)]*\b{keyword}=", source), \
                f"the starter shows no signature of {function} with {keyword}= for level {name}"


@pytest.mark.parametrize("name", LEVEL_IDS)
def test_each_level_has_a_known_wrong_implementation_naming_one_of_its_claims(name):
    level, claims = BY_NAME[name], load_claims()
    files = [file for file, mistakes in KNOWN_WRONG.items() if any(claims[c].level == name for c in mistakes)]
    if level.no_known_wrong:
        assert files == [], f"level {name} says it has no known-wrong implementation, but has {files}"
    else:
        assert files, f"no tests/implementations/wrong_*.py lists a claim of level {name} in MISTAKE_CLAIMS"


def test_every_known_wrong_implementation_is_listed_in_the_implementations_readme():
    readme = (ROOT / "tests/implementations/README.md").read_text(encoding="utf-8")
    assert KNOWN_WRONG and all(KNOWN_WRONG.values())
    rows = {
        file: claims
        for file, claims in re.findall(r"^\| `(wrong_\w+\.py)` \| .+ \| ([a-z0-9., -]+) \|$", readme, flags=re.M)
    }
    assert [file for file in KNOWN_WRONG if file not in rows] == []
    assert {file: rows[file] for file in KNOWN_WRONG if rows[file] != ", ".join(KNOWN_WRONG[file])} == {}, \
        "the README's MISTAKE_CLAIMS column differs from the file's"


@pytest.mark.parametrize("name", LEVEL_IDS)
def test_each_level_has_its_rule_in_the_contract_and_its_row_in_the_readme(name):
    level = BY_NAME[name]
    contract = (ROOT / "spec/CONTRACT.md").read_text(encoding="utf-8")
    if level.contract_anchor:
        assert re.search(rf"^{re.escape(level.contract_anchor)}", contract, flags=re.M), \
            f"spec/CONTRACT.md has no {level.contract_anchor!r}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"^\| {name} \| .+ \| .+ \|$", readme, flags=re.M), (
        f"README.md's level table has no row for {name}"
    )


def test_the_readme_lists_the_levels_in_their_order():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z]+) \| ", readme.split("| level | you write | the spec checks |", 1)[1], flags=re.M)
    assert rows[:len(LEVEL_IDS)] == LEVEL_IDS
