"""Helpers for running the spec inside the suite's own tests: in this process, with a JSON report."""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = REPO_ROOT.parent / "shared"


BESIDE_VAR = "BPE_KATA_BESIDE"  # the folder holding the repository and shared/ (the suite's own tests move it)


def beside_root() -> Path:
    return Path(os.environ.get(BESIDE_VAR) or REPO_ROOT.parent)


def _missing_beside(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("beside")
    if marker is None:
        return None
    return None if (beside_root() / marker.args[0]).exists() else marker.args[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Checks of files that travel beside the repository (the claims inventory, the source documents)
    are left out where those files are absent: a fresh clone has nothing to skip."""
    kept, dropped = [], []
    for item in items:
        (dropped if _missing_beside(item) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> list[str]:
    missing = [path for path in BESIDE_FILES if not (beside_root() / path).exists()]
    if not missing:
        return []
    return [f"note: {', '.join('../' + p for p in missing)} absent beside the repository: "
            "the checks against them are not collected (they run where the files travel with the clone, as in CI)"]


#: Files beside the repository that some checks read (tests mark them with @pytest.mark.beside).
BESIDE_FILES = ("shared/CLAIMS.md", "shared/seeds")


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
    from hypothesis import settings

    import bpe_kata.hypothesis_profiles  # noqa: F401  (registers 'fast' even before any session has)

    report_path = tmp_dir / f"inline-{abs(hash(args))}.json"
    if capsys is not None:
        capsys.readouterr()  # what the test printed before is not the run's
    with _spec_tests_bound_to(settings.get_profile("fast")):
        code = nested_pytest(files or ["spec"], "--hypothesis-profile", "fast", "--bpe-report", str(report_path), *args)
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
    printed = capsys.readouterr() if capsys is not None else None
    return SpecRun(code, printed.out + printed.err if printed else "", report)


def run_gate_inline(tmp_dir: Path, impl: str, *args: str, files: list[str] | None = None,
                    capsys: pytest.CaptureFixture[str] | None = None) -> SpecRun:
    """``bpe-kata gate IMPL ARGS`` inside this process: safe, since the gate runs the implementation
    in a child process and never imports it here."""
    from bpe_kata.cli import GATE_OPTIONS

    return run_spec_inline(tmp_dir, "--impl", impl, *GATE_OPTIONS, *args, files=files, capsys=capsys)


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

    previous = settings._current_profile or "default"
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        settings.load_profile(previous)


@contextmanager
def _spec_tests_bound_to(profile) -> Iterator[None]:
    """Give already-imported spec tests these Hypothesis settings for the length of a nested run.

    Hypothesis binds a test's settings when its module is imported. This session imported the
    spec under its own profile (random, shrinking), and a nested run reuses those modules, so
    its ``--hypothesis-profile`` would not reach them: the runs were three times slower and
    not derandomized. The spec sets no per-test settings, so nothing is lost. The attributes
    are Hypothesis's own; if they change, this says so rather than quietly doing nothing.
    """
    spec_dir = REPO_ROOT / "spec"
    modules = [module for module in list(sys.modules.values())
               if Path(getattr(module, "__file__", None) or "/").parent == spec_dir
               and module.__name__.rpartition(".")[2].startswith("test_")]
    bound = [test for module in modules for test in vars(module).values()
             if getattr(test, "is_hypothesis_test", False)]
    assert bound or not modules, "no Hypothesis test found in the imported spec modules: has Hypothesis changed?"
    before = [test._hypothesis_internal_use_settings for test in bound]
    for test in bound:
        test._hypothesis_internal_use_settings = profile
    try:
        yield
    finally:
        for test, own in zip(bound, before):
            test._hypothesis_internal_use_settings = own


@pytest.fixture(scope="session")
def spec_tests(tmp_path_factory) -> dict[str, dict]:
    """Every collected spec test with its level and claims (collected once per session)."""
    listing = tmp_path_factory.mktemp("listing") / "tests.json"
    assert nested_pytest(["spec"], "--collect-only", "--bpe-list-tests", str(listing)) == 0
    return json.loads(listing.read_text(encoding="utf-8"))


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
