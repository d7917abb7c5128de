"""The kata's levels: the order a learner climbs and what each level needs.

``LEVELS`` is the one registry of levels: each entry holds the level's name (its place in
the tuple is its order), the features it needs (``PROBES``), the spec files it owns and
how its tests are grouped on xdist workers. tests/test_level_registry.py fails when a level
lacks what a learner and the suite's own tests need around it: its starter stub, its
known-wrong implementations, its rows in spec/CONTRACT.md and README.md.

A level is "not started" when one of the functions it needs is missing, does not take the
arguments the level adds (read off its signature, before any call), or still raises
NotImplementedError; its tests are then reported as such instead of erroring. An exception
raised inside a call is never taken for "not started": that would hide a bug.
"""

from __future__ import annotations

import inspect
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from spec.fixed_pattern import fixed_pattern, unwrap
from spec.tie_rules import TIE_RULES  # the ties level is started when one rule is; each rule's tests, when that rule is


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    needs: tuple[str, ...]  # features: a function name, or "function(keyword=)" for an extension
    spec_files: tuple[str, ...] = ()  # the spec test files whose module-wide level mark is this level
    core: bool = False  # a row of CONTRACT.md's core table, else a "### name:" section beyond the core
    xdist_group: str | None = None  # its tests share an expensive session fixture: one worker runs them all
    no_known_wrong: str = ""  # why no tests/implementations/wrong_*.py names a claim of it (else one must)
    #: What its checks need of a split: FREE, they hold whatever split train and encode use; UNSPLIT, they
    #: compare train or encode without a pattern with the oracle's results; PATTERNS, they split with several
    #: patterns; NAMED, each test names one pattern (a published table's). A declared fixed split starts every
    #: level (the oracle splits alike, spec/oracle/split.py); UNSPLIT tells which failures of code that splits
    #: without saying so the split probe may explain (bpe_kata/verdict/pattern_probe.py).
    split: str = "free"

    @property
    def contract_anchor(self) -> str | None:
        """The text that opens the level's rule in spec/CONTRACT.md (facts are no contract)."""
        if self.name == "facts":
            return None
        return f"| {self.name} |" if self.core else f"### {self.name}:"


FREE, UNSPLIT, PATTERNS, NAMED = "free", "unsplit", "patterns", "named"

#: Claims that hold whatever split train uses, in levels whose other checks need no split (UNSPLIT): a
#: vocab_size below 256 is an error, and a smaller vocab's merges are a prefix of a larger one's, with or
#: without chunks; a second training gives what a first one gives (the code against itself). Their failures are
#: never excused as an undeclared split's (bpe_kata/verdict/pattern_probe.py).
SPLIT_FREE_CLAIMS = frozenset({"train.min-vocab", "train.prefix", "train.starts-afresh"})


def _save_probe(impl) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.bpe"
        impl.save(path, {(97, 98): 256})
        return impl.load(path)


def _iterable_probe(impl) -> object:
    return list(impl.encode_iterable(iter(["a"]), {}))  # a generator raises NotImplementedError only when read


def _stream_probe(impl) -> object:
    decoder = impl.StreamDecoder({97: b"a"})
    return decoder.feed(97), decoder.flush()


@dataclass(frozen=True)
class Probe:
    """The cheapest call that proves a feature exists.

    ``function`` must accept ``args`` and ``kwargs`` (checked on its signature, before any
    call); then ``run`` (default: that call) must not raise NotImplementedError. Whatever
    else the call raises is the implementation's bug, for the level's tests to show.
    """

    function: str
    args: tuple = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    run: Callable[[object], object] | None = None
    refusals: tuple[type[BaseException], ...] = (NotImplementedError,)  # what a call raises to say "not written"


PROBES: dict[str, Probe] = {
    "encode": Probe("encode", ("a", {})),
    "get_stats": Probe("get_stats", ([1, 2],)),
    "merge": Probe("merge", ([1, 2], (1, 2), 256)),
    "train": Probe("train", ("ab", 257)),
    "build_vocab": Probe("build_vocab", ({},)),
    "decode": Probe("decode", ([97], {97: b"a"})),
    "train(pattern=)": Probe("train", ("a b", 257), {"pattern": r" ?\S+"}),
    "encode(pattern=)": Probe("encode", ("a b", {}), {"pattern": r" ?\S+"}),
    "encode(special_tokens=)": Probe("encode", ("a<|x|>", {}), {"special_tokens": {"<|x|>": 256},
                                                               "allowed_special": "all"}),
    "build_vocab(special_tokens=)": Probe("build_vocab", ({},), {"special_tokens": {"<|x|>": 256}}),
    # Optional (CS336's Tokenizer has it): its tests are "not started" without it, the special level runs on.
    "encode_iterable": Probe("encode_iterable", (["a"], {}), run=_iterable_probe),
    # Optional too (CS336's run_train_bpe takes them): training cut at every special token.
    "train(special_tokens=)": Probe("train", ("a<|x|>b", 257), {"special_tokens": ["<|x|>"]}),
    "save": Probe("save", ("probe.bpe", {(97, 98): 256}), run=_save_probe),
    "load": Probe("load", ("probe.bpe",), run=_save_probe),
    "StreamDecoder": Probe("StreamDecoder", ({97: b"a"},), run=_stream_probe),
    "train_words": Probe("train_words", ({"ab": 1}, 1)),
    "segment_word": Probe("segment_word", ("ab", [])),
    # A rule the implementation refuses by name (ValueError) is not started, like one not written yet.
    **{f"train(tie_rule={rule})": Probe("train", ("ab", 257), {"tie_rule": rule},
                                        refusals=(NotImplementedError, ValueError)) for rule in TIE_RULES},
}

