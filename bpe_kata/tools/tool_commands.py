"""The tools' subcommands (``bpe-kata show|trace|curve|grade|matrix``): argument parsing and output only.

Each is ``(argv) -> exit status`` (bpe_kata/cli.py holds the one table of subcommands); ``@tool`` turns
a tool's ``Stop``, a missing extra or a closed pipe into its message and exit status.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from bpe_kata.impl.loader import DEFAULT_IMPL
from bpe_kata.tools.extras import MissingExtra, require
from bpe_kata.tools.tables import TableError

DEFAULT_TABLE = "tinyshakespeare:512"


class Stop(Exception):
    """End the command with this message and exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def tool(function: Callable[[list[str]], int]) -> Callable[[list[str]], int]:
    """A tool as the command line runs it: a ``Stop`` or a missing extra becomes its message and exit
    status; a closed pipe (``| head``: the reader has all it wanted) ends it quietly."""
    @functools.wraps(function)
    def command(argv: list[str]) -> int:
        try:
            return function(argv)
        finally:
            _close_children()
    return with_messages(command, function.__name__)


#: Children the running command connected (a ``cmd:`` implementation): closed when the command ends, so a
#: command called in-process (the suite's tests, another tool) leaves no child behind.
_CHILDREN: list = []


def _close_children() -> None:
    while _CHILDREN:
        _CHILDREN.pop().close()


def with_messages(command: Callable[[list[str]], int], name: str) -> Callable[[list[str]], int]:
    """``Stop``, a missing extra and a closed pipe as the command line shows them."""
    @functools.wraps(command)
    def messages(argv: list[str]) -> int:
        try:
            return command(argv)
        except Stop as stop:
            print(f"bpe-kata {name}: {stop}", file=sys.stderr)
            return stop.status
        except MissingExtra as error:
            print(str(error), file=sys.stderr)
            return 2
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0

    return messages


def _impl(value: str | None):
    """The implementation by the plugin's route (bpe_kata/child/launch.py): a ``cmd:`` one connected, and
    closed when the command ends."""
    from bpe_kata.child import launch
    from bpe_kata.child.client import IsolatedImplementation, IsolationFault
    from bpe_kata.impl.loader import ImplementationNotFound

    if os.getcwd() not in sys.path:  # as `python -m` and `bpe-kata check` do: solutions.mine from a clone
        sys.path.insert(0, os.getcwd())
    value = value or DEFAULT_IMPL
    try:
        implementation = launch.start(value, cwd=os.getcwd())
        if isinstance(implementation, IsolatedImplementation):
            _CHILDREN.append(implementation)
            implementation.connect()
    except ImplementationNotFound as error:
        raise Stop(str(error), 2) from None
    except (ValueError, IsolationFault) as error:
        raise Stop(f"--impl {value}: {error}", 2) from None
    return implementation


