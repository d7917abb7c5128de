"""Right, with CS336's tie rule and only that one: equal counts go to the greatest pair of byte strings.

Valid BPE, so it must fail only the claims about the first-counted rule and those the
ledger marks ``depends_on_tie_rule``. It knows no other rule: ``tie_rule`` names the
documented others raise NotImplementedError, so the ties level credits it for
bytes-greatest and reports the other two rules "not started". Training is the reference's.
"""

from __future__ import annotations

from reference import StreamDecoder, build_vocab, decode, encode, encode_iterable, get_stats, load, merge, save
from reference import train as _reference_train

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "save", "load",
           "StreamDecoder"]

Pair = tuple[int, int]
RULE = DEFAULT_TIE_RULE = "bytes-greatest"


def train(text: str, vocab_size: int, *, pattern: str | None = None, tie_rule: str = RULE,
          special_tokens: list[str] | None = None) -> dict[Pair, int]:
    """bytes-greatest always; the other documented rules are not written (yet)."""
    if tie_rule in ("first-counted", "lowest-pair"):
        raise NotImplementedError(f"tie_rule {tie_rule!r}: only {RULE!r} is implemented")
    if tie_rule != RULE:
        raise ValueError(f"unknown tie_rule {tie_rule!r}; this trainer knows only {RULE!r}")
    return _reference_train(text, vocab_size, pattern=pattern, tie_rule=RULE, special_tokens=special_tokens)
