"""bpe_kata.cli and its commands: ``bpe-kata new``, ``claims``, usage, --version, and ``check`` as a learner runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_kata import cli, learner
from bpe_kata.layout.paths import SPEC_DIR
from bpe_kata.run import spec_command
from spec.ledger import load_claims
from tests.support import nested_session

REPO_ROOT = Path(__file__).resolve().parent.parent
STARTER = REPO_ROOT / "solutions" / "starter"
CHILD_TIMEOUT = 120
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    """A project folder holding only ``solutions/starter``; the real project root is out of reach."""
    shutil.copytree(STARTER, tmp_path / "solutions" / "starter", ignore=IGNORE)
    monkeypatch.setattr(learner, "PROJECT_ROOT", tmp_path / "not-the-project")  # a fallback must not touch the repo
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` (hidden ones too) with its content."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))
            if "__pycache__" not in p.parts}


# --- bpe-kata new ------------------------------------------------------------------------------


def test_new_copies_the_starter_and_prints_the_next_command(root, capsys):
    assert learner.new("mine", root=root) == 0
    created = root / "solutions" / "mine"
    assert (created / "__init__.py").read_bytes() == (STARTER / "__init__.py").read_bytes()
    assert sorted(p.name for p in created.iterdir()) == ["__init__.py"]
    out = capsys.readouterr().out
    assert "bpe-kata check solutions.mine" in out
    assert sorted(p.name for p in (root / "solutions").iterdir()) == ["mine", "starter"]  # no staging left


def test_new_twice_refuses_and_changes_nothing(root, capsys):
    assert learner.new("mine", root=root) == 0
    work = root / "solutions" / "mine" / "__init__.py"
    work.write_text("def get_stats(ids):\n    return {}  # the learner's work\n", encoding="utf-8")
    before = snapshot(root)
    capsys.readouterr()

    assert learner.new("mine", root=root) == 1
    err = capsys.readouterr().err
    assert "already exists" in err and "nothing was changed" in err
    assert snapshot(root) == before


@pytest.mark.parametrize("name", ["1abc", "my-sol", "starter", "my sol", ""])
def test_new_refuses_a_bad_name_and_creates_nothing(root, capsys, name):
    before = snapshot(root)
    assert learner.new(name, root=root) == 2
    err = capsys.readouterr().err
    assert repr(name) in err and "identifier" in err
    assert snapshot(root) == before


def test_new_without_a_starter_is_an_error(tmp_path, capsys):
    assert learner.new("mine", root=tmp_path) == 2
    assert "starter is missing" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_new_that_fails_midway_leaves_no_solution(root, monkeypatch, capsys):
    real_copytree = shutil.copytree

    def copy_then_fail(src, dst, **kwargs):
        real_copytree(src, dst, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(learner.shutil, "copytree", copy_then_fail)
    with pytest.raises(OSError, match="disk full"):
        learner.new("mine", root=root)
    assert not (root / "solutions" / "mine").exists()

    monkeypatch.setattr(learner.shutil, "copytree", real_copytree)
    assert learner.new("mine", root=root) == 0  # a retry is not blocked by the failed attempt
    assert (root / "solutions" / "mine" / "__init__.py").is_file()
    assert sorted(p.name for p in (root / "solutions").iterdir()) == ["mine", "starter"]


def test_new_that_fails_midway_leaves_no_staging_folder(root, monkeypatch):
    real_copytree = shutil.copytree

    def copy_then_fail(src, dst, **kwargs):
        real_copytree(src, dst, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(learner.shutil, "copytree", copy_then_fail)
    with pytest.raises(OSError):
        learner.new("mine", root=root)
    assert sorted(p.name for p in (root / "solutions").iterdir()) == ["starter"]


def test_main_new_uses_the_current_folder(root, monkeypatch, capsys):
    monkeypatch.chdir(root)
    assert cli.main(["new", "mine"]) == 0
    assert (root / "solutions" / "mine" / "__init__.py").is_file()
    out = capsys.readouterr().out
    assert "solutions/mine/__init__.py" in out and "bpe-kata check solutions.mine" in out


def test_main_new_needs_exactly_one_name(root, monkeypatch, capsys):
    monkeypatch.chdir(root)
    before = snapshot(root)
    assert cli.main(["new"]) == 2
    assert cli.main(["new", "a", "b"]) == 2
    assert "usage: bpe-kata new NAME" in capsys.readouterr().err
    assert snapshot(root) == before


# --- claims, usage, unknown commands -----------------------------------------------------------


def test_claims_for_a_level_lists_every_claim_of_it(capsys):
    assert cli.main(["claims", "--level", "merge"]) == 0
    lines = capsys.readouterr().out.splitlines()
    printed = [line.split()[0] for line in lines]
    merge_ids = [cid for cid in load_claims() if cid.startswith("merge.")]
    assert merge_ids, "the ledger has merge claims"
    assert printed == [cid for cid, claim in load_claims().items() if claim.level == "merge"]
    assert set(merge_ids) <= set(printed)
    assert all(line.split()[1] == "merge" for line in lines)


def test_claims_with_an_unknown_level_is_a_usage_error(capsys):
    assert cli.main(["claims", "--level", "nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown level 'nope'" in captured.err and "merge" in captured.err


def test_no_arguments_prints_usage_and_fails(capsys):
    assert cli.main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: ")
    for command in ("bpe-kata check", "bpe-kata new", "bpe-kata claims", "bpe-kata data"):
        assert command in out


@pytest.mark.parametrize("flag", ["-h", "--help", "help"])
def test_help_prints_usage_and_succeeds(flag, capsys):
    assert cli.main([flag]) == 0
    assert capsys.readouterr().out.startswith("usage: ")


def test_unknown_command_is_a_usage_error(capsys):
    assert cli.main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'frobnicate'" in err and "bpe-kata check" in err


def test_check_help_does_not_run_the_spec(capsys, monkeypatch):
    monkeypatch.setattr("pytest.main", lambda *a, **k: pytest.fail("check --help ran pytest"))
    assert cli.main(["check", "solutions.mine", "--help"]) == 0
    assert "usage: bpe-kata check" in capsys.readouterr().out


def test_check_passes_impl_and_options_to_pytest(monkeypatch):
    seen = []
    monkeypatch.setattr("pytest.main", lambda args: seen.append(args) or 0)
    assert cli.main(["check", "tests.red_team.hangs", "--level", "merge", "-q"]) == 0
    assert cli.main(["check", "-x"]) == 0
    net = ["-p", "timeout", "--timeout", spec_command.IN_PROCESS_TEST_TIMEOUT]
    net += spec_command.defaults([])  # one rootdir and config, short tracebacks (bpe_kata/run/spec_command.py)
    assert seen[0] == [
        str(SPEC_DIR),
        "-p",
        "bpe_kata.plugin",
        *net,
        "--impl",
        "tests.red_team.hangs",
        "--level",
        "merge",
        "-q",
    ]
    assert seen[1] == [str(SPEC_DIR), "-p", "bpe_kata.plugin", *net, "-x"]
    assert cli.main(["check", "solutions.no_such_solution"]) == 2 and len(seen) == 2  # one line, no pytest run


def test_gate_is_isolated_strict_and_takes_impl_either_way(monkeypatch):
    seen = []

    class Supervised:  # the gate's pytest arguments, as its supervisor would get them
        def __init__(self, args, **options) -> None:
            seen.append(args)

        def run(self) -> int:
            return 0

    monkeypatch.setattr("bpe_kata.gate.supervisor.Supervisor", Supervised)
    assert cli.main(["gate", "tests.red_team.hangs", "--expect", "e.toml"]) == 0
    assert cli.main(["gate", "--impl", 'cmd:"node bpe.js"', "--timeout", "5"]) == 0
    assert cli.main(["gate"]) == 2
    assert seen[0][-9:] == [*spec_command.GATE_OPTIONS, "-p", "no:cacheprovider",  # a gate keeps no pytest cache
                            "--impl", "tests.red_team.hangs", "--expect", "e.toml"]
    assert seen[1][3:5] == ["-p", "timeout"] and "600" not in seen[1]
    assert {"--isolated", "--strict-levels", "--require-data"} <= set(seen[1])


# --- end to end: `python -m bpe_kata.cli check` --------------------------------------------------------


def table_rows(output: str) -> dict[str, str]:
    """The level table's rows by level name."""
    names = ("facts", "bytes", "pairs", "merge", "train", "decode", "encode", "roundtrip")
    return {line.split()[0]: line for line in output.splitlines() if line.split() and line.split()[0] in names
            and line.rstrip().split()[1].isdigit()}


