"""The probes that confirm a known mistake on an implementation's behaviour (replayed: spec/wrong_variants.py).

Run texts make a merge from the right visible in train and encode results, but so do other
mistakes (a wrong rank, a wrong count). Before blaming merge.left-to-right, a test checks
that the result is exactly what merging from the right gives. The report's likely-mistake
lines (bpe_kata/verdict/teaching.py) are held to the same standard: each line names a probe here,
and the line is printed only when the probe sees the mistake's own signature in what the
implementation does (its output equals the mistake replayed, it raised, it lost bytes, it
changed its input). A probe that cannot tell returns None: no line rather than a wrong line.
The mistakes replayed (the one-change variants a probe compares with) live in wrong_variants.py,
so this module holds only the questions put to an implementation; their names stay importable here.
Not a definition of anything: the claims (spec/claims.toml) define right behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from spec import oracle, shapes
from spec.tie_rules import TIE_RULES
from spec.wrong_variants import (
    encode_by_frequency,
    encode_first_fit_by_position,
    encode_longest_match,
    encode_merging_from_the_right,
    merge_from_the_right,
    merge_stopping_early,
    train_counting_once,
)

Pair = tuple[int, int]

#: How strongly a probe saw the mistake: its replay gives exactly the implementation's output,
#: or only its symptom was seen (an exception, a changed input, a lost byte).
EXACT, SYMPTOM = 2, 1


@dataclass(frozen=True)
class Seen:
    """A probe's confirmation: how strong it is and what was seen, in a few words."""

    strength: int
    seen: str



# --- probes: each takes the implementation (a module, or the protocol client's stand-in) --------

Probe = Callable[[object], "Seen | None"]
PROBES: dict[str, Probe] = {}


def probe(function: Probe) -> Probe:
    PROBES[function.__name__] = function
    return function


def _call(impl, name: str, *args):
    """The implementation's function ``name`` called, or a LookupError when it has none."""
    function = getattr(impl, name, None)
    if not callable(function):
        raise LookupError(name)
    return function(*args)


def _merges(result) -> dict[Pair, int]:
    return dict(shapes.merges_of(result))


@probe
def overlapping_not_counted(impl) -> Seen | None:
    run = shapes.pairs_of(_call(impl, "get_stats", [7, 7, 7]))
    apart = dict(shapes.pairs_of(_call(impl, "get_stats", [7, 8, 7, 8])))
    if run == [((7, 7), 1)] and apart == {(7, 8): 2, (8, 7): 1}:
        return Seen(EXACT, "get_stats([7, 7, 7]) counted (7, 7) once")
    return None


@probe
def pairs_out_of_order(impl) -> Seen | None:
    ids = [5, 1, 2, 3, 2, 3, 2, 3, 9]  # sorting by pair, by count or reversing each changes the order
    got, want = shapes.pairs_of(_call(impl, "get_stats", ids)), list(oracle.get_stats(ids).items())
    if dict(got) == dict(want) and got != want:
        return Seen(EXACT, f"get_stats({ids}) gave the right counts in the order {[p for p, _ in got]}")
    return None


@probe
def merges_from_the_right(impl) -> Seen | None:
    ids, pair = [7, 7, 7, 5, 7, 7, 7], (7, 7)
    if callable(getattr(impl, "merge", None)):
        got = shapes.ids_of(impl.merge(list(ids), pair, 300))
        if got != oracle.merge(ids, pair, 300) and got == merge_from_the_right(ids, pair, 300):
            return Seen(EXACT, f"merge({ids}, {pair}, 300) gave {got}")
    for text in ("aaabaaaba", "aaaaabbbaaab"):
        if callable(getattr(impl, "train", None)):
            merges = shapes.merges_of(impl.train(text, 262))
            if (oracle.valid_training.not_greedy(text, merges) is not None
                    and oracle.valid_training.not_greedy(text, merges, merge=merge_from_the_right) is None):
                return Seen(EXACT, f"train({text!r}, 262) is what merging from the right learns")
    merges = {(97, 97): 256, (256, 98): 257}
    if callable(getattr(impl, "encode", None)):
        got = shapes.ids_of(impl.encode("aaab", dict(merges)))
        if got != oracle.encode("aaab", merges) and got == encode_merging_from_the_right("aaab", merges):
            return Seen(EXACT, f"encode('aaab', {merges}) gave {got}")
    return None


