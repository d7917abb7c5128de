"""The subcommands that look at one implementation: ``bpe-kata show`` (a text cut into tokens), ``trace`` (training
merge by merge) and ``curve`` (bytes per token against vocabulary size); argument parsing and output only, the
drawing is in show.py, trace.py and curve.py."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bpe_kata.impl.loader import DEFAULT_IMPL
from bpe_kata.tools.subcommand import DEFAULT_TABLE, Stop, call_impl, open_impl, rich_console, tool


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
    impl = open_impl(options.impl)
    table = call_impl("train" if ":" in tables[0] else "load", impl_name, resolve, impl, tables[0])
    rows = [call_impl("encode", impl_name, drawing.build_row, impl, impl_name, table, options.text)]
    if options.compare:
        other = open_impl(options.compare)
        rows.append(call_impl("encode", options.compare, drawing.build_row, other, options.compare, table,
                              options.text))
    elif len(tables) == 2:
        second = call_impl("train" if ":" in tables[1] else "load", impl_name, resolve, impl, tables[1])
        rows.append(call_impl("encode", impl_name, drawing.build_row, impl, impl_name, second, options.text))
    if len(rows) == 2:
        drawing.compare_rows(*rows)
    console = rich_console(options.plain, "show")
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
    impl = open_impl(options.impl)
    text = call_impl("train", impl_name, corpus_text, options.corpus)
    merges = call_impl("train", impl_name, impl.train, text, options.vocab)
    every = max(options.every, 1)
    broken: list[str] = []
    steps = replay_steps(text, dict(merges), broken)
    total = len(merges)
    console = None if options.json else rich_console(options.plain, "trace")
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
    impl = open_impl(options.impl)
    text = call_impl("train", impl_name, corpus_text, options.corpus)
    merges = call_impl("train", impl_name, impl.train, text, sizes[-1])
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
