"""The commands that run the spec: ``check`` (in process, for a learner), ``gate`` (isolated, strict,
under a supervisor, for CI), one graded submission, and ``verify-report``.

Each is ``(argv) -> exit status``; bpe_kata/cli.py holds the one table of subcommands.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bpe_kata.run.spec_command import spec_run


def check(argv: list[str]) -> int:
    """Run pytest on the spec; everything after IMPL goes to pytest unchanged."""
    import pytest

    impl_args: list[str] = []
    if argv and not argv[0].startswith("-"):
        impl_args = ["--impl", argv[0]]
        argv = argv[1:]
    if any(arg in ("-h", "--help") for arg in argv):
        print("usage: bpe-kata check [IMPL] [pytest options...]\n"
              "IMPL: a dotted module name (solutions.mine), a package folder or a .py file;\n"
              "      cs336:PATH or minbpe:PATH (docs/COURSES.md); notebook:PATH.ipynb (a notebook's definitions).\n"
              "Useful options: --level NAME, --claim ID, --require-data, --bpe-report FILE, --bpe-html FILE, -x, -q\n"
              "All pytest options are accepted; see `pytest --help` (section bpe-kata).")
        return 0
    if _not_found("check", impl_args):
        return 2
    _bytecode_elsewhere()
    _stop_as_ctrl_c()
    return int(pytest.main(spec_run("check", [*impl_args, *argv])))


def _stop_as_ctrl_c() -> None:
    """A SIGTERM (``timeout``'s, a CI job's limit) ends the run as Ctrl-C does: the levels that finished are printed
    and the report is written, marked incomplete, where the process used to die with nothing said (eighth round: a
    member whose every training started a pool of 32 processes was killed at 1,500 s and left no verdict at all).
    Processes the implementation forks keep the default (bpe_kata/run/stop_signal.py)."""
    from bpe_kata.run import stop_signal

    stop_signal.stop_as_ctrl_c()


def _not_found(command: str, argv: list[str]) -> bool:
    """Print one line and say so when ``--impl`` names nothing (bpe_kata/run/impl_check.py)."""
    from bpe_kata.run import impl_check

    value = impl_check.impl_value(argv)
    why = impl_check.problem(value) if value is not None else None
    if why is not None:
        print(f"bpe-kata {command}: {why}", file=sys.stderr)
    return why is not None


def _bytecode_elsewhere() -> None:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set, keep the bytecode in a cache folder instead
    (``PYTHONPYCACHEPREFIX``, under the user cache), as ``gate`` does for its verdict process.

    Without it every process of a run, each pytest-xdist worker included, compiles the suite and
    rewrites the spec's asserts again on every run (about 0.4 CPU-s each); with it nothing is
    written beside the sources either, which is what the setting asks. A prefix already chosen is kept.
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    from bpe_kata.data.corpora import user_cache_dir

    prefix = str(user_cache_dir() / "pycache")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = prefix  # the workers pytest-xdist starts inherit both
    sys.dont_write_bytecode, sys.pycache_prefix = False, prefix


GATE_HELP = """usage: bpe-kata gate IMPL [--expect FILE] [--strict-expect] [--write-expect FILE] [--require-sandbox]
                      [--time-budget SECONDS] [--wall-limit SECONDS] [pytest options...]
IMPL: a Python implementation (dotted name, package folder or .py file), run through
      python -m bpe_kata.child.server, or cmd:"PROGRAM ARGS" for any program speaking docs/PROTOCOL.md
      (also accepted as --impl IMPL). The implementation always runs in a child process.
