"""Expectations files (``--expect FILE``): the failures a CI gate knows about, each with its reason.

TOML::

    [[expected]]
    claim = "stream.hold-partial"   # or test = "spec/test_x.py::test_y", or level = "stream"
    reason = "the stream decoder is not written yet"

JSON: ``{"expected": [{"claim": "...", "reason": "..."}]}``. A trailing ``*`` in a claim or test
matches a prefix. An entry allows its tests to fail or to be "not started"; an entry whose tests
all pass is an *unexpected pass* (reported; a failure with ``--strict-expect``).

Two rules keep an entry from excusing more than its author named (issue 36):

- **Keyed on the test's own claims.** ``excusing`` decides; it sees a test's id, level and the
  claims its markers name, never a classification the implementation's answer chose (a "changed
  input" fault blames ``encode.frozen`` in the verdict, but the test's own claims stay its own).
- **Every name exists and none is a blanket.** A level, claim or test the spec does not have is an
  error, and so is a pattern that matches everything: ``*``, a claim prefix covering a whole level's
  claims (write ``level = "..."``: it says so) or every claim, a test prefix covering a whole spec
  module. Errors name the file the user gave and the entry's number.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bpe_kata.verdict import spec_tests
from bpe_kata.verdict.selection import matches
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

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
        return any(matches(self.value, c) for c in candidates)

    def label(self) -> str:
        return f"{self.key} {self.value}"


def excusing(entries: Iterable[Expected], nodeid: str, level: str | None,
             own_claims: tuple[str, ...]) -> Expected | None:
    """The entry that excuses this test's failure (or "not started"), if any: the rule, in one place.

    ``own_claims`` are the claims the test's metadata names (``claim`` markers), never the claims a
    fault blamed: an entry ``claim = X`` excuses a test only if X matches one of its own claims."""
    return next((entry for entry in entries if entry.matches(nodeid, level, own_claims)), None)


def load(path: str | Path, shown: str | None = None) -> list[Expected]:
    """The entries of ``path``, every name checked. ``shown``: the name errors give the file (the user's
    path, when ``path`` is a private copy of it)."""
    path = Path(path)
    name = shown or str(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as error:
        raise ExpectationsError(f"--expect {name}: {error}") from None
    rows = data.get("expected", []) if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise ExpectationsError(f"--expect {name}: the file needs a list named 'expected'")
    entries = [_entry(name, k, row) for k, row in enumerate(rows, 1)]
    for number, entry in enumerate(entries, 1):
        problem = _name_problem(entry)
        if problem:
            raise ExpectationsError(f"--expect {name}: entry {number} ({entry.label()}): {problem}")
    return entries


def _entry(name: str, number: int, row) -> Expected:
    keys = [key for key in KEYS if isinstance(row, dict) and key in row]
    reason = row.get("reason") if isinstance(row, dict) else None
    if len(keys) != 1 or not isinstance(row[keys[0]], str) or not isinstance(reason, str) or not reason.strip():
        raise ExpectationsError(f"--expect {name}: entry {number} needs exactly one of claim, test or level "
                                f"(a string) and a non-empty reason; got {row!r}")
    return Expected(keys[0], row[keys[0]], reason.strip())


def _name_problem(entry: Expected) -> str | None:
    """Why the entry names nothing, or too much (None: it is fine)."""
    if entry.key == "level":
        return None if entry.value in ALL_LEVEL_NAMES else \
            f"no level has this name; the levels are: {', '.join(ALL_LEVEL_NAMES)}"
    if entry.value.strip("*") == "":
        return "a pattern that matches everything excuses every failure; name the claims, tests or levels"
    return _claim_problem(entry.value) if entry.key == "claim" else _test_problem(entry.value)


def _claim_problem(pattern: str) -> str | None:
    ledger = load_claims()
    matched = {cid for cid in ledger if matches(pattern, cid)}
    if not matched:
        return "no claim has this id; `bpe-kata claims` lists them"
    if not pattern.endswith("*"):
        return None
    if matched == set(ledger):
        return "this pattern matches every claim; name the claims, tests or levels"
    for level in ALL_LEVEL_NAMES:
        of_level = {cid for cid, claim in ledger.items() if claim.level == level}
        if of_level and of_level <= matched:
            return (f"this pattern covers every claim of level {level}; write level = {json.dumps(level)} "
                    "if the whole level is expected to fail, or name the claims")
    return None


def _test_problem(pattern: str) -> str | None:
    modules = spec_tests.functions()
    function = spec_tests.function_of(pattern.removesuffix("*"))
    if not pattern.endswith("*"):
        known = any(function in ids for ids in modules.values())
        return None if known else "no spec test has this id (ids look like spec/test_merge.py::test_name[case])"
    prefix = pattern[:-1]
    matched = {module: {f for f in ids if f.startswith(prefix) or prefix.startswith(f)}
               for module, ids in modules.items()}
    matched = {module: found for module, found in matched.items() if found}
    if not matched:
        return "no spec test has an id starting so"
    if len(matched) > 1 or any(found == modules[module] for module, found in matched.items()
                               if len(modules[module]) > 1 or "::" not in prefix):
        return "this pattern covers a whole spec module; name the tests, or the level they belong to"
    return None


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
