"""Where the suite is installed: the spec, the runner package, the reference, the checkout's root, the complete
implementations it ships and the files a gate vouches for. One place, so every floor names them alike."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import spec

SPEC_DIR = Path(spec.__file__).resolve().parent
SUITE_ROOT = SPEC_DIR.parent
PACKAGE_DIR = Path(__file__).resolve().parents[1]  # the whole bpe_kata package
SUITE_SUFFIXES = (".py", ".toml", ".json", ".md", ".txt", ".bpe", ".tiktoken", ".cfg", ".ini")


def reference_dir() -> Path | None:
    found = importlib.util.find_spec("reference")
    return Path(found.origin).resolve().parent if found and found.origin else None


#: Complete implementations the suite carries besides ``reference/`` (the oracle is in ``spec/``):
#: the project's own right implementations, the pattern-fixed ones, the JavaScript solution, and
#: mutmut's ``mutants/`` copy of the reference. A child that reached one would pass by calling it,
#: so the gate hides them as it hides the reference (unless the implementation under test is one).
SHIPPED_IMPLEMENTATIONS = (("tests", "implementations"), ("tests", "pattern_fixed"), ("solutions", "js"), ("mutants",))


def shipped_implementations() -> list[Path]:
    """The folders of :data:`SHIPPED_IMPLEMENTATIONS` this installation has."""
    found = (SUITE_ROOT.joinpath(*parts) for parts in SHIPPED_IMPLEMENTATIONS)
    return [path.resolve() for path in found if path.is_dir()]


def suite_files() -> list[Path]:
    """The installed suite: the runner package, the spec, the reference, and the conftest beside them."""
    roots = [PACKAGE_DIR, SPEC_DIR, reference_dir()]
    files = [SUITE_ROOT / name for name in ("conftest.py", "pyproject.toml") if (SUITE_ROOT / name).is_file()]
    for root in filter(None, roots):
        files += [p for p in root.rglob("*") if p.is_file() and p.suffix in SUITE_SUFFIXES
                  and "__pycache__" not in p.parts]
    return sorted(set(files))
