"""The course's ``tests/adapters.py``, loaded as the learner runs it: each top-level import guarded (torch, jaxtyping:
the model code's, which the tokenizer never reads), and proof before any test that the tokenizer's two functions
can run here (a name they read, or import inside, that cannot be had makes the solution "could not load", said in one
line, never a NameError or ImportError on every call blamed on claims: issue 37, kind 3)."""

from __future__ import annotations
import __future__

import ast
import hashlib
import sys
import types
from pathlib import Path

from bpe_kata.impl import shape_parts


class _GuardImports(ast.NodeTransformer):
    """Each top-level import in a ``try``: a failed one is noted, not fatal (torch for the model code)."""

    def visit_Module(self, node: ast.Module) -> ast.Module:
        body = []
        for statement in node.body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)) and getattr(statement, "module", "") != "__future__":
                for alone in _one_name_each(statement):  # one failing name leaves the others bound
                    bound = [(alias.asname or alias.name.partition(".")[0]) for alias in alone.names]
                    line = alone.lineno
                    note = ast.parse(f"__bpe_kata_skipped__.append('line {line}: ' + str(_error))\n"
                                     f"__bpe_kata_unbound__.update({{name: {line} for name in {bound!r}}})").body
                    handler = ast.ExceptHandler(type=ast.Name("ImportError", ast.Load()), name="_error", body=note)
                    guarded = ast.Try(body=[alone], handlers=[handler], orelse=[], finalbody=[])
                    body.append(ast.fix_missing_locations(ast.copy_location(guarded, statement)))
            elif isinstance(statement, (ast.ClassDef, ast.Assign, ast.AnnAssign)) or (
                    isinstance(statement, ast.Expr) and not isinstance(statement.value, ast.Constant)):
                body.append(_guard_names(statement))  # a docstring stays as it is: first, before ``__future__``
            else:
                body.append(statement)
        node.body = body
        return node


def _one_name_each(statement: ast.Import | ast.ImportFrom) -> list[ast.Import | ast.ImportFrom]:
    """``from pkg import a, b, c`` as three imports (eleventh round, holdout: ``from cs336_basics import transformer,
    train_bpe, tokenizer`` failed whole on the model module's torch, and the tokenizer's names went unbound)."""
    if len(statement.names) == 1 or any(alias.name == "*" for alias in statement.names):
        return [statement]
    if isinstance(statement, ast.ImportFrom):
        return [ast.copy_location(ast.ImportFrom(module=statement.module, names=[alias], level=statement.level),
                                  statement) for alias in statement.names]
    return [ast.copy_location(ast.Import(names=[alias]), statement) for alias in statement.names]


def _guard_names(statement: ast.stmt) -> ast.stmt:
    """A top-level class or assignment in a ``try``: one that reads a name only a skipped import would have bound
    (``class Linear(nn.Module)`` with torch absent) is skipped and noted, and the names it binds are unbound too;
    any other error stays the learner's (tenth round, development: nine model classes at the top of adapters.py
    made a tokenizer that never reads them "could not load")."""
    targets = getattr(statement, "targets", [getattr(statement, "target", None)])
    named = [t.id for t in targets if isinstance(t, ast.Name)]
    bound = [statement.name] if isinstance(statement, ast.ClassDef) else named
    line = statement.lineno
    note = ast.parse(f"if getattr(_error, 'name', None) not in __bpe_kata_unbound__:\n"
                     f"    raise\n"
                     f"__bpe_kata_skipped__.append('line {line}: ' + str(_error))\n"
                     f"__bpe_kata_unbound__.update({{name: {line} for name in {bound!r}}})").body
    handler = ast.ExceptHandler(type=ast.Name("NameError", ast.Load()), name="_error", body=note)
    guarded = ast.Try(body=[statement], handlers=[handler], orelse=[], finalbody=[])
    return ast.fix_missing_locations(ast.copy_location(guarded, statement))


