"""Which claim a trained table's wrong ids fail: ``train.ids-from-256``, unless they are the mark of a pair learned
twice, whose repeat is another claim's defect (held out: a CS336 trainer kept taking the max of counts gone to 0,
the same pair hundreds of times; the dict kept the pair's first place and its last id, ids [299, 257], and the
table was charged train.ids-from-256 where the defect is the merge made with no pair left).

Every check of a trained table's ids names its claim through ``ids_claim``, so the defect is charged the same way
whichever test meets it (the worked cases, the training properties, the recount, training with specials, the
readers of a trained vocabulary, and the runner's refusal of a malformed table fed on).
"""

from __future__ import annotations

from spec import oracle

Pair = tuple[int, int]
IDS_CLAIM = "train.ids-from-256"


def ids_claim(text: str | list[str] | None, merges: list, vocab_size: int | None, pattern: str | None = None) -> str:
    """The claim a table with wrong ids fails: ``pair_learned_again``'s, else train.ids-from-256. Without the text
    trained on, nothing says more than the form."""
    if text is None or vocab_size is None:
        return IDS_CLAIM
    return pair_learned_again(text, merges, vocab_size, pattern) or IDS_CLAIM


def pair_learned_again(text: str | list[str], merges: list, vocab_size: int, pattern: str | None = None
                       ) -> str | None:
    """The claim a table breaks when it is a dict that learned a pair twice, or None. A dict keeps such a pair's
    first place and its last id, so its ids fall in table order and leave a hole (held out: a CS336 trainer kept
    taking the max of counts that had gone to 0, the same pair hundreds of times, and its table's ids read
    [299, 257], charged to train.ids-from-256). A pair once merged never occurs again, so each repeat was merged at
    count 0: once no pair was left, train.exhausted's; while some were, train.most-frequent's. Only when the table,
    renumbered in its order, is otherwise right training: when another defect makes it wrong too, charging the
    repeat would hide that defect (tried on a trainer that also cut overlapping specials wrongly: its
    train.special-tokens failure went unseen), so the ids' claim stands."""
    ids = [idx for _, idx in merges]
    if not ids or len(set(ids)) != len(ids) or min(ids) < 256 or max(ids) >= vocab_size:
        return None
    rising = all(a < b for a, b in zip(ids, ids[1:]))
    repeated_last = ids[:-1] == list(range(256, 255 + len(ids))) and ids[-1] == vocab_size - 1  # learned till the end
    if max(ids) - 255 == len(ids) or (rising and not repeated_last):
        return None  # no hole, or ids that rise (a start at 257, a gap): no pair was learned twice
    first_places = renumbered(merges)
    if oracle.valid_training.not_greedy(text, first_places, pattern) is not None:
        return None
    left = oracle.valid_training.pairs_left(text, first_places, pattern)
    return "train.most-frequent" if left else "train.exhausted"


def renumbered(merges: list) -> list[tuple[Pair, int]]:
    """The table with each id it gave renumbered 256, 257, ... in table order (its pairs renamed to match)."""
    new = {idx: 256 + k for k, (_, idx) in enumerate(merges)}
    return [((new.get(left, left), new.get(right, right)), 256 + k) for k, ((left, right), _) in enumerate(merges)]
