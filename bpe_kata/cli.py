"""The ``bpe-kata`` command: one table of subcommands, each a function ``(argv) -> exit status``.

A subcommand's module is imported only when it runs, so ``bpe-kata new`` never pays for pytest,
and a tool's optional extra (rich, matplotlib, mutmut) is needed only by the tool that uses it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import NoReturn


@dataclass(frozen=True)
class Command:
    """A subcommand: where its function lives ("module:function"), and its lines of the usage."""

    target: str
    usage: tuple[str, ...] = ()  # none: not listed (an internal command)

    def function(self) -> Callable[[list[str]], int]:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)


COMMANDS: dict[str, Command] = {
    "check": Command("bpe_kata.spec_commands:check", (
        "check [IMPL] [pytest options...]   run the spec against IMPL (default: reference)",)),
    "gate": Command("bpe_kata.spec_commands:gate", (
        "gate IMPL [--expect FILE] [...]     the CI gate: IMPL isolated in a child process, strict",)),
    "new": Command("bpe_kata.learner:new_command", (
        "new NAME [--shape cs336|minbpe|map] copy the starter to solutions/NAME (or one in a course's shape)",)),
    "claims": Command("bpe_kata.learner:claims_command", (
        "claims [--level L] [--kind K]       list the claims the spec checks",)),
    "data": Command("bpe_kata.learner:data_command", (
        "data [where|fetch]                  find or download the corpora",
        "data import FILE                    file a hand-downloaded pg11.txt or tiny Shakespeare")),
    "words-budget": Command("bpe_kata.learner:words_budget_command", (
        "words-budget [IMPL]                 print the word-level merge-budget table of IMPL",)),
    "show": Command("bpe_kata.tools.inspect_commands:show", (
        "show TEXT [--impl X] [--table T]    TEXT cut into tokens, ids beneath (--compare IMPL2)",)),
    "trace": Command("bpe_kata.tools.inspect_commands:trace", (
        "trace CORPUS --vocab N [--impl X]   training merge by merge, with counts",)),
    "curve": Command("bpe_kata.tools.inspect_commands:curve", (
        "curve CORPUS [--vocab 256..4096]    bytes per token against vocabulary size (--out PNG)",)),
    "verify-report": Command("bpe_kata.spec_commands:verify_report", (
        "verify-report FILE [--suite-sha256 X]  re-check a gate report against the installed suite",)),
    "grade": Command("bpe_kata.tools.batch_commands:grade", (
        "grade SUBMISSIONS... [-- OPTIONS]   a class table: the spec on each, in parallel, isolated",)),
    "mutate": Command("bpe_kata.mutation.mutate:main", (
        "mutate [--gate] [mutmut options...]  mutation-test the reference against the spec (dev extra)",)),
    "matrix": Command("bpe_kata.tools.batch_commands:matrix", (
        "matrix [--html F] [--json F]        the gate on every installed BPE library (matrix extra)",)),
    "diff": Command("bpe_kata.tools.diff:main", (
        "diff A B [--budget S] [--seed N]    differential testing of two tokenizers (--json, --save-case F)",)),
    "merge": Command("bpe_kata.merge:main", (
        "merge OUT IN...                     join --shard K/N outputs of grade, mutate or matrix into one",)),
    "summary": Command("bpe_kata.tools.ci_summary:main", (
        "summary REPORT [--markdown F] [--badge F]  a report as a CI job summary and a shields.io badge",)),
    "results": Command("bpe_kata.tools.results_command:main", (
        "results FORMAT --from REPORT [-o F] a report as gradescope, classroom, junit-per-level or exercism",)),
    "autograder": Command("bpe_kata.tools.gradescope_kit:main", (
        "autograder gradescope DIR           write a ready Gradescope autograder (setup.sh, run_autograder)",)),
    "_graded": Command("bpe_kata.spec_commands:graded"),  # one submission of `grade`, under its supervisor
}

USAGE = "\n       ".join(f"bpe-kata {line}" for command in COMMANDS.values() for line in command.usage)


#: The commands whose verdict must not depend on the working folder or the environment: they run as a
#: trusted start (bpe_kata/gate/trusted_start.py) from their first line on.
TRUSTED_COMMANDS = frozenset({"gate", "grade", "verify-report", "matrix", "_graded"})


def version() -> str:
    """The installed distribution's version (pyproject.toml's, through the package metadata)."""
    try:
        return metadata.version("bpe-kata")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print("usage: " + USAGE)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"bpe-kata {version()}")
        return 0
    command = COMMANDS.get(argv[0])
    if command is None:
        print(f"bpe-kata: unknown command {argv[0]!r}\nusage: {USAGE}", file=sys.stderr)
        return 2
    return command.function()(argv[1:])


def run() -> NoReturn:
    """The ``bpe-kata`` console script: ``main``, then the process ends without tearing the interpreter
    down (bpe_kata/run/quick_exit.py). ``main`` itself returns, for callers in a process that goes on."""
    argv = sys.argv[1:]
    if argv and argv[0] in TRUSTED_COMMANDS:
        from bpe_kata.gate import trusted_start

        if not trusted_start.started_trusted():
            from bpe_kata.gate.run_options import private_pycache

            trusted_start.become_trusted("bpe_kata.cli", argv, private_pycache())
    from bpe_kata.run import quick_exit

    quick_exit.command_ends_process = True
    try:
        status = main()
    except BrokenPipeError:  # the reader went away (``bpe-kata --help | head``): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    quick_exit.end_command(status)


if __name__ == "__main__":
    run()