def _call(what: str, impl_name: str, function, *args, **kwargs):
    """Call the implementation; a function still raising NotImplementedError means its level is not started."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError:
        raise Stop(f"{impl_name}: {what} is not started yet (it raises NotImplementedError); "
                   f"write it, then `bpe-kata check {impl_name}` shows its level") from None
    except TableError as error:
        raise Stop(str(error), 2) from None


def _console(plain: bool, command: str):
    """A rich console for a terminal, or None for plain text (pipes, CI logs, --plain)."""
    if plain or not sys.stdout.isatty():
        return None
    return require("rich.console", command).Console()


@tool
def show(argv: list[str]) -> int:
    from bpe_kata.tools import show as drawing
    from bpe_kata.tools.tables import resolve

    parser = argparse.ArgumentParser(prog="bpe-kata show", description=(
        "Cut TEXT into tokens: boundaries in alternating colours (| in plain text), each token's id beneath; "
        "bytes that are part of a character are shown as hex, spaces as ␣."))
    parser.add_argument("text")
    parser.add_argument("--impl", default=None, help="the implementation that encodes (default: reference)")
    parser.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="T",
        help="CORPUS:VOCAB to train on the fly (tinyshakespeare, alice or a file), a saved bpe-kata v1 "
        f"file, or gpt2 / cl100k_base (default: {DEFAULT_TABLE}); give it twice to compare two tables",
    )
    parser.add_argument("--train", metavar="CORPUS:VOCAB", help="the same as --table CORPUS:VOCAB")
    parser.add_argument("--compare", metavar="IMPL2", help="a second implementation, shown beneath, differences marked")
    parser.add_argument("--plain", action="store_true", help="plain text even on a terminal")
    options = parser.parse_args(argv)
    tables = ([f"train:{options.train}"] if options.train else []) + options.table or [DEFAULT_TABLE]
    if len(tables) > 2 or (len(tables) == 2 and options.compare):
        raise Stop("show compares two tokenizations: two tables, or one table and --compare IMPL2", 2)
    impl_name = options.impl or DEFAULT_IMPL
    impl = _impl(options.impl)
    table = _call("train" if ":" in tables[0] else "load", impl_name, resolve, impl, tables[0])
    rows = [_call("encode", impl_name, drawing.build_row, impl, impl_name, table, options.text)]
    if options.compare:
        other = _impl(options.compare)
        rows.append(_call("encode", options.compare, drawing.build_row, other, options.compare, table, options.text))
    elif len(tables) == 2:
        second = _call("train" if ":" in tables[1] else "load", impl_name, resolve, impl, tables[1])
        rows.append(_call("encode", impl_name, drawing.build_row, impl, impl_name, second, options.text))
    if len(rows) == 2:
        drawing.compare_rows(*rows)
    console = _console(options.plain, "show")
    if console is None:
        print("\n".join(drawing.render_plain(rows)))
    else:
        drawing.render_rich(rows, console)
    if len(rows) == 2:
        same = not any(rows[0].differs) and not any(rows[1].differs)
        marker = "^ marks" if console is None else "red marks"
        print("the two tokenizations are the same" if same else f"{marker} tokens the other tokenization does not have")
    return 0


@tool
def trace(argv: list[str]) -> int:
    from bpe_kata.tools.tables import corpus_text
    from bpe_kata.tools.trace import replay_steps

    parser = argparse.ArgumentParser(prog="bpe-kata trace", description=(
        "Training, merge by merge. An implementation's train is one call, so the trace replays the merges it "
        "returned over the same corpus, in order, and shows each pair's count just before its merge and the "
        "bytes per token so far."))
    parser.add_argument("corpus", help="tinyshakespeare, alice, or a text file")
    parser.add_argument("--vocab", type=int, required=True, help="vocab_size to train to (256 + number of merges)")
    parser.add_argument("--impl", default=None)
    parser.add_argument("--every", type=int, default=1, metavar="K", help="print every K-th merge (and the last)")
    parser.add_argument("--json", action="store_true", help="one JSON object per merge (JSON Lines)")
    parser.add_argument("--plain", action="store_true", help="no progress bar even on a terminal")
    options = parser.parse_args(argv)
    impl_name = options.impl or DEFAULT_IMPL
    impl = _impl(options.impl)
    text = _call("train", impl_name, corpus_text, options.corpus)
    merges = _call("train", impl_name, impl.train, text, options.vocab)
    every = max(options.every, 1)
    broken: list[str] = []
    steps = replay_steps(text, dict(merges), broken)
    total = len(merges)
    console = None if options.json else _console(options.plain, "trace")
    if not options.json:
        print(
            f"{impl_name}: {total} merges on {options.corpus} ({len(text.encode('utf-8', 'surrogatepass')):,} bytes), "
            "replayed over the corpus in training order"
        )
    if console is None:
        for step in steps:
            if step.number % every == 0 or step.number == total:
                print(json.dumps(step.as_json(), ensure_ascii=False) if options.json else step.line(), flush=True)
        return _said_broken(impl_name, broken)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("merging"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[ratio]} bytes/token"), console=console, transient=True) as progress:
        task = progress.add_task("trace", total=total, ratio="1.00")
        for step in steps:
            if step.number % every == 0 or step.number == total:
                progress.console.print(step.line(), highlight=False, markup=False)
            progress.update(task, advance=1, ratio=f"{step.bytes_per_token:.2f}")
    return _said_broken(impl_name, broken)


def _said_broken(impl_name: str, broken: list[str]) -> int:
    """After a trace: 1, with what is wrong, when the table train returned is broken (each merge must join two ids
    that exist before it); else 0."""
    for problem in broken[:5]:
        print(f"bpe-kata trace: the table {impl_name}'s train returned is broken: {problem}", file=sys.stderr)
    if len(broken) > 5:
        print(f"bpe-kata trace: ... and {len(broken) - 5} more problems in that table", file=sys.stderr)
    return 1 if broken else 0


@tool
def curve(argv: list[str]) -> int:
    from bpe_kata.tools import curve as curves
    from bpe_kata.tools.tables import corpus_text

    parser = argparse.ArgumentParser(prog="bpe-kata curve", description=(
        "Bytes per token against vocabulary size: trains once at the largest size and replays each prefix of "
        "the table over the corpus; the document's Alice figures are drawn beside it."))
    parser.add_argument("corpus", help="tinyshakespeare, alice, or a text file")
    parser.add_argument("--impl", default=None)
    parser.add_argument(
        "--vocab", default="256..4096", help="LOW..HIGH (doubling) or a list 300,400,512 (default 256..4096)"
    )
    parser.add_argument("--out", type=Path, help="also draw the curve to this PNG or SVG file (needs the tools extra)")
    parser.add_argument("--json", action="store_true", help="the points as JSON")
    options = parser.parse_args(argv)
    try:
        sizes = curves.parse_sizes(options.vocab)
    except ValueError as error:
        raise Stop(str(error), 2) from None
    impl_name = options.impl or DEFAULT_IMPL
    impl = _impl(options.impl)
    text = _call("train", impl_name, corpus_text, options.corpus)
    merges = _call("train", impl_name, impl.train, text, sizes[-1])
    points = curves.measure(text, dict(merges), sizes)
    reference = curves.reference_points()
    if options.json:
        print(json.dumps([p.__dict__ for p in points]))
    else:
        print(f"{impl_name} on {options.corpus}:")
        print("\n".join(curves.terminal_chart(points, reference)))
    if options.out:
        written = curves.plot(points, reference, f"{impl_name} on {Path(options.corpus).name}", options.out)
        print(f"wrote {written}", file=sys.stderr if options.json else sys.stdout)
    return 0


def _split_passthrough(argv: list[str]) -> tuple[list[str], list[str]]:
    """The command's own options, and those after ``--`` that go to every spec run."""
    if "--" not in argv:
        return argv, []
    at = argv.index("--")
    return argv[:at], argv[at + 1:]


