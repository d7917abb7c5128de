"""The split the oracle trains and encodes with when a call names none: the implementation's own (issue 38).

One rule makes every claim about training and encoding that can be stated for a fixed split judged on
code that always splits (spec/fixed_pattern.py): while a test runs against such code, the oracle's
"no pattern" means the implementation's pattern, so ``oracle.train``, ``oracle.encode``, the property
checker (``valid_training``) and the sequence training ends with are all computed inside its chunks,
exactly as the code trains and encodes. The tests themselves stay as they are: a worked case whose text is
one chunk under the pattern has the same expected values, and a property compares with the chunked oracle.

A value a document states for a corpus trained over the whole text (a table, ids, a count, a curve) is
restated under the split in force by one rule, spec/corpus_values.py: the oracle's value with the split's
pattern and tie rule on the same corpus (the spec's corpus tables and replays are split-aware themselves).
Only a statement that cannot be restated under a split (an observation about whole-text training alone,
such as corpus.d1-space-left) calls ``needs_whole_text``: with a split in force, the running test is
refused, "not started" with the reason saying the statement needs training over the whole text. Code
outside a test (the split probe, the likely-mistake probes) sees no split unless it asks for one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import NoReturn


@dataclass(frozen=True)
class Split:
    """The pattern in force (None: the whole text), the tie rule the implementation trains with by default
    (``DEFAULT_TIE_RULE``, a course's own rule; read for pattern-fixed code, whose tests are judged against the
    oracle's own training: other code keeps the ledger's ``depends_on_tie_rule`` excuse), and how to refuse the
    running test (must raise)."""

    pattern: str | None
    name: str
    refuse: Callable[[str], NoReturn]
    tie_rule: str = "first-counted"


def tie_rule(rule: str | None) -> str:
    """The tie rule a call means: its own, else the implementation's default in force."""
    split = _IN_FORCE.get()
    return rule if rule is not None else split.tie_rule if split is not None else "first-counted"


_IN_FORCE: ContextVar[Split | None] = ContextVar("bpe_kata_split", default=None)


def in_force() -> Split | None:
    return _IN_FORCE.get()


def resolve(pattern: str | None) -> str | None:
    """The pattern a call means: its own, else the one in force (None: the whole text)."""
    split = _IN_FORCE.get()
    return pattern if pattern is not None or split is None else split.pattern


def put(split: Split | None) -> None:
    """``split`` in force from now on in this context (a caller's ``splitting_with`` ends it)."""
    _IN_FORCE.set(split)


@contextmanager
def splitting_with(split: Split | None) -> Iterator[None]:
    """``split`` in force for the block (None: the whole text)."""
    token = _IN_FORCE.set(split)
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


def whole_text() -> contextmanager:
    """No split in force: for a statement about training over the whole text, whatever the implementation."""
    return splitting_with(None)


def needs_whole_text(what: str) -> None:
    """Refuse the running test when a split is in force: ``what`` is only known for the whole text."""
    split = _IN_FORCE.get()
    if split is not None and (split.pattern is not None or split.tie_rule != "first-counted"):
        how = " and ".join(([f"always splits with {split.name} (FIXED_PATTERN)"] if split.pattern is not None else [])
                           + ([f"breaks ties by {split.tie_rule} (DEFAULT_TIE_RULE)"]
                              if split.tie_rule != "first-counted" else []))
        split.refuse(f"not started: {what} is stated for training over the whole text (no split) with the "
                     f"first-counted tie rule, and the implementation {how}")


def is_one_chunk(text: str) -> bool:
    """Whether ``text`` is a single chunk (or empty) under the split in force: its whole-text values hold."""
    split = _IN_FORCE.get()
    if split is None or split.pattern is None:
        return True
    from spec.oracle.chunks import chunks

    return len(chunks(text, split.pattern)) <= 1


def holds_as_stated(what: str, compute: Callable[[], object]) -> None:
    """Refuse the running test unless ``compute()`` (an oracle value) is the same under the split in force as
    over the whole text: then a worked case's stated value holds for the split as it is."""
    if _IN_FORCE.get() is None:
        return
    under = compute()
    with whole_text():
        over = compute()
    if under != over:
        needs_whole_text(what)
