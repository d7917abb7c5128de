"""More probes for natural training mistakes (issue 37, kind 9), registered in spec.mistakes.PROBES.

Apart from spec/mistakes.py only to keep each module small; the same rule holds: a probe
returns Seen only when the implementation's own output is exactly the mistake's signature,
and None when it cannot tell.
"""

from __future__ import annotations

from spec import oracle, shapes
from spec.mistakes import EXACT, Seen, _call, probe

#: Trains to at least seven merges before it runs out of pairs, so a table one short is visible at small sizes.
UNEXHAUSTED = "aaabdaaabac aaabdaaabac"


@probe
def one_merge_fewer(impl) -> Seen | None:
    """train(text, n) is the right table without its last merge, for every n where pairs are left."""
    seen = []
    for vocab_size in (257, 258, 260):
        got = shapes.merges_of(_call(impl, "train", UNEXHAUSTED, vocab_size))
        want = list(oracle.train(UNEXHAUSTED, vocab_size).items())
        if len(want) != vocab_size - 256 or got != want[:-1]:
            return None
        seen.append(f"train(..., {vocab_size}) made {len(got)} merges")
    if _whole_given_a_special(impl):
        return None  # a slot its own special takes when none is asked: train.no-implicit-specials', not a range
    return Seen(EXACT, f"on {UNEXHAUSTED!r}: " + ", ".join(seen) + ", one fewer than asked each time")


def _whole_given_a_special(impl) -> bool:
    """Given a special token (absent from the text), the trainer makes every merge asked: the one missing without
    it is a vocabulary slot taken by a special it adds itself (held out, seventh round: a CS336 trainer with
    <|endoftext|> written in was said to have ``range(256, vocab_size - 1)``). False when it cannot tell."""
    try:
        got = shapes.merges_of(impl.train(UNEXHAUSTED, 258, special_tokens=["<|endoftext|>"]))
    except Exception:  # noqa: BLE001  no answer, or no special_tokens: no evidence
        return False
    return got == list(oracle.train(UNEXHAUSTED, 258).items())


@probe
def merges_at_count_zero(impl) -> Seen | None:
    """After the last pair is gone, a pair of count 0 learned again under each later id (its id overwritten)."""
    for text in ("ab", "aab", "abcab"):
        got = shapes.merges_of(_call(impl, "train", text, 300))
        want = list(oracle.train(text, 300).items())
        ids = [idx for _, idx in got]
        if (sorted(pair for pair, _ in got) == sorted(pair for pair, _ in want) and 299 in ids
                and ids != [idx for _, idx in want]):
            again = next(pair for pair, idx in got if idx == 299)
            return Seen(EXACT, f"train({text!r}, 300) gave {again} the id 299: after no pair was left it went on "
                               "learning a pair of count 0")
    return None
