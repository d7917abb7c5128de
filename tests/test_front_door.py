"""The front door (issue 39): the README's ``pytest`` passes on a fresh clone installed with ``.[test]`` alone.

A library only another extra installs (the matrix's tokenizers, rustbpe, bpeasy, sentencepiece; the dev
extra's mutmut) is absent there, so every test of that run that imports it, directly or through a module
of the project that imports it on load, must skip with the reason where it is absent. Checked here by
reading the source, in a second: CI's fresh-clone run (.ci/run) finds what this reading cannot (a library
reached through a subprocess or a computed name), but only minutes later.
"""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from pathlib import Path

from bpe_kata.adapters import ADAPTERS
from tests.support import REPO_ROOT

#: What the project's modules import on load is read from these packages, and from the suite's files below.
PACKAGES = ("bpe_kata", "spec", "reference", "solutions")
#: The suite's files pytest loads: test modules, conftest files and the helpers beside them.
SUITE = sorted({REPO_ROOT / "conftest.py", *REPO_ROOT.glob("tests/*.py"),
                *(path for folder in ("spec", "tests") for pattern in ("test_*.py", "conftest.py")
                  for path in (REPO_ROOT / folder).rglob(pattern))})
#: A call to one of these, in a test or around it, decides whether it runs where the library is absent (the
#: heavy group, left out of the README's run, needs none: CI installs the extras before it runs it).
GUARDS = ("importorskip", "find_spec")


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("-", "_")


def _extras() -> tuple[set[str], set[str]]:
    """(what ``pip install -e ".[test]"`` installs, what only another extra installs), as import names."""
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]

    def closure(extra: str) -> set[str]:
        names = set()
        for requirement in extras[extra]:
            if (inner := re.fullmatch(r"bpe-kata\[(\w+)\]", requirement)) is not None:
                names |= closure(inner.group(1))
            else:
                names.add(_name(requirement))
        return names

    installed = {_name(r) for r in project["dependencies"]} | closure("test")
    return installed, set().union(*(closure(extra) for extra in extras)) - installed


INSTALLED, OPTIONAL = _extras()


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(path: Path) -> list[str]:
    """The package a module's relative imports start from."""
    return list(path.relative_to(REPO_ROOT).parent.parts)