A level that is not started fails, corpora and published tables are required, and the
exit status is 0 only for a complete run with no unexpected failure. The implementation runs
sandboxed (Landlock, namespaces, no capabilities: whatever the machine has; "NOT SANDBOXED" is
printed where it has none, and --require-sandbox then refuses to run). The reports are written in
a private directory and copied out after every process the run started is dead.
--time-budget: total seconds of child time (default {budget:g}); --wall-limit: the run's (default {wall:g}).
The gate prints the report's digest ("bpe-kata: report sha256 HEX FILE"): pin it.
bpe-kata verify-report FILE [--sha256 HEX] [--suite-sha256 X] [--expect FILE] re-checks a report, its verdict
derived again from its per-test records. See docs/GATE.md."""


def gate(argv: list[str]) -> int:
    """Run the spec as a CI gate: isolated, strict about levels and data, expectations allowed."""

    if any(arg in ("-h", "--help") for arg in argv):
        from bpe_kata.gate.run_options import DEFAULT_TIME_BUDGET, DEFAULT_WALL_LIMIT

        print(GATE_HELP.format(budget=DEFAULT_TIME_BUDGET, wall=DEFAULT_WALL_LIMIT))
        return 0
    if argv and not argv[0].startswith("-"):
        argv = ["--impl", argv[0], *argv[1:]]
    if "--impl" not in argv and not any(arg.startswith("--impl=") for arg in argv):
        print("bpe-kata gate: name the implementation: bpe-kata gate IMPL (see --help)", file=sys.stderr)
        return 2
    if _not_found("gate", argv):
        return 2
    from bpe_kata.gate.supervisor import Supervisor

    return Supervisor(spec_run("gate", argv)).run()


def graded(argv: list[str]) -> int:
    """One submission of ``bpe-kata grade`` under its own supervisor (bpe_kata.gate.supervisor.graded)."""
    from bpe_kata.gate.supervisor import graded as supervised

    return supervised(argv)


def verify_report(argv: list[str]) -> int:
    from bpe_kata.gate.suite import suite_sha256
    from bpe_kata.gate.suite import verify_report as verify

    parser = argparse.ArgumentParser(prog="bpe-kata verify-report", description=(
        "Re-check a gate's JSON report: its digest (--sha256), the suite it names is the suite installed here "
        "(and the pinned one), unchanged during the run, the run sandboxed, its verdict derived again from its "
        "per-test records (with --expect, the run's expectations file), and green."))
    parser.add_argument("report")
    parser.add_argument("--suite-sha256", default=None, help="the suite's SHA-256 your CI pins")
    parser.add_argument("--allow-unsandboxed", action="store_true", help="accept a run marked NOT SANDBOXED")
    parser.add_argument("--expect", default=None, metavar="FILE",
                        help="the expectations file the run used (its sha256 is in the report)")
    parser.add_argument("--sha256", default=None, metavar="HEX",
                        help="the report file's own SHA-256, as the gate printed it ('bpe-kata: report sha256 ...')")
    parser.add_argument("--partial", action="store_true",
                        help="accept a run that judged part of the spec (--level, --claim, -k, -m, spec paths)")
    parser.add_argument("--allow-visible", action="store_true",
                        help="accept a run whose child could read the suite's own implementations (gate reference)")
    parser.add_argument("--no-expected", action="store_true",
                        help="refuse a run whose expectations file excused any failure")
    options = parser.parse_args(argv)
    problems = verify(options.report, options.suite_sha256, options.allow_unsandboxed, expect=options.expect,
                      report_sha256=options.sha256, partial=options.partial, allow_visible=options.allow_visible,
                      no_expected=options.no_expected)
    for problem in problems:
        print(f"bpe-kata verify-report: {problem}", file=sys.stderr)
    if not problems:
        print(f"{options.report}: verified (suite sha256 {suite_sha256()})" + (" for the part of the spec it judged"
                                                                            if options.partial else "")
              + _excused(options.report))
    return 1 if problems else 0


def _excused(report: str) -> str:
    """What the expectations file excused, said beside "verified": green with excuses is not green without."""
    import json

    expected = (json.loads(Path(report).read_text(encoding="utf-8")).get("expectations") or {}).get(
        "expected_failures") or {}
    return (f"; {len(expected)} failures excused by the expectations file (--no-expected refuses them)"
            if expected else "")
