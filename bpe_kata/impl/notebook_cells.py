"""A notebook's definitions, without running any of its work (issue 40): which statements of which cells count.

A learner's notebook trains on corpora, prints, times and plots beside the functions it defines. The spec
needs the functions only, and running a training cell to get them would take minutes or never end. So each
code cell is parsed, never run here, and only its *definitions* are kept, at their own line numbers:

- ``import`` and ``from ... import`` statements, and a ``try:`` holding nothing but imports (and ``pass``),
  the guarded import (``try: import regex as re`` / ``except ImportError: import re``);
- ``def``, ``async def`` and ``class`` statements (their decorators, default values and class bodies run
  when they are defined, as in the kernel);
- an assignment to plain names (``X = ...``, ``X: T = ...``, ``A, B = ...``) whose value only combines
  literals, names already defined by kept statements (or builtins), operators, attributes, subscripts,
  comprehensions and lambdas, and calls to :data:`PURE_CALLS` only (``bytes``, ``range``, ``re.compile``...).
  ``PATTERN = re.compile(r"...")`` and ``VOCAB = {i: bytes([i]) for i in range(256)}`` count;
  ``text = open("corpus.txt").read()`` and ``merges = train(text, 50_000)`` do not.

Everything else is skipped: expressions and calls, loops, ``with``, ``if`` (``if __name__ == "__main__":``
too), ``assert``, ``del``. In a cell that does not parse as it is, magics (a line starting with ``%`` or ``!``,
``x = !ls``) and help lines (``name?``) become ``pass``; a ``%%`` cell magic's cell is skipped whole, and so
are markdown and raw cells. A code cell that
does not parse is one :class:`NotebookError` line naming the cell and the line.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from dataclasses import dataclass
from pathlib import Path

from bpe_kata.impl.shape_parts import ShapeError

#: The only calls a kept assignment may make: builders of values that read nothing and write nothing.
PURE_CALLS = frozenset({
    "bool", "bytearray", "bytes", "chr", "dict", "enumerate", "float", "frozenset", "int", "len", "list", "max",
    "min", "ord", "range", "reversed", "set", "sorted", "str", "sum", "tuple", "zip",
    "re.compile", "regex.compile",
})

_MAGIC = re.compile(r"^\s*(?:[%!]|[\w.,\s\[\]]+=\s*[%!])")
_HELP = re.compile(r"^\s*[\w.]+\s*\?{1,2}\s*$|^\s*\?{1,2}[\w.]+\s*$")


class NotebookError(ShapeError):
    """The notebook cannot be read or one of its code cells does not parse; the message is one line."""


@dataclass(frozen=True)
class Cell:
    """A code cell: its number (its place in the notebook, from 1, every kind of cell counted), the label
    messages name it by ("cell 4", or the kernel's "In [7]") and its source."""

    number: int
    label: str
    source: str


@dataclass(frozen=True)
class KeptCell:
    """The definitions of one cell, as a module of its kept statements (their line numbers the cell's)."""

    cell: Cell
    tree: ast.Module


def read_cells(path: Path) -> list[Cell]:
    """The code cells of the ``.ipynb`` at ``path`` (nbformat 4), read as JSON: nothing in it is run."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotebookError(f"{path.name} is not a readable notebook (.ipynb JSON): {error}") from None
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list):
        raise NotebookError(f"{path.name} has no cells list: only nbformat 4 notebooks are read "
                            "(open and save it with a current Jupyter)")
    found = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        label = ((cell.get("metadata") or {}).get("bpe_kata") or {}).get("label") or f"cell {number}"
        found.append(Cell(number, str(label), "".join(source) if isinstance(source, list) else str(source)))
    return found


def without_magics(source: str) -> str:
    """``source`` with each magic, shell and help line replaced by ``pass`` at its indent (line numbers kept);
    a ``%%`` cell magic makes the whole cell one blank line (the cell is another language)."""
    if source.lstrip().startswith("%%"):
        return ""
    lines = source.split("\n")
    for k, line in enumerate(lines):
        if _MAGIC.match(line) or _HELP.match(line):
            lines[k] = line[: len(line) - len(line.lstrip())] + "pass"
    return "\n".join(lines)


def python_source(source: str) -> str:
    """The cell as Python: itself when it parses (a continuation line may start with ``%``: ``"%s"\\n % x``),
    else :func:`without_magics`."""
    if source.lstrip().startswith("%%"):
        return ""
    try:
        ast.parse(source)
    except SyntaxError:
        return without_magics(source)
    return source


def parse(cell: Cell, notebook_name: str) -> ast.Module:
    """The cell's statements, or the one-line NotebookError of its syntax error."""
    try:
        return ast.parse(python_source(cell.source), filename=cell.label)
    except SyntaxError as error:
        text = (error.text or "").strip()
        raise NotebookError(f"{notebook_name}, {cell.label}, line {error.lineno or '?'}: {error.msg}"
                            + (f": {text}" if text else "")) from None


def definitions(cells: list[Cell], notebook_name: str, skip_unparsable: bool = False) -> list[KeptCell]:
    """Each cell's kept statements, in notebook order (a cell keeping nothing is left out). A cell that does not
    parse raises, unless ``skip_unparsable`` (a kernel's history: such a cell defined nothing)."""
    bound = set(dir(builtins))
    kept_cells = []
    for cell in cells:
        try:
            tree = parse(cell, notebook_name)
        except NotebookError:
            if skip_unparsable:
                continue
            raise
        kept = [statement for statement in tree.body if _keep(statement, bound)]
        if kept:
            kept_cells.append(KeptCell(cell, ast.Module(body=kept, type_ignores=[])))
    return kept_cells


def _keep(statement: ast.stmt, bound: set[str]) -> bool:
    """Whether ``statement`` is a definition; the names it binds join ``bound`` when it is."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        bound.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        return True
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        bound.add(statement.name)
        return True
    if isinstance(statement, ast.Try) and _only_imports(statement):
        for inner in ast.walk(statement):
            if isinstance(inner, (ast.Import, ast.ImportFrom)):
                _keep(inner, bound)
        return True
    targets, value = _assignment(statement)
    if targets is None or value is None or not _pure(value, bound):
        return False
    bound.update(targets)
    return True


def _only_imports(statement: ast.Try) -> bool:
    blocks = [statement.body, statement.orelse, statement.finalbody, *(h.body for h in statement.handlers)]
    return all(isinstance(inner, (ast.Import, ast.ImportFrom, ast.Pass)) for block in blocks for inner in block)


def _assignment(statement: ast.stmt) -> tuple[list[str] | None, ast.expr | None]:
    """The plain names an assignment binds and its value; (None, None) for anything else."""
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id], statement.value
    if not isinstance(statement, ast.Assign):
        return None, None
    names: list[str] = []
    for target in statement.targets:
        parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if not all(isinstance(part, ast.Name) for part in parts):
            return None, None
        names += [part.id for part in parts]
    return names, statement.value


def _pure(value: ast.expr, bound: set[str]) -> bool:
    """Whether evaluating ``value`` only builds a value: no call outside PURE_CALLS, no name left undefined."""
    local = {node.id for node in ast.walk(value) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    local |= {arg.arg for node in ast.walk(value) if isinstance(node, ast.Lambda) for arg in _arguments(node.args)}
    for node in ast.walk(value):
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return False
        if isinstance(node, ast.Call) and ast.unparse(node.func) not in PURE_CALLS:
            return False
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound | local:
            return False
    return True


def _arguments(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg, args.kwarg))]

