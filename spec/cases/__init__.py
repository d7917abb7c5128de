"""The worked examples as data: JSON case files, one per level, validated by schema.json.

Other-language suites can read the same files; here each case becomes one pytest
parameter, marked with the claims it checks.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).parent
SCHEMA_PATH = CASES_DIR / "schema.json"

Pair = tuple[int, int]


def case_files() -> list[Path]:
    return sorted(CASES_DIR.glob("*.json"))


@lru_cache(maxsize=None)
def load_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def all_cases() -> list[dict]:
    return [case for path in case_files() if path != SCHEMA_PATH for case in load_file(path)["cases"]]


def merges_from(rows: list[list[int]]) -> dict[Pair, int]:
    """An ordered merge table from the case format's list of [left, right, id]."""
    return {(left, right): idx for left, right, idx in rows}


def expect_ids(result: list[int], expected: dict, merges: dict[Pair, int] | None = None,
               text_bytes: int | None = None) -> None:
    """A case's ids, or their number, as expected; a mismatch shows both, with each id's bytes (and, given
    the text's length in bytes, bytes per token: the bytes-per-token curve's own figure)."""
    from spec.compare import CaseMismatch, expect_equal, show_bytes
    from spec.oracle import build_vocab

    if "ids" in expected:
        expect_equal(result, expected["ids"], "ids", merges=merges)
    elif len(result) != expected["length"]:
        vocab = build_vocab(dict(merges or {}))
        pieces = ", ".join(f"{i} [{show_bytes(vocab[i])}]" if i in vocab else str(i) for i in result[:40])
        per_token = (f" ({text_bytes / expected['length']:.4f} against {text_bytes / max(len(result), 1):.4f} "
                     f"bytes per token for {text_bytes:,} bytes)") if text_bytes else ""
        raise CaseMismatch(f"number of ids: expected {expected['length']:,}, got {len(result):,}{per_token}\n"
                           f"  actual ids: {pieces}{', ...' if len(result) > 40 else ''}")


def params(level: str, *operations: str) -> list:
    """pytest parameters for the cases of one level file and operations, each marked with its claims."""
    data = load_file(CASES_DIR / f"{level}.json")
    return [
        pytest.param(case, id=case["id"], marks=_marks(case))
        for case in data["cases"]
        if case["operation"] in operations
    ]


def _marks(case: dict) -> list:
    marks = [pytest.mark.claim(*case["claims"])]
    if "corpus" in case["input"]:
        marks.append(pytest.mark.corpus(case["input"]["corpus"]))
    return marks
