"""``bpe-kata results FORMAT --from REPORT.json``: any run's report as a platform's file, after the fact.

The same writers as a run's own options (``--gradescope`` and the others, bpe_kata/platforms/outputs.py),
so a report kept from a gate, a class's ``grade --reports`` or an older run becomes any platform's file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bpe_kata.platforms import outputs
from bpe_kata.platforms.points import PointsError
from bpe_kata.verdict import atomic_file

USAGE = "bpe-kata results FORMAT --from REPORT.json [--points FILE] [-o OUT]"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata results", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="formats:\n" + "\n".join(f"  {name:<16} {what}"
                                                                     for name, (_, _, what) in outputs.FORMATS.items()))
    parser.add_argument("format", choices=sorted(outputs.FORMATS), metavar="FORMAT",
                        help="one of: " + ", ".join(outputs.FORMATS))
    parser.add_argument("--from", dest="report", required=True, metavar="REPORT.json",
                        help="a run's JSON report (--bpe-report, or the gate's)")
    parser.add_argument("--points", default=None, metavar="FILE", help="points per level (TOML; docs/TEACHERS.md)")
    parser.add_argument("-o", "--output", default=None, metavar="OUT", help="the file to write (default: stdout)")
    options = parser.parse_args(argv)
    try:
        report = json.loads(Path(options.report).read_text(encoding="utf-8"))
    except OSError as error:
        print(f"bpe-kata results: --from {options.report}: cannot read it: {error.strerror or error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"bpe-kata results: --from {options.report}: not JSON: {error}", file=sys.stderr)
        return 2
    if not isinstance(report, dict) or "levels" not in report:
        print(f"bpe-kata results: --from {options.report}: not a bpe-kata report (it has no 'levels'); write one "
              "with `bpe-kata check IMPL --bpe-report FILE` or `bpe-kata gate IMPL --bpe-report FILE`", file=sys.stderr)
        return 2
    try:
        chosen = outputs.check({outputs.POINTS_OPTION: options.points})
    except PointsError as error:
        print(f"bpe-kata results: {error}", file=sys.stderr)
        return 2
    text = outputs.render(options.format, report, chosen)
    if options.output:
        atomic_file.write_text(Path(options.output), text)
    else:
        sys.stdout.write(text)
    return 0
