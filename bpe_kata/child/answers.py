"""Strict shapes of the results a child sends (docs/PROTOCOL.md, "Operations"), checked by the client.

A result that does not fit its operation's shape is the child breaking the protocol, never
a contract error: the codecs of bpe_kata.child.protocol would otherwise raise ``ValueError`` or
``TypeError`` while unpacking it, which is exactly the exception a test of an invalid
request expects (``train(text, 100)`` answered with ``"nonsense"`` would pass). So every
result is checked here first, and the client turns a mismatch into a protocol error that
shows the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bpe_kata.child.protocol import only_ints

MAX_CODE_POINT = 0x10FFFF


class BadResult(Exception):
    """The result does not fit the operation's shape; the message says where."""


def _int(value: Any, where: str) -> None:
    if type(value) is not int:
        raise BadResult(f"{where}: expected an integer, got {value!r:.80}")


def _str(value: Any, where: str) -> None:
    if type(value) is not str:
        raise BadResult(f"{where}: expected a string, got {value!r:.80}")


def _list(value: Any, where: str) -> list:
    if type(value) is not list:
        raise BadResult(f"{where}: expected an array, got {value!r:.80}")
    return value


def _row(value: Any, where: str, *checks: Callable[[Any, str], None]) -> None:
    row = _list(value, where)
    if len(row) != len(checks):
        raise BadResult(f"{where}: expected {len(checks)} items, got {value!r:.80}")
    for k, (item, check) in enumerate(zip(row, checks)):
        check(item, f"{where}[{k}]")


def _rows(where: str, *checks: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    fits = _FITS.get(checks)

    def check(value: Any, _: str = where) -> None:
        if fits is not None and type(value) is list and fits(value):
            return  # the common case, a whole table at C speed; anything else is read row by row for its message
        for k, row in enumerate(_list(value, where)):
            _row(row, f"{where}[{k}]", *checks)
    return check


def _ids(value: Any, where: str = "result") -> None:
    if type(value) is list and only_ints(value):
        return  # fits: the loop below only finds where it does not
    for k, item in enumerate(_list(value, where)):
        _int(item, f"{where}[{k}]")


def _hex(value: Any, where: str) -> None:
    _str(value, where)
    try:
        if value != bytes.fromhex(value).hex():
            raise ValueError
    except ValueError:
        raise BadResult(f"{where}: expected lower-case hex bytes, got {value!r:.80}") from None


def _is_hex(value: Any) -> bool:
    try:
        return type(value) is str and value == bytes.fromhex(value).hex()
    except ValueError:
        return False


#: Rows that fit, checked in one pass (the same conditions as ``_row`` with these checks): the
#: merge tables and vocabularies of 100,000 rows that published tables make.
_FITS: dict[tuple, Callable[[list], bool]] = {
    (_int, _int, _int): lambda rows: all(type(r) is list and len(r) == 3 and type(r[0]) is int and type(r[1]) is int
                                         and type(r[2]) is int for r in rows),
    (_int, _hex): lambda rows: all(type(r) is list and len(r) == 2 and type(r[0]) is int and _is_hex(r[1])
                                   for r in rows),
}


def _text(value: Any, where: str = "result") -> None:
    if type(value) is dict:
        if set(value) != {"code_points"}:
            raise BadResult(f"{where}: a text is a string or {{\"code_points\": [...]}}, got {value!r:.80}")
        for k, point in enumerate(_list(value["code_points"], f"{where}.code_points")):
            _int(point, f"{where}.code_points[{k}]")
            if not 0 <= point <= MAX_CODE_POINT:
                raise BadResult(f"{where}.code_points[{k}]: not a code point: {point}")
        return
    _str(value, where)


def _optional_str(value: Any, where: str) -> None:
    if value is not None:
        _str(value, where)


def _null(value: Any, where: str = "result") -> None:
    if value is not None:
        raise BadResult(f"{where}: expected null, got {value!r:.80}")


def _object(value: Any, where: str, keys: dict[str, Callable[[Any, str], None]]) -> None:
    if type(value) is not dict or set(value) != set(keys):
        raise BadResult(f"{where}: expected an object with {', '.join(keys)}, got {value!r:.120}")
    for key, check in keys.items():
        check(value[key], f"{where}.{key}")


_merges = _rows("result", _int, _int, _int)


def _loaded(value: Any, where: str = "result") -> None:
    _object(value, where, {"merges": _rows(f"{where}.merges", _int, _int, _int), "pattern": _optional_str,
                           "special_tokens": lambda v, w: None if v is None else _rows(w, _str, _int)(v)})


def _stream(value: Any, where: str = "result") -> None:
    _object(value, where, {"feeds": lambda v, w: [_text(s, f"{w}[{k}]") for k, s in enumerate(_list(v, w))],
                           "flush": _text})


def _word_merges(value: Any, where: str = "result") -> None:
    for k, row in enumerate(_list(value, where)):
        _row(row, f"{where}[{k}]", lambda pair, w: _row(pair, w, _str, _str), _int)


def _words(value: Any, where: str = "result") -> None:
    for k, item in enumerate(_list(value, where)):
        _str(item, f"{where}[{k}]")


#: Every operation's result shape (bpe_kata.child.protocol.RESULTS names the same operations).
SHAPES: dict[str, Callable[..., None]] = {
    "get_stats": _rows("result", _int, _int, _int), "merge": _ids, "train": _merges,
    "build_vocab": _rows("result", _int, _hex), "decode": _text, "encode": _ids, "encode_iterable": _ids, "save": _null,
    "load": _loaded, "stream_decode": _stream, "train_words": _word_merges, "segment_word": _words,
}


def check(op: str, value: Any) -> None:
    """Raise ``BadResult`` unless ``value`` fits ``op``'s result shape."""
    shape = SHAPES.get(op)
    if shape is None:
        raise BadResult(f"no result shape is known for {op!r}")
    shape(value, "result")
