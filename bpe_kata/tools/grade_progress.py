"""``bpe-kata grade``'s rows as each submission finishes: a class of twelve took six minutes with nothing on the
screen until the last row. Each line says how far the run is (``3 of 12``, the time since it started), the
submission's result as the table will show it, a count of its levels by status, and its flags beside the
result. Printed to standard error, so the final table (standard output) stays the only thing a pipe reads.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import TextIO

from bpe_kata.tools.grade import Graded
from bpe_kata.verdict.outcomes import LevelStatus


def level_summary(outcome: Graded) -> str:
    """``8 green, 2 failed (train, encode), 6 not started``: the row's levels in one phrase."""
    if not outcome.levels:
        return "no level judged"
    counts = Counter(counts["status"] for counts in outcome.levels.values())
    failed = [level for level, counts in outcome.levels.items() if counts["status"] == LevelStatus.FAILED]
    parts = []
    for status, number in sorted(counts.items(), key=lambda item: (item[0] != LevelStatus.GREEN, -item[1])):
        named = f" ({', '.join(failed)})" if status == LevelStatus.FAILED else ""
        parts.append(f"{number} {str(status).lower()}{named}")
    return ", ".join(parts)


def clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def line(outcome: Graded, done: int, total: int, elapsed: float) -> str:
    """One finished submission, as the progress line shows it."""
    flags = f"  flags: {'; '.join(outcome.flags)}" if outcome.flags else ""
    return (f"[{done:>{len(str(total))}} of {total}, {clock(elapsed)}] {outcome.name}: {outcome.result}"
            f"  ({level_summary(outcome)}; {outcome.seconds:.0f} s){flags}")


class Progress:
    """Called with each outcome as it finishes (``grade(..., progress=Progress(...))``); ``console``: a rich
    console (colours), else plain text on ``stream``."""

    def __init__(self, console=None, stream: TextIO | None = None) -> None:
        self.start = time.monotonic()
        self.console = console
        self.stream = stream or sys.stderr

    def __call__(self, outcome: Graded, done: int, total: int) -> None:
        text = line(outcome, done, total, time.monotonic() - self.start)
        if self.console is None:
            print(text, file=self.stream, flush=True)
            return
        from rich.markup import escape

        colour = "green" if outcome.verdict == "green" and not outcome.flags else \
            "yellow" if outcome.verdict == "incomplete" else "red"
        self.console.print(f"[{colour}]{escape(text)}[/]", highlight=False, soft_wrap=True)