@tool
def grade(argv: list[str]) -> int:
    from bpe_kata.tools import grade as grading
    from bpe_kata.tools import grade_table

    argv, passthrough = _split_passthrough(argv)
    parser = argparse.ArgumentParser(prog="bpe-kata grade", description=(
        "Run the spec on each submission (a folder, .py file, module name or cmd:COMMAND) in its own child process, "
        "in parallel, with a time limit each; print the class table. Options after -- go to every run, "
        "e.g. -- --level train -m 'not corpus'."))
    parser.add_argument("submissions", nargs="+")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per submission (default 300)")
    parser.add_argument("--jobs", type=int, default=None, help="submissions run at once (default: the cores)")
    parser.add_argument("--csv", type=Path, help="also write the table as CSV")
    parser.add_argument("--html", type=Path, help="also write the table as a standalone HTML page")
    parser.add_argument("--reports", type=Path, metavar="DIR",
                        help="keep each submission's JSON and HTML report in DIR (the --html page links them)")
    parser.add_argument("--expect", type=Path, help="an expectations file, passed to every run")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--allow-unsandboxed", action="store_true", help=(
        "grade even where no sandbox layer is available (the default refuses: a submission could then "
        "rewrite reports, the suite or other rows)"))
    parser.add_argument("--json", type=Path, help=(
        "also write the table as JSON (bpe_kata/schemas/grade.schema.json; what `bpe-kata merge` joins)"))
    parser.add_argument("--shard", metavar="K/N", help=(
        "grade only shard K of N, dealt by cost so the shards end together; with --json, its part for "
        "`bpe-kata merge` (docs/SCALE.md)"))
    parser.add_argument("--costs", type=Path, metavar="FILE",
                        help="an earlier --json table: --shard deals by its seconds (default: by source size)")
    parser.add_argument("--allow-libraries", nargs="?", const="*", default="", metavar="NAME,...", help=(
        "do not flag imports of libraries (all of them, or those named): by default a submission that "
        "imports anything but the standard library, its own modules and a few helpers is flagged"))
    options = parser.parse_args(argv)
    unusable = grading.unusable_names(options.submissions)
    if unusable:
        from bpe_kata.tools.shipped import shown

        raise Stop("these names are not valid UTF-8, so no report or table could name them: "
                   f"{', '.join(map(shown, unusable))}; rename them (e.g. with mv) and run again", 2)
    allowed = None if options.allow_libraries == "*" else [n for n in options.allow_libraries.split(",") if n]
    head = None
    if options.shard:
        from bpe_kata.tools import grade_json
        from bpe_kata.tools import shard as sharding

        try:
            shard = sharding.parse(options.shard)
            taken = sharding.select(grade_json.costs(options.submissions, options.costs), shard)
        except sharding.ShardError as error:
            raise Stop(str(error), 2) from None
        head = grade_json.shard_header(options.submissions, shard, taken)
        print(f"bpe-kata grade: shard {shard}: {len(taken)} of {len(head['order'])} submissions", file=sys.stderr)
        options.submissions = taken
    if options.expect:
        passthrough += ["--expect", str(options.expect)]
    if options.allow_unsandboxed:
        passthrough += ["--allow-unsandboxed"]
    outcomes = grading.grade(options.submissions, passthrough, options.timeout, options.jobs, options.reports,
                             allowed_libraries=allowed)
    console = _console(options.plain, "grade")
    if console is None:
        print("\n".join(grade_table.render_plain(outcomes)))
    else:
        grade_table.render_rich(outcomes, console)
    if options.csv:
        grade_table.write_csv(options.csv, outcomes)
    if options.html:
        page = options.html.expanduser().resolve()
        page.write_text(grade_table.class_page(outcomes, page.parent), encoding="utf-8")
    if options.json:
        from bpe_kata.tools import grade_json

        grade_json.write(options.json, outcomes, head)
    return 0 if all(o.accepted for o in outcomes) else 1  # a flagged row is not accepted, green or not