#: Features met by any one of several: the ties level needs one rule, whichever.
ANY_OF: dict[str, tuple[str, ...]] = {"train(tie_rule=)": tuple(f"train(tie_rule={rule})" for rule in TIE_RULES)}


#: pytest-xdist group (``--dist loadgroup``) of the tests that load the published tables.
PUBLISHED_TABLES_GROUP = "published-tables"

#: Facts the suite checks on its own (no implementation involved) come first.
FACTS = Level("facts", "facts about UTF-8, the toy corpora and arithmetic, checked by the suite itself", (),
              spec_files=("spec/test_facts.py",), no_known_wrong="the suite checks these facts itself")

CORE_LEVELS: tuple[Level, ...] = (
    Level("bytes", "with no merges, text becomes its UTF-8 byte values", ("encode",),
          spec_files=("spec/test_bytes.py", "spec/test_edge_inputs.py"), core=True),
    Level("pairs", "get_stats counts adjacent pairs in first-seen order", ("get_stats",),
          spec_files=("spec/test_pairs.py",), core=True),
    Level("merge", "merge replaces a pair left to right, without touching its input", ("merge",),
          spec_files=("spec/test_merge.py",), core=True),
    Level("train", "train learns merges in order, ties to the pair counted first", ("train",),
          spec_files=("spec/test_train.py", "spec/test_recount.py"), core=True, split=UNSPLIT),
    Level("decode", "build_vocab and decode: join bytes, then UTF-8 with replacement",
          ("train", "build_vocab", "decode"), spec_files=("spec/test_decode.py",), core=True),
    Level("encode", "encode replays the merges by lowest rank", ("train", "encode"),
          spec_files=("spec/test_encode.py", "spec/test_table_changed_in_place.py"), core=True, split=UNSPLIT),
    Level("roundtrip", "decode(encode(text)) gives the text back, always",
          ("train", "build_vocab", "decode", "encode"), spec_files=("spec/test_roundtrip.py",), core=True,
          no_known_wrong="nothing new to write: a broken round trip is a decode or encode mistake, caught there"),
)

#: Beyond the core: what production tokenizers add, then the word-level classic and other tie rules.
LATER_LEVELS_SPEC: tuple[Level, ...] = (
    # Beyond the core because the documents' own code (text.encode("utf-8")) raises here: a rule
    # production tokenizers add, as tiktoken does, not a mistake in the textbook algorithm.
    Level("surrogates", "a str holding surrogate code points encodes as tiktoken encodes it",
          ("train", "encode", "decode", "build_vocab"), spec_files=("spec/test_lone_surrogates.py",), split=UNSPLIT),
    Level("regex", "split patterns: merges learned and applied inside chunks only",
          ("train", "encode", "decode", "build_vocab", "train(pattern=)", "encode(pattern=)"),
          spec_files=("spec/test_regex.py", "spec/test_uncovered_text.py", "spec/test_edge_chunks.py"), split=PATTERNS),
    Level("special", "special tokens: reserved ids, atomic, an explicit policy for special text",
          ("train", "encode", "decode", "build_vocab", "encode(pattern=)", "encode(special_tokens=)",
           "build_vocab(special_tokens=)"), spec_files=("spec/test_special.py", "spec/test_encode_iterable.py",
                                          "spec/test_train_specials.py"), split=PATTERNS),
    # A saved tokenizer carries its pattern and special tokens, so persist builds on regex and special.
    Level("persist", "save and load a trained tokenizer as plain text",
          ("train", "encode", "decode", "build_vocab", "train(pattern=)", "encode(pattern=)",
           "encode(special_tokens=)", "build_vocab(special_tokens=)", "save", "load"),
          spec_files=("spec/test_persist.py",), split=PATTERNS),
    Level("stream", "an incremental decoder that holds incomplete characters back",
          ("build_vocab", "decode", "StreamDecoder"), spec_files=("spec/test_stream.py",)),
    Level("pretrained", "published tables (GPT-2, cl100k_base) reproduced exactly",
          ("encode", "build_vocab", "decode", "encode(pattern=)", "encode(special_tokens=)",
           "build_vocab(special_tokens=)"), spec_files=("spec/test_pretrained.py",),
          xdist_group=PUBLISHED_TABLES_GROUP, split=NAMED),
    Level("words", "classic word-level BPE with an end-of-word marker", ("train_words", "segment_word"),
          spec_files=("spec/test_words.py",)),
    Level("ties", "other documented tie rules, selected by name", ("train", "train(tie_rule=)"),
          spec_files=("spec/test_ties.py",), split=UNSPLIT),
)

