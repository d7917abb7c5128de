"""Every table the implementation's train returns is checked the moment it returns, in whatever test drew it:
a table that is right training under another split than the one asked fails that pattern's chunk claim, and one
that stopped while pairs were left fails ``train.no-early-stop``, unless the trainer learns the plainest texts to
their end (``stops_at_pairs_seen_once``): then its counts said no pair was left, which the tests' own checks charge.

Many tests train as a means: a worked case compares a whole table, a split case trains to the end and encodes,
a persist test saves what train learned, a tie test compares with the oracle. A trainer that stops short, or that
cuts the text otherwise than the pattern it was given or declares (a CS336 pre-tokenizer that makes every character
its own chunk when no special token is given; a port whose regex engine has no look-ahead), used to fail each of
those tests under its own claims: regex.gpt2-chunks, ties.bytes-greatest, train.tie-recorded,
train.no-implicit-specials, persist.atomic-save (issue 37: six to eight spec errors per such solution). Each is one
behaviour with one claim, seen the moment train returns: every table passes this check before any test reads it
(the runner's recorder calls ``check_trained``), so the fan-out cannot happen in any test, present or future.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spec import oracle, split_check, trainer_at_hand
from spec.blame import checking
from spec.compare import CaseMismatch
from spec.oracle import split, valid_training
from spec.shapes import merges_of

#: A replay costs (merges learned + 1) x the text's bytes; larger tables are left to the tests of their own claims.
REPLAY_BUDGET = 5_000_000


def check_trained(text: object, vocab_size: object, merges: object, pattern: str | None = None,
                  retrain: Callable[[int], object] | None = None,
                  train_on: Callable[[str, int], object] | None = None,
                  cut_from: tuple[str, list[str]] | None = None) -> None:
    """Fail ``train.no-early-stop`` when ``merges`` (what train returned for ``text``, ``vocab_size`` and
    ``pattern``) is a greedy table that stopped short of ``vocab_size`` while some pair was left. Anything else
    wrong with the table is left to the test. Also ``train.merged-again`` when only pairs with a merged token
    were left, no merge took one, and ``retrain`` (train on the same text with a larger vocab_size) does not
    take one either: a trainer one merge short stops at the same place, but learns the merge given room.
    ``cut_from``: the text and the specials asked, when ``text`` is the documents they cut (``train_on`` asks them)."""
    documents = isinstance(text, list) and all(isinstance(piece, str) for piece in text)  # cut at specials
    if not (isinstance(text, str) or documents) or not isinstance(vocab_size, int) or not isinstance(merges, Mapping):
        return
    try:
        table = merges_of(merges)
    except Exception:  # a table the suite cannot read is the test's to judge, under its own claims
        return
    if (len(table) + 1) * sum(map(len, [text] if isinstance(text, str) else text)) * 4 > REPLAY_BUDGET:
        return
    pattern = split.resolve(pattern)
    if any(not isinstance(idx, int) for _, idx in table) or valid_training.ids_wrong(table, vocab_size):
        return  # ids are train.ids-from-256's, checked where a test reads them
    trainer_at_hand.remember(text, vocab_size, pattern, table, train_on)  # a failed tie check's evidence
    split_check.check_trained_split(text, table, vocab_size, pattern, train_on)
    if len(table) >= vocab_size - 256:
        return
    if valid_training.not_greedy(text, table, pattern) is not None:
        return  # a wrong choice of pair is what the training claims themselves are about
    stopped = valid_training.stopped_early(text, table, vocab_size, pattern)
    if stopped is None or _normalised(text, table, vocab_size, pattern, train_on, cut_from):
        return
    if not stops_at_pairs_seen_once(train_on, pattern):
        return  # its counts said no pair was left: the tests' own checks charge that (spec/cases/expect.py)
    hidden = special_taking_an_id(pattern) if cut_from is None else None
    if hidden is not None:
        with checking("train.no-implicit-specials", own_training=True):
            raise CaseMismatch(f"train({_short(text)}, {vocab_size}{', pattern=...' if pattern else ''}): {stopped}; "
                               f"asked the special token {hidden!r}, which the text does not hold, it learns the "
                               "plainest texts to their end, and asked none it stops short: it keeps an id for a "
                               "special token nobody asked")
    claims = ["train.no-early-stop"]
    if retrain is not None and _never_merges_a_merge(text, table, vocab_size, pattern, retrain, train_on):
        claims.append("train.merged-again")
    with checking(*claims, own_training=True):
        raise CaseMismatch(f"train({_short(text)}, {vocab_size}{', pattern=...' if pattern else ''}): {stopped}")


#: Evidence that a trainer does merge its own tokens: "ab" is learned first (four times), then the pair of two
#: such tokens is the one most frequent pair (twice). A trainer that never merges a merged token stops after one
#: merge; one that stops at a pair seen once (or later) still learns the second, so its stop is not this claim's.
MERGES_A_MERGE_PROBE = ("ababxabab", 258)


def _never_merges_a_merge(text: str, table: list, vocab_size: int, pattern: str | None,
                          retrain: Callable[[int], object],
                          train_on: Callable[[str, int], object] | None = None) -> bool:
    left = valid_training.pairs_left(text, table, pattern)
    if not left or any(a < 256 and b < 256 for a, b in left) or any(max(pair) >= 256 for pair, _ in table):
        return False
    try:
        larger = merges_of(retrain(vocab_size + len(left)))
    except Exception:  # no answer is no evidence
        return False
    if any(isinstance(part, int) and part >= 256 for pair, _ in larger for part in pair):
        return False
    return not (train_on is not None and _merges_a_merge_given_a_repeat(train_on))


def _merges_a_merge_given_a_repeat(train_on: Callable[[str, int], object]) -> bool:
    """The trainer learns a pair of its own tokens on the probe text, where that pair occurs twice."""
    try:
        probe = merges_of(train_on(*MERGES_A_MERGE_PROBE))
    except Exception:  # no answer is no evidence
        return False
    return any(isinstance(part, int) and part >= 256 for pair, _ in probe for part in pair)


def _normalised(text: str, table: list, vocab_size: int, pattern: str | None,
                train_on: Callable[[str, int], object] | None = None,
                cut_from: tuple[str, list[str]] | None = None) -> bool:
    """The table is whole training of the text normalised, or cut at a hard-coded special: those claims' own (with
    specials asked, a hard-coded one of its own is seen on the text before their cut: ``cut_from``)."""
    from spec.cases.expect import normalisation_explains, special_string_matters, specials_explain

    if cut_from is not None:
        return special_string_matters(cut_from[0], vocab_size, pattern, train_on, cut_from[1])
    return (normalisation_explains(text, table, vocab_size, pattern, train_on)
            or specials_explain(text, table, vocab_size, pattern, train_on)
            or special_string_matters(text, vocab_size, pattern, train_on))


def _short(text: str) -> str:
    return repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"


#: Texts whose last pairs each occur once, where no count can go wrong (no letter thrice in a row, no merged pair twice
#: in a row): a trainer whose stop rule is right learns each to one token, whatever its tie rule; on the last, under
#: every rule, the last merge joins two merged tokens (review: a trainer that never takes such a pair stops there).
#: Text -> the merges that make it one token.
PAIRS_SEEN_ONCE = {"ab": 1, "abcd": 3, "aabaa": 3}


def stops_at_pairs_seen_once(train_on: Callable[[str, int], object] | None, pattern: str | None) -> bool:
    """The trainer (``train_on``, else the one at hand) stops short on the plainest texts whose last pairs occur once:
    its stop rule is train.no-early-stop's fault. False when it learns them to the end: its stop elsewhere, with a
    pair left, came from counts that said none was (eighth round, development: a trainer whose counts went wrong on
    'aaa aaaa' stopped with a pair left, charged to train.no-early-stop). True when it cannot tell (no trainer, no
    answer, a split that leaves these texts no pair): the stop stands as seen."""
    train_on = trainer_at_hand.trainer(train_on, pattern)
    if train_on is None:
        return True
    told = False
    for text, to_one_token in PAIRS_SEEN_ONCE.items():
        whole = len(oracle.train(text, 256 + len(text), pattern=pattern))
        if whole < to_one_token:
            continue  # the split leaves these pairs apart: no evidence
        size = 256 + whole
        try:
            table = merges_of(train_on(text, size))
        except Exception:  # noqa: BLE001  no answer is no evidence
            return True
        if valid_training.stopped_early(text, table, size, pattern):
            return True
        told = True
    return not told



def special_taking_an_id(pattern: str | None) -> str | None:
    """The well-known special token whose asking makes the trainer at hand learn the plainest texts
    (``PAIRS_SEEN_ONCE``) to their end, where asked none it stops short; None when no such evidence. A right trainer
    learns alike either way (a special absent from the text changes nothing); one that adds a special of its own
    unless asked (CS336's ``<|endoftext|>``) keeps one id for it and stops a merge short on every training (eleventh
    round, development: charged to train.no-early-stop in 37 tests). Asked only when an early stop is charged."""
    from spec.cases.expect import WELL_KNOWN_SPECIALS

    plain = trainer_at_hand.trainer(None, pattern)
    for text, to_one_token in PAIRS_SEEN_ONCE.items():
        whole = len(oracle.train(text, 256 + len(text), pattern=pattern))
        if plain is None or whole < to_one_token:
            continue
        size = 256 + whole
        try:
            if not valid_training.stopped_early(text, merges_of(plain(text, size)), size, pattern):
                return None
        except Exception:  # noqa: BLE001  no answer is no evidence
            return None
        for special in WELL_KNOWN_SPECIALS:
            try:
                table = merges_of(trainer_at_hand.asking([special], pattern)(text, size))
            except Exception:  # noqa: BLE001  no answer is no evidence
                continue
            if valid_training.violation(text, table, size, pattern) is None:
                return special
        return None
    return None
