"""Helpers the suite's own tests import: where the repository is, and running the spec inside
this process (nested ``pytest.main``) with a JSON report. Fixtures and hooks stay in conftest.py."""

from __future__ import annotations

import functools
import gc
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"

BESIDE_VAR = "BPE_KATA_BESIDE"  # the folder holding the repository and shared/ (the suite's own tests move it)
#: Files beside the repository that some checks read (tests mark them with @pytest.mark.beside).
BESIDE_FILES = ("shared/CLAIMS.md", "shared/seeds")


def beside_root() -> Path:
    return Path(os.environ.get(BESIDE_VAR) or REPO_ROOT.parent)


@dataclass
class SpecRun:
    returncode: int
    output: str
    report: dict | None

    def claim_status(self, claim: str) -> str | None:
        return (self.report or {}).get("claims", {}).get(claim, {}).get("status")

    def level_status(self, level: str) -> str | None:
        return (self.report or {}).get("levels", {}).get(level, {}).get("status")


def run_spec_inline(tmp_dir: Path, *args: str, files: list[str] | None = None,
                    capsys: pytest.CaptureFixture[str] | None = None) -> SpecRun:
    """Run the spec inside this process: no interpreter start-up, so dozens of runs stay cheap.

    Uses the 'fast' Hypothesis profile (a failing claim is all that matters here, so no
    shrinking). Add ``--one-failure-per-claim`` where only which claims fail matters, and
    ``files`` (spec paths) to collect less. Pass the test's ``capsys`` to get what the run
    printed (pytest's output, the level table, a usage error).
    """
    report_path = tmp_dir / f"inline-{abs(hash(args))}.json"
    if capsys is not None:
        capsys.readouterr()  # what the test printed before is not the run's
    with spec_test_modules_under("fast"):
        code = nested_pytest(files or ["spec"], "--hypothesis-profile", "fast", "--bpe-report", str(report_path), *args)
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
    if report is not None:
        assert_valid("report", report)  # every report the suite's tests write fits its schema (docs/SCHEMAS.md)
    printed = capsys.readouterr() if capsys is not None else None
    return SpecRun(code, printed.out + printed.err if printed else "", report)


def run_gate_inline(tmp_dir: Path, impl: str, *args: str, files: list[str] | None = None,
                    capsys: pytest.CaptureFixture[str] | None = None) -> SpecRun:
    """``bpe-kata gate IMPL ARGS`` inside this process: safe, since the gate runs the implementation
    in a child process and never imports it here."""
    from bpe_kata.run.spec_command import GATE_OPTIONS

    return run_spec_inline(tmp_dir, "--impl", impl, *GATE_OPTIONS, *args, files=files, capsys=capsys)


@functools.cache
def schema_validator(name: str, ref: str = ""):
    """A validator of the shipped schema ``name`` (bpe_kata/schemas), or of its part at ``ref`` (``#/$defs/...``);
    built once: a message-by-message check would otherwise spend most of its time building validators."""
    from jsonschema import Draft202012Validator

    from bpe_kata import schemas

    schema = schemas.load(name)
    return Draft202012Validator({"$ref": ref, "$defs": schema["$defs"]} if ref else schema)


def schema_errors(name: str, data, ref: str = "") -> list[str]:
    """Where ``data`` breaks the shipped schema ``name`` (or its part at ``ref``), one line per error."""
    validator = schema_validator(name, ref)
    return [f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}"
            for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))]


def assert_valid(name: str, data, where: str = "") -> None:
    errors = schema_errors(name, data)
    assert not errors, f"{where or 'the data'} does not fit bpe_kata/schemas/{name}.schema.json:\n" + "\n".join(
        errors[:10])


def written_kind(data) -> str | None:
    """Which schema a JSON file the suite wrote falls under: a report, a grade table, or none of ours."""
    if not isinstance(data, dict) or data.get("suite") != "bpe-kata":
        return None
    return "grade" if "submissions" in data else "report" if "claims" in data or "levels" in data else None


#: Plugins a nested run has no use for; each one costs registration and hooks on every test.
NESTED_RUN_PLUGINS_OFF = [arg for name in ("cacheprovider", "junitxml", "doctest", "pastebin",
                                           "stepwise", "faulthandler", "unraisableexception", "threadexception")
                          for arg in ("-p", f"no:{name}")]


def nested_pytest(paths: list[str], *options: str) -> int:
    """``pytest.main`` on spec paths (relative to the repository root), leaving this session as it was."""
    with nested_session():
        return int(pytest.main(["--rootdir", str(REPO_ROOT), "-q", "-n", "0", *NESTED_RUN_PLUGINS_OFF,
                                *[str(REPO_ROOT / path) for path in paths], *options]))


@contextmanager
def nested_session() -> Iterator[None]:
    """Around a ``pytest.main`` inside this session.

    The nested session loads its own Hypothesis profile, so the current one is put back. It
    also runs full garbage collections: freezing this process's objects first keeps each one
    from walking the whole outer session (that was a third of the suite's time).
    """
    from hypothesis import settings

    previous = settings.get_current_profile_name()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        settings.load_profile(previous)


#: The spec's test modules as imported by nested runs, per Hypothesis profile (see below).
_SPEC_TEST_MODULES: dict[str, dict[str, ModuleType]] = {}


def _spec_test_modules() -> dict[str, ModuleType]:
    spec_dir = REPO_ROOT / "spec"
    return {name: module for name, module in list(sys.modules.items())
            if Path(getattr(module, "__file__", None) or "/").parent == spec_dir
            and name.rpartition(".")[2].startswith("test_")}


@contextmanager
def spec_test_modules_under(profile: str) -> Iterator[None]:
    """Give a nested run copies of the spec's test modules imported under its Hypothesis ``profile``.

    A test without its own ``@settings`` keeps the profile that was loaded when its module was
    imported. This session imported the spec under its own profile (random, shrinking), and a
    nested run that reused those modules would not get its ``--hypothesis-profile``: the runs
    were three times slower and not derandomized. So this session's modules step aside for the
    nested run, which imports the spec afresh after loading ``profile``; its copies are kept
    for the next nested run with that profile, and this session's come back afterwards.
    """
    own = _spec_test_modules()
    for name in own:
        del sys.modules[name]
    sys.modules.update(_SPEC_TEST_MODULES.get(profile, {}))
    try:
        yield
    finally:
        _SPEC_TEST_MODULES[profile] = nested = _spec_test_modules()
        for name in nested:
            del sys.modules[name]
        sys.modules.update(own)


def files_of_levels(spec_tests: dict[str, dict], levels) -> list[str]:
    """The spec files holding tests of these levels."""
    wanted = set(levels)
    return _files_where(spec_tests, lambda row: row["level"] in wanted)


def files_of_claims(spec_tests: dict[str, dict], claims) -> list[str]:
    """The spec files holding tests of these claims, so a run collects only what it needs."""
    wanted = set(claims)
    return _files_where(spec_tests, lambda row: bool(wanted & set(row["claims"])))


def _files_where(spec_tests: dict[str, dict], keep) -> list[str]:
    return sorted({nodeid.split("::")[0] for nodeid, row in spec_tests.items() if keep(row)})
