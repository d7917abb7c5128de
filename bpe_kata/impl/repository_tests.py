"""A course repository's own ``tests`` package, while the learner's code is imported (the CS336 shape).

The course's modules import ``tests.common``; where another ``tests`` package comes first on the path (this
suite's own checkout, the folder outside code is run from), that import found the wrong package.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def imported_from(repo: Path) -> Iterator[None]:
    """While the learner's code is imported, ``tests`` is the repository's own folder: the course's modules import
    ``tests.common`` (its ``gpt2_bytes_to_unicode``). Run from a folder where another ``tests`` package comes
    first (this suite's own checkout, where outside code is run against it), that import failed, and the solution
    was charged with claims or could not load (issue 37: 3 of 13 held-out CS336 solutions). Afterwards the
    other package is back, the modules imported from the repository stay under the names it lacks, and the
    repository's folder is the last place the package looks, so an import made later inside a function
    (``from tests.common import ...`` at call time) finds the course's module too."""
    folder = repo / "tests"
    if not folder.is_dir():
        yield
        return
    others = {name: module for name, module in sys.modules.items() if name == "tests" or name.startswith("tests.")}
    for name in others:
        del sys.modules[name]
    init = folder / "__init__.py"
    spec = importlib.util.spec_from_file_location("tests", init, submodule_search_locations=[str(folder)]) \
        if init.is_file() else importlib.machinery.ModuleSpec("tests", None, is_package=True)
    package = importlib.util.module_from_spec(spec)
    # the repository's folder first, then the other package's: what the repository lacks is still found there
    fallback = [entry for module in others.values() if module.__name__ == "tests"
                for entry in getattr(module, "__path__", [])]
    package.__path__ = [str(folder), *fallback]
    sys.modules["tests"] = package
    try:
        if init.is_file():
            try:
                spec.loader.exec_module(package)
            except Exception:  # an __init__ that needs what is not installed: its folder still serves imports
                pass
        yield
    finally:
        learners = {name: sys.modules.pop(name) for name in list(sys.modules)
                    if name == "tests" or name.startswith("tests.")}
        sys.modules.update(others)
        sys.modules.update({name: module for name, module in learners.items()
                            if name not in others})
        # an import made later, inside a function, finds the repository's modules the other package lacks
        path = getattr(sys.modules["tests"], "__path__", None)
        if isinstance(path, list) and str(folder) not in path:
            path.append(str(folder))