@tool
def matrix(argv: list[str]) -> int:
    import datetime

    from bpe_kata.tools import matrix as conformance

    argv, passthrough = _split_passthrough(argv)
    parser = argparse.ArgumentParser(prog="bpe-kata matrix", description=(
        "Run every installed library adapter (bpe_kata/adapters) through bpe-kata gate, in parallel, and print "
        "which levels each passes, its tie rule and how each failed claim differs. Options after -- go to every "
        "gate run, e.g. -- --level train."))
    parser.add_argument("--only", action="append", metavar="LIBRARY", help="only this library (repeatable)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per library (default 600)")
    parser.add_argument("--jobs", type=int, default=None, help="libraries run at once (default: the cores)")
    parser.add_argument("--call-timeout", type=float, default=10.0, help=(
        "seconds per call to a library (default 10, several times what the reference needs for the slowest "
        "call): a call past it fails its claim as 'timed out' and the run goes on"))
    parser.add_argument("--json", type=Path, help="write the matrix as JSON")
    parser.add_argument("--html", type=Path, help="write the matrix as a standalone HTML page")
    parser.add_argument("--reports", type=Path, metavar="DIR", help="keep each library's gate JSON and HTML report")
    parser.add_argument("--site", type=Path, metavar="DIR", help=(
        "write the matrix as a static site: the matrix, a page per library, every difference, the history"))
    parser.add_argument("--history", type=Path, nargs="+", default=[], metavar="FILE",
                        help="earlier --json files: the site's history page compares the runs")
    parser.add_argument("--from", dest="source", type=Path, metavar="FILE",
                        help="draw from this earlier --json (or `bpe-kata merge`d) file instead of running")
    parser.add_argument("--shard", metavar="K/N", help=(
        "run only shard K of N of the libraries, dealt by cost; with --json, its part for `bpe-kata merge`"))
    parser.add_argument("--costs", type=Path, metavar="FILE",
                        help="an earlier --json file: --shard deals by its seconds (default: a measured table)")
    options = parser.parse_args(argv)
    if options.history and not options.site:
        raise Stop("--history draws the site's history page: give --site DIR too", 2)
    if options.source is not None:
        data = _read_json(options.source, "--from")
        print("\n".join(conformance.render_plain(conformance.rows_from_json(data))))
        return _matrix_outputs(options, data, None)
    rows = [r for r in conformance.installed() if not options.only or r.library in options.only]
    if not rows:
        raise Stop("no adapter's library is installed: pip install 'bpe-kata[matrix]'", 2)
    head = None
    if options.shard:
        from bpe_kata.gate.suite import suite_sha256
        from bpe_kata.tools import shard as sharding

        try:
            shard = sharding.parse(options.shard)
        except sharding.ShardError as error:
            raise Stop(str(error), 2) from None
        recorded = _read_json(options.costs, "--costs") if options.costs else None
        taken = sharding.select(conformance.costs(rows, recorded), shard)
        head = sharding.header(shard, [r.adapter for r in rows], taken, suite_sha256())
        print(f"bpe-kata matrix: shard {shard}: {len(taken)} of {len(rows)} libraries", file=sys.stderr)
        rows = [r for r in rows if r.adapter in taken]
    passthrough = ["--call-timeout", f"{options.call_timeout:g}", *passthrough]
    conformance.run(rows, passthrough, options.timeout, options.jobs, options.reports)
    print("\n".join(conformance.render_plain(rows)))
    _matrix_outputs(options, conformance.as_json(rows, datetime.date.today().isoformat()), head, rows)
    return 0 if all(r.outcome and r.outcome.ended == "finished" for r in rows) else 1


def _read_json(path: Path, option: str) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise Stop(f"{option} {path}: cannot read it as JSON: {error}", 2) from None
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise Stop(f"{option} {path}: not a matrix JSON file (no rows)", 2)
    return data


def _matrix_outputs(options, data: dict, head: dict | None, rows: list | None = None) -> int:
    """The matrix's files: --json (with the shard header when sharded), --html (from ``rows`` when the run is at
    hand, else from the JSON), --site (always from the JSON, so a merged or earlier file draws the same site)."""
    from bpe_kata.tools import matrix as conformance
    from bpe_kata.tools import matrix_site
    from bpe_kata.tools.matrix_html import render

    if options.json:
        options.json.write_text(json.dumps({**data, **({"shard": head} if head else {})}, indent=1), encoding="utf-8")
    if options.html:
        drawn = rows if rows is not None else conformance.rows_from_json(data)
        options.html.write_text(render(drawn, str(data.get("measured", "?"))), encoding="utf-8")
    if options.site:
        try:
            history = matrix_site.read_history(options.history)
        except ValueError as error:
            raise Stop(str(error), 2) from None
        written = matrix_site.write(options.site, data, history)
        print(f"wrote the site: {len(written)} files in {options.site}", file=sys.stderr)
    return 0
