#!/usr/bin/env python3
"""Time the textbook BPE trainer against ``reference.train`` on one corpus.

The textbook trainer below recounts every pair and rewrites the whole sequence once per
merge; it is written out here, independent of the reference, so that the comparison also
checks the reference: both must produce the identical merge table, in the same order.

The textbook runs once, up to the largest vocabulary size, and its clock is read as it
passes each requested size (its first k merges do not depend on how many follow), so
every size costs one reference run but the textbook only one run in total.

The textbook takes minutes past a few hundred merges, so by default (``--sampled``) its time
is estimated instead: the textbook's step (count every pair, take the best, rewrite the
list) is timed on the true sequence at a few merge counts, the sequence being the text
encoded with the reference's first k merges, and the per-step times are interpolated
linearly between the samples and summed. Each sampled step must pick the reference's k-th
merge, so the estimate also spot-checks the merges; ``--exact`` runs the whole textbook.

Usage:
    python benchmarks/bench_train.py                     # sizes 512 1024 4096, textbook sampled
    python benchmarks/bench_train.py --quick             # 512 only
    python benchmarks/bench_train.py --exact --vocab-sizes 276 512
    python benchmarks/bench_train.py --corpus FILE --vocab-sizes 300 600
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
for folder in (REPO_ROOT, REPO_ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402
from spec.oracle import get_stats, merge  # noqa: E402  (the spec's textbook algorithm is the baseline)

CORPUS_NAME = "tinyshakespeare.txt"
DEFAULT_SIZES = [512, 1024, 4096]
TARGETS = {512: 20, 1024: 50, 4096: 100}  # at least this many times faster than the textbook

Pair = tuple[int, int]


# --- the textbook algorithm (spec/oracle/core.py): count everything, merge everything, per new id

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
    """Call fn(*args); return its result and the CPU seconds this process spent on it."""
    start = time.process_time()
    result = fn(*args)
    return result, time.process_time() - start


def sample_points(merges: int) -> list[int]:
    """Merge counts at which to time one textbook step: dense early, where steps shrink fastest."""
    points = {0, 16, 64, 128, 255, 511, 767, 1024, 2048, 3072, 4095, 6143, 8191}
    return sorted(k for k in points | {merges - 1} if 0 <= k < merges)


def _one_step(ids: list[int], idx: int) -> float:
    """CPU seconds of one textbook step on ``ids``, garbage collection held off (as it rarely runs there)."""
    gc.disable()
    try:
        start = time.process_time()
        stats = get_stats(ids)
        merge(ids, max(stats, key=stats.get), idx)
        return time.process_time() - start
    finally:
        gc.enable()


def textbook_estimate(text: str, merges: list[tuple[Pair, int]]) -> tuple[list[float], list[int]]:
    """CPU seconds the textbook would take for its first 1..len(merges) merges, and any mismatches.

    One textbook step is timed at each sample point k, on the text encoded with the first k
    merges (the textbook's sequence after k steps); steps in between are interpolated. A
    sample whose step picks another pair than merge k is reported as a mismatch.
    """
    from reference import encode

    samples: dict[int, float] = {}
    mismatches: list[int] = []
    for k in sample_points(len(merges)):
        ids = encode(text, dict(merges[:k]))
        samples[k] = min(_one_step(ids, 256 + k) for _ in range(2))
        stats = get_stats(ids)
        pair = max(stats, key=stats.get)
        if pair != merges[k][0]:
            mismatches.append(k)
    points = sorted(samples)
    cumulative, total = [], 0.0
    for k in range(len(merges)):
        right = next(p for p in points if p >= k)
        left = max(p for p in points if p <= k)
        share = 0.0 if right == left else (k - left) / (right - left)
        total += samples[left] + share * (samples[right] - samples[left])
        cumulative.append(total)
    return cumulative, mismatches


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="UTF-8 text file (default: tiny Shakespeare,"
                        " from $BPE_KATA_DATA or ../shared/data next to the repository)")
    parser.add_argument("--vocab-sizes", type=int, nargs="+", default=DEFAULT_SIZES,
                        metavar="N", help="vocabulary sizes to time (default: 512 1024 4096)")
    parser.add_argument("--quick", action="store_true", help="only vocabulary size 512")
    parser.add_argument("--exact", action="store_true", help="run the whole textbook instead of sampling its steps")
    parser.add_argument("--progress-every", type=int, default=32, metavar="K",
                        help="report the textbook's progress every K merges (0: never)")
    args = parser.parse_args(argv)
    if args.quick:
        args.vocab_sizes = [512]
    if any(size < 256 for size in args.vocab_sizes):
        parser.error("every vocabulary size must be at least 256")
    args.vocab_sizes = sorted(set(args.vocab_sizes))
    if args.corpus is None:
        args.corpus = find_corpus()
        if args.corpus is None:
            parser.error(f"no {CORPUS_NAME} found: pass --corpus FILE or set BPE_KATA_DATA"
                         " to the folder that holds it")
    return args


def run_sampled(text: str, sizes: list[int], reference_train) -> tuple[list[tuple[int, int, float, float]], bool]:
    """(size, merges, textbook estimate, reference) per size, CPU seconds; and whether all agree."""
    merges, largest = timed(reference_train, text, sizes[-1])
    table = list(merges.items())
    estimate, mismatches = textbook_estimate(text, table)
    if mismatches:
        print(f"MISMATCH: the textbook's step differs from the reference's merge at {mismatches}", file=sys.stderr)
    results = []
    for size in sizes:
        got, seconds = (merges, largest) if size == sizes[-1] else timed(reference_train, text, size)
        same = list(got.items()) == table[: size - 256]
        results.append((size, len(got), estimate[len(got) - 1], seconds))
        if not same:
            mismatches.append(size)
    return results, not mismatches


def rows(quick: bool = False) -> list:
    """run_all's rows: the reference against the textbook, sampled, CPU time."""
    from _common import Row, load_average

    text = find_corpus().read_text(encoding="utf-8")
    load = load_average()
    results, same = run_sampled(text, [512] if quick else DEFAULT_SIZES, load_reference_train())
    out = []
    for size, _count, textbook_seconds, reference_seconds in results:
        speedup = textbook_seconds / reference_seconds
        out.append(Row(f"train no pattern, tiny Shakespeare, V={size}: reference vs textbook",
                       f"{reference_seconds:.2f}s CPU", f"textbook ~{textbook_seconds:.0f}s CPU (sampled)",
                       f"{speedup:.0f}x faster", f">= {TARGETS[size]}x",
                       ("met" if speedup >= TARGETS[size] else "MISSED") if same else "MERGES DIFFER", load))
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    reference_train = load_reference_train()
    text = args.corpus.read_text(encoding="utf-8")
    print(f"corpus: {args.corpus} ({len(text.encode('utf-8')):,} bytes)")
    print(f"python: {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f}")
    if not args.exact:
        results, same = run_sampled(text, args.vocab_sizes, reference_train)
        header = f"{'vocab':>6} {'merges':>6} {'textbook s (est.)':>18} {'reference s':>12} {'ratio':>7}"
        print(header)
        print("-" * len(header))
        for size, count, textbook_seconds, reference_seconds in results:
            print(f"{size:>6} {count:>6} {textbook_seconds:>18.1f} {reference_seconds:>12.3f}"
                  f" {textbook_seconds / reference_seconds:>6.1f}x")
        print("CPU seconds; the textbook's are estimated from sampled steps (see --help), all merges checked:"
              f" {'same' if same else 'DIFFERENT'}")
        return 0 if same else 1
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