def test_check_reference_on_one_claim_is_green(capsys):
    """``bpe-kata check`` as its entry point runs it, in this process (the learner's run below is a child)."""
    capsys.readouterr()
    with nested_session():
        returncode = cli.main(["check", "reference", "--claim", "merge.example-99", "-q", "-p", "no:cacheprovider",
                               "-n", "0"])
    output = capsys.readouterr().out
    assert returncode == 0, output
    rows = table_rows(output)
    assert rows["merge"].startswith("merge") and "green" in rows["merge"], output
    assert "2 passed" in output  # its worked case at the merge level, and its one-merge encode


@pytest.mark.heavy
def test_learner_with_the_starter_sees_not_started_not_errors(tmp_path):
    """The kata's first step exactly as a learner takes it: a copied starter, a real ``bpe-kata check``."""
    learner = tmp_path / "mysol"
    shutil.copytree(STARTER, learner, ignore=IGNORE)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "BPE_IMPL")}
    env["BPE_KATA_OFFLINE"] = "1"  # a corpus that is not at hand is 'not run', never a download
    done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", str(learner), "--level", "merge", "-q",
                           "-p", "no:cacheprovider", "-n", "0"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    rows = table_rows(output)
    for level in ("bytes", "pairs", "merge"):
        assert rows[level].rstrip().endswith("not started"), output
    assert not set(rows) - {"facts", "bytes", "pairs", "merge"}  # --level merge stops there
    assert "FAILED" not in output
    assert "Error" not in output.replace("NotImplementedError", ""), output  # the reason line names it
    assert "Traceback" not in output


# --- one table of subcommands, --version, each subcommand's --help ------------------------------------

def test_version_is_the_installed_distributions(capsys):
    from importlib import metadata

    for flag in ("--version", "-V"):
        assert cli.main([flag]) == 0
        assert capsys.readouterr().out.strip() == f"bpe-kata {metadata.version('bpe-kata')}"


@pytest.mark.parametrize("command", ["new", "words-budget"])
def test_help_of_a_subcommand_says_how_to_use_it_and_changes_nothing(command, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main([command, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: bpe-kata {command}")
    assert not any(tmp_path.iterdir())


def test_every_listed_command_is_in_the_one_table_and_resolves():
    """The usage is made from the table, and every entry names a function that exists."""
    for name, command in cli.COMMANDS.items():
        assert callable(command.function()), name
        assert all(line.startswith(name) for line in command.usage), name


def test_a_reader_that_goes_away_gets_no_traceback():
    """``bpe-kata --help | head -1``: the pipe closes before the usage is written; the command ends quietly."""
    script = shutil.which("bpe-kata") or pytest.skip("the console script is not installed")
    child = subprocess.Popen([script, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.read(5)
    child.stdout.close()
    error = child.stderr.read().decode()
    child.wait(timeout=60)
    assert "Traceback" not in error, error
