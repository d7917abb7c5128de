"""The reference stays near-linear on the input that makes naive BPE quadratic: one character repeated.

A run of one character is one chunk as long as the text under any split pattern, and every
pair in it is the same pair, so a trainer or encoder that rescans, or shifts a list, per
merge goes quadratic there. Each test compares CPU time on N and 4N characters, never an
absolute time: a linear step takes about four times as long, a quadratic one sixteen times; the
bound of eight, their geometric middle, leaves a factor of two either way for a busy machine
(a bound of three between N and 2N failed once at low load: 3.3x, a collection in the larger
run). The fastest of five runs counts at each size, with the garbage collector paused.
(benchmarks/bench_scaling.py prints the full curves.)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from reference import encode, train
from spec.patterns import GPT4_SPLIT_PATTERN

N = 20_000
SCALE = 4  # the larger text is SCALE times the smaller
BOUND = 8.0  # linear gives SCALE, quadratic SCALE ** 2


def fastest_cpu_seconds(operation: Callable[[str], object], text: str, tries: int = 5) -> float:
    best = float("inf")
    gc.disable()
    try:
        for _ in range(tries):
            start = time.process_time()
            operation(text)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def operations(char: str) -> dict[str, Callable[[str], object]]:
    table = train(char * 4096, 300)  # a table that keeps merging runs of this character
    return {
        "train, no pattern": lambda text: train(text, 300),
        "train, GPT-4 split": lambda text: train(text, 300, pattern=GPT4_SPLIT_PATTERN),
        "encode, no pattern": lambda text: encode(text, table),
        "encode, GPT-4 split": lambda text: encode(text, table, pattern=GPT4_SPLIT_PATTERN),
    }


@pytest.mark.parametrize("char", ["a"])
@pytest.mark.parametrize("name", ["train, no pattern", "train, GPT-4 split", "encode, no pattern",
                                  "encode, GPT-4 split"])
@pytest.mark.heavy
def test_a_run_four_times_as_long_takes_less_than_eight_times_the_time(name: str, char: str) -> None:
    operation = operations(char)[name]
    operation(char * 1000)  # warm up: imports, compiled pattern
    small = fastest_cpu_seconds(operation, char * N)
    large = fastest_cpu_seconds(operation, char * (SCALE * N))
    assert large < BOUND * small, (
        f"{name} on {char!r} * N: {small * 1e3:.1f} ms at N={N:,}, {large * 1e3:.1f} ms at {SCALE}N:"
        f" {large / small:.1f}x, quadratic territory (linear is about {SCALE}x, quadratic {SCALE ** 2}x)")