def _imported(node: ast.AST, package: list[str]) -> list[str]:
    """The modules an import statement loads (a package's submodules named in ``from P import m`` included)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:  # relative: from the module's own package, or one above it per extra dot
            base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
        return [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return []


def _looks_up(node: ast.AST) -> bool:
    """Whether this expression (a condition, a decorator, a function) looks a library up or skips without it."""
    return any(isinstance(n, ast.Call) and _called(n) in GUARDS for n in ast.walk(node))


def _leaves_out(mark: ast.AST) -> bool:
    """A decorator or ``pytestmark`` that skips where the library is absent, or leaves the test out of a plain run."""
    return _looks_up(mark) or any(isinstance(n, ast.Attribute) and n.attr == "heavy" for n in ast.walk(mark))


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    return handler.type is None or bool(re.search(r"\b(ImportError|ModuleNotFoundError|Exception)\b",
                                                  ast.unparse(handler.type)))


def _sites(tree: ast.Module) -> list[tuple[ast.AST, list[ast.AST]]]:
    """Each import (and ``import_module("name")`` call) with the nodes enclosing it, outermost first."""
    found = []

    def visit(node: ast.AST, outer: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, outer))
            elif isinstance(child, ast.Call) and _called(child) in ("import_module", "__import__") and child.args \
                    and isinstance(child.args[0], ast.Constant) and isinstance(child.args[0].value, str):
                found.append((child, outer))
            visit(child, [*outer, child])

    visit(tree, [])
    return found


def _loads(site: ast.AST, package: list[str]) -> list[str]:
    """Every module an import site loads: what it names and the packages above each."""
    names = [site.args[0].value] if isinstance(site, ast.Call) else _imported(site, package)
    return sorted({".".join(name.split(".")[:end]) for name in names for end in range(1, name.count(".") + 2)})


def _is_guarded(site: ast.AST, outer: list[ast.AST], module_guard: bool) -> bool:
    """Whether a missing library turns this import into a skip (or a deselection) rather than an error."""
    for node in outer:
        if isinstance(node, ast.Try) and site in [n for stmt in node.body for n in ast.walk(stmt)] \
                and any(_catches_import_error(h) for h in node.handlers):
            return True
        if isinstance(node, ast.If) and _looks_up(node.test):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if any(_leaves_out(d) for d in node.decorator_list):
                return True
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _looks_up(node):
                return True  # pytest.importorskip, or a pytest.skip behind find_spec, in the test or fixture
    in_function = any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in outer)
    return in_function and module_guard  # a module-wide mark covers its tests, never its own imports at load


def _module_guard(tree: ast.Module) -> bool:
    """A module-wide ``pytestmark`` that leaves the tests out (heavy) or skips them (find_spec)."""
    return any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
               and _leaves_out(n.value) for n in tree.body)


@functools.cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(_text(path), str(path))


def _naming(names: set[str]) -> re.Pattern[str]:
    """Text that names one of these modules: an import of a module, or of a package holding it, names it."""
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")


def _loaded_on_import(path: Path) -> set[str]:
    """What a module loads when it is imported (not inside its functions, not behind a guard)."""
    loads = set()
    for site, outer in _sites(_parsed(path)):
        if not any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) for n in outer) \
                and not _is_guarded(site, outer, False):
            loads.update(_loads(site, _package(path)))
    return loads


@functools.cache
def needs() -> dict[str, frozenset[str]]:
    """The project's modules that load an optional library on import, directly or through another one.

    Only the files that name an optional library, or a module found to load one, are parsed: an import
    names what it loads (or a package above it, then found in its turn), so the others cannot reach one.
    """
    paths = {_module_name(path): path for package in PACKAGES for path in (REPO_ROOT / package).rglob("*.py")}
    paths |= {_module_name(path): path for path in SUITE}
    names, found = set(OPTIONAL), {}
    while True:
        naming = _naming(names)
        direct = {module: _loaded_on_import(path) for module, path in paths.items() if naming.search(_text(path))}
        found = {module: {name.split(".")[0] for name in loads} & OPTIONAL for module, loads in direct.items()}
        changed = True
        while changed:  # through the project's own modules, to a fixed point
            changed = False
            for module, loads in direct.items():
                reached = set().union(*(found.get(name, set()) for name in loads)) - found[module]
                if reached:
                    found[module] |= reached
                    changed = True
        found = {module: frozenset(libraries) for module, libraries in found.items() if libraries}
        more = names | {module.rsplit(".", 1)[-1] for module in found}
        if more == names:
            return found
        names = more


def unguarded(path: Path, tree: ast.Module, needs: dict[str, frozenset[str]]) -> list[str]:
    """Each import in a suite file that reaches an optional library with nothing to skip it where it is absent."""
    module_guard, found = _module_guard(tree), []
    for site, outer in _sites(tree):
        libraries = set()
        for name in _loads(site, _package(path)):
            libraries |= ({name.split(".")[0]} & OPTIONAL) | needs.get(name, set())
        if libraries and not _is_guarded(site, outer, module_guard):
            where = next((n.name for n in reversed(outer) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)),
                         "<module>")
            found.append(f"{path.relative_to(REPO_ROOT)}:{site.lineno} ({where}): {ast.unparse(site)} needs "
                         f"{', '.join(sorted(libraries))}")
    return found


def test_the_optional_libraries_are_the_ones_only_other_extras_install():
    assert {"tokenizers", "rustbpe", "bpeasy", "sentencepiece", "mutmut"} <= OPTIONAL
    assert "tiktoken" in INSTALLED and "tiktoken" not in OPTIONAL  # the tables extra, inside the test extra
    assert set(ADAPTERS.values()) <= INSTALLED | OPTIONAL  # every adapter's library is installed by some extra


def test_the_project_modules_that_load_an_optional_library_are_found():
    found = needs()
    for adapter, library in ADAPTERS.items():
        if library in OPTIONAL:
            assert found.get(adapter) == {library}, adapter
    assert not any(found.get(module) for module in ("bpe_kata.cli", "bpe_kata.plugin", "reference", "spec.oracle"))


def test_every_suite_import_of_an_optional_library_skips_where_it_is_absent():
    naming = _naming(OPTIONAL | {module.rsplit(".", 1)[-1] for module in needs()})
    found = [line for path in SUITE if naming.search(_text(path)) for line in unguarded(path, _parsed(path), needs())]
    assert not found, ("imports that fail on a fresh clone installed with .[test] alone; guard each with "
                       "pytest.importorskip(LIBRARY, reason=...) or a skipif on find_spec:\n  " + "\n  ".join(found))


#: The defect issue 39 reported, the guards the suite uses and their look-alikes: what the reading must tell apart.
READINGS = {
    """
def test_the_shipped_adapters_are_marked():
    from bpe_kata.adapters import _glue, with_bpeasy, with_tiktoken
""": ["from bpe_kata.adapters import _glue, with_bpeasy, with_tiktoken needs bpeasy"],
    """
def test_a():
    pytest.importorskip("bpeasy", reason="pip install -e '.[matrix]'")
    from bpe_kata.adapters import with_bpeasy
""": [],
    """
@pytest.mark.skipif(importlib.util.find_spec("tokenizers") is None, reason="pip install -e '.[matrix]'")
def test_a():
    import tokenizers.models
""": [],
    """
@pytest.mark.skipif(sys.platform == "win32", reason="not on Windows")
def test_a():
    import tokenizers.models
""": ["import tokenizers.models needs tokenizers"],
    """
try:
    import sentencepiece
except ImportError:
    sentencepiece = None
""": [],
    """
import sentencepiece
""": ["import sentencepiece needs sentencepiece"],
    """
@pytest.mark.heavy
def test_a():
    importlib.import_module("bpe_kata.adapters.with_rustbpe")
""": [],
    """
def test_a():
    importlib.import_module("bpe_kata.adapters.with_rustbpe")
""": ["importlib.import_module('bpe_kata.adapters.with_rustbpe') needs rustbpe"],
    """
pytestmark = pytest.mark.heavy
import mutmut
""": ["import mutmut needs mutmut"],  # a module-wide mark does not stop its module's own imports at collection
    """
def test_a():
    from bpe_kata.adapters import with_tiktoken
""": [],  # tiktoken: the test extra installs it
}


def test_the_reading_tells_the_reported_defect_from_a_guard():
    path = REPO_ROOT / "tests" / "test_example.py"
    for source, expected in READINGS.items():
        assert [line.split(": ", 1)[1] for line in unguarded(path, ast.parse(source), needs())] == expected, source
