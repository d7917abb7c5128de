"""The one-way seam: ``spec/`` is what is specified, ``bpe_kata/`` how it is run, ``reference/`` one
implementation of it. Imports go runner -> spec, never back, and the reference imports neither.

Checked on the source, not by importing it: an import statement (any form, at any depth, and
``importlib.import_module`` / ``__import__`` by name) and a string in code that builds a path or
a dotted name into a package the side must not know (``"bpe_kata"``, ``"bpe_kata/child/client.py"``,
``"bpe_kata.server"``). Prose (docstrings, comments, Markdown) may name the runner; code may not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: side -> the top-level packages its code must not name
FORBIDDEN = {"spec": ("bpe_kata",), "reference": ("bpe_kata", "spec")}


def _python_files(side: str) -> list[Path]:
    return sorted((ROOT / side).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (module, class, function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                found.add(id(first.value))
    return found


def crossings(source: str, forbidden: tuple[str, ...]) -> list[str]:
    """Each import of, or string naming, a forbidden package in ``source``, as ``line: what``."""
    tree = ast.parse(source)
    named = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, forbidden)) + r")(?![\w])(?=$|[./\\])")
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        for module in modules:
            if module.split(".")[0] in forbidden:
                found.append(f"{node.lineno}: import {module}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if named.search(node.value):
                found.append(f"{node.lineno}: string {node.value[:80]!r}")
    return found


@pytest.mark.parametrize("side", sorted(FORBIDDEN))
@pytest.mark.heavy
def test_no_side_reaches_back(side: str) -> None:
    problems = [f"{path.relative_to(ROOT)}:{problem}" for path in _python_files(side)
                for problem in crossings(path.read_text(encoding="utf-8"), FORBIDDEN[side])]
    assert not problems, f"{side}/ must not name {' or '.join(FORBIDDEN[side])}:\n" + "\n".join(problems)


@pytest.mark.parametrize("source, expected", [
    ("import bpe_kata.run.levels\n", 1),
    ("from bpe_kata import plugin\n", 1),
    ("def f():\n    from bpe_kata.data import pretrained\n", 1),
    ("import importlib\nimportlib.import_module('bpe_kata.child.server')\n", 1),
    ("from pathlib import Path\nP = Path(__file__).parent.parent / 'bpe_kata' / 'child'\n", 1),
    ("P = '../bpe_kata/child/client.py'\n", 1),
    ('"""The runner (bpe_kata/plugin.py) calls this."""\nX = 1  # bpe_kata/run/data_fixtures.py\n', 0),
    ("_BLAMED = '_bpe_kata_claims'\nimport spec.ledger\n", 0),
])
def test_the_scan_sees_every_form_of_crossing(source: str, expected: int) -> None:
    """The check itself: imports at any depth, names built into paths; not prose, not look-alike names."""
    assert len(crossings(source, ("bpe_kata",))) == expected


def test_the_fixtures_the_cases_ask_for_by_name_are_the_runners() -> None:
    """spec/cases/runner.py asks for fixtures by name (only when a case needs one): each is one the
    runner provides (the fixture modules bpe_kata/plugin.py registers) or pytest's own, so a rename fails here, not
    in a case."""
    from bpe_kata import plugin

    asked = set(re.findall(r'_fixture\("(\w+)"\)', (ROOT / "spec" / "cases" / "runner.py").read_text(encoding="utf-8")))
    provided = set()
    for module in plugin.pytest_plugins:
        tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        provided |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)
                     and any("fixture" in ast.unparse(d) for d in node.decorator_list)}
    assert asked, "spec/cases/runner.py no longer asks for fixtures by name: drop this test"
    assert asked - provided <= {"tmp_path"}, (
        f"asked for by the cases, provided by no one: {asked - provided - {'tmp_path'}}"
    )


def test_the_published_tables_the_spec_names_are_the_runners() -> None:
    """spec/test_pretrained.py names its tables without importing the runner; they are the ones it reads."""
    from bpe_kata.data import pretrained
    from spec import test_pretrained

    assert test_pretrained.TABLES == pretrained.TABLE_NAMES
