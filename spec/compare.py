"""Readable differences for worked cases: expected and actual, field by field.

A failing case says where its result first parts from the expected one: the index, the
ids there with the bytes they stand for (hex and text), the merge or the character, so a
learner never has to read a cut-off dict. ``expect_equal`` raises the AssertionError;
``describe`` gives the lines (the plugin's ``pytest_assertrepr_compare`` uses them too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from spec import oracle

CONTEXT = 3  # items shown on each side of the first difference


def show_bytes(data: bytes) -> str:
    """Bytes as hex and as text: ``e4 bd a0 '你'``."""
    return f"{data.hex(' ') or '(none)'} {data.decode('utf-8', errors='replace')!r}"


def _piece(idx: object, vocab: Mapping[int, bytes] | None) -> str:
    if isinstance(idx, int) and vocab is not None and idx in vocab:
        return f"{idx} [{show_bytes(vocab[idx])}]"
    if isinstance(idx, int) and 0 <= idx < 256 and not isinstance(idx, bool):
        return f"{idx} [{show_bytes(bytes([idx]))}]"
    return repr(idx)


def _first_difference(actual: Sequence, expected: Sequence) -> int:
    return next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))


def _window(items: Sequence, at: int, show) -> str:
    start, end = max(0, at - CONTEXT), min(len(items), at + CONTEXT + 1)
    shown = ", ".join(("»" if i == at else "") + show(items[i]) for i in range(start, end))
    return f"[{'..., ' if start else ''}{shown}{', ...' if end < len(items) else ''}]"


def _is_merge(item: object) -> bool:
    return (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], tuple) and len(item[0]) == 2
            and all(isinstance(x, int) for x in (*item[0], item[1])))


def _show_merge(item, vocab: Mapping[int, bytes]) -> str:
    (left, right), idx = item
    parts = b"".join(vocab.get(part, b"?") for part in (left, right))
    return f"({left}, {right}) -> {idx} [{show_bytes(parts)}]"


def _vocab_of_merges(*tables: Sequence) -> dict[int, bytes]:
    """Bytes of every id, built from each table in turn (the spec's own build, never the implementation's)."""
    vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
    for table in tables:
        for (left, right), idx in table:
            if left in vocab and right in vocab and idx not in vocab:
                vocab[idx] = vocab[left] + vocab[right]
    return vocab


def describe(actual: object, expected: object, what: str = "result",
             vocab: Mapping[int, bytes] | None = None) -> list[str]:
    """Lines saying how ``actual`` differs from ``expected`` (empty when they are equal)."""
    if actual == expected:
        return []
    if isinstance(actual, str) and isinstance(expected, str):
        at = _first_difference(actual, expected)
        return [f"{what}: expected {len(expected)} characters, got {len(actual)}; first difference at character {at}",
                f"  expected {expected[max(0, at - 10):at + 10]!r}",
                f"  actual   {actual[max(0, at - 10):at + 10]!r}"]
    if isinstance(actual, (bytes, bytearray)) and isinstance(expected, (bytes, bytearray)):
        at = _first_difference(actual, expected)
        return [f"{what}: expected {len(expected)} bytes, got {len(actual)}; first difference at byte {at}",
                f"  expected {show_bytes(bytes(expected[max(0, at - 8):at + 8]))}",
                f"  actual   {show_bytes(bytes(actual[max(0, at - 8):at + 8]))}"]
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        return _describe_mapping(actual, expected, what, vocab)
    if isinstance(actual, Sequence) and isinstance(expected, Sequence):
        return _describe_sequence(list(actual), list(expected), what, vocab)
    return [f"{what}: expected {expected!r}", f"  got {actual!r}"]


def _describe_sequence(actual: list, expected: list, what: str, vocab: Mapping[int, bytes] | None) -> list[str]:
    at = _first_difference(actual, expected)
    if any(map(_is_merge, actual + expected)):
        table = _vocab_of_merges(expected, actual)
        def show(item):
            return _show_merge(item, table) if _is_merge(item) else repr(item)
        unit = "merges"
    else:
        def show(item):
            return _piece(item, vocab)
        unit = "ids" if all(isinstance(x, int) for x in actual + expected) else "items"
    lines = [f"{what}: expected {len(expected)} {unit}, got {len(actual)}; first difference at index {at}"]
    if at < len(expected) and at < len(actual):
        lines.append(f"  at index {at}: expected {show(expected[at])}, got {show(actual[at])}")
    elif at < len(expected):
        lines.append(f"  missing from index {at}: {show(expected[at])}" + (" ..." if len(expected) > at + 1 else ""))
    else:
        lines.append(f"  extra from index {at}: {show(actual[at])}" + (" ..." if len(actual) > at + 1 else ""))
    lines.append(f"  expected {_window(expected, at, show)}")
    lines.append(f"  actual   {_window(actual, at, show)}")
    return lines


def _describe_mapping(actual: Mapping, expected: Mapping, what: str, vocab: Mapping[int, bytes] | None) -> list[str]:
    lines = [f"{what}: differs in {sum(actual.get(k, object()) != v for k, v in expected.items())} of "
             f"{len(expected)} expected keys" + (f", {len(set(actual) - set(expected))} unexpected keys"
                                                  if set(actual) - set(expected) else "")]
    shown = 0
    for key, value in expected.items():
        if shown == 4:
            lines.append("  ...")
            break
        if key not in actual:
            lines.append(f"  [{key!r}] missing; expected {value!r}")
        elif actual[key] != value:
            inner = describe(actual[key], value, f"[{key!r}]", vocab)
            lines += ["  " + line for line in inner]
        else:
            continue
        shown += 1
    for key in list(set(actual) - set(expected))[:2]:
        lines.append(f"  [{key!r}] not expected; got {actual[key]!r}")
    return lines


class CaseMismatch(AssertionError):
    """A worked case's result differs from the expected one; the message lists the differences.

    ``what``, ``actual`` and ``expected`` are kept whole, so a worked case's failure can show what it got
    beside its input and what it wanted (spec/cases/runner.py)."""

    def __init__(self, message: str, what: str = "result", actual: object = None, expected: object = None) -> None:
        super().__init__(message)
        self.what, self.actual, self.expected = what, actual, expected


def expect_equal(actual: object, expected: object, what: str = "result", *,
                 merges: Mapping[tuple[int, int], int] | None = None) -> None:
    """Raise a readable AssertionError unless ``actual == expected``; ``merges`` names the ids' bytes."""
    if actual != expected:
        vocab = oracle.build_vocab(dict(merges)) if merges is not None else None
        raise CaseMismatch("\n".join(describe(actual, expected, what, vocab)), what, actual, expected)


def expect_fields(fields: Mapping[str, tuple[object, object]], *,
                  merges: Mapping[tuple[int, int], int] | None = None) -> None:
    """``expect_fields({"ids": (actual, expected), ...})``: every differing field is reported, not just the first."""
    vocab = oracle.build_vocab(dict(merges)) if merges is not None else None
    lines = [line for name, (actual, expected) in fields.items() for line in describe(actual, expected, name, vocab)]
    if lines:
        raise CaseMismatch("\n".join(lines))
