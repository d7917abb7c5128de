#!/usr/bin/env python3
"""Time the textbook BPE trainer against ``reference.train`` on one corpus.

The textbook trainer below recounts every pair and rewrites the whole sequence once per
merge; it is written out here, independent of the reference, so that the comparison also
checks the reference: both must produce the identical merge table, in the same order.

The textbook runs once, up to the largest vocabulary size, and its clock is read as it
passes each requested size (its first k merges do not depend on how many follow), so
every size costs one reference run but the textbook only one run in total.

Usage:
    python benchmarks/bench_train.py                     # sizes 276 512 1024
    python benchmarks/bench_train.py --quick             # 276 only
    python benchmarks/bench_train.py --corpus FILE --vocab-sizes 300 600
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from spec.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402
from spec.oracle import get_stats, merge  # noqa: E402  (the spec's textbook algorithm is the baseline)
CORPUS_NAME = "tinyshakespeare.txt"
DEFAULT_SIZES = [276, 512, 1024]

Pair = tuple[int, int]


# --- the textbook algorithm (spec/oracle.py): count everything, merge everything, per new id

def textbook_train_steps(text: str, vocab_size: int) -> Iterator[tuple[Pair, int]]:
    """Yield (pair, id) merge by merge, so the caller can read the clock in between."""
    ids = list(text.encode("utf-8"))
    for idx in range(256, vocab_size):
        if len(ids) < 2:
            return
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        yield pair, idx


# --- the benchmark ----------------------------------------------------------------------

def find_corpus() -> Path | None:
    """As the spec finds it: --data-dir/$BPE_KATA_DATA, ../shared/data, the user cache, a download."""
    try:
        return CorpusFinder().path("tinyshakespeare")
    except CorpusUnavailable:
        return None


def load_reference_train() -> Callable[[str, int], dict[Pair, int]]:
    """Import the reference from this checkout, whatever the working directory."""
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from reference import train

    return train


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """Call fn(*args); return its result and the wall-clock seconds it took."""
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="UTF-8 text file (default: tiny Shakespeare,"
                        " from $BPE_KATA_DATA or ../shared/data next to the repository)")
    parser.add_argument("--vocab-sizes", type=int, nargs="+", default=DEFAULT_SIZES,
                        metavar="N", help="vocabulary sizes to time (default: 276 512 1024)")
    parser.add_argument("--quick", action="store_true", help="only vocabulary size 276")
    parser.add_argument("--progress-every", type=int, default=32, metavar="K",
                        help="report the textbook's progress every K merges (0: never)")
    args = parser.parse_args(argv)
    if args.quick:
        args.vocab_sizes = [276]
    if any(size < 256 for size in args.vocab_sizes):
        parser.error("every vocabulary size must be at least 256")
    args.vocab_sizes = sorted(set(args.vocab_sizes))
    if args.corpus is None:
        args.corpus = find_corpus()
        if args.corpus is None:
            parser.error(f"no {CORPUS_NAME} found: pass --corpus FILE or set BPE_KATA_DATA"
                         " to the folder that holds it")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    reference_train = load_reference_train()
    text = args.corpus.read_text(encoding="utf-8")
    print(f"corpus: {args.corpus} ({len(text.encode('utf-8')):,} bytes)")
    print(f"python: {sys.version.split()[0]}")
    header = f"{'vocab':>6} {'merges':>6} {'textbook s':>11} {'reference s':>12} {'ratio':>7}  same"
    print(header)
    print("-" * len(header), flush=True)

    steps = textbook_train_steps(text, args.vocab_sizes[-1])
    textbook: dict[Pair, int] = {}
    textbook_seconds = 0.0  # only the time spent inside the textbook's own steps
    exhausted = False
    all_same = True
    for size in args.vocab_sizes:
        while not exhausted and len(textbook) < size - 256:
            step, seconds = timed(next, steps, None)
            textbook_seconds += seconds
            if step is None:
                exhausted = True
                break
            pair, idx = step
            textbook[pair] = idx
            if args.progress_every and len(textbook) % args.progress_every == 0:
                print(f"  textbook: {len(textbook)} merges, {textbook_seconds:.1f}s",
                      file=sys.stderr, flush=True)
        expected = list(textbook.items())[: size - 256]
        merges, reference_seconds = timed(reference_train, text, size)
        same = list(merges.items()) == expected
        all_same &= same
        ratio = textbook_seconds / reference_seconds
        print(f"{size:>6} {len(merges):>6} {textbook_seconds:>11.2f} {reference_seconds:>12.3f}"
              f" {ratio:>6.1f}x  {'yes' if same else 'NO'}", flush=True)

    if not all_same:
        print("MISMATCH: the reference's merges differ from the textbook's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
