"""Expectations files (``--expect FILE``): the failures a CI gate knows about, each with its reason.

TOML::

    [[expected]]
    claim = "stream.*"            # or test = "spec/test_x.py::test_y", or level = "stream"
    reason = "the stream decoder is not written yet"

JSON: ``{"expected": [{"claim": "stream.*", "reason": "..."}]}``. A trailing ``*`` in a
claim or test matches a prefix. An entry allows its tests to fail or to be "not started";
an entry whose tests all pass is an *unexpected pass* (reported; a failure with
``--strict-expect``).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

KEYS = ("claim", "test", "level")


class ExpectationsError(ValueError):
    """The file cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Expected:
    key: str  # claim, test or level
    value: str
    reason: str

    def matches(self, nodeid: str, level: str | None, claims: tuple[str, ...]) -> bool:
        if self.key == "level":
            return level == self.value
        candidates = claims if self.key == "claim" else (nodeid,)
        return any(_match(self.value, c) for c in candidates)

    def label(self) -> str:
        return f"{self.key} {self.value}"


def _match(pattern: str, value: str) -> bool:
    return value == pattern or (pattern.endswith("*") and value.startswith(pattern[:-1]))


def load(path: str | Path) -> list[Expected]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as error:
        raise ExpectationsError(f"--expect {path}: {error}") from None
    rows = data.get("expected", []) if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise ExpectationsError(f"--expect {path}: the file needs a list named 'expected'")
    return [_entry(path, k, row) for k, row in enumerate(rows, 1)]


def _entry(path: Path, number: int, row) -> Expected:
    keys = [key for key in KEYS if isinstance(row, dict) and key in row]
    reason = row.get("reason") if isinstance(row, dict) else None
    if len(keys) != 1 or not isinstance(row[keys[0]], str) or not isinstance(reason, str) or not reason.strip():
        raise ExpectationsError(f"--expect {path}: entry {number} needs exactly one of claim, test or level "
                                f"(a string) and a non-empty reason; got {row!r}")
    return Expected(keys[0], row[keys[0]], reason.strip())


def dumps(entries: list[Expected]) -> str:
    """A TOML expectations file (what ``--write-expect`` writes)."""
    lines = ["# bpe-kata expectations: failures this implementation is known to have, each with its reason.",
             "# Remove an entry once its tests pass (an entry that no longer fails is reported).", ""]
    for entry in entries:
        lines += [
            "[[expected]]",
            f"{entry.key} = {json.dumps(entry.value)}",
            f"reason = {json.dumps(entry.reason)}",
            "",
        ]
    return "\n".join(lines)
