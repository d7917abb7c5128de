"""The reference with one planted divergence, for ``bpe-kata diff``'s benchmark and tests.

Everything is the reference's, except that ``encode`` leaves the third learned merge (id 258)
unapplied where it would stand in the result: the token is split back into its two parts. So
the two differ exactly on texts whose encoding holds that one token, and the smallest such
text is the token's own bytes.
"""

import reference
from reference import build_vocab, decode, train  # noqa: F401

PLANTED = 258


def encode(text, merges, **keywords):
    parts = {idx: pair for pair, idx in merges.items()}
    ids = []
    for idx in reference.encode(text, merges, **keywords):
        ids.extend(parts[idx] if idx == PLANTED and idx in parts else (idx,))
    return ids
