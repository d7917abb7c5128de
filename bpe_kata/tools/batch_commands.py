"""The subcommands that run the spec on many at once, each isolated and in parallel: ``bpe-kata grade`` (a class's
submissions) and ``matrix`` (every installed library adapter); argument parsing, sharding and output files only,
the running is in grade.py and matrix.py."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bpe_kata.tools.subcommand import Stop, rich_console, split_passthrough, tool


@tool
def grade(argv: list[str]) -> int:
    from bpe_kata.tools import grade as grading
    from bpe_kata.tools import grade_table

    argv, passthrough = split_passthrough(argv)
    parser = argparse.ArgumentParser(prog="bpe-kata grade", description=(
        "Run the spec on each submission (a folder, .py file, module name or cmd:COMMAND) in its own child process, "
        "in parallel, with a time limit each; print the class table. Options after -- go to every run, "
        "e.g. -- --level train -m 'not corpus'."))
    parser.add_argument("submissions", nargs="+")
    parser.add_argument("--timeout", type=float, default=300.0, help=(
        "seconds per submission (default 300), the last resort: the run is interrupted and the levels it finished "
        "are kept"))
    parser.add_argument("--call-timeout", type=float, default=None, metavar="SECONDS", help=(
        "seconds per call to a submission (default 60, at most a fifth of --timeout): a call past it fails its "
        "test, the row says which call hung ('hung in train') and the run goes on"))
    parser.add_argument("--jobs", type=int, default=None, help="submissions run at once (default: the cores)")
    parser.add_argument("--csv", type=Path, help="also write the table as CSV")
    parser.add_argument("--points", type=Path, metavar="FILE", help=(
        "a TOML of points per level or claim (docs/TEACHERS.md, 'Points'): the CSV gets each submission's points"))
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
    points = _points(options.points)  # a wrong file stops grade before any submission runs
    console = rich_console(options.plain, "grade")
    from bpe_kata.tools.grade_progress import Progress

    outcomes = grading.grade(options.submissions, passthrough, options.timeout, options.jobs, options.reports,
                             allowed_libraries=allowed, call_timeout=options.call_timeout,
                             progress=Progress(None if console is None else type(console)(stderr=True)))
    if console is None:
        print("\n".join(grade_table.render_plain(outcomes)))
    else:
        grade_table.render_rich(outcomes, console)
    if options.csv:
        grade_table.write_csv(options.csv, outcomes, points_columns(points))
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

    argv, passthrough = split_passthrough(argv)
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


def _points(path: Path | None):
    from bpe_kata.platforms import points as scoring

    try:
        return scoring.load(path)
    except scoring.PointsError as error:
        raise Stop(str(error), 2) from None


def points_columns(points) -> list:
    """grade's CSV columns of points (bpe_kata/platforms/points.py): what each submission's report scores, of what
    it could; empty for a submission with no report (could not load, or stopped before writing one)."""
    from bpe_kata.platforms import points as scoring

    def scored(outcome, which: int) -> object:
        if not outcome.report:
            return ""
        return round(scoring.total(scoring.level_scores(outcome.report, points))[which], 2)

    return [("points", lambda outcome: scored(outcome, 0)), ("max points", lambda outcome: scored(outcome, 1))]
