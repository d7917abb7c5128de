"""The bytes of every id of a table the implementation trained, read without the suite raising on it.

Several tests turn the implementation's trained table into token bytes with the oracle's ``build_vocab``
(to look tokens up, or to compare its vocabulary). A table whose ids are not 256, 257, ... (a port counting
from 128, from 500, or by code point) made the oracle raise KeyError inside the suite: reported as the
suite's own error (exit 6), or charged to the claim of whichever test read the table (issue 37). A value the
implementation returned that the suite cannot read is the implementation's failure, under the claim that
states the value's form: here ``train.ids-from-256``, checked before the table is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from spec import oracle
from spec.blame import checking
from spec.shapes import merges_of


def vocab_of_trained(merges: Mapping) -> dict[int, bytes]:
    """Id -> bytes of the trained table ``merges`` (the implementation's own result), or a failed check of
    ``train.ids-from-256`` when its ids are not consecutive from 256, or a part names no earlier id."""
    table = merges_of(merges)
    with checking("train.ids-from-256"):
        ids = sorted(idx for _, idx in table)
        assert ids == list(range(256, 256 + len(ids))), (
            f"the trained table's new ids are {_shown(ids)}, not 256, 257, ... (one per merge, in training order)")
        late = [(pair, idx) for pair, idx in table if max(pair) >= idx]
        assert not late, f"merge {late[0][0]} -> {late[0][1]} uses an id that no earlier merge made"
    return oracle.build_vocab(dict(table))


def _shown(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:6])) + (f", ... ({len(ids)} ids)" if len(ids) > 6 else "") if ids else "none"