def load(adapters: Path) -> types.ModuleType:
    """The learner's tests/adapters.py as a module of its own name (never ``tests.adapters``: the suite
    has a ``tests`` package of its own), its failing imports skipped; annotations are not evaluated."""
    source = adapters.read_text(encoding="utf-8")
    tree = _GuardImports().visit(ast.parse(source, str(adapters)))
    name = "bpe_kata_cs336_adapters_" + hashlib.sha256(str(adapters).encode()).hexdigest()[:10]
    module = types.ModuleType(name)
    module.__file__ = str(adapters)
    module.__bpe_kata_skipped__ = []
    module.__bpe_kata_unbound__ = {}  # name a skipped import would have bound -> its line
    sys.modules[name] = module
    code = compile(tree, str(adapters), "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    try:
        exec(code, module.__dict__)
    except Exception as error:
        del sys.modules[name]
        raise shape_parts.ShapeError(
            f"--impl cs336:{adapters}: running it raised {type(error).__name__}: {error}") from error
    return module


def guarded_package(folder: Path) -> list[str]:
    """The package in ``folder`` with its ``__init__`` run as adapters.py is, each failing top-level import skipped
    (its model code's torch), so the names its other imports bind are there (eleventh round, development: adapters.py
    read ``cs336_basics.train_bpe`` and ``cs336_basics.Tokenizer``, bound only by an ``__init__`` that also imports
    the model code; bypassed whole, every call raised AttributeError). What was skipped; a bare package (no
    ``__init__`` run at all) when even that run raises."""
    package = shape_parts.bare_package(folder)
    package.__bpe_kata_skipped__, package.__bpe_kata_unbound__ = [], {}
    init = folder / "__init__.py"
    try:
        tree = _GuardImports().visit(ast.parse(init.read_text(encoding="utf-8"), str(init)))
        exec(compile(tree, str(init), "exec", dont_inherit=True), package.__dict__)
    except Exception as error:  # noqa: BLE001 - its own error: left bare, as before
        shape_parts.bare_package(folder)
        return [f"not run ({type(error).__name__}: {error})"]
    failed: dict[str, list[str]] = {}
    for text in package.__bpe_kata_skipped__:  # "line N: No module named 'torch'"
        where, _, why = text.partition(": ")
        failed.setdefault(why, []).append(where.removeprefix("line "))
    return [f"line {', '.join(dict.fromkeys(lines))} ({why})" for why, lines in failed.items()]


def require_the_imports_inside(learner: types.ModuleType, needed: tuple[str, ...], adapters: Path, value: str,
                               notes: list[str]) -> None:
    """An import inside run_train_bpe or get_tokenizer (or a function of adapters.py they call) that fails now would
    fail on every call: the solution could not be loaded, said in one line with the package ``__init__`` the load
    bypassed (held out, sixth round: ``from cs336_basics import train_bpe`` inside run_train_bpe needed the
    ``__init__`` that imports torch, and every training claim read "could not run" behind an ImportError).
    Only the imports every call runs: statements of the function's own body, not one inside a ``try``, a branch or
    a nested function (the learner may handle its failing: an optional accelerator)."""
    used = set(needed).union(*(_names_used(getattr(learner, name), learner) for name in needed))
    tree = ast.parse(adapters.read_text(encoding="utf-8"), str(adapters))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in used]
    for function in functions:
        for node in function.body:
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "level", 0):
                continue
            try:
                exec(compile(ast.Module([node], []), str(adapters), "exec"), {"__name__": learner.__name__})
            except Exception as error:  # noqa: BLE001 - a module that fails to import, however: every call would
                bypassed = f"; bypassed at load: {'; '.join(notes)}" if notes else ""
                raise shape_parts.ShapeError(
                    f"--impl {value}: could not load: {function.name} (tests/adapters.py line {node.lineno}) "
                    f"imports what cannot be imported here: {type(error).__name__}: {error}{bypassed}") from None


def _names_used(function: object, module: types.ModuleType) -> set[str]:
    """The global names ``function`` reads, and those of the module's own functions it reads, transitively."""
    seen: set[str] = set()
    todo = [getattr(function, "__code__", None)]
    while todo:
        code = todo.pop()
        if code is None:
            continue
        for name in code.co_names:
            if name in seen:
                continue
            seen.add(name)
            value = module.__dict__.get(name)
            if getattr(value, "__module__", None) == module.__name__ and hasattr(value, "__code__"):
                todo.append(value.__code__)
        todo.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    return seen


def require_what_the_tokenizer_uses(learner: types.ModuleType, needed: tuple[str, ...], adapters: Path,
                                    value: str) -> None:
    """A skipped import is harmless only when the tokenizer's functions never read what it would have bound
    (torch for the model code); when they do, every call would be a NameError blamed on a claim: the solution
    could not be loaded, and that is said in one line instead (issue 37 kind 3)."""
    unbound = {name: line for name, line in learner.__bpe_kata_unbound__.items() if name not in learner.__dict__}
    read = set().union(*(_names_used(getattr(learner, name), learner) for name in needed))
    missing = sorted((line, name) for name, line in unbound.items() if name in read)
    if missing:
        why = {line: text.partition(": ")[2] for text in learner.__bpe_kata_skipped__
               for line in [int(text.partition(": ")[0].removeprefix("line "))]}
        shown = "; ".join(f"{name} (line {line}: {why.get(line, 'import failed')})" for line, name in missing)
        raise shape_parts.ShapeError(f"--impl {value}: could not load: {adapters} could not import what "
                                       f"run_train_bpe or get_tokenizer uses: {shown}")
