"""Known-wrong: encode merges the whole text first, then swaps in a special id only where tokens happen to spell it.

When the table merges a special's first or last bytes with the text around it (as training
on text full of the special string does), the special never shows up as one id.
"""

from __future__ import annotations

from spec import oracle
from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import load, save  # noqa: F401
from spec.oracle.special import build_vocab  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("special.atomic",)


def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
    """Checks the policy, encodes everything as text, then replaces token runs spelling an allowed special."""
    if not special_tokens:
        return oracle.encode(text, merges, pattern=pattern)
    pieces = oracle.special.split_special(text, special_tokens, allowed_special, disallowed_special)
    allowed = {idx for idx in pieces if isinstance(idx, int)}
    ids = oracle.encode(text, merges, pattern=pattern)
    vocab = oracle.build_vocab(merges)
    spelled = {special.encode("utf-8"): idx for special, idx in special_tokens.items() if idx in allowed}
    out, i = [], 0
    while i < len(ids):
        for j in range(i + 1, len(ids) + 1):
            if b"".join(vocab[t] for t in ids[i:j]) in spelled:
                out.append(spelled[b"".join(vocab[t] for t in ids[i:j])])
                i = j
                break
        else:
            out.append(ids[i])
            i += 1
    return out
