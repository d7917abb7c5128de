"""Failure explanations whose cost does not grow with the implementation's output.

pytest explains a failed ``assert a == b`` on two sequences with a full ``difflib.ndiff`` of their
pretty-printed lines, and it computes that diff whenever ``$CI`` is set, whatever the verbosity
(``_pytest.assertion._compare_sequence``). ndiff is quadratic: on a wrong implementation's
100,000 ids an ``assert ids == expected`` ran for more than ten minutes in CI before pytest-timeout
stopped it, where the same run without ``$CI`` failed in a second. Every spec check on a large
value is therefore explained by ``spec.compare.describe`` alone: the first difference, the
lengths and a few items around it, never a diff of the whole.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from spec import compare

#: Above this many items (or characters, or bytes) a value is explained by its first difference only.
LARGE = 200

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 8


def is_large(value: object) -> bool:
    """Whether pytest's own explanation of ``value`` could cost more than reading it once."""
    return isinstance(value, (str, bytes, bytearray, list, tuple, dict, set, frozenset)) and len(value) > LARGE


def explain(op: str, left: object, right: object) -> list[str]:
    """A bounded explanation of ``left OP right`` failing, in the lines pytest prints under the assert."""
    head = f"{_SHORT.repr(left)} {op} {_SHORT.repr(right)}"
    if op != "==":
        return [head, f"(values of {len(left) if hasattr(left, '__len__') else '?'} and "
                      f"{len(right) if hasattr(right, '__len__') else '?'} items: no full diff is computed)"]
    return [head, *compare.describe(left, right, "actual == expected")]


@contextmanager
def bounded_explanations(config: pytest.Config) -> Iterator[None]:
    """While a test runs, explain comparisons of large values with ``explain`` instead of pytest's diff."""
    from _pytest.assertion import util  # pytest's hook for rewritten asserts, set for each test it runs

    original = util._reprcompare
    if original is None:  # assertion rewriting is off: pytest explains nothing, so there is nothing to bound
        yield
        return
    escape_percent = config.getvalue("assertmode") == "rewrite"

    def reprcompare(op: str, left: object, right: object) -> str | None:
        if not (is_large(left) or is_large(right)):
            return original(op, left, right)
        text = "\n~".join(line.replace("\n", "\\n") for line in explain(op, left, right))
        return text.replace("%", "%%") if escape_percent else text

    util._reprcompare = reprcompare
    try:
        yield
    finally:
        util._reprcompare = original