@probe
def merge_stops_early(impl) -> Seen | None:
    ids, pair = [5, 1, 2], (1, 2)
    got = shapes.ids_of(_call(impl, "merge", list(ids), pair, 300))
    inside = shapes.ids_of(_call(impl, "merge", [1, 2, 5], pair, 300))
    if got == merge_stopping_early(ids, pair, 300) != oracle.merge(ids, pair, 300) and inside == [300, 5]:
        return Seen(EXACT, f"merge({ids}, {pair}, 300) gave {got}")
    return None


@probe
def merge_changes_input(impl) -> Seen | None:
    ids = [1, 2, 1, 2]
    try:
        _call(impl, "merge", ids, (1, 2), 300)
    except BaseException as error:  # the protocol client's ChangedInput is no Exception
        if type(error).__name__ == "ChangedInput":
            return Seen(SYMPTOM, "the server saw merge change the ids it was given")
        raise
    return Seen(SYMPTOM, f"merge changed its ids to {ids}") if ids != [1, 2, 1, 2] else None


@cache
def tie_texts() -> tuple[str, ...]:
    """Small texts on which every documented tie rule learns another table (found once, deterministically)."""
    import random

    rng, found = random.Random(21), []
    while len(found) < 3:
        text = "".join(rng.choice("abcdZ ") for _ in range(rng.randint(8, 14)))
        tables = {tuple(oracle.train(text, 260, tie_rule=rule).items()) for rule in TIE_RULES}
        if len(tables) == len(TIE_RULES):
            found.append(text)
    return tuple(found)


@probe
def tie_to_no_documented_rule(impl) -> Seen | None:
    for text in tie_texts():
        merges = shapes.merges_of(_call(impl, "train", text, 260))
        rules = [rule for rule in TIE_RULES if merges == list(oracle.train(text, 260, tie_rule=rule).items())]
        if not rules and oracle.valid_training.violation(text, merges, 260) is None:
            return Seen(EXACT, f"train({text!r}, 260) broke a tie by no documented rule ({', '.join(TIE_RULES)})")
    return None


@probe
def ids_not_from_256(impl) -> Seen | None:
    text = "zzzzaaa"  # learns (z, z) then (a, a): a table sorted by pair puts the second first
    merges = shapes.merges_of(_call(impl, "train", text, 258))
    ids = [idx for _, idx in merges]
    if ids and ids != list(range(256, 256 + len(ids))):
        return Seen(EXACT, f"train({text!r}, 258) gave the ids {ids} in table order")
    return None


@probe
def raises_when_exhausted(impl) -> Seen | None:
    _call(impl, "train", "aab", 258)  # two merges leave one id: this one must work
    try:
        _call(impl, "train", "aab", 300)
    except LookupError:
        raise
    except NotImplementedError:
        return None
    except Exception as error:
        return Seen(SYMPTOM, f"train('aab', 258) worked, train('aab', 300) raised {type(error).__name__}")
    return None


@probe
def merges_after_exhaustion(impl) -> Seen | None:
    merges = shapes.merges_of(_call(impl, "train", "ab", 300))
    if len(merges) > 1:
        return Seen(EXACT, f"train('ab', 300) made {len(merges)} merges, where one leaves no pair")
    return None


@probe
def stops_while_pairs_left(impl) -> Seen | None:
    text = "aaabdaaabac"
    merges = shapes.merges_of(_call(impl, "train", text, 270))
    full = list(oracle.train(text, 270).items())
    if 0 < len(merges) < len(full) and merges == full[: len(merges)]:
        return Seen(EXACT, f"train({text!r}, 270) stopped after {len(merges)} of {len(full)} possible merges")
    return None


@probe
def pairs_counted_once(impl) -> Seen | None:
    text = "abababab"
    merges = shapes.merges_of(_call(impl, "train", text, 258))
    if merges == list(train_counting_once(text, 258).items()) != list(oracle.train(text, 258).items()):
        return Seen(EXACT, f"train({text!r}, 258) learned {merges}, the first count's top pairs")
    return None


