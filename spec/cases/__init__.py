"""The worked examples as data: JSON case files, one per level, validated by schema.json.

Other-language suites can read the same files. Here the loader below reads them, each case
becomes one pytest parameter marked with the claims it checks, and ``spec.cases.runner``
is the one place that knows what an operation means: how to call it on an implementation
and how to compare the result with the case's expected value.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

pytest.register_assert_rewrite("spec.cases.runner")  # its plain asserts show both sides, as a test module's do

CASES_DIR = Path(__file__).parent
SCHEMA_PATH = CASES_DIR / "schema.json"


def case_files() -> list[Path]:
    """The case files, schema.json left out."""
    return sorted(path for path in CASES_DIR.glob("*.json") if path != SCHEMA_PATH)


@lru_cache(maxsize=None)
def load_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def all_cases() -> list[dict]:
    return [case for path in case_files() for case in load_file(path)["cases"]]


def cases_of(level: str, *operations: str) -> list[dict]:
    """The cases of one level file, of the given operations (all of them when none is named)."""
    return [case for case in load_file(CASES_DIR / f"{level}.json")["cases"]
            if not operations or case["operation"] in operations]


def params(level: str, *operations: str) -> list:
    """pytest parameters for the cases of one level file and operations, each marked with its claims."""
    return [pytest.param(case, id=case["id"], marks=marks(case)) for case in cases_of(level, *operations)]


def marks(case: dict) -> list:
    """The case's claims, and the corpus it reads (so a missing corpus makes it 'not run')."""
    case_marks = [pytest.mark.claim(*case["claims"])]
    if "corpus" in case["input"]:
        case_marks.append(pytest.mark.corpus(case["input"]["corpus"]))
    return case_marks
