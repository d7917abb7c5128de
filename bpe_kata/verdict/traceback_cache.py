"""Failure tracebacks without parsing the same file again for every failure.

To show the statement a traceback line belongs to, pytest parses the frame's whole file and
walks every node of it, once per traceback entry of every failure (its cache lives only as long
as one report). A wrong implementation fails hundreds of tests in the same few spec files, and
Hypothesis formats each failing example the same way: that re-parsing was a fifth of the time of
a run against a known-wrong implementation. Here each file's statement lines are found once per
process and reused; the text pytest prints is unchanged (tests/test_traceback_cache.py).

pytest's helpers are private, so the cache is installed only where they have the shape it wraps;
elsewhere pytest works as it always did.
"""

from __future__ import annotations

import ast
import functools
import inspect
from bisect import bisect_right

#: Files whose statement lines are kept (the spec's test files and the modules their failures pass through).
CACHED_FILES = 256


@functools.lru_cache(maxsize=CACHED_FILES)
def _parsed(content: str) -> ast.AST:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(content, "source", "exec")


@functools.lru_cache(maxsize=CACHED_FILES)
def _statement_starts(node: ast.AST) -> list[int]:
    """The 0-based first lines of every statement (decorators, except handlers, else and finally parts)."""
    values: list[int] = []
    for x in ast.walk(node):
        if isinstance(x, ast.stmt | ast.ExceptHandler):
            if isinstance(x, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                values.extend(d.lineno - 1 for d in x.decorator_list)
            values.append(x.lineno - 1)
            for name in ("finalbody", "orelse"):
                part = getattr(x, name, None)
                if part:
                    values.append(part[0].lineno - 1 - 1)
    values.sort()
    return values


def statement_startend(lineno: int, node: ast.AST) -> tuple[int, int | None]:
    """pytest's ``get_statement_startend2``, from the statement lines found once per parsed file."""
    values = _statement_starts(node)
    insert_index = bisect_right(values, lineno)
    if insert_index == 0:
        return 0, None
    start = values[insert_index - 1]
    end = None if insert_index >= len(values) else values[insert_index]
    return start, end


#: pytest's own helpers, kept once replaced (the suite's tests compare the two).
ORIGINALS: dict[str, object] = {}


def install() -> bool:
    """Put the cache under pytest's traceback formatting, once; False where pytest's helpers differ."""
    try:
        from _pytest._code import code, source
    except ImportError:
        return False
    original = getattr(source, "getstatementrange_ast", None)
    if getattr(original, "_bpe_kata_cached", False):
        return True
    if original is None or getattr(code, "getstatementrange_ast", None) is not original \
            or not callable(getattr(source, "get_statement_startend2", None)) \
            or list(inspect.signature(original).parameters) != ["lineno", "source", "assertion", "astnode"]:
        return False

    def getstatementrange_ast(lineno, source_, assertion=False, astnode=None):
        if astnode is None:
            astnode = _parsed(str(source_))
        return original(lineno, source_, assertion, astnode)

    getstatementrange_ast._bpe_kata_cached = True  # type: ignore[attr-defined]
    ORIGINALS.update(getstatementrange_ast=original, get_statement_startend2=source.get_statement_startend2)
    source.get_statement_startend2 = statement_startend
    source.getstatementrange_ast = getstatementrange_ast
    code.getstatementrange_ast = getstatementrange_ast
    return True
