"""Decoding the case format and comparing a result with a case's expected value, claim by claim.

Shared by the operations of every level family (ops_core.py, ops_production.py) and by spec
tests that check the same observables outside a case (an error naming a position, a special,
a file's line); kept apart from the operations so each operation reads as how to call it and
what to compare, not how a mismatch is worded or blamed.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from spec import oracle, split_variants, trainer_at_hand
from spec.blame import checking
from spec.cases.registry import Case, Pair
from spec.compare import CaseMismatch, describe, expect_equal, show_bytes
from spec.early_stop import special_taking_an_id, stops_at_pairs_seen_once
from spec.patterns import PATTERNS
from spec.shapes import merges_of
from spec.table_ids import ids_claim, renumbered

# --- Decoding the case format ---

def merges_from(rows: list[list[int]]) -> dict[Pair, int]:
    """An ordered merge table from the case format's list of [left, right, id]."""
    return {(left, right): idx for left, right, idx in rows}


def merge_list(rows: list[list[int]]) -> list[tuple[Pair, int]]:
    """The same rows as the (pair, id) list ``spec.shapes.merges_of`` gives, for comparing tables in order."""
    return [((left, right), idx) for left, right, idx in rows]


def policy(value: str | list[str]) -> str | set[str]:
    """A special-token policy: "all", or the set of the listed specials."""
    return value if value == "all" else set(value)


def tie_rule_feature(rule: str) -> str:
    """The optional feature a tie rule is (spec.levels.feature_not_started knows how to probe it)."""
    return f"train(tie_rule={rule})"


def expect_ids(result: list[int], expected: dict, merges: dict[Pair, int] | None = None,
               text_bytes: int | None = None) -> None:
    """A case's ids, or their number, as expected; a mismatch shows both, with each id's bytes (and, given
    the text's length in bytes, bytes per token: the bytes-per-token curve's own figure)."""
    if "ids" in expected:
        expect_equal(result, expected["ids"], "ids", merges=merges)
    elif len(result) != expected["length"]:
        vocab = oracle.build_vocab(dict(merges or {}))
        pieces = ", ".join(f"{i} [{show_bytes(vocab[i])}]" if i in vocab else str(i) for i in result[:40])
        per_token = (f" ({text_bytes / expected['length']:.4f} against {text_bytes / max(len(result), 1):.4f} "
                     f"bytes per token for {text_bytes:,} bytes)") if text_bytes else ""
        raise CaseMismatch(f"number of ids: expected {expected['length']:,}, got {len(result):,}{per_token}\n"
                           f"  actual ids: {pieces}{', ...' if len(result) > 40 else ''}")


def expect_each(checks: list[tuple[str, object, object, str]], *, own_training: bool = False,
                merges: dict[Pair, int] | None = None) -> None:
    """``[(claim, actual, expected, what), ...]``: each claim judged on its own observable. Every comparison is
    made; one failure is raised, blaming only the claims whose own comparison differs (so a case that checks
    two claims never blames the one whose observable was right)."""
    vocab = oracle.build_vocab(dict(merges)) if merges is not None else None
    wrong = [(claim, describe(actual, expected, what, vocab)) for claim, actual, expected, what in checks
             if actual != expected]
    if wrong:
        with checking(*dict.fromkeys(claim for claim, _ in wrong), own_training=own_training):
            raise CaseMismatch("\n".join(line for _, lines in wrong for line in lines))


#: A worked case's claim whose statement is about one property of the table, not each of its merges, is compared on
#: that property alone (held out: a trainer whose counts go stale learned all three merges of train-no-early-stop, a
#: wrong second one among them, and was charged train.no-early-stop).
OWN_OBSERVABLES: dict[str, tuple[str, Callable[[list], object]]] = {
    "train.no-early-stop": ("the number of merges learned", len),
}


def _invalid_table_claim(given: dict, result: list) -> str | None:
    """The classifier's claim for ``result`` when it is no valid training of the case's text, else None."""
    pattern = PATTERNS[given["pattern"]] if "pattern" in given else None
    if oracle.valid_training.violation(given["text"], result, given["vocab_size"], pattern) is None:
        return None
    return training_claim(given["text"], result, given["vocab_size"], pattern)


