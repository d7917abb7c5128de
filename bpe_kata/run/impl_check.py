"""Is there an implementation where IMPL points? Answered before any pytest run, without importing it.

``bpe-kata gate nosuch.py`` used to start the whole suite and print a failure per test (about
3,000 lines) because only the child found out, call by call, that there was nothing to serve.
``gate`` and ``check`` ask here first and stop with one line and exit status 2. Nothing of the
implementation is executed: a dotted name is looked up with the import system's finders (top-level
name, then each package's search locations), the way ``import`` would find it from the current
folder, so an editable install or a package of the working folder is found as the child finds it.
``cmd:`` values and course-shaped ones (``cs336:``, ``minbpe:``) are left to their own checks.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from pathlib import Path

from bpe_kata.impl import course_shapes

FORMS = ("IMPL is a dotted module name importable from this folder (e.g. solutions.mine or reference), "
         "a package folder with __init__.py, a .py file, or cmd:\"PROGRAM ARGS\"")


def dotted_origin(name: str, cwd: Path) -> Path | None:
    """The file the dotted ``name`` would be imported from here (cwd first, as the child imports it)."""
    parts = name.split(".")
    found = importlib.machinery.PathFinder.find_spec(parts[0], [str(cwd)])
    if found is None:
        try:
            found = importlib.util.find_spec(parts[0])  # a top-level name: the finders only, nothing executed
        except (ImportError, ValueError):
            found = None
    for part in parts[1:]:
        locations = list(found.submodule_search_locations or []) if found is not None else []
        if not locations:
            return None
        found = importlib.machinery.PathFinder.find_spec(part, locations)
    if found is None:
        return None
    if found.origin and found.origin not in ("built-in", "frozen"):
        return Path(found.origin).resolve()
    return Path(next(iter(found.submodule_search_locations or [cwd]))).resolve()


def problem(value: str, cwd: Path | None = None) -> str | None:
    """Why ``value`` names no implementation (one line, with the forms IMPL takes), or None."""
    if value.startswith(("cmd:", *course_shapes.PREFIXES)):
        return None
    cwd = cwd or Path.cwd()
    path = cwd / Path(value).expanduser()
    looks_like_path = value.endswith(".py") or "/" in value or os.sep in value or value.startswith(".")
    if path.is_dir():
        if (path / "__init__.py").is_file():
            return None
        why = "this folder has no __init__.py"
    elif path.is_file():
        if path.suffix == ".py":
            return None
        why = "this file is not a .py file"
    elif looks_like_path:
        why = "no such file or folder"
    elif not value or not all(part.isidentifier() for part in value.split(".")):
        why = "not a dotted module name, and no such file or folder"
    elif dotted_origin(value, cwd) is not None:
        return None
    else:
        why = f"no module named {value!r} here or on the Python path"
    return f"implementation not found: {value} ({why}). {FORMS}."


def impl_value(argv: list[str]) -> str | None:
    """The ``--impl`` value among pytest's arguments (``--impl X`` or ``--impl=X``), if any."""
    for k, arg in enumerate(argv):
        if arg == "--impl" and k + 1 < len(argv):
            return argv[k + 1]
        if arg.startswith("--impl="):
            return arg.partition("=")[2]
    return None
