"""The implementation's own ``train`` while a spec test runs: the evidence an explanation of a wrong table needs.

A wrong table may fit an explanation by chance (a fold of the text, a special token's string cut out): a short
table fits many texts. So an explanation charges its claim only when the trainer itself shows it on a probe made
for it (spec/cases/expect.py); the runner puts the trainer here for every test
(bpe_kata/run/implementation_fixtures.py), so no check needs to pass it along. Calls made through it are probes,
not the test's calls.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token

Train = Callable[[str, int], object]

_AT_HAND: ContextVar[Train | None] = ContextVar("bpe_kata_trainer_at_hand", default=None)
#: What train returned in the running test, newest last: (text, vocab_size, pattern, table, the trainer as called).
_RETURNED: ContextVar[tuple] = ContextVar("bpe_kata_tables_returned", default=())
#: The tables kept: a failed check is about one of the test's last few trainings.
KEPT = 8


def put(train: Train | None) -> Token:
    _RETURNED.set(())  # a new test: another test's tables are no evidence here
    return _AT_HAND.set(train)


def remember(text: object, vocab_size: int, pattern: str | None, table: list, train_on: Train | None) -> None:
    """A table train returned in this test (spec/early_stop.py sees each one), kept as evidence for a failed check."""
    _RETURNED.set((*_RETURNED.get()[-(KEPT - 1):], (text, vocab_size, pattern, table, train_on)))


def returned() -> tuple:
    """The test's last ``KEPT`` tables, newest first."""
    return tuple(reversed(_RETURNED.get()))


def reset(token: Token) -> None:
    _AT_HAND.reset(token)


def trainer(given: Train | None = None, pattern: str | None = None) -> Train | None:
    """The trainer a check names (it may train with special tokens asked), else the one at hand, asked with the
    pattern the checked call gave (a trainer may go wrong with one only), else None."""
    if given is not None:
        return given
    train = _AT_HAND.get()
    if train is None or pattern is None:
        return train
    return lambda text, vocab_size: train(text, vocab_size, pattern=pattern)


def asking(specials: list[str], pattern: str | None = None) -> Train | None:
    """The trainer at hand asked ``specials`` (and the pattern the checked call gave) on every call, or None: evidence
    of what asking a special that never occurs changes, which for a right trainer is nothing."""
    train = _AT_HAND.get()
    if train is None:
        return None
    keywords = {"special_tokens": list(specials), **({} if pattern is None else {"pattern": pattern})}
    return lambda text, vocab_size: train(text, vocab_size, **keywords)
