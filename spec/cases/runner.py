"""The one case runner: what each operation of the case files means, for any implementation.

``OPERATIONS`` maps each operation name of schema.json to the function that calls it on an
implementation module (the contract's functions, spec/CONTRACT.md) and compares the result
with the case's expected value, decoded from its language-neutral form (merge rows, hex
bytes, policies, pattern names). A mismatch raises AssertionError with the expected and
actual values side by side (``spec.compare``); a claim is blamed alone only where a case
needs it (``spec.blame.checking``). The spec runs its cases through ``run`` against the
implementation under test, the suite's self-test against the oracle (``ORACLE``).

What a case needs from its surroundings (a corpus, a table trained once per session, a
feature the implementation may not have, a folder to save into) comes from a ``Fixtures``:
``PytestFixtures`` in a spec test, ``PlainFixtures`` for a direct run.

This module is the entry point and dispatch; the rest lives in rooms of one job each, so no
one file holds every level: registry.py (the table and ``@operation``), expect.py (decoding
the case format, comparing claim by claim), ops_core.py and ops_production.py (the operations
of the core and the production levels). Import a name from the module that defines it.

A new operation is one function in an ops module, registered with ``@operation``, plus one
branch of schema.json; tests/test_cases.py fails while one has no counterpart.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from spec import corpus_values, oracle
from spec.blame import as_stated
from spec.cases import ops_core, ops_production  # noqa: F401  registers their operations (@operation)
from spec.cases.registry import OPERATIONS, Case, Fixtures, Pair
from spec.compare import CaseMismatch


class PytestFixtures:
    """The spec's fixtures (bpe_kata/plugin.py), asked for only when a case needs one."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self._request = request

    def _fixture(self, name: str) -> Any:
        return self._request.getfixturevalue(name)

    def corpus(self, name: str) -> str:
        return self._fixture("corpus")(name)

    def trained(self, key: str, text: str, vocab_size: int) -> Any:
        return self._fixture("trained")(key, text, vocab_size)

    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        return self._fixture("corpus_table")(name, vocab_size)

    def spec_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        return self._fixture("spec_table")(name, vocab_size)

    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]:
        return self._fixture("encoded")(name, vocab_size, text)

    def require_feature(self, feature: str) -> None:
        self._fixture("require_feature")(feature)

    def folder(self) -> Path:
        return self._fixture("tmp_path")


class PlainFixtures:
    """A direct run: every feature is there, training is not cached, corpora are not read."""

    def __init__(self, impl: object, folder: Path | None = None) -> None:
        self._impl, self._folder = impl, folder

    def corpus(self, name: str) -> str:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def trained(self, key: str, text: str, vocab_size: int) -> Any:
        return self._impl.train(text, vocab_size)

    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def spec_table(self, name: str, vocab_size: int) -> dict[Pair, int]:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]:
        raise LookupError(f"a direct run reads no corpus ({name})")

    def require_feature(self, feature: str) -> None:
        return None

    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="bpe-kata-case-"))
        return self._folder


def run(case: Case, impl: object, fixtures: Fixtures | pytest.FixtureRequest | None = None,
        file: str | None = None) -> None:
    """Run one case against ``impl``: returns when it passes, raises AssertionError (or the
    implementation's own exception) when not. ``fixtures`` may be a test's ``request``.

    A failure carries a note naming the case (its id and ``file``), its input, what it expected and, for a
    mismatch, what it got: a learner sees the whole case without opening the JSON (issue 37, kind 8)."""
    if fixtures is None:
        fixtures = PlainFixtures(impl)
    elif isinstance(fixtures, pytest.FixtureRequest):
        fixtures = PytestFixtures(fixtures)
    try:
        with as_stated():
            OPERATIONS[case["operation"]](impl, case, fixtures)
    except Exception as error:
        error.add_note(case_note(case, file, error))
        raise


#: Characters of one value a case note shows before it is cut.
NOTE_WIDTH = 300


def case_note(case: Case, file: str | None, error: BaseException | None = None) -> str:
    """``worked case ID in spec/cases/FILE`` with its input, expected value and, for a mismatch, the value got."""
    where = f" in spec/cases/{file}" if file else ""
    stated = _short(_fields(case.get("expected", {})))
    restated = corpus_values.restating() if "corpus" in case.get("input", {}) else None
    lines = [f"worked case {case.get('id', '?')}{where}",
             f"  input:    {_short(_fields(case.get('input', {})))}",
             f"  expected: {stated}" if restated is None else
             f"  expected: {restated}, not the document's {stated} (stated for the whole text)"]
    if isinstance(error, CaseMismatch) and error.expected is not None:
        lines.append(f"  got:      {error.what} {_short(repr(error.actual))}")
    elif error is not None and not isinstance(error, AssertionError):
        lines.append(f"  got:      {type(error).__name__}: {_short(str(error))}")
    return "\n".join(lines)


def _fields(values: object) -> str:
    if isinstance(values, dict):
        return ", ".join(f"{key} {value!r}" for key, value in values.items())
    return repr(values)


def _short(text: str) -> str:
    return text if len(text) <= NOTE_WIDTH else text[:NOTE_WIDTH] + f"… ({len(text):,} characters)"


#: The oracle (spec/oracle/), a complete implementation of the contract: the suite's self-test runs every case on it.
ORACLE = oracle
