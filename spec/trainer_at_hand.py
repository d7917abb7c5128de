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


def put(train: Train | None) -> Token:
    return _AT_HAND.set(train)


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
