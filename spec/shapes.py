"""Turn an implementation's results into plain values before comparing.

The contract fixes behaviour, not types: a Counter, an OrderedDict or a tuple key that
is a named tuple all honour it, so the spec compares contents and order only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TypeVar

Pair = tuple[int, int]
_Read = TypeVar("_Read")


class UnreadableResult(Exception):
    """A value the implementation returned that cannot be read in the contract's form (a get_stats that returns None):
    the failure of the call that returned it, never the suite's (held out, sixth round: the AttributeError of reading
    None was placed in the runner's own file). Not a TypeError: the suite's refusal to read a value never passes a
    check that expects the implementation to raise."""


def _reading(what: str) -> Callable[[Callable[..., _Read]], Callable[..., _Read]]:
    """Errors raised by the reading itself (not by the implementation's code it iterates) are ``UnreadableResult``."""
    def decorate(reader: Callable[..., _Read]) -> Callable[..., _Read]:
        @functools.wraps(reader)
        def read(result, *args):
            try:
                return reader(result, *args)
            except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as error:
                frames = error.__traceback__
                while frames is not None and frames.tb_next is not None:
                    frames = frames.tb_next
                if frames is None or Path(frames.tb_frame.f_code.co_filename).resolve() != Path(__file__).resolve():
                    raise  # the implementation's own code raised while it was read (a generator): its error
                raise UnreadableResult(f"{what} cannot be read from the {type(result).__name__} returned: "
                                       f"{type(error).__name__}: {error}") from None
        return read
    return decorate


@_reading("a list of ids")
def ids_of(result: Iterable[int]) -> list[int]:
    return [int(i) for i in result]


@_reading("a mapping of pairs to counts")
def pairs_of(stats: Mapping) -> list[tuple[Pair, int]]:
    """(pair, count) in the mapping's own order."""
    return [((int(a), int(b)), int(n)) for (a, b), n in stats.items()]


@_reading("a table of pairs to ids")
def merges_of(merges: Mapping) -> list[tuple[Pair, int]]:
    """(pair, id) in the table's own order, which must be training order."""
    return [((int(a), int(b)), int(idx)) for (a, b), idx in merges.items()]


class MissingId:
    """What a vocab the implementation built holds at an id it lacks: shown, never equal to a token's bytes. The
    spec reads its vocab through ``token_at``, so a missing id fails the check that reads it (tenth round,
    development: a vocab without the merges' ids raised KeyError in the spec's own code, a suite error)."""

    def __init__(self, idx: int) -> None:
        self.idx = idx

    def __repr__(self) -> str:
        return f"<id {self.idx}: not in the vocab>"


def token_at(vocab: Mapping, idx: int) -> bytes | MissingId:
    """The bytes ``vocab`` (built by the implementation) holds at ``idx``, or a ``MissingId`` that no check accepts."""
    try:
        token = vocab[idx]
    except (KeyError, IndexError):
        return MissingId(idx)
    return bytes_of(token)


@_reading("bytes")
def bytes_of(token: bytes | bytearray | memoryview) -> bytes:
    return bytes(token)


@_reading("a list of ((left, right), count) merges")
def word_merges_of(merges: Iterable) -> list[tuple[tuple[str, str], int]]:
    """train_words' result as ((left, right), count) items, in the implementation's order."""
    return [((str(a), str(b)), int(n)) for (a, b), n in merges]


@_reading("a list of symbols")
def symbols_of(segments: Iterable) -> list[str]:
    return [str(s) for s in segments]


def outcome_of(call: Callable[[], object]) -> tuple[str, object]:
    """("returned", the value) or ("raised", the error's type name): two calls compared by what they did."""
    try:
        return "returned", call()
    except Exception as error:  # noqa: BLE001 - the outcome compared, whatever it is
        return "raised", type(error).__name__
