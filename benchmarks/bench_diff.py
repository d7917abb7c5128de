"""``bpe-kata diff`` against a planted one-merge divergence: how long until found and shrunk, and to how few bytes.

The planted side (benchmarks/planted_one_merge.py) is the reference with one merge (id 258) left
unapplied by encode. For each seed, ``diff`` compares it with the reference on every operation
(train, encode and decode, in rounds, as the command does) under a 30 s time box; the figures are
the wall seconds from the start of the search (after the shared table is had) until the divergence was found
and shrunk, and the shrunk text's size in bytes. Target: median under 30 s and at most 8 bytes.

    python benchmarks/bench_diff.py                   # 5 seeds, the default table (cases:320)
    python benchmarks/bench_diff.py --table tinyshakespeare:512   # a corpus table (needs the corpora)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import load_average  # noqa: E402
from bpe_kata.tools import diff, diff_report  # noqa: E402
from bpe_kata.tools.diff_sides import resolve  # noqa: E402

PLANTED = str(Path(__file__).with_name("planted_one_merge.py"))


def one(seed: int, table: str | None, budget: float) -> tuple[float | None, int | None, float]:
    """(seconds until found and shrunk, the table's time left out; the shrunk input's bytes; CPU seconds of the
    whole run), or None for not found."""
    cpu = time.process_time()
    result = diff.run(resolve("reference"), resolve(PLANTED), table=table, budget=budget, seed=seed)
    cpu = time.process_time() - cpu
    found = [f for f in result.found if f.divergence.operation == "encode"]
    if not found:
        return None, None, cpu
    return found[0].seconds - result.table_seconds, diff_report.input_bytes(found[0].divergence), cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--table", default=None, help=f"the shared table (default {diff.DEFAULT_TABLE})")
    parser.add_argument("--budget", type=float, default=30.0)
    options = parser.parse_args(argv)
    load = load_average()
    rows = []
    for seed in range(options.seeds):
        seconds, size, cpu = one(seed, options.table, options.budget)
        rows.append((seconds, size))
        shown = "not found" if seconds is None else f"found and shrunk in {seconds:.2f} s wall, {size} bytes"
        print(f"seed {seed}: {shown} ({cpu:.2f} CPU-s for the whole run)")
    found = [r for r in rows if r[0] is not None]
    if len(found) < len(rows):
        print(f"found on {len(found)} of {len(rows)} seeds")
    if found:
        median_s = statistics.median(r[0] for r in found)
        median_b = statistics.median(r[1] for r in found)
        print(f"table {options.table or diff.DEFAULT_TABLE}: median {median_s:.2f} s (target < 30 s), "
              f"{median_b:g} bytes (target <= 8), over {len(found)} seeds; load {load:.1f} at the start, "
              f"{load_average():.1f} at the end")
    return 0 if found and len(found) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
