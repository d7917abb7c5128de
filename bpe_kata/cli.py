"""The ``bpe-kata`` command: start a solution, check an implementation, list claims, get corpora, mutate."""

from __future__ import annotations

import argparse
import keyword
import shutil
import sys
from pathlib import Path

import spec
from bpe_kata.data import corpora
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

SPEC_DIR = Path(spec.__file__).resolve().parent
PROJECT_ROOT = SPEC_DIR.parent
STARTER = PROJECT_ROOT / "solutions" / "starter"

USAGE = """bpe-kata check [IMPL] [pytest options...]   run the spec against IMPL (default: reference)
       bpe-kata gate IMPL [--expect FILE] [...]     the CI gate: IMPL isolated in a child process, strict
       bpe-kata new NAME                            copy the starter to solutions/NAME
       bpe-kata claims [--level L] [--kind K]       list the claims the spec checks
       bpe-kata data [where|fetch]                  find or download the corpora
       bpe-kata data import FILE                    file a hand-downloaded pg11.txt or tiny Shakespeare
       bpe-kata words-budget [IMPL]                 print the word-level merge-budget table of IMPL
       bpe-kata show TEXT [--impl X] [--table T]    TEXT cut into tokens, ids beneath (--compare IMPL2)
       bpe-kata trace CORPUS --vocab N [--impl X]   training merge by merge, with counts
       bpe-kata curve CORPUS [--vocab 256..4096]    bytes per token against vocabulary size (--out PNG)
       bpe-kata verify-report FILE [--suite-sha256 X]  re-check a gate report against the installed suite
       bpe-kata grade SUBMISSIONS... [-- OPTIONS]   a class table: the spec on each, in parallel, isolated
       bpe-kata mutate [--gate] [mutmut options...]  mutation-test the reference against the spec (dev extra)
       bpe-kata matrix [--html F] [--json F]        the gate on every installed BPE library (matrix extra)"""


def check(argv: list[str]) -> int:
    """Run pytest on the spec; everything after IMPL goes to pytest unchanged."""
    import pytest

    impl_args: list[str] = []
    if argv and not argv[0].startswith("-"):
        impl_args = ["--impl", argv[0]]
        argv = argv[1:]
    if any(arg in ("-h", "--help") for arg in argv):
        print("usage: bpe-kata check [IMPL] [pytest options...]\n"
              "IMPL: a dotted module name (solutions.mine), a package folder or a .py file.\n"
              "Useful options: --level NAME, --claim ID, --require-data, --bpe-report FILE, --bpe-html FILE, -x, -q\n"
              "All pytest options are accepted; see `pytest --help` (section bpe-kata).")
        return 0
    return int(pytest.main([str(SPEC_DIR), "-p", "bpe_kata.plugin", *_safety_net(argv), *impl_args, *argv]))


#: In-process runs have no per-call limit; a test that hangs fails after this many seconds
#: (pytest-timeout) rather than stopping the run.
IN_PROCESS_TEST_TIMEOUT = "600"


