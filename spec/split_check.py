"""A split other than the one asked (or declared) is one claim, the asked pattern's chunk claim, caught the moment
train or encode returns, in whatever test drew the call (spec/split_variants.py lists the splits code has instead).

The runner's recorder calls these on every train and encode result, as it checks early stops (spec/early_stop.py):
a trainer or encoder that cuts text otherwise than the pattern then fails ``regex.gpt2-chunks`` (or gpt4's, or
``regex.chunk-frequency`` for a pattern of the caller's own) at its first call, never the claims of the tests that
only meant to train or encode. Cheap on a right implementation: one replay or one encode by the oracle per call,
within budgets, and only when a pattern is asked or declared.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from spec import split_variants, trainer_at_hand
from spec.blame import checking
from spec.compare import CaseMismatch
from spec.oracle import split, valid_training
from spec.shapes import merges_of

#: An encode is checked against the oracle's when its text and table are this small (the oracle is plain code).
ENCODE_BUDGET = 200_000


EVERY_CHARACTER_PROBE = split_variants.EVERY_CHARACTER_PROBE


def check_trained_split(text: str, table: list, vocab_size: int, pattern: str | None,
                        train_on: Callable[[str, int], object] | None) -> None:
    """Fail the asked split's chunk claim when the table is right training under another split than the one
    asked or declared (spec/split_variants.py), unless normalised text or a hard-coded special explains it first
    (the classifier's order, spec/cases/expect.py ``training_claim``). The trainer's evidence is always needed
    (``evidenced``): a table that only stopped short where a finer split leaves no pair is an early stop without it
    (spec/early_stop.py)."""
    from spec.cases.expect import normalisation_explains, specials_explain

    explained = evidenced(text, table, vocab_size, pattern, train_on)
    if explained is not None and explained[1].pattern != split_variants.EVERY_CHARACTER \
            and (normalisation_explains(text, table, vocab_size, pattern)
                 or specials_explain(text, table, vocab_size, pattern)):
        return  # two explanations: the split's wins only when the trainer cuts every character (its own evidence)
    if explained is None:
        return
    claim, variant = explained
    with checking(claim, own_training=True):
        raise CaseMismatch(f"train({short(text)}, {vocab_size}, pattern=...): the table is right training under "
                           f"another split than the pattern asked, {variant.name}: the text is not cut as the "
                           f"pattern cuts it ({valid_training.violation(text, table, vocab_size, pattern)})")


def split_behind_the_ties() -> tuple[str, str] | None:
    """(the asked split's chunk claim, why) when a table the trainer returned in this test (spec/trainer_at_hand.py)
    is valid under the asked split, is not the tie rule's table there, but is the rule's whole table under another
    split the trainer shows it cuts by: a failed tie choice on its own training is then its chunks' doing (tenth
    round, development: a pattern matched against UTF-8 bytes, which cuts é from the letters after it, was charged
    to ties.bytes-greatest). Asked only when a tie check fails, so a right implementation pays nothing."""
    from spec import oracle

    for text, vocab_size, pattern, table, train_on in trainer_at_hand.returned():
        asked = split.resolve(pattern)
        if not isinstance(text, str) or asked not in split_variants.CHUNK_CLAIMS or not table \
                or valid_training.violation(text, table, vocab_size, asked) is not None \
                or table == merges_of(oracle.train(text, vocab_size, pattern=asked)):
            continue
        for variant in split_variants.variants(asked):
            if table == merges_of(oracle.train(text, vocab_size, pattern=variant.pattern)) \
                    and _splits_as(variant, asked, train_on):
                return split_variants.chunk_claim(asked, variant), (
                    f"train({short(text)}, {vocab_size}) learned the tie rule's table under another split than the "
                    f"pattern asked, {variant.name}, and the trainer splits so on its probe: its picks among tied "
                    "pairs differ because its chunks do")
    return None


def _finer_split_shown(text: str | list[str], table: list, vocab_size: int, pattern: str,
                       train_on: Callable[[str, int], object] | None) -> tuple[str, split_variants.Variant] | None:
    """A table that only stopped short, right under a variant that cuts finer (every character apart, a letter's
    bytes apart), is that split's when the trainer shows it splits so on the variant's probe (every character: it
    learns only (195, 169), the pair inside 'é', not (97, 97), three times)."""
    for variant in split_variants.variants(pattern):
        if split_variants.runs_out_sooner(variant) \
                and valid_training.violation(text, table, vocab_size, variant.pattern) is None \
                and (_cuts_every_character(train_on) if variant.pattern == split_variants.EVERY_CHARACTER
                     else _splits_as(variant, split.resolve(pattern), train_on)):
            return split_variants.chunk_claim(pattern, variant), variant
    return None


def evidenced(text: str | list[str], table: list, vocab_size: int, pattern: str | None,
              train_on: Callable[[str, int], object] | None) -> tuple[str, split_variants.Variant] | None:
    """(the asked split's chunk claim, the variant) when ``table`` is right training under a variant of the asked
    split and the trainer shows, on the variant's probe, that it splits so; None otherwise, and always without a
    trainer to ask (a blame needs evidence)."""
    if train_on is None:
        return None
    asked = split.resolve(pattern)
    found = next((found for found in split_variants.all_explaining(text, table, vocab_size, pattern)
                  if _splits_as(found[1], asked, train_on)), None)
    if found is None and asked in split_variants.CHUNK_CLAIMS \
            and valid_training.not_greedy(text, table, asked) is None \
            and valid_training.stopped_early(text, table, vocab_size, asked) is not None:
        found = _finer_split_shown(text, table, vocab_size, asked, train_on)  # a stop, and the trainer's evidence
    return found


def _splits_as(variant: split_variants.Variant, asked: str | None,
               train_on: Callable[[str, int], object] | None) -> bool:
    """The trainer's own evidence that it splits as ``variant``: asked for one merge of the variant's probe (the
    first on which the variant and the asked split disagree), it learns what training under the variant learns
    (a blame needs evidence: the table under test may match a variant by chance, its real fault another)."""
    if train_on is None or asked is None:
        return False
    for probe in variant.probes:
        as_variant = _first_merge(probe, variant.pattern)
        if as_variant == _first_merge(probe, asked):
            continue
        try:
            return merges_of(train_on(probe, 257)) == as_variant
        except Exception:  # noqa: BLE001 - no answer is no evidence: the next probe may get one (issue 37, kind 5)
            continue
    return False


@functools.lru_cache(maxsize=64)
def _first_merge(probe: str, pattern: str) -> list:
    from spec import oracle

    return merges_of(oracle.train(probe, 257, pattern=pattern))


def _cuts_every_character(train_on: Callable[[str, int], object] | None) -> bool:
    """The trainer's own evidence: asked for one merge of EVERY_CHARACTER_PROBE, it learns only the pair inside 'é'
    (a right trainer, under either published split or none, learns (97, 97), three times)."""
    if train_on is None:
        return False
    try:
        return merges_of(train_on(EVERY_CHARACTER_PROBE, 257)) == [((195, 169), 256)]
    except Exception:  # no answer is no evidence
        return False


def check_encoded(text: object, merges: object, ids: object, options: Mapping[str, object],
                  encode_on: Callable[[str, dict], object] | None = None) -> None:
    """Fail the asked pattern's chunk claim when ``ids`` (what encode returned) are not the oracle's under the
    asked split but are under a variant of it, and the encoder shows it cuts so: asked to encode the variant's probe
    with a table on which the two splits disagree, it gives the variant's ids (``encode_on``; a blame needs
    evidence: held out, an encoder that turned CR into LF gave, on one text, the ids another split would)."""
    from spec import oracle

    pattern = split.resolve(options.get("pattern"))  # type: ignore[arg-type]
    if pattern is None or not isinstance(text, str) or not isinstance(merges, Mapping) or not isinstance(ids, list):
        return
    if len(text) * (len(merges) + 1) > ENCODE_BUDGET:
        return
    rest = {key: value for key, value in options.items() if key != "pattern"}

    def encoded(under: str) -> object:
        try:
            return oracle.encode(text, merges, pattern=under, **rest)
        except Exception:  # the oracle refuses (an uncovered character, a special): that is another claim's
            return None

    if list(ids) == encoded(pattern):
        return
    for variant in split_variants.variants(pattern):
        if variant.pattern == split_variants.EVERY_CHARACTER:
            continue  # an encoder that merges nothing gives those ids too: its own claim's failure, not a split's
        if encoded(variant.pattern) == list(ids) and _encodes_as(variant, pattern, encode_on):
            with checking(split_variants.chunk_claim(pattern, variant)):
                raise CaseMismatch(f"encode({short(text)}, ..., pattern=...) gave the ids the text has when cut "
                                   f"by another split than the pattern asked, {variant.name}: {list(ids)[:20]}")


#: Merges learned from a variant's probe for the encoder's evidence: enough for tokens that span the asked split's cuts.
PROBE_MERGES = 8


def _encodes_as(variant: split_variants.Variant, asked: str,
                encode_on: Callable[[str, dict], object] | None) -> bool:
    """The encoder's own evidence that it cuts as ``variant``: on the first of the variant's probes where the two
    splits give different ids (with the table either split learns from it), it gives the variant's."""
    from spec import oracle

    if encode_on is None:
        return False
    for probe in variant.probes:
        for learned_under in (variant.pattern, asked):  # a table of either split's tokens, whichever tells them apart
            table = _probe_table(probe, learned_under)
            as_variant = oracle.encode(probe, table, pattern=variant.pattern)
            if as_variant == oracle.encode(probe, table, pattern=asked):
                continue
            try:
                return list(encode_on(probe, dict(table))) == as_variant
            except Exception:  # noqa: BLE001 - no answer is no evidence: the next probe may get one (an encoder
                break  # that crashes on one token left, seventh round); on to the next probe
    return False


@functools.lru_cache(maxsize=16)
def _probe_table_cached(probe: str, pattern: str) -> tuple:
    from spec import oracle

    return tuple(oracle.train(probe, 256 + PROBE_MERGES, pattern=pattern).items())


def _probe_table(probe: str, pattern: str) -> dict:
    return dict(_probe_table_cached(probe, pattern))


def short(text: str) -> str:
    return repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"
