"""The spec's test functions, read from its source without importing or collecting it.

An expectations file names tests by id (``spec/test_x.py::test_y[case]``). The supervisor and the
verdict process check those names before a single test runs (an entry naming no test would excuse
nothing today and, after a rename, silently excuse something else tomorrow), and pytest-xdist's
controller collects nothing itself; so the names come from the source: every top-level
``test_*`` function of ``spec/test_*.py`` and every case test ``spec/cases/collect.py`` adds.
A parameter's id (``[case]``) is not checked: parameters come from data and strategies.
"""

from __future__ import annotations

import ast
import functools

from bpe_kata.layout.paths import SPEC_DIR
from spec.cases.collect import CASE_TESTS


@functools.cache
def functions() -> dict[str, frozenset[str]]:
    """Module id (``spec/test_x.py``) -> the ids of its test functions (``spec/test_x.py::test_y``)."""
    found: dict[str, set[str]] = {}
    for path in sorted(SPEC_DIR.glob("test_*.py")):
        module = f"spec/{path.name}"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = {node.name for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")}
        found[module] = {f"{module}::{name}" for name in names}
    for case in CASE_TESTS:
        found.setdefault(f"spec/{case.module}", set()).add(f"spec/{case.module}::{case.name}")
    return {module: frozenset(ids) for module, ids in found.items()}


def function_of(nodeid: str) -> str:
    """``spec/test_x.py::test_y[case]`` (or ``...::test_y@group``, pytest-xdist's loadgroup id) ->
    ``spec/test_x.py::test_y``."""
    return nodeid.split("[", 1)[0].split("@", 1)[0]