LEVELS: tuple[Level, ...] = (FACTS,) + CORE_LEVELS + LATER_LEVELS_SPEC
ALL_LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)
BY_NAME: dict[str, Level] = {level.name: level for level in LEVELS}


def level_index(name: str) -> int:
    """Position of a level in the climbing order (facts first)."""
    return ALL_LEVEL_NAMES.index(name)


def levels_up_to(name: str) -> tuple[str, ...]:
    """The level names a learner runs with ``--level name``."""
    if name not in ALL_LEVEL_NAMES:
        raise ValueError(f"unknown level {name!r}; the levels are: {', '.join(ALL_LEVEL_NAMES)}")
    return ALL_LEVEL_NAMES[: level_index(name) + 1]


def not_started_reason(impl: object, level: Level) -> str | None:
    """Why ``impl`` has not started ``level``, or None when it has."""
    impl = unwrap(impl)  # a fixed split starts every level: the oracle splits alike (spec/oracle/split.py)
    missing = sorted({feature.split("(")[0] for feature in level.needs
                      if not callable(getattr(impl, feature.split("(")[0], None))})
    if missing:
        return f"not started: level {level.name!r} needs {', '.join(missing)}"
    for feature in level.needs:
        reason = feature_not_started(impl, feature)
        if reason:
            return reason
    return None


def feature_not_started(impl: object, feature: str) -> str | None:
    """Why ``impl`` lacks ``feature`` (a PROBES or ANY_OF key), or None when it has it.

    Only a missing function, a signature that does not take the probe's arguments, or a
    call raising one of the probe's refusals counts. Any other exception, a TypeError
    included, comes from inside the implementation: a bug its tests must show, never a
    reason to skip them.
    """
    if feature in ANY_OF:
        reasons = [feature_not_started(impl, alternative) for alternative in ANY_OF[feature]]
        return (
            None
            if not all(reasons)
            else f"not started: {feature} ({'; '.join(r.removeprefix('not started: ') for r in reasons)})"
        )
    impl, probe = unwrap(impl), PROBES[feature]
    if "pattern" in probe.kwargs and fixed_pattern(impl) is not None:  # its pattern needs no keyword
        probe = Probe(probe.function, probe.args, {k: v for k, v in probe.kwargs.items() if k != "pattern"},
                      probe.run, probe.refusals)
    function = getattr(impl, probe.function, None)
    if not callable(function):
        return f"not started: {feature} needs {probe.function}"
    accepted = _accepts(function, probe.args, probe.kwargs)
    if accepted is False:
        return f"not started: {feature}: {probe.function}{_signature(function)} does not take {_call_text(probe)}"
    try:
        (probe.run or (lambda module: getattr(module, probe.function)(*probe.args, **probe.kwargs)))(impl)
    except probe.refusals as error:
        return f"not started: {feature} raises {type(error).__name__}" + (f" ({error})" if str(error) else "")
    except TypeError as error:
        # No signature to read (a builtin, a C function): only an argument complaint means "not written".
        if accepted is None and _complains_of_arguments(error):
            return f"not started: {feature}: {probe.function} does not take {_call_text(probe)} ({error})"
    except Exception:  # a real bug, not a stub: the level's tests will show it
        pass
    return None


def _accepts(function: Callable, args: tuple, kwargs: Mapping[str, object]) -> bool | None:
    """Whether ``function``'s signature takes these arguments; None when it has no signature to read."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def _signature(function: Callable) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(...)"


def _call_text(probe: Probe) -> str:
    positional = f"{len(probe.args)} positional argument{'s' if len(probe.args) != 1 else ''}"
    return positional + "".join(f", {name}=" for name in probe.kwargs)


def _complains_of_arguments(error: TypeError) -> bool:
    text = str(error)
    return "unexpected keyword argument" in text or "positional argument" in text or "takes no keyword" in text
