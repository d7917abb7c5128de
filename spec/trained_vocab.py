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
from spec.table_ids import IDS_CLAIM, ids_claim


def vocab_of_trained(merges: Mapping, text: str | None = None, vocab_size: int | None = None,
                     pattern: str | None = None) -> dict[int, bytes]:
    """Id -> bytes of the trained table ``merges`` (the implementation's own result), or a failed check of
    ``train.ids-from-256`` when its ids are not consecutive from 256, or a part names no earlier id (with the
    ``text`` and ``vocab_size`` it was trained on, the claim a pair learned twice breaks: spec/table_ids.py)."""
    claim = IDS_CLAIM
    if text is not None and vocab_size is not None and unreadable(merges) is None:
        claim = ids_claim(text, merges_of(merges), vocab_size, pattern)
    with checking(claim):
        cannot = unreadable(merges)
        assert cannot is None, f"the trained table cannot be read: {cannot}"
        problem = form_wrong(merges)
        assert problem is None, problem
    return oracle.build_vocab(dict(merges_of(merges)))


def unreadable(merges: object) -> str | None:
    """Why a value ``train`` returned cannot be read as a table of pairs and ids at all, or None."""
    if not isinstance(merges, Mapping):
        return f"a {type(merges).__name__}, not a mapping of pairs to ids"
    try:
        merges_of(merges)
    except Exception as error:  # noqa: BLE001 - whatever the value raised, it is not a table
        return f"{type(error).__name__}: {error}"
    return None


def form_wrong(merges: Mapping) -> str | None:
    """What is wrong with the form of a readable trained table (the contract's ids: 256, 257, ... one per merge,
    each part a byte or the id of an earlier merge), or None. Every reader of a table needs this form: the
    vocabulary is built by walking the merges in id order."""
    table = merges_of(merges)
    ids = sorted(idx for _, idx in table)
    if ids != list(range(256, 256 + len(ids))):
        return f"the trained table's new ids are {_shown(ids)}, not 256, 257, ... (one per merge, in training order)"
    late = [(pair, idx) for pair, idx in table if max(pair) >= idx or min(pair) < 0]
    if late:
        return f"merge {late[0][0]} -> {late[0][1]} uses an id that is neither a byte nor an earlier merge's"
    return None


def ids_ambiguous(table: list[tuple[tuple[int, int], int]]) -> str | None:
    """Why the pairs of a trained table (``merges_of``'s items) cannot be read apart from its ids, or None: an id
    given twice or below 256 makes a part that names it stand for two tokens. A table with other wrong ids (a
    hole, a start at 257) still says which pairs it learned, in order, once renumbered (spec/cases/expect.py)."""
    ids = [idx for _, idx in table]
    twice = sorted({idx for idx in ids if ids.count(idx) > 1})
    if twice:
        return f"the ids {_shown(twice)} are each given to more than one merge"
    low = [idx for idx in ids if idx < 256]
    if low:
        return f"the ids {_shown(low)} are below 256, the ids of single bytes"
    return None


def _shown(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:6])) + (f", ... ({len(ids)} ids)" if len(ids) > 6 else "") if ids else "none"
