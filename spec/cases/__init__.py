"""The worked examples as data: JSON case files, one per level, validated by schema.json.

Other-language suites can read the same files. Here the loader below reads them;
``spec.cases.collect`` makes each case one pytest parameter of a spec module's test, marked
with its file's level and the claims it checks; and ``spec.cases.runner`` is the one place
that knows what an operation means: how to call it on an implementation and how to compare
the result with the case's expected value.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

# the runner and its rooms: their plain asserts show both sides, as a test module's do
pytest.register_assert_rewrite("spec.cases.runner", "spec.cases.expect", "spec.cases.ops_core",
                               "spec.cases.ops_production")

CASES_DIR = Path(__file__).parent
SCHEMA_PATH = CASES_DIR / "schema.json"


def case_files() -> list[Path]:
    """The case files, schema.json left out."""
    return sorted(path for path in CASES_DIR.glob("*.json") if path != SCHEMA_PATH)


@cache
def load_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def all_cases() -> list[dict]:
    return [case for path in case_files() for case in load_file(path)["cases"]]


def cases_of(name: str, *operations: str) -> list[dict]:
    """The cases of one case file (its name without .json) of the given operations (all when none is named)."""
    return [case for case in load_file(CASES_DIR / f"{name}.json")["cases"]
            if not operations or case["operation"] in operations]


def params(name: str, *operations: str) -> list:
    """pytest parameters for the cases of one case file and operations, each marked with its claims."""
    return [param(case) for case in cases_of(name, *operations)]


def param(case: dict):
    """One case as a pytest parameter: its id the case's, marked with its claims (and its corpus)."""
    return pytest.param(case, id=case["id"], marks=marks(case))


def marks(case: dict) -> list:
    """The case's claims, and the corpus it reads (so a missing corpus makes it 'not run')."""
    case_marks = [pytest.mark.claim(*case["claims"])]
    if "corpus" in case["input"]:
        case_marks.append(pytest.mark.corpus(case["input"]["corpus"]))
    return case_marks