def expect_merges(case: Case, result: list, expected: list, own_training: bool = False) -> None:
    """A worked training case: one table, so one claim judged on it. train.merged-again has an observable of its
    own: whether some merge takes an earlier merge's token as a part, as in the expected table; regex.no-cross-chunk
    too (no merged token spans two chunks of the case's pattern). ``own_training``: the table is the
    implementation's, trained with its default tie rule (the ledger's tie-rule excuse may apply)."""
    given = case["input"]
    table_claims = [c for c in case["claims"] if c not in ("train.merged-again", "regex.no-cross-chunk")]
    narrow = [c for c in table_claims if c in OWN_OBSERVABLES]
    table_claims = [c for c in table_claims if c not in OWN_OBSERVABLES]
    # the pairs learned, in order, are the table claims' observable (the ids renumbered 256, 257, ... in table
    # order, so a wrong numbering does not change them); the ids themselves are train.ids-from-256's
    by_id = _in_id_order(result)
    learned = by_id or renumbered(result)
    label = ("merges (read in id order)" if by_id else "merges" if learned == result
             else "merges (ids renumbered from 256)")
    if table_claims and learned != expected and "text" in given:
        # an invalid table is no statement's value: its defect is the classifier's claim's, whichever worked case
        # met it (held out, seventh round: a recount that merged a pair of count 0 after a run's first merge was
        # charged to the chunk-frequency case whose text was one run)
        broken = _invalid_table_claim(given, result)
        table_claims = table_claims if broken is None or broken in table_claims else [broken]
    checks = [(claim, learned, expected, label) for claim in table_claims]
    for claim in narrow:
        what, observe = OWN_OBSERVABLES[claim]
        checks.append((claim, observe(learned), observe(expected), what))
    if narrow and not table_claims and learned != expected:
        # no claim of the case is about every merge: an invalid table is the classifier's claim's, a valid one
        # that differs the case's own
        broken = _invalid_table_claim(given, result) if "text" in given else None
        checks += [(claim, learned, expected, label) for claim in ([broken] if broken else narrow)]
    checks.append((ids_claim(given.get("text"), result, given.get("vocab_size"), given.get("pattern")),
                   [idx for _, idx in result],
                   list(range(256, 256 + len(result))), "ids of the merges, in order"))
    if "train.merged-again" in case["claims"]:
        checks.append(("train.merged-again", _merges_a_merge(result), _merges_a_merge(expected),
                       "some merge takes an earlier merge's token as a part"))
    if "regex.no-cross-chunk" in case["claims"]:
        pattern = PATTERNS[case["input"]["pattern"]]
        checks.append(("regex.no-cross-chunk", _crossing_tokens(case["input"]["text"], result, pattern), [],
                       "learned tokens whose bytes span two chunks"))
    expect_each(checks, own_training=own_training)


