"""Looking for a divergence between two sides, and shrinking it with Hypothesis's own shrinker.

Each operation is a Hypothesis property run programmatically (``@given`` over an input
strategy, ``@seed`` for a reproducible run, no example database): the property compares the
two sides' answers and raises ``Divergent`` when they part, so Hypothesis shrinks the input
to a minimal one that still diverges. The inputs mix the spec's strategies (spec/strategies.py),
the worked cases' own inputs (spec/cases/*.json), slices of the corpora when they are on this
machine (bpe_kata/data/corpora.py) and, for encoding, text made of the table's own tokens (where
a one-merge difference hides). Searching stops at the time box; shrinking a divergence already
found is let finish.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st

from bpe_kata.tools.diff_sides import Side
from bpe_kata.tools.tables import Table
from spec import oracle
from spec import strategies as spec_st

CASES = Path(__import__("spec.cases", fromlist=["x"]).__file__).parent
MAX_TRAIN_MERGES = 12


_VOCABS: dict[int, tuple[Table, dict[int, bytes]]] = {}


def vocab_of(table: Table) -> dict[int, bytes]:
    """The contract's vocabulary of a table (its special tokens included), built once per table."""
    held = _VOCABS.get(id(table))
    if held is None or held[0] is not table:
        held = _VOCABS[id(table)] = (table, oracle.build_vocab(dict(table.merges), table.special_tokens or None))
    return held[1]


@dataclass
class SideOutcome:
    """A side's answer: a value, or the exception it raised (by type: two refusals agree)."""

    value: Any = None
    raised: str | None = None

    def same_as(self, other: SideOutcome) -> bool:
        if self.raised or other.raised:
            return bool(self.raised and other.raised)
        return self.value == other.value


def outcome(call: Callable[[], Any]) -> SideOutcome:
    try:
        return SideOutcome(call())
    except Exception as error:  # noqa: BLE001  (an answer to compare, not a crash of the tool)
        return SideOutcome(raised=f"{type(error).__name__}: {error}"[:300])


@dataclass
class Divergence:
    operation: str
    given: dict  # the input: text and vocab_size, text, or ids
    a: SideOutcome
    b: SideOutcome


class Divergent(Exception):
    """Raised inside the property: Hypothesis shrinks the input that raised it."""


def worked_inputs(operation: str) -> list[dict]:
    """The inputs of the worked cases of one operation (spec/cases/*.json), as diff inputs."""
    found = []
    for path in sorted(CASES.glob("*.json")):
        if path.name == "schema.json":
            continue
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            given = case["input"]
            if not _scalar(given.get("text", "")):  # surrogates are a level of their own, not every side's
                continue
            if operation == "train" and case["operation"] == "train" and "text" in given and \
                    256 <= given["vocab_size"] <= 256 + MAX_TRAIN_MERGES and not set(given) - {"text", "vocab_size"}:
                found.append({"text": given["text"], "vocab_size": given["vocab_size"]})
            if operation == "encode" and case["operation"] in ("encode", "encode_special", "train") \
                    and "text" in given:
                found.append(given["text"])
    return found


def _scalar(text: str) -> bool:
    return not any("\ud800" <= ch <= "\udfff" for ch in text)


def corpus_slices() -> st.SearchStrategy[str] | None:
    """Short slices of the corpora found on this machine (none: the strategy is left out)."""
    from bpe_kata.data import corpora

    texts = []
    finder = corpora.CorpusFinder()
    for name in corpora.CORPORA:
        try:
            texts.append(finder.text(name))
        except corpora.CorpusUnavailable:
            continue
    if not texts:
        return None
    return st.sampled_from(texts).flatmap(lambda text: st.tuples(
        st.integers(0, max(len(text) - 1, 0)), st.integers(1, 80)).map(lambda at: text[at[0]:at[0] + at[1]]))


def token_texts(table: Table) -> st.SearchStrategy[str]:
    """Text made of the table's own tokens, so that every merge gets its chance to fire."""
    from spec import oracle

    vocab = oracle.build_vocab(dict(table.merges))
    pieces = sorted({vocab[idx] for idx in list(table.merges.values())[:2000]}) or [b"a"]
    specials = sorted(table.special_tokens)
    token = st.sampled_from(pieces).map(lambda piece: piece.decode("utf-8", "ignore"))
    parts = st.one_of(token, token, st.sampled_from(specials)) if specials else token
    return st.lists(parts, max_size=8).map("".join)


