"""The kata's levels: the order a learner climbs and what each level needs.

A level is "not started" when one of the functions it needs is missing or still raises
NotImplementedError; its tests are then reported as such instead of erroring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    needs: tuple[str, ...]


#: The cheapest call of each contract function; NotImplementedError from it means "not started".
PROBES: dict[str, Callable[[object], object]] = {
    "encode": lambda impl: impl.encode("a", {}),
    "get_stats": lambda impl: impl.get_stats([1, 2]),
    "merge": lambda impl: impl.merge([1, 2], (1, 2), 256),
    "train": lambda impl: impl.train("ab", 257),
    "build_vocab": lambda impl: impl.build_vocab({}),
    "decode": lambda impl: impl.decode([97], {97: b"a"}),
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

#: Levels specified by later work; listed so the ledger can name them.
LATER_LEVELS: tuple[str, ...] = ("regex", "special", "persist", "stream", "pretrained", "words", "ties")

LEVELS: tuple[Level, ...] = (FACTS,) + CORE_LEVELS
LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in LEVELS)
ALL_LEVEL_NAMES: tuple[str, ...] = LEVEL_NAMES + LATER_LEVELS
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
    missing = [name for name in level.needs if not callable(getattr(impl, name, None))]
    if missing:
        return f"not started: level {level.name!r} needs {', '.join(missing)}"
    for name in level.needs:
        try:
            PROBES[name](impl)
        except NotImplementedError:
            return f"not started: {name} still raises NotImplementedError"
        except Exception:  # a real bug, not a stub: the level's tests will show it
            pass
    return None
