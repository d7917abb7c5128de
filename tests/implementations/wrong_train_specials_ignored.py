"""Known-wrong: train takes ``special_tokens`` but trains on the whole text as if none were asked, so it counts
pairs across every special and learns pieces of the specials themselves (public CS336 solutions that pass the
specials on but never cut at them)."""

from __future__ import annotations

from spec import oracle
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.special-tokens",)


def train(text, vocab_size, *, pattern=None, tie_rule=None, special_tokens=None):
    """The specials are accepted, then forgotten: the oracle's training of the whole text."""
    return oracle.train(text, vocab_size, pattern=pattern, tie_rule=tie_rule)
