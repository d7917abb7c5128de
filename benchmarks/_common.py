"""What the benchmark scripts share: the corpora, the machine's load, and a clock.

The machine these figures come from is shared, so every timing is taken with the
``uptime`` load beside it, and both clocks are read: wall time (what a user waits) and this
process's CPU time (steadier when other processes compete for the cores; it includes the
CPU of any threads a Rust peer starts).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402

MB = 1_000_000


def load_average() -> float:
    """The one-minute load average, as ``uptime`` prints it."""
    return os.getloadavg()[0]


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    load: float  # one-minute load average when the run started

    def __str__(self) -> str:
        return f"{self.wall:.3f}s wall / {self.cpu:.3f}s CPU (load {self.load:.1f})"


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, Timing]:
    """Call fn; return its result and a Timing (wall, process CPU, load at the start)."""
    load = load_average()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(*args, **kwargs)
    return result, Timing(time.perf_counter() - wall, time.process_time() - cpu, load)


def corpus_text(name: str) -> str:
    """A shipped corpus, found the way the spec finds it (``bpe_kata.data.corpora``)."""
    try:
        return CorpusFinder().path(name).read_text(encoding="utf-8")
    except CorpusUnavailable as error:
        sys.exit(f"corpus {name} unavailable: {error}")


def mixed_text(size: int) -> str:
    """``size`` characters of tiny Shakespeare and Alice, one after the other, repeated.

    The only text shipped is these two corpora, so a larger input repeats them: its distinct
    chunks are theirs, and what grows with the size is the splitting and counting.
    """
    unit = corpus_text("tinyshakespeare") + corpus_text("alice")
    return (unit * (size // len(unit) + 1))[:size]


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "n/a"


@dataclass(frozen=True)
class Row:
    """One line of run_all's table: a measurement, what it is compared with, and its target."""

    task: str
    measured: str
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    verdict: str = ""  # "met", "MISSED", or a short note
    load: float = 0.0

    def cells(self) -> list[str]:
        return [self.task, self.measured, self.baseline, self.ratio, self.target, self.verdict, f"{self.load:.1f}"]


HEADER = ["task", "measured", "against", "ratio", "target", "verdict", "load"]


def print_rows(rows: list[Row], markdown: bool = False) -> None:
    """Print rows as an aligned text table, or as a Markdown table."""
    table = [HEADER] + [row.cells() for row in rows]
    if markdown:
        for i, cells in enumerate(table):
            print("| " + " | ".join(cells) + " |")
            if i == 0:
                print("|" + "---|" * len(cells))
        return
    widths = [max(len(cells[i]) for cells in table) for i in range(len(HEADER))]
    for i, cells in enumerate(table):
        print("  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))


def verdict(value: float, limit: float, at_least: bool = False) -> str:
    """'met' when value is within limit (at most, or at least with at_least), else 'MISSED'."""
    ok = value >= limit if at_least else value <= limit
    return "met" if ok else "MISSED"
