"""The kata's levels: the order a learner climbs and what each level needs.

A level is "not started" when one of the functions it needs is missing or still raises
NotImplementedError; its tests are then reported as such instead of erroring.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    needs: tuple[str, ...]  # features: a function name, or "function(keyword=)" for an extension


def _save_probe(impl) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.bpe"
        impl.save(path, {(97, 98): 256})
        return impl.load(path)


#: The cheapest call that proves a feature exists. NotImplementedError, or a TypeError about
#: an unexpected keyword argument, means the feature is "not started".
PROBES: dict[str, Callable[[object], object]] = {
    "encode": lambda impl: impl.encode("a", {}),
    "get_stats": lambda impl: impl.get_stats([1, 2]),
    "merge": lambda impl: impl.merge([1, 2], (1, 2), 256),
    "train": lambda impl: impl.train("ab", 257),
    "build_vocab": lambda impl: impl.build_vocab({}),
    "decode": lambda impl: impl.decode([97], {97: b"a"}),
    "train(pattern=)": lambda impl: impl.train("a b", 257, pattern=r" ?\S+"),
    "encode(pattern=)": lambda impl: impl.encode("a b", {}, pattern=r" ?\S+"),
    "encode(special_tokens=)": lambda impl: impl.encode(
        "a<|x|>", {}, special_tokens={"<|x|>": 256}, allowed_special="all"),
    "build_vocab(special_tokens=)": lambda impl: impl.build_vocab({}, special_tokens={"<|x|>": 256}),
    "save": _save_probe,
    "load": _save_probe,
    "StreamDecoder": lambda impl: (lambda d: (d.feed(97), d.flush()))(impl.StreamDecoder({97: b"a"})),
    "train_words": lambda impl: impl.train_words({"ab": 1}, 1),
    "segment_word": lambda impl: impl.segment_word("ab", []),
    "train(tie_rule=)": lambda impl: impl.train("ab", 257, tie_rule="lowest-pair"),
}

#: Facts the suite checks on its own (no implementation involved) come first.
FACTS = Level("facts", "facts about UTF-8, the toy corpora and arithmetic, checked by the suite itself", ())

CORE_LEVELS: tuple[Level, ...] = (
    Level("bytes", "with no merges, text becomes its UTF-8 byte values", ("encode",)),
    Level("pairs", "get_stats counts adjacent pairs in first-seen order", ("get_stats",)),
    Level("merge", "merge replaces a pair left to right, without touching its input", ("merge",)),
    Level("train", "train learns merges in order, ties to the pair counted first", ("train",)),
    Level("decode", "build_vocab and decode: join bytes, then UTF-8 with replacement",
          ("train", "build_vocab", "decode")),
    Level("encode", "encode replays the merges by lowest rank", ("train", "encode")),
    Level("roundtrip", "decode(encode(text)) gives the text back, always",
          ("train", "build_vocab", "decode", "encode")),
)

#: Beyond the core: what production tokenizers add, then the word-level classic and other tie rules.
LATER_LEVELS_SPEC: tuple[Level, ...] = (
    Level("regex", "split patterns: merges learned and applied inside chunks only",
          ("train", "encode", "decode", "build_vocab", "train(pattern=)", "encode(pattern=)")),
    Level("special", "special tokens: reserved ids, atomic, an explicit policy for special text",
          ("train", "encode", "decode", "build_vocab", "encode(pattern=)", "encode(special_tokens=)",
           "build_vocab(special_tokens=)")),
    # A saved tokenizer carries its pattern and special tokens, so persist builds on regex and special.
    Level("persist", "save and load a trained tokenizer as plain text",
          ("train", "encode", "decode", "build_vocab", "train(pattern=)", "encode(pattern=)",
           "encode(special_tokens=)", "build_vocab(special_tokens=)", "save", "load")),
    Level("stream", "an incremental decoder that holds incomplete characters back",
          ("build_vocab", "decode", "StreamDecoder")),
    Level("pretrained", "published tables (GPT-2, cl100k_base) reproduced exactly",
          ("encode", "build_vocab", "decode", "encode(pattern=)", "encode(special_tokens=)",
           "build_vocab(special_tokens=)")),
    Level("words", "classic word-level BPE with an end-of-word marker", ("train_words", "segment_word")),
    Level("ties", "other documented tie rules, selected by name", ("train", "train(tie_rule=)")),
)

LEVELS: tuple[Level, ...] = (FACTS,) + CORE_LEVELS + LATER_LEVELS_SPEC
LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in (FACTS,) + CORE_LEVELS)  # defined by the foundation
ALL_LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)
LATER_LEVELS: tuple[str, ...] = tuple(level.name for level in LATER_LEVELS_SPEC)
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
    missing = sorted({feature.split("(")[0] for feature in level.needs
                      if not callable(getattr(impl, feature.split("(")[0], None))})
    if missing:
        return f"not started: level {level.name!r} needs {', '.join(missing)}"
    for feature in level.needs:
        try:
            PROBES[feature](impl)
        except NotImplementedError:
            return f"not started: {feature} still raises NotImplementedError"
        except ValueError as error:
            if feature == "train(tie_rule=)":  # only the default rule is supported
                return f"not started: {feature} refuses the other rules ({error})"
        except TypeError as error:
            if "unexpected keyword argument" in str(error) or "positional argument" in str(error):
                return f"not started: level {level.name!r} needs {feature} ({error})"
        except Exception:  # a real bug, not a stub: the level's tests will show it
            pass
    return None