def _crossing_tokens(text: str, merges: list, pattern: str) -> list[bytes]:
    """The learned tokens that occur in no chunk of the text (so they can only have joined two chunks)."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (left, right), idx in sorted(merges, key=lambda merge: merge[1]):  # a part's id is always smaller
        vocab[idx] = vocab.get(left, b"?") + vocab.get(right, b"?")
    pieces = [chunk.encode("utf-8") for chunk in oracle.chunks.chunks(text, pattern)]
    return [vocab[idx] for _, idx in merges if not any(vocab[idx] in piece for piece in pieces)]


def normalisation_explains(text: str, merges: list, vocab_size: int, pattern: str | None = None,
                           train_on: Callable[[str, int], object] | None = None) -> bool:
    """The table is not valid training on ``text`` as given, but is on the text normalised (NFC, CRLF and CR to
    LF): the trainer normalised, bytes.no-normalization's observable. Any other invalid table is another claim's."""
    return normalisation_found(text, merges, vocab_size, pattern, train_on) is not None


#: Texts on whose first merge folding changes the answer: (the fold's mark in ``normalisation_found``'s words, the
#: probe, the fold). What folding learns is the oracle's on the folded probe, with the split and tie rule in force
#: (a course's bytes-greatest rule took (97, 98) over (10, 10) on a probe that had "ab" after its line ends):
#: CRLF, (13, 10) three times as given, (10, 10) twice folded; NFC, (204, 129) three times as given, (195, 169)
#: three times composed.
FOLD_PROBES = (("CR", "\r\n\r\n\r\n", lambda text: text.replace("\r\n", "\n")),
               ("NFC", "e\u0301e\u0301e\u0301", lambda text: unicodedata.normalize("NFC", text)))


def normalisation_found(text: str, merges: list, vocab_size: int, pattern: str | None = None,
                        train_on: Callable[[str, int], object] | None = None) -> str | None:
    """How the text was changed when the table is valid training on it changed (see ``normalisation_explains``):
    said with the failure, so a learner sees which bytes their code changed ("CRLF to LF", "NFC"); else None. A
    table that fits a changed text may fit it by chance (an empty or short one fits many): it is the fold's only
    with the trainer's evidence (``train_on``, else the trainer at hand, spec/trainer_at_hand.py), that it learns
    what folding learns on ``FOLD_PROBES`` (held out: a trainer that learned nothing on '\\r\\r\\n0' was told it
    folds line ends; a trainer that stopped at a count of 1 was charged a fold by a short table)."""
    if not isinstance(text, str) or oracle.valid_training.violation(text, merges, vocab_size, pattern) is None:
        return None  # a list of documents (cut at specials asked): no normalisation is looked for
    train_on = trainer_at_hand.trainer(train_on, pattern)
    crlf = text.replace("\r\n", "\n")
    both = crlf.replace("\r", "\n")
    nfc = functools.partial(unicodedata.normalize, "NFC")
    tried = {text}
    first_wrong = oracle.valid_training.first_bad_step(text, merges, pattern)
    for how, other in (("NFC", nfc(text)), ("CRLF to LF", crlf), ("CRLF and CR to LF", both),
                       ("CRLF to LF, then NFC", nfc(crlf)), ("CRLF and CR to LF, then NFC", nfc(both))):
        if other not in tried and _fits_from_the_first_wrong_merge(other, merges, vocab_size, pattern, first_wrong) \
                and _folds(how, train_on, pattern):
            return how
        tried.add(other)
    return None


def normalisation_note(text: str, merges: list, vocab_size: int, pattern: str | None = None,
                       train_on: Callable[[str, int], object] | None = None) -> str:
    """What a failure charged to bytes.no-normalization adds: how the trainer changed the text."""
    how = normalisation_found(text, merges, vocab_size, pattern, train_on)
    return "" if how is None else (f" (the table is right training on the text normalised, {how}, up to its first "
                                   "wrong merge at least: the trainer changed the text's bytes; a text-mode file "
                                   "read folds line ends so)")


def fold_or(claim: str, text: str, merges: list, vocab_size: int, pattern: str | None = None) -> tuple[str, str]:
    """``("bytes.no-normalization", how the text was changed)`` when the table is training on the text with its line
    ends or its Unicode form changed, else ``(claim, "")``: every failure charged to the fold says how (an early stop
    charged to it said only "training stopped after 0 of 1 merges")."""
    if normalisation_explains(text, merges, vocab_size, pattern):
        return "bytes.no-normalization", normalisation_note(text, merges, vocab_size, pattern)
    return claim, ""


def _fits_from_the_first_wrong_merge(folded: str, merges: list, vocab_size: int, pattern: str | None,
                                     first_wrong: int | None) -> bool:
    """The table is valid training on the folded text, or at least its first merge that is wrong on the text as
    given is right on the folded one, or is made once the folded text has no pair left (a trainer that also merges
    at count 0): the earliest defect is the fold's, whatever a later one is (tenth round, development: a CRLF fold
    then a merge at count 0 once the folded text ran out of pairs was charged to the counts). Blame goes to the
    first deviation, as a learner fixes them."""
    if oracle.valid_training.violation(folded, merges, vocab_size, pattern) is None:
        return True
    if first_wrong is None:  # right merges, wrong ids or an early stop: the fold explains nothing of that
        return False
    later = oracle.valid_training.first_bad_step(folded, merges, pattern)
    if later is None or later < first_wrong or oracle.valid_training.ids_wrong(merges[:first_wrong + 1],
                                                                                 256 + first_wrong + 1):
        return False
    # at the same step: a merge made once the folded text had no pair left, a pair the text as given still has
    return later > first_wrong or oracle.valid_training.merged_when_exhausted(folded, merges, pattern) is not None


def _folds(how: str, train_on: Callable[[str, int], object] | None, pattern: str | None = None) -> bool:
    """The trainer's evidence that it folds as ``how`` says: on each fold's probe, it learns what folding learns
    (and what training the probe as given does not)."""
    if train_on is None:
        return False
    try:
        for mark, probe, fold in FOLD_PROBES:
            if mark not in how:
                continue
            folded = merges_of(oracle.train(fold(probe), 257, pattern=pattern))
            if folded == merges_of(oracle.train(probe, 257, pattern=pattern)) or merges_of(
                    train_on(probe, 257)) != folded:
                return False
        return True
    except Exception:  # noqa: BLE001  no answer is no evidence
        return False


#: Special tokens' strings a trainer may have hard-coded (a CS336 habit): with none asked, they are plain text.
WELL_KNOWN_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")


def specials_explain(text: str, merges: list, vocab_size: int, pattern: str | None = None,
                     train_on: Callable[[str, int], object] | None = None) -> bool:
    """The table is not valid training on ``text``, but is once a well-known special token's string is cut out,
    made a boundary, or kept whole as a document of its own: the trainer had it hard-coded, though none was
    asked (train.no-implicit-specials). A table may fit what the cut leaves by chance (an empty one fits any text
    without a pair, a short one many): it is the cut's only with the trainer's evidence (``train_on``, else the
    trainer at hand), that it learns the pair beside a special string and none inside it, or learns ``text`` right
    once the string is altered (``special_string_matters``: a special kept whole as a document). Held out: a trainer
    whose cut left nothing to learn was charged train.no-early-stop too; one that stopped at a count of 1 was
    charged a cut by a short table."""
    if not isinstance(text, str):
        return False  # documents already cut at the specials asked
    present = [special for special in WELL_KNOWN_SPECIALS if special in text]
    if not present or oracle.valid_training.violation(text, merges, vocab_size, pattern) is None:
        return False
    train_on = trainer_at_hand.trainer(train_on, pattern)
    if not any(_cuts_special(special, train_on) for special in present) and not special_string_matters(
            text, vocab_size, pattern, train_on):
        return False
    boundary = re.compile("|".join(map(re.escape, present)))
    documents = [part for part in boundary.split(text) if part]
    kept = [part for part in re.split(f"({boundary.pattern})", text) if part]
    variants = [boundary.sub("", text), documents, kept]
    return any(oracle.valid_training.violation(variant, merges, vocab_size, pattern) is None for variant in variants)


def special_string_matters(text: str, vocab_size: int, pattern: str | None = None,
                           train_on: Callable[[str, int], object] | None = None, specials: list[str] = ()) -> bool:
    """The trainer, given ``text`` with each well-known special's string altered by one letter's case (so it is no
    special token's), trains it right: its wrong table on ``text`` is the string's doing, a hard-coded special cut
    in some way of its own (train.no-implicit-specials; held out: a trainer that cut the file at hard-coded
    boundaries from its middle stopped one merge short on such a text, charged train.no-early-stop). With
    ``specials`` asked (``train_on`` asks them too), only a well-known string none of them holds or is held by is
    altered, and right means right on the documents the asked specials cut (held out: the same trainer, met with
    another special asked, was charged train.special-tokens)."""
    if not isinstance(text, str) or train_on is None:
        return False
    present = [special for special in WELL_KNOWN_SPECIALS if special in text
               and not any(special in asked or asked in special for asked in specials)]
    if not present:
        return False
    altered = text
    for special in present:
        altered = altered.replace(special, special[:2] + special[2].swapcase() + special[3:])
    try:
        table = merges_of(train_on(altered, vocab_size))
    except Exception:  # noqa: BLE001  no answer is no evidence
        return False
    trained_on = oracle.special.documents(altered, list(specials)) if specials else altered
    return oracle.valid_training.violation(trained_on, table, vocab_size, pattern) is None


def _cuts_special(special: str, train_on: Callable[[str, int], object] | None) -> bool:
    """The trainer, given the special's string twice then "ab" and room for one merge, learns (97, 98), seen once,
    where whole training learns a pair inside the string, seen twice under any split."""
    if train_on is None:
        return False
    for vocab_size in (257, 258):  # room for one more: a trainer that keeps an id for a special of its own
        try:
            if merges_of(train_on(special * 2 + "ab", vocab_size))[:1] == [((97, 98), 256)]:
                return True
        except Exception:  # noqa: BLE001  no answer is no evidence
            continue
    return False


def training_claim(text: str, merges: list, vocab_size: int, pattern: str | None = None,
                   train_on: Callable[[str, int], object] | None = None) -> str:
    """The claim an invalid table breaks, by its own observable: normalised text, then the ids (a table whose ids
    are right but reordered is train.tie-recorded's), then a hard-coded special token, then a split other than the
    published pattern asked (spec/split_variants.py: that pattern's chunk claim), then an early stop, then a
    pattern not used or each distinct chunk counted once (the chunk counts' claim), then a merge made once no pair
    was left, else a merge that was not a most frequent pair (train.most-frequent, with a pattern or without).
    Every test that finds a trained table invalid names its claim through this one function, so a defect is
    charged the same way whichever test meets it.

    A split is charged only with the trainer's evidence (``train_on``: train another text, spec/split_check.py): a
    table right under a variant by chance is no blame (held out: a trainer whose counts go stale after a merge gave,
    on '000000' under GPT-2's split, a table GPT-4's split would give, and was charged regex.gpt2-chunks). Without
    ``train_on`` no split is charged here; every table train returns is checked for one, with the trainer at hand, the
    moment it is returned (bpe_kata/verdict/recording.py, spec/early_stop.py)."""
    if normalisation_explains(text, merges, vocab_size, pattern, train_on):
        return "bytes.no-normalization"
    if oracle.valid_training.ids_wrong(merges, vocab_size):
        ids = [idx for _, idx in merges]
        in_order = sorted(ids) != ids and sorted(ids) == list(range(256, 256 + len(ids)))
        if in_order:
            return "train.tie-recorded"  # each id right, the table reordered
        return ids_claim(text, merges, vocab_size, pattern)
    if specials_explain(text, merges, vocab_size, pattern, train_on):  # valid, even exhausted, on what a cut leaves
        return "train.no-implicit-specials"
    if special_string_matters(text, vocab_size, pattern, train_on):  # a cut of its own: right once the string is not
        return "train.no-implicit-specials"
    explained = _evidenced_split(text, merges, vocab_size, pattern, train_on)
    if explained is not None:  # right training, under another split than the one asked or declared, and shown
        return explained[0]
    if oracle.valid_training.not_greedy(text, merges, pattern) is None and \
            oracle.valid_training.stopped_early(text, merges, vocab_size, pattern) and \
            stops_at_pairs_seen_once(train_on, pattern):  # else its counts said no pair was left
        return "train.no-early-stop" if special_taking_an_id(pattern) is None else "train.no-implicit-specials"
    if pattern is not None and _valid_over_the_whole_text(text, merges, vocab_size):
        return "regex.chunk-frequency"  # the pattern was not used: pairs counted across chunks
    if _valid_counting_each_chunk_once(text, merges, vocab_size, pattern):
        return "regex.chunk-frequency"  # each distinct chunk counted once: the weights were forgotten
    if oracle.valid_training.merged_when_exhausted(text, merges, pattern) and not _stops_when_exhausted(
            train_on, pattern):
        return "train.exhausted"  # a merge of count 0 once no pair was left: not a choice among pairs
    return "train.most-frequent"  # a merge that was not a most frequent pair, with the text cut as asked


#: Texts that run out of pairs at once: a trainer whose stop rule is right learns a valid table to the end on each.
EXHAUSTING = ("ab", "aab", "abcab")


def _stops_when_exhausted(train_on: Callable[[str, int], object] | None, pattern: str | None) -> bool:
    """The trainer stops right on the plainest texts that run out of pairs: a merge it made once no pair was left
    elsewhere is its counts' doing, not its stop rule's (eighth round, development: a trainer that re-merged
    positions an overlap had consumed counted phantom pairs, and its merge of one after the last real pair was
    charged to train.exhausted while train.most-frequent read "not judged"). False when it cannot tell."""
    train_on = trainer_at_hand.trainer(train_on, pattern)
    if train_on is None:
        return False
    try:  # valid whatever the tie rule (a trainer that ties by the lowest pair learns another table on abcab)
        return all(oracle.valid_training.violation(text, merges_of(train_on(text, 300)), 300, pattern) is None
                   for text in EXHAUSTING)
    except Exception:  # noqa: BLE001  no answer is no evidence
        return False


def _valid_over_the_whole_text(text: str, merges: list, vocab_size: int) -> bool:
    with oracle.split.whole_text():
        return oracle.valid_training.violation(text, merges, vocab_size) is None


def _valid_counting_each_chunk_once(text: str, merges: list, vocab_size: int, pattern: str | None) -> bool:
    """Valid training when each distinct chunk counts once, however often it occurs (a repeated chunk's weight
    forgotten, the fault regex.chunk-frequency's statement is about); False when no chunk repeats."""
    from spec.oracle.chunks import chunks

    asked = oracle.split.resolve(pattern)
    if asked is None or not isinstance(text, str):
        return False
    cut = chunks(text, asked)
    distinct = list(dict.fromkeys(cut))
    if len(distinct) == len(cut):
        return False
    with oracle.split.whole_text():  # each distinct chunk a document of its own, not cut again
        return oracle.valid_training.violation(distinct, merges, vocab_size) is None


def _evidenced_split(text: str, merges: list, vocab_size: int, pattern: str | None,
                     train_on: Callable[[str, int], object] | None) -> tuple[str, split_variants.Variant] | None:
    from spec import split_check  # it reads this module's classifiers: imported when asked

    return split_check.evidenced(text, merges, vocab_size, pattern, train_on)


def fail_invalid_training(text: str, merges: list, vocab_size: int, problem: str | None, pattern: str | None = None,
                          note: str = "", train_on: Callable[[str, int], object] | None = None) -> None:
    """``problem`` (what a validity check found wrong with a trained table, or None) fails the claim
    ``training_claim`` names: one rule for every test that checks a table it did not train for its own claim."""
    if problem is None:
        return
    claim = training_claim(text, merges, vocab_size, pattern, train_on)
    explained = _evidenced_split(text, merges, vocab_size, pattern, train_on)
    if explained is not None and explained[0] == claim:
        note += (f" (the table is right training under another split, {explained[1].name}: the trainer does not "
                 f"cut the text as the pattern asked does)")
    elif claim == "bytes.no-normalization":
        note += normalisation_note(text, merges, vocab_size, pattern, train_on)
    with checking(claim):
        raise AssertionError(problem + note)


def _in_id_order(merges: list) -> list[tuple[Pair, int]] | None:
    """A table whose ids are exactly 256, 257, ... but not in table order (a hash-ordered or sorted dict), read in
    id order: each merge's parts name the right tokens, so the pairs learned are judged as learned, and only the
    order is wrong (the ids check). None for any other table."""
    ids = [idx for _, idx in merges]
    if ids == sorted(ids) or sorted(ids) != list(range(256, 256 + len(ids))):
        return None
    return sorted(merges, key=lambda merge: merge[1])


def _merges_a_merge(merges: list) -> bool:
    return any(left >= 256 or right >= 256 for (left, right), _ in merges)


def assert_names_position(error: BaseException, position: int) -> None:
    """The error message names the position (a number on its own, not part of a larger one)."""
    assert re.search(rf"(?<!\d){position}(?!\d)", str(error)), f"the message does not name position {position}: {error}"


def assert_names_special(error: BaseException, special: str, position: int) -> None:
    """The message names the special (as is, or as its repr) and its position in the text."""
    message = str(error)
    assert special in message or repr(special) in message, message
    assert re.search(rf"(?<!\d){position}(?!\d)", message), message


def assert_load_fails_at(impl, path: Path, line: int) -> None:
    """load raises ValueError whose message names the file and the line of the first problem."""
    with pytest.raises(ValueError) as raised:
        impl.load(path)
    assert path.name in str(raised.value), f"the message does not name the file: {raised.value}"
    assert line in lines_named(raised.value), f"the message does not name line {line}: {raised.value}"


def lines_named(error: BaseException) -> set[int]:
    """The line numbers an error message names ("line 3")."""
    return {int(n) for n in re.findall(r"\bline (\d+)", str(error), flags=re.IGNORECASE)}