def _byte_vocab() -> dict[int, bytes]:
    return oracle.build_vocab({})


@probe
def decodes_per_token(impl) -> Seen | None:
    ids = [0xC3, 0xA9]
    got = _call(impl, "decode", ids, _byte_vocab())
    if got == "\ufffd\ufffd":
        return Seen(EXACT, "decode of the two tokens of 'é' gave two U+FFFD")
    return None


@probe
def decode_raises(impl) -> Seen | None:
    try:
        _call(impl, "decode", [0x61, 0x80], _byte_vocab())
    except LookupError:
        raise
    except NotImplementedError:
        return None
    except Exception as error:
        return Seen(SYMPTOM, f"decode of the bytes 61 80 raised {type(error).__name__}")
    return None


@probe
def decode_drops_bytes(impl) -> Seen | None:
    got = _call(impl, "decode", [0x61, 0x80, 0x62], _byte_vocab())
    if got == "ab":
        return Seen(EXACT, "decode of the bytes 61 80 62 gave 'ab'")
    return None



def _reproduces(impl, replay, probes: list[tuple[str, dict[Pair, int]]]) -> str | None:
    """What the implementation's encode gave, when ``replay`` gives exactly that on every probe and
    differs from the right ids on at least one; else None."""
    seen, differs = None, False
    for text, merges in probes:
        got = shapes.ids_of(_call(impl, "encode", text, dict(merges)))
        if got != replay(text, merges):
            return None
        if got != oracle.encode(text, merges):
            seen, differs = f"encode({text!r}, {merges}) gave {got}", True
    return seen if differs else None


@probe
def encodes_by_frequency(impl) -> Seen | None:
    # the first: longest match gives the right ids; the second: the first fit by position does
    probes = [("ababc", {(98, 99): 256, (97, 98): 257, (97, 256): 258}), ("abcbcbc", {(97, 98): 256, (98, 99): 257})]
    seen = _reproduces(impl, encode_by_frequency, probes)
    return Seen(EXACT, seen) if seen else None


@probe
def encodes_first_fit_by_position(impl) -> Seen | None:
    # the first: merging by frequency gives the same ids; the second: it does not
    probes = [("baa", {(97, 97): 256, (98, 97): 257}), ("abcbcbc", {(97, 98): 256, (98, 99): 257}),
              ("ababc", {(98, 99): 256, (97, 98): 257, (97, 256): 258})]
    seen = _reproduces(impl, encode_first_fit_by_position, probes)
    return Seen(EXACT, seen) if seen else None


@probe
def encodes_longest_match(impl) -> Seen | None:
    # the first: longest match differs from rank order, but merging by frequency (ties to the greatest pair)
    # also gives the whole token; the second: longest match alone gives [258] (rank order, frequency with
    # either tie and first fit by position give [256, 256]), so only a longest-match encode reproduces both;
    # the third: the longest first token leaves three tokens where two would do, so an encode that picks the
    # fewest tokens (a dynamic program over the vocabulary), which matches the first two, does not match it
    probes = [("abc", {(97, 98): 256, (98, 99): 257, (97, 257): 258}),
              ("abab", {(97, 98): 256, (98, 256): 257, (97, 257): 258}),
              ("abcde", {(98, 99): 256, (97, 98): 257, (257, 99): 258, (256, 100): 259, (259, 101): 260})]
    seen = []
    for text, merges in probes:
        got = shapes.ids_of(_call(impl, "encode", text, dict(merges)))
        if not got == encode_longest_match(text, merges) != oracle.encode(text, merges):
            return None
        seen.append(f"encode({text!r}, {merges}) gave {got}")
    return Seen(EXACT, "; ".join(seen))


@probe
def encode_changes_table(impl) -> Seen | None:
    merges = {(97, 98): 256}
    try:
        _call(impl, "encode", "abc", merges)
    except BaseException as error:  # the protocol client's ChangedInput is no Exception
        if type(error).__name__ == "ChangedInput":
            return Seen(SYMPTOM, "the server saw encode change the table it was given")
        raise
    return Seen(SYMPTOM, f"encode changed the table to {merges}") if merges != {(97, 98): 256} else None


from spec import mistake_probes  # noqa: E402,F401  (registers its probes in PROBES)
