"""``bpe-kata merge OUT IN...``: the shards of one ``grade``, ``mutate`` or ``matrix`` run joined into one output.

Each IN is a shard's JSON (``--json`` of grade and matrix, ``--results`` of mutate, run with
``--shard K/N``). The merge refuses, naming the files, a missing shard, a shard given twice, parts
of different splits or item lists, and parts whose suite SHA-256 differ (bpe_kata/tools/shard.py);
otherwise it writes OUT in the unsharded form of the command's JSON and prints its table. OUT then
serves as the unsharded file would: ``bpe-kata mutate --gate --from OUT``, ``bpe-kata matrix --from OUT
--site DIR``, or ``--costs OUT`` for the next sharded run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bpe_kata.tools import shard as sharding

USAGE = "bpe-kata merge OUT IN... [--csv F] [--html F] [--site DIR]"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata merge", description=(
        "Join the --shard K/N outputs (grade --json, mutate --results, matrix --json) into one, in the unsharded "
        "form; refuse a missing shard, a duplicate, or mixed suite fingerprints. See docs/SCALE.md."))
    parser.add_argument("out", type=Path, help="the merged JSON to write")
    parser.add_argument("parts", type=Path, nargs="+", metavar="IN", help="every shard's JSON output")
    parser.add_argument("--csv", type=Path, help="grade: also the class table as CSV")
    parser.add_argument("--html", type=Path, help="grade: the class page; matrix: the matrix page")
    parser.add_argument("--site", type=Path, metavar="DIR", help="matrix: the static site (bpe-kata matrix --site)")
    options = parser.parse_args(argv)
    try:
        parts = sharding.check(sharding.read(options.parts))
    except sharding.ShardError as error:
        print(f"bpe-kata merge: refused: {error}", file=sys.stderr)
        return 2
    kind = parts[0].data.get("kind")
    merger = {"grade": _grade, "matrix": _matrix, "mutate": _mutate}.get(kind)
    if merger is None:
        print(f"bpe-kata merge: refused: {parts[0].path} is a {kind!r} output; merge joins grade, mutate and matrix",
              file=sys.stderr)
        return 2
    try:
        status = merger(parts, options)
    except sharding.ShardError as error:
        print(f"bpe-kata merge: refused: {error}", file=sys.stderr)
        return 2
    print(f"bpe-kata merge: {len(parts)} shards of {kind} -> {options.out}", file=sys.stderr)
    return status


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def _grade(parts: list[sharding.Part], options) -> int:
    from bpe_kata.tools import grade_json, grade_table

    data, outcomes = grade_json.merge(parts)
    _write(options.out, data)
    print("\n".join(grade_table.render_plain(outcomes)))
    if options.csv:
        grade_table.write_csv(options.csv, outcomes)
    if options.html:
        page = options.html.expanduser().resolve()
        page.write_text(grade_table.class_page(outcomes, page.parent), encoding="utf-8")
    return 0 if all(o.accepted for o in outcomes) else 1


def _matrix(parts: list[sharding.Part], options) -> int:
    from bpe_kata.tools import matrix, matrix_site
    from bpe_kata.tools.matrix_html import render

    data = matrix.merge(parts)
    _write(options.out, data)
    rows = matrix.rows_from_json(data)
    print("\n".join(matrix.render_plain(rows)))
    if options.html:
        options.html.write_text(render(rows, str(data.get("measured"))), encoding="utf-8")
    if options.site:
        matrix_site.write(options.site, data)
    return 0 if all(r.outcome and r.outcome.ended == "finished" for r in rows) else 1


def _mutate(parts: list[sharding.Part], options) -> int:
    from bpe_kata.mutation import results_file

    data = results_file.merge(parts)
    _write(options.out, data)
    print("\n".join(results_file.table(data)))
    return 0
