"""The runner's floors (issue 39): each folder of ``bpe_kata/`` is one floor, and imports only go down.

Read from the source, never by importing it: every import statement at any depth (a lazy import inside a
function counts; one under ``if TYPE_CHECKING:`` does not, it never runs). Beside tests/test_seam.py, which
keeps ``spec/`` from naming the runner, this keeps the runner's own floors apart:
- an import from a folder to a higher floor, or across to another folder on the same floor, fails;
- a cycle between files fails, inside a folder too;
- the sandboxed child imports only ``child/`` and ``impl/`` (and the package roots above them);
- one function builds the spec run's pytest command (bpe_kata/run/spec_command.py);
- no two modules share a name, no module is over 320 lines, and each folder says its purpose.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bpe_kata"

#: Top to bottom. "" is the package's own modules: the commands (cli, learner, spec_commands, merge,
#: shape_starters) and the pytest plugin, the public entry points. Folders on one floor import neither.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("",), ("mutation",), ("tools",), ("gate",), ("run",), ("platforms",), ("verdict",), ("child",), ("impl",),
    ("adapters",),
    ("data", "schemas", "layout"),
)
RANK = {folder: height for height, floor in enumerate(FLOORS) for folder in floor}
#: What ``python -m bpe_kata.child.server`` may import: the protocol's ends and the loading of an implementation.
CHILD_FLOORS = ("child", "impl")
MAX_LINES = 320


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def folder_of(module: str) -> str:
    """The floor folder a module belongs to: ``bpe_kata.run.x`` -> run, ``bpe_kata.cli`` -> ""."""
    parts = module.split(".")
    if len(parts) == 1:
        return ""
    if len(parts) == 2:
        return parts[1] if (PACKAGE / parts[1]).is_dir() else ""
    return parts[1]


def _typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``: annotations only, never run."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return found


def imports_of(module: str, source: str) -> set[str]:
    """The runner modules ``source`` imports, lazily or not (a package's own module when one is named)."""
    tree = ast.parse(source)
    skipped = _typing_only(tree)
    is_package = MODULES[module].name == "__init__.py" if module in MODULES else False
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        found |= {target for target in targets if target in MODULES and target != module}
    return found


GRAPH = {module: imports_of(module, path.read_text(encoding="utf-8")) for module, path in MODULES.items()}


def wrong_way(graph: dict[str, set[str]]) -> list[str]:
    """Each import running up a floor or across to a sibling folder, as ``a -> b``."""
    problems = []
    for module, targets in sorted(graph.items()):
        here = folder_of(module)
        if module == "bpe_kata":
            continue
        for target in sorted(targets):
            there = folder_of(target)
            if target == "bpe_kata" or there == here:
                continue
            if RANK[there] <= RANK[here]:
                problems.append(f"{module} -> {target} ({there or 'the package root'} is not below "
                                f"{here or 'the package root'})")
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target == "bpe_kata":
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def closure(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += graph.get(module, ())
    return seen


def test_every_folder_is_on_a_floor_and_says_its_purpose():
    folders = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert folders <= set(RANK), f"folders on no floor: {sorted(folders - set(RANK))}: add them to FLOORS"
    for folder in sorted(folders):
        doc = ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc, f"bpe_kata/{folder}/__init__.py has no docstring saying what the floor is for"


def test_imports_only_go_down():
    problems = wrong_way(GRAPH)
    assert not problems, "imports running up or across the runner's floors:\n" + "\n".join(problems)


def test_no_file_cycles():
    found = cycles(GRAPH)
    assert not found, "file cycles in bpe_kata/:\n" + "\n".join(" <-> ".join(group) for group in found)


def test_the_sandboxed_child_imports_only_its_floors():
    reached = closure("bpe_kata.child.server", GRAPH)
    outside = sorted(m for m in reached if folder_of(m) not in (*CHILD_FLOORS, "") or
                     (folder_of(m) == "" and m != "bpe_kata"))
    assert not outside, f"python -m bpe_kata.child.server reaches beyond child/ and impl/: {outside}"


def test_a_learners_check_in_process_never_imports_the_sandbox_or_the_gate():
    """``bpe-kata check`` runs the spec in the learner's own process: the sandbox, the supervisor and the tools
    are the gate's and grade's, and a check that loaded them would pay for them on every run."""
    probe = ("import sys, pytest\nfrom bpe_kata.run.spec_command import spec_run\n"
             "pytest.main(spec_run('check', ['--impl', 'reference', '--level', 'bytes', '-n', '0', '-q',"
             " '-p', 'no:cacheprovider']))\n"
             "print('LOADED', ' '.join(sorted(m for m in sys.modules if m.startswith('bpe_kata'))))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    line = next((text for text in done.stdout.splitlines() if text.startswith("LOADED")), None)
    assert line is not None, done.stdout[-2000:] + done.stderr[-2000:]
    loaded = set(line.split()[1:])
    assert "bpe_kata.verdict.judging" in loaded, "the probe did not run the spec"
    unwanted = sorted(m for m in loaded
                      if m == "bpe_kata.child.sandbox" or folder_of(m) in ("gate", "tools", "mutation"))
    assert not unwanted, f"an in-process check imported {unwanted}"


def test_one_function_builds_the_spec_runs_pytest_command():
    """check, gate and grade's submissions start pytest with ``spec_run``: no other code names the plugin."""
    builders = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        builders += [f"{module}:{node.lineno}" for node in ast.walk(tree) if isinstance(node, ast.Constant)
                     and node.value == "bpe_kata.plugin" and id(node) not in docstrings]
    assert builders == [f"bpe_kata.run.spec_command:{_line_of_plugin_name()}"], builders


def _line_of_plugin_name() -> int:
    source = MODULES["bpe_kata.run.spec_command"].read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(source, 1) if '"bpe_kata.plugin"' in line)


@pytest.mark.parametrize("mode", ["check", "gate", "graded"])
def test_every_mode_gets_the_same_rootdir_config_and_safety_net(mode):
    from bpe_kata.run.spec_command import SETTINGS, spec_run

    args = spec_run(mode, ["--impl", "reference"])
    assert args[1:3] == ["-p", "bpe_kata.plugin"] and "--rootdir" in args and str(SETTINGS) in args
    assert ["-p", "timeout"] == args[3:5] and "--impl" in args
    assert ("-p", "no:cacheprovider") in zip(args, args[1:]) or mode == "check"


def test_no_two_modules_share_a_name_and_none_is_over_the_limit():
    names: dict[str, list[str]] = defaultdict(list)
    for module, path in MODULES.items():
        if path.name != "__init__.py":
            names[path.name].append(module)
    shared = {name: found for name, found in names.items() if len(found) > 1}
    assert not shared, f"modules sharing a name: {shared}"
    long = {module: n for module, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


@pytest.mark.parametrize("source, expected", [
    ("from bpe_kata.run import kata_run\n", ["bpe_kata.verdict.x -> bpe_kata.run.kata_run"]),
    ("def f():\n    from bpe_kata.gate import supervisor\n", ["bpe_kata.verdict.x -> bpe_kata.gate.supervisor"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bpe_kata.run import kata_run\n", []),
    ("from bpe_kata.child import client\nfrom bpe_kata.verdict import judging\n", []),
])
def test_the_rule_catches_an_import_running_up(source, expected):
    MODULES.setdefault("bpe_kata.verdict.x", PACKAGE / "verdict" / "x.py")
    try:
        graph = {"bpe_kata.verdict.x": imports_of("bpe_kata.verdict.x", source)}
        found = [problem.split(" (")[0] for problem in wrong_way(graph)]
    finally:
        MODULES.pop("bpe_kata.verdict.x")
    assert found == expected


def test_the_rule_catches_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_folder_ships_in_the_wheel():
    """A folder missing from pyproject's package list is left out of a non-editable install."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {_module_name(path) for path in PACKAGE.rglob("__init__.py")}
    assert folders <= listed, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(folders - listed)}"