def shrinkable(texts: list[str]) -> st.SearchStrategy[str]:
    """A worked input's text with some characters left out: mostly kept when generated, and left out one by
    one when Hypothesis shrinks, so a divergence found on a worked case still shrinks to a minimal text."""
    def masked(text: str) -> st.SearchStrategy[str]:
        keep = st.lists(st.integers(0, 3).map(bool), min_size=len(text), max_size=len(text))
        return keep.map(lambda flags: "".join(ch for ch, kept in zip(text, flags) if kept))
    return st.sampled_from(texts or [""]).flatmap(masked)


def text_strategy(table: Table | None, slices: st.SearchStrategy[str] | None) -> st.SearchStrategy[str]:
    parts = [spec_st.any_texts, spec_st.mixed_texts, spec_st.tie_heavy_texts, spec_st.chunky_texts,
             spec_st.edge_texts, spec_st.byte_pair_texts, shrinkable(worked_inputs("encode"))]
    if table is not None:
        parts += [token_texts(table)] * 3
    if slices is not None:
        parts.append(slices)
    return st.one_of(parts)


def strategies(table: Table | None, slices=None) -> dict[str, st.SearchStrategy]:
    texts = text_strategy(table, slices)
    train = st.one_of(
        st.fixed_dictionaries({"text": st.one_of(spec_st.tie_heavy_texts, spec_st.mixed_texts, spec_st.run_texts,
                                                 spec_st.edge_texts, spec_st.near_tied_texts,
                                                 *([slices] if slices is not None else [])),
                               "vocab_size": st.integers(256, 256 + MAX_TRAIN_MERGES)}),
        st.sampled_from(worked_inputs("train")).flatmap(lambda given: st.fixed_dictionaries({
            "text": shrinkable([given["text"]]), "vocab_size": st.integers(256, given["vocab_size"])})))
    ids = [0]
    if table is not None:
        top = max([255, *table.merges.values()])
        ids = st.one_of(st.integers(0, 255), st.integers(0, top), *(
            [st.sampled_from(sorted(table.special_tokens.values()))] if table.special_tokens else []))
    return {"train": train, "encode": texts.map(lambda text: {"text": text}),
            "decode": st.lists(ids, max_size=24).map(lambda ids: {"ids": ids})}


def compare(a: Side, b: Side, operation: str, given: dict,
            tables: tuple[Table | None, Table | None]) -> Divergence | None:
    """One input through both sides; a Divergence when their answers differ."""
    def run(side: Side, table: Table | None) -> SideOutcome:
        if operation == "train":
            return outcome(lambda: side.train(given["text"], given["vocab_size"]))
        if operation == "encode":
            found = outcome(lambda: side.encode(given["text"], table))
            if tables[0] is not tables[1] and found.raised is None:  # two fixed tables: compare the tokens' bytes
                vocab = vocab_of(table)
                found.value = [vocab.get(i, b"?") for i in found.value]
            return found
        return outcome(lambda: side.decode(given["ids"], table))

    first, second = run(a, tables[0]), run(b, tables[1])
    return None if first.same_as(second) else Divergence(operation, dict(given), first, second)


def search(a: Side, b: Side, operation: str, strategy: st.SearchStrategy, tables, *, run_seed: int,
           examples: int, deadline: float, counter: dict[str, int]) -> Divergence | None:
    """One seeded Hypothesis run of ``examples`` inputs; the shrunk divergence, or None. Past ``deadline`` the
    remaining inputs are let pass unchecked, until a divergence has been found (then shrinking goes on)."""
    state: dict[str, Divergence | None] = {"found": None}

    @settings(database=None, max_examples=examples, deadline=None, derandomize=False, print_blob=False,
              phases=(Phase.generate, Phase.shrink), report_multiple_bugs=False, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck))
    @seed(run_seed)
    @given(strategy)
    def diverges(given_input: dict) -> None:
        if state["found"] is None and time.monotonic() > deadline:
            return
        counter[operation] = counter.get(operation, 0) + 1
        found = compare(a, b, operation, given_input, tables)
        if found is not None:
            state["found"] = found
            raise Divergent(operation)

    try:
        diverges()
    except Divergent:
        # the last input to raise is the shrunk one: Hypothesis replays the minimal example last
        return state["found"]
    except Exception:  # noqa: BLE001  (Hypothesis's Flaky: a side answered the same input two ways)
        if state["found"] is None:
            raise
        return state["found"]  # the last divergence seen, shrunk as far as the side let it be
    return None
