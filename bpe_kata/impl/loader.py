"""Find and import the implementation under test.

The value comes from ``--impl`` or ``BPE_IMPL``: a dotted module name, a path to a
package directory or a ``.py`` file anywhere on disk, or a course-shaped solution
(``cs336:PATH``, ``minbpe:PATH[:CLASS]``, bpe_kata/impl/course_shapes.py). A module that lives
under an entry of ``sys.path`` is imported under its real dotted name, because mutation testing only
credits code that is called under the name it mutated.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from bpe_kata.impl import course_shapes, shape_parts

DEFAULT_IMPL = "reference"
ENV_VAR = "BPE_IMPL"


class ImplementationNotFound(Exception):
    """The ``--impl`` value could not be turned into a module; the message says how to fix it."""


def _looks_like_path(value: str) -> bool:
    return value.endswith(".py") or os.sep in value or "/" in value or value.startswith(".")


def _import_from_path(path: Path) -> ModuleType:
    if path.is_dir():
        init = path / "__init__.py"
        if not init.is_file():
            raise ImplementationNotFound(
                f"--impl {path}: this folder has no __init__.py, so it is not a Python package. "
                "Point --impl at the package folder (with __init__.py) or at a single .py file."
            )
        location, search = init, [str(path)]
    elif path.suffix == ".py" and path.is_file():
        location, search = path, None
    else:
        raise ImplementationNotFound(
            f"--impl {path}: no such .py file or package folder. "
            "Give a dotted module name (e.g. solutions.mine), a package folder or a .py file."
        )
    dotted = shape_parts.dotted_name_under_sys_path(path)
    if dotted is not None:
        return _import_dotted(dotted, shown_as=str(path))
    name = f"bpe_kata_impl_{path.stem if path.is_file() else path.name}"
    spec = importlib.util.spec_from_file_location(name, location, submodule_search_locations=search)
    if spec is None or spec.loader is None:
        raise ImplementationNotFound(f"--impl {path}: Python cannot load this file as a module.")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as error:
        del sys.modules[name]
        raise ImplementationNotFound(_missing_dependency(str(path), error)) from error
    except Exception as error:
        del sys.modules[name]
        raise ImplementationNotFound(
            f"--impl {path}: importing it raised {type(error).__name__}: {error}. Fix the error in your module."
        ) from error
    return module


def _missing_dependency(shown: str, error: ModuleNotFoundError) -> str:
    return (f"--impl {shown}: importing it failed because it imports {error.name!r}, which is not installed: "
            f"`pip install {error.name}` in this environment, or remove the import.")


def _import_dotted(name: str, shown_as: str | None = None) -> ModuleType:
    shown = shown_as or name
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and (name == error.name or name.startswith(error.name + ".")):
            raise ImplementationNotFound(
                f"--impl {shown}: no module named {error.name!r} on the Python path "
                f"(tried import {name!r} from {os.getcwd()}). Run from the repository root, "
                "give a path to the folder or .py file instead, or create one with `bpe-kata new NAME`."
            ) from error
        raise ImplementationNotFound(_missing_dependency(shown, error)) from error
    except Exception as error:
        raise ImplementationNotFound(
            f"--impl {shown}: importing it raised {type(error).__name__}: {error}. Fix the error in your module."
        ) from error


def require_utf8(value: str) -> None:
    """Refuse a name that is not valid UTF-8 (a Linux file name may hold any bytes): the run's workers,
    reports and tables carry it as UTF-8 text, so it would fail later, with a traceback."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(value).decode("utf-8", "backslashreplace")
        raise ImplementationNotFound(
            f"--impl {shown}: this name is not valid UTF-8, so the run's reports could not name it; "
            "rename the file or folder (e.g. with mv) and run again."
        ) from None


def load_implementation(value: str | None = None) -> ModuleType:
    """Import the implementation named by ``value`` (default: ``$BPE_IMPL``, then ``reference``)."""
    value = (value or os.environ.get(ENV_VAR) or DEFAULT_IMPL).strip()
    require_utf8(value)
    if not value:
        raise ImplementationNotFound("--impl is empty: give a module name such as reference or solutions.mine.")
    if value.startswith(course_shapes.PREFIXES):  # a course-shaped solution (bpe_kata/impl/course_shapes.py)
        try:
            return course_shapes.load(value)
        except shape_parts.ShapeError as error:
            raise ImplementationNotFound(str(error)) from error
    if _looks_like_path(value) or Path(value).exists():
        return _import_from_path(Path(value).expanduser().resolve())
    if not all(part.isidentifier() for part in value.split(".")):
        raise ImplementationNotFound(
            f"--impl {value}: this is neither a dotted module name nor an existing file or folder. "
            "Give a dotted module name such as solutions.mine (create one with `bpe-kata new NAME`), "
            "a package folder or a .py file."
        )
    return _import_dotted(value)