def _safety_net(argv: list[str]) -> list[str]:
    """pytest-timeout named by its entry point ("timeout"), not its module: outside this repository
    pytest autoloads it under that name, and a second name for one plugin is an error."""
    given = any(arg == "--timeout" or arg.startswith("--timeout=") for arg in argv)
    return ["-p", "timeout"] + ([] if given else ["--timeout", IN_PROCESS_TEST_TIMEOUT])


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
--time-budget: total seconds of child time (default 1500); --wall-limit: the run's (default 3600).
bpe-kata verify-report FILE [--suite-sha256 X] re-checks a report. See docs/GATE.md."""


def gate(argv: list[str]) -> int:
    """Run the spec as a CI gate: isolated, strict about levels and data, expectations allowed."""
    import pytest

    if any(arg in ("-h", "--help") for arg in argv):
        print(GATE_HELP)
        return 0
    if argv and not argv[0].startswith("-"):
        argv = ["--impl", argv[0], *argv[1:]]
    if "--impl" not in argv and not any(arg.startswith("--impl=") for arg in argv):
        print("bpe-kata gate: name the implementation: bpe-kata gate IMPL (see --help)", file=sys.stderr)
        return 2
    from bpe_kata.child.supervisor import Supervisor

    return Supervisor([str(SPEC_DIR), "-p", "bpe_kata.plugin", *_safety_net(argv), *GATE_OPTIONS, *argv]).run()


def graded(argv: list[str]) -> int:
    """One submission of ``bpe-kata grade`` under its own supervisor (bpe_kata.child.supervisor.graded)."""
    from bpe_kata.child.supervisor import graded as supervised

    return supervised(argv)


def verify_report(argv: list[str]) -> int:
    from bpe_kata.child.supervisor import suite_sha256, verify_report as verify

    parser = argparse.ArgumentParser(prog="bpe-kata verify-report", description=(
        "Re-check a gate's JSON report: the suite it names is the suite installed here (and the pinned one), "
        "unchanged during the run, the run sandboxed and green."))
    parser.add_argument("report")
    parser.add_argument("--suite-sha256", default=None, help="the suite's SHA-256 your CI pins")
    parser.add_argument("--allow-unsandboxed", action="store_true", help="accept a run marked NOT SANDBOXED")
    options = parser.parse_args(argv)
    problems = verify(options.report, options.suite_sha256, options.allow_unsandboxed)
    for problem in problems:
        print(f"bpe-kata verify-report: {problem}", file=sys.stderr)
    if not problems:
        print(f"{options.report}: verified (suite sha256 {suite_sha256()})")
    return 1 if problems else 0


#: What makes a run a gate: the implementation isolated, levels and data required.
GATE_OPTIONS = ("--isolated", "--strict-levels", "--require-data")


def new(name: str, root: Path = PROJECT_ROOT) -> int:
    """Copy the starter to ``solutions/NAME``, refusing to overwrite anything."""
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__") or name == "starter":
        print(f"bpe-kata new: {name!r} is not a usable name: use a Python identifier other than "
              "'starter' (letters, digits, underscores; not starting with a digit), e.g. `bpe-kata new mine`.",
              file=sys.stderr)
        return 2
    starter, target = root / "solutions" / "starter", root / "solutions" / name
    if not starter.is_dir():
        print(f"bpe-kata new: the starter is missing at {starter}; run this from a clone of bpe-kata.", file=sys.stderr)
        return 2
    if target.exists():
        print(f"bpe-kata new: {target} already exists; nothing was changed. Pick another name or delete it first.",
              file=sys.stderr)
        return 1
    staging = target.with_name(f".{name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        shutil.copytree(starter, staging, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        staging.rename(target)  # all or nothing: never a half-copied solution
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    relative = target.relative_to(Path.cwd()) if target.is_relative_to(Path.cwd()) else target
    print(f"created {relative}/__init__.py: the functions to write, level by level, each with its contract.\n"
          f"next: bpe-kata check solutions.{name}          (every level starts 'not started')\n"
          f"      bpe-kata check solutions.{name} --level pairs   (climb one level at a time)")
    return 0


def claims(level: str | None, kind: str | None) -> int:
    ledger = load_claims()
    if level and level not in ALL_LEVEL_NAMES:
        print(f"bpe-kata claims: unknown level {level!r}; the levels are {', '.join(ALL_LEVEL_NAMES)}", file=sys.stderr)
        return 2
    for claim in ledger.values():
        if (level is None or claim.level == level) and (kind is None or claim.kind == kind):
            print(f"{claim.id:<34} {claim.level:<10} {claim.kind:<11} {claim.statement}")
    return 0


def import_data(path: str) -> int:
    """``bpe-kata data import FILE``: cut, check and cache a corpus downloaded by hand."""
    try:
        corpus, target = corpora.import_file(Path(path))
    except corpora.CorpusUnavailable as error:
        print(f"bpe-kata data import: {error}", file=sys.stderr)
        return 1
    print(f"{corpus.name}: {target} (SHA-256 checked)")
    return 0


def data(action: str) -> int:
    finder = corpora.CorpusFinder()
    status = 0
    for name, corpus in corpora.CORPORA.items():
        try:
            path = finder.path(name) if action == "fetch" else next(
                (p for p in finder.candidates(corpus) if p.is_file()), None)
        except corpora.CorpusUnavailable as error:
            print(f"{name}: unavailable: {error}", file=sys.stderr)
            status = 1
            continue
        print(f"{name}: {path or 'not found (run `bpe-kata data fetch`)'}")
    return status


def words_budget(value: str | None) -> int:
    """Print the toy corpus's merge-budget table as IMPL's train_words and segment_word give it."""
    from spec import toy_words
    from bpe_kata.run.loader import DEFAULT_IMPL, ImplementationNotFound, load_implementation

    try:
        impl = load_implementation(value or DEFAULT_IMPL)
        rows = [toy_words.budget_row(impl, budget) for budget in toy_words.BUDGETS]
    except ImplementationNotFound as error:
        print(f"bpe-kata words-budget: {error}", file=sys.stderr)
        return 2
    except (AttributeError, NotImplementedError, TypeError) as error:
        print(f"bpe-kata words-budget: {value or DEFAULT_IMPL} cannot train words yet "
              f"(level words needs train_words and segment_word): {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"merge budgets on the word-level toy corpus ({len(toy_words.TOY_CORPUS.split())} words), "
          f"implementation {value or DEFAULT_IMPL}:")
    print("\n".join(toy_words.render(rows)))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print("usage: " + USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "check":
        return check(rest)
    if command == "gate":
        return gate(rest)
    if command == "_graded":
        return graded(rest)
    if command == "verify-report":
        return verify_report(rest)
    if command == "new":
        if len(rest) != 1:
            print("usage: bpe-kata new NAME", file=sys.stderr)
            return 2
        here = Path.cwd()
        if (here / "solutions" / "starter").is_dir():
            return new(rest[0], here)
        if (PROJECT_ROOT / "pyproject.toml").is_file():  # an editable install: the clone itself
            return new(rest[0], PROJECT_ROOT)
        print("bpe-kata new: run this from a clone of bpe-kata (a folder with solutions/starter); "
              "an installed copy has no place for your solution.", file=sys.stderr)
        return 2
    if command == "claims":
        parser = argparse.ArgumentParser(prog="bpe-kata claims")
        parser.add_argument("--level")
        parser.add_argument("--kind", choices=("contract", "fact", "informative"))
        options = parser.parse_args(rest)
        return claims(options.level, options.kind)
    if command == "data":
        parser = argparse.ArgumentParser(prog="bpe-kata data")
        parser.add_argument("action", nargs="?", default="where", choices=("where", "fetch", "import"))
        parser.add_argument("file", nargs="?", help="for import: pg11.txt (Alice, Project Gutenberg) or tiny Shakespeare")
        options = parser.parse_args(rest)
        if options.action == "import":
            if not options.file:
                parser.error("import needs the FILE to import")
            return import_data(options.file)
        if options.file:
            parser.error(f"{options.action} takes no FILE")
        return data(options.action)
    if command == "words-budget":
        if len(rest) > 1:
            print("usage: bpe-kata words-budget [IMPL]", file=sys.stderr)
            return 2
        return words_budget(rest[0] if rest else None)
    if command in ("show", "trace", "curve", "grade", "matrix"):
        from bpe_kata.tools.commands import run

        return run(command, rest)
    if command == "mutate":
        from bpe_kata.mutation import mutate as mutation
        return mutation.main(rest)
    print(f"bpe-kata: unknown command {command!r}\nusage: {USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
