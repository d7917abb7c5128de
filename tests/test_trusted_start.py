"""Issue 36, kinds 1 and 2: the processes that judge never import from the judged folder, the
environment or an installation's start-up files (bpe_kata/gate/trusted_start.py).

Written as an attacker would: a repository gated from its own root that carries its own
``bpe_kata/``, ``spec/``, ``pytest.py``, ``_pytest/``, ``xdist/``, ``hypothesis/``, ``queue.py`` and
``sitecustomize.py``, with ``PYTHONPATH``, ``PYTEST_PLUGINS`` and ``PYTEST_ADDOPTS`` pointing at a plugin
of its own. Every hostile module writes a marker when imported; the junk implementation must fail
and no marker may exist.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_kata.gate import trusted_start
from bpe_kata.gate.run_options import private_pycache

#: Each hostile module: note that it ran (where a sandboxed child could not write, it silently can't).
HOSTILE = """
try:
    with open({marker!r}, "a") as _f:
        _f.write(__name__ + "\\n")
except OSError:
    pass
"""
#: The implementation under test: every encode is empty, so the bytes level must fail.
JUNK = "def encode(text, merges, **kwargs):\n    return []\n\ndef train(text, vocab_size, **kwargs):\n    return []\n"


#: Standard modules a pytest-xdist worker imports before it is given its sys.path (execnet's bootstrap).
WORKER_BAIT = ("traceback", "struct")


def bpe_kata() -> str:
    return shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata"))


def hostile_repository(root: Path, marker: Path) -> tuple[Path, dict[str, str]]:
    """A judged folder that shadows the suite and its dependencies, and an environment pointing at
    more of the same elsewhere (never at what ``bpe-kata`` itself imports before it decides anything:
    the command a CI step runs is trusted, docs/GATE.md "Channels")."""
    code = HOSTILE.format(marker=str(marker))
    elsewhere = root.parent / "plugins"
    for folder, packages in ((root, ("bpe_kata", "spec", "_pytest", "xdist", "hypothesis", "execnet", "pluggy")),
                             (elsewhere, ("_pytest", "xdist", "hypothesis", "execnet", "pluggy"))):
        for package in packages:
            (folder / package).mkdir(parents=True)
            (folder / package / "__init__.py").write_text(code)
    for module in ("plugin.py", "child/__init__.py", "child/supervisor.py", "child/server.py"):
        (root / "bpe_kata" / module).parent.mkdir(exist_ok=True)
        (root / "bpe_kata" / module).write_text(code)
    for module in ("pytest", "sitecustomize", "usercustomize", "queue", "conftest", *WORKER_BAIT):
        (root / f"{module}.py").write_text(code)
    for module in ("pytest_evil", "pytest", "queue"):
        (elsewhere / f"{module}.py").write_text(code)
    env = {**os.environ, "PYTHONPATH": str(elsewhere), "PYTEST_PLUGINS": "pytest_evil",
           "PYTEST_ADDOPTS": "-p pytest_evil", "PYTHONSTARTUP": str(elsewhere / "pytest_evil.py")}
    (root / "junk.py").write_text(JUNK)
    return root / "junk.py", env


@pytest.mark.heavy  # a whole gate, as the red team's
def test_a_hostile_repository_cannot_replace_the_suite_or_its_plugins(tmp_path):
    marker = tmp_path / "ran.txt"
    junk, env = hostile_repository(tmp_path / "repo", marker)
    report = tmp_path / "report.json"
    done = subprocess.run([bpe_kata(), "gate", "junk.py", "--level", "bytes", "-q", "-p", "no:cacheprovider",
                           "-n", "2", "--bpe-report", str(report)], cwd=junk.parent, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    output = done.stdout + done.stderr
    assert not marker.exists(), f"hostile code ran: {marker.read_text()}\n{output[-3000:]}"
    assert done.returncode == 1, output[-3000:]
    data = json.loads(report.read_text())
    assert data["levels"]["bytes"]["status"] == "FAILED" and data["sandbox"]["suite_unchanged"] is True


@pytest.mark.heavy  # a whole gate, as the red team's
def test_the_verdict_process_s_workers_start_trusted_too(tmp_path):
    """Even with the verdict process itself safe, xdist started each worker with ``python -c`` in the
    judged folder, and execnet's bootstrap imported the folder's ``traceback.py`` and ``struct.py``."""
    marker = tmp_path / "ran.txt"
    for module in WORKER_BAIT:
        (tmp_path / f"{module}.py").write_text(HOSTILE.format(marker=str(marker)))
    (tmp_path / "junk.py").write_text(JUNK)
    report = tmp_path / "report.json"
    done = subprocess.run([bpe_kata(), "gate", "junk.py", "--level", "bytes", "-q", "-p", "no:cacheprovider",
                           "-n", "2", "--bpe-report", str(report)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    output = done.stdout + done.stderr
    assert not marker.exists(), f"hostile code ran: {marker.read_text()}\n{output[-3000:]}"
    assert done.returncode == 1, output[-3000:]
    assert json.loads(report.read_text())["levels"]["bytes"]["status"] == "FAILED", output[-3000:]


@pytest.mark.heavy  # a whole gate, as the red team's
def test_an_honest_repository_with_its_own_spec_package_gates_the_reference_green(tmp_path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "__init__.py").write_text('"""This repository\'s own specification."""\n')
    (tmp_path / "spec" / "levels.py").write_text("ALL_LEVEL_NAMES = ()\n")
    done = subprocess.run([bpe_kata(), "gate", "reference", "--level", "bytes", "-q", "-p", "no:cacheprovider"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]


PROBE = ("import json, sys; print(json.dumps({'path': sys.path, 'no_site': sys.flags.no_site, "
         "'prefix': sys.pycache_prefix, 'finders': [type(f).__name__ if not isinstance(f, type) else f.__name__ "
         "for f in sys.meta_path], 'modules': sorted(sys.modules)}))")


def test_a_trusted_start_has_exactly_the_trusted_path_and_processes_no_start_up_file(tmp_path):
    marker = tmp_path / "ran.txt"
    _, env = hostile_repository(tmp_path / "repo", marker)
    probe = tmp_path / "probe_module.py"
    probe.write_text(PROBE)
    command = trusted_start.command("probe_module", [], private_pycache())
    command[command.index("-c") + 1] = command[command.index("-c") + 1].replace(
        "import runpy", f"sys.path.append({str(tmp_path)!r}); import runpy")
    done = subprocess.run(command, cwd=tmp_path / "repo", env=trusted_start.environment(env), capture_output=True,
                          text=True, timeout=60, check=True)
    seen = json.loads(done.stdout)
    assert seen["path"] == [*trusted_start.trusted_path(), str(tmp_path)]
    assert "" not in seen["path"] and str(tmp_path / "repo") not in seen["path"]
    assert seen["no_site"] == 1 and seen["prefix"] == str(private_pycache())
    assert "_EditableFinder" not in seen["finders"] and "sitecustomize" not in seen["modules"]
    assert not marker.exists()


def test_the_trusted_environment_keeps_no_python_or_pytest_variable():
    env = trusted_start.environment({"PYTHONPATH": "x", "PYTEST_PLUGINS": "x", "PYTEST_ADDOPTS": "-p x",
                                     "PYTHONSTARTUP": "x", "PYTHONUSERBASE": "x", "GITHUB_TOKEN": "secret",
                                     "PATH": "/bin", "LC_ALL": "C", "BPE_KATA_DATA": "/data"})
    assert env == {"PATH": "/bin", "LC_ALL": "C", "BPE_KATA_DATA": "/data", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                   trusted_start.MARK: "1"}


@pytest.mark.parametrize("name", ["bpe_kata", "spec", "pytest", "xdist", "hypothesis"])
def test_the_trusted_path_finds_the_suite_and_its_plugins_where_this_process_does(name):
    import importlib.util

    found = importlib.util.find_spec(name)
    roots = [Path(p) for p in trusted_start.trusted_path()]
    assert any(Path(found.origin).resolve().is_relative_to(root.resolve()) for root in roots)


def test_start_up_code_that_is_not_the_suite_s_is_named_and_refused_under_require_sandbox(tmp_path, monkeypatch,
                                                                                            capsys):
    from bpe_kata.gate import startup_guard
    from bpe_kata.gate.supervisor import Supervisor

    sites = tmp_path / "site-packages"
    sites.mkdir()
    (sites / "evil.pth").write_text("import os; os.environ['PYTEST_PLUGINS'] = 'evil_plugin'\n")
    (sites / "paths_only.pth").write_text("/some/folder\n")
    (sites / "a1_coverage.pth").write_text("import sys; exec('pass')\n")
    (sites / "_virtualenv.pth").write_text("import _virtualenv\n")
    (sites / "sitecustomize.py").write_text("")
    owners = {(sites / "a1_coverage.pth").resolve(): "coverage", (sites / "evil.pth").resolve(): "my-bpe"}
    found = startup_guard.findings([str(sites)], owners, startup_guard.suite_dependencies() | {"pip"})
    assert len(found) == 2 and "evil.pth" in found[1] and "my-bpe" in found[1] and "sitecustomize" in found[0]

    monkeypatch.setattr(startup_guard, "findings", lambda: found)
    assert Supervisor(["--impl", "reference"], require_sandbox=True).run() == 2
    assert "evil.pth" in capsys.readouterr().err


def test_this_honest_environment_has_no_start_up_code_to_name():
    from bpe_kata.gate import startup_guard

    assert startup_guard.findings() == []


def test_a_trusted_process_starts_the_next_one_from_the_same_path_and_finds_no_start_up_code(tmp_path):
    """grade's supervisor is a trusted start that starts the verdict process: under -S, without the
    environment's prefixes, it took the base interpreter's site-packages for this environment's."""
    probe = ("import json; from bpe_kata.gate import startup_guard, trusted_start; "
             "print(json.dumps([trusted_start.trusted_path(), startup_guard.findings()]))")
    command = trusted_start.command("json", [], None)
    command[command.index("-c") + 1] = command[command.index("-c") + 1].split("import runpy")[0] + probe
    done = subprocess.run(command, cwd=tmp_path, env=trusted_start.environment(), capture_output=True, text=True,
                          timeout=60, check=True)
    assert json.loads(done.stdout) == [trusted_start.trusted_path(), []]


@pytest.mark.parametrize("command", ["verify-report", "grade"])
def test_the_command_itself_becomes_a_trusted_start_before_it_imports_anything_late(tmp_path, command):
    """``bpe-kata gate``, ``grade``, ``verify-report`` and ``matrix`` replace themselves with a trusted start
    before their work: what they import late (pytest and the spec, to check an expectations file or derive a
    verdict again) never comes from the working folder or ``PYTHONPATH`` (the supervisor of a gate did)."""
    marker = tmp_path / "ran.txt"
    _, env = hostile_repository(tmp_path / "repo", marker)
    (tmp_path / "repo" / "report.json").write_text(json.dumps({"sandbox": {}, "tests": {}}), encoding="utf-8")
    args = ["report.json"] if command == "verify-report" else [str(tmp_path / "repo" / "nothing_here.py")]
    done = subprocess.run([bpe_kata(), command, *args], cwd=tmp_path / "repo", env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode != 0, done.stdout + done.stderr
    assert not marker.exists(), f"hostile code ran: {marker.read_text()}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
