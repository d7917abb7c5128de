#!/usr/bin/env python3
"""How training and encoding time grow with the input, and how much memory training takes.

Each operation runs on inputs that double in size: mixed text (tiny Shakespeare and Alice,
repeated: 1, 2, 4, 8 MB) and runs of one character (``"a" * N``, ``"é" * N``: the classic
quadratic trap: one chunk as long as the text, every pair the same). The
exponent k of time ~ size^k is fitted by least squares on the log-log points; near-linear
(k <= 1.15) is the target. Times are this process's CPU seconds.

Peak memory of training is measured in a child process (peak RSS above the child's RSS
just before training, so the text and the interpreter do not count; Linux only), per
input byte, on 8 MB of mixed text, with GPT-4's split pattern and without; the target is
under 100 bytes per input byte.

Usage:
    python benchmarks/bench_scaling.py            # mixed 1-8 MB, runs 0.25-2 MB, memory at 8 MB
    python benchmarks/bench_scaling.py --quick    # a quarter of each size
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from collections.abc import Callable

from _common import MB, REPO_ROOT, Row, load_average, mixed_text, print_rows, timed, verdict

from spec.patterns import GPT4_SPLIT_PATTERN

EXPONENT_TARGET = 1.15
MEMORY_TARGET = 100  # bytes of peak memory per input byte
RUNS = {"'a' * N": "a", "'é' * N": "é"}


def operations() -> dict[str, Callable[[str], object]]:
    from bpe_kata.data import pretrained
    from reference import encode, train

    gpt2 = pretrained.load("gpt2")
    return {
        "train GPT-4 split, V=1024": lambda text: train(text, 1024, pattern=GPT4_SPLIT_PATTERN),
        "train no pattern, V=300": lambda text: train(text, 300),
        "encode GPT-2 table + split": lambda text: encode(text, gpt2.merges, pattern=gpt2.pattern),
    }


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """The slope of log(seconds) against log(size), by least squares."""
    xs, ys = [math.log(s) for s in sizes], [math.log(max(t, 1e-6)) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def scaling_rows(quick: bool) -> list[Row]:
    scale = 0.25 if quick else 1.0
    inputs: dict[str, tuple[list[int], Callable[[int], str]]] = {
        "mixed text": ([int(mb * MB * scale) for mb in (1, 2, 4, 8)], mixed_text),
    }
    for label, char in RUNS.items():
        inputs[label] = ([int(mb * MB * scale) for mb in (0.25, 0.5, 1, 2)], lambda n, c=char: c * n)
    rows = []
    for op_name, op in operations().items():
        for label, (sizes, make) in inputs.items():
            load = load_average()
            seconds = []
            for size in sizes:
                text = make(size)
                _, took = timed(op, text)
                seconds.append(took.cpu)
            k = exponent(sizes, seconds)
            points = ", ".join(f"{size / MB:g} MB {t:.2f}s" for size, t in zip(sizes, seconds))
            print(f"{op_name} on {label}: {points}; exponent {k:.2f}", flush=True)
            rows.append(Row(f"scaling: {op_name}, {label}", points + " (CPU)", "", f"exponent {k:.2f}",
                            f"<= {EXPONENT_TARGET}", verdict(k, EXPONENT_TARGET), load))
    return rows


_CHILD = """
import json, sys
sys.path[:0] = [{root!r}, {root!r} + "/benchmarks"]
from _common import mixed_text
from reference import train

def status(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field + ":"))

text = mixed_text({size})
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # the peak starts again from now (it is inherited from the parent across fork/exec)
before = status("VmRSS")
train(text, {vocab}, pattern={pattern!r})
print(json.dumps(status("VmHWM") - before))
"""


def memory_rows(quick: bool) -> list[Row]:
    size = (2 if quick else 8) * MB
    rows = []
    for label, pattern, vocab in (("GPT-4 split, V=4096", GPT4_SPLIT_PATTERN, 4096), ("no pattern, V=300", None, 300)):
        load = load_average()
        code = _CHILD.format(root=str(REPO_ROOT), size=size, vocab=vocab, pattern=pattern)
        peak = json.loads(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                         text=True).stdout)
        per_byte = peak / size
        print(f"memory: train {label} on {size / MB:g} MB mixed: peak {peak / MB:.0f} MB above the start,"
              f" {per_byte:.0f} bytes per input byte", flush=True)
        rows.append(Row(f"memory: train {label}, {size / MB:g} MB mixed text", f"{per_byte:.0f} B per input byte",
                        f"peak RSS +{peak / MB:.0f} MB", "", f"< {MEMORY_TARGET} B/B",
                        verdict(per_byte, MEMORY_TARGET), load))
    return rows


def rows(quick: bool = False) -> list[Row]:
    return scaling_rows(quick) + memory_rows(quick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of each size, memory at 2 MB")
    args = parser.parse_args(argv)
    print_rows(rows(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
