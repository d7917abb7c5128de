#!/usr/bin/env python3
"""Time the JavaScript solution (solutions/js, through the stdio protocol) against the reference.

One run of each task in each implementation, on tiny Shakespeare and the Alice text: corpus
training with and without a split pattern, and whole-book encoding with a 4,096-id table
sent once with ``define``. The JavaScript times include the protocol (JSON both ways), as
the suite's runs do. Both must give identical results, or the script exits with status 1.

Usage:
    python benchmarks/bench_js.py            # needs node (Node 20 or later) on the PATH
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import reference  # noqa: E402
from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN  # noqa: E402

SERVER = REPO_ROOT / "solutions" / "js" / "bpe.mjs"


class JsChild:
    """The JavaScript solution in a child process: one request line out, one response line back."""

    def __init__(self, node: str) -> None:
        self.process = subprocess.Popen([node, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8")
        self.last_id = 0
        self.call("hello", protocol=1)

    def call(self, op: str, **args: Any) -> Any:
        self.last_id += 1
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"id": self.last_id, "op": op, "args": args}) + "\n")
        self.process.stdin.flush()
        response = json.loads(self.process.stdout.readline())
        if not response.get("ok"):
            raise RuntimeError(f"{op} failed in the JavaScript solution: {response.get('error')}")
        return response["result"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def rows(merges: dict[tuple[int, int], int]) -> list[list[int]]:
    return [[left, right, idx] for (left, right), idx in merges.items()]


def main() -> int:
    node = shutil.which("node")
    if node is None:
        print("bench_js: node is not installed; nothing to time", file=sys.stderr)
        return 2
    try:
        shakespeare = CorpusFinder().path("tinyshakespeare").read_text(encoding="utf-8")
        alice = CorpusFinder().path("alice").read_text(encoding="utf-8")
    except CorpusUnavailable as error:
        print(f"bench_js: {error}", file=sys.stderr)
        return 2
    js = JsChild(node)
    alice_table = reference.train(alice, 4096)
    js.call("define", name="alice-4096", kind="merges", value=rows(alice_table))
    tasks: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("train tiny Shakespeare to 276",
         lambda: js.call("train", text=shakespeare, vocab_size=276),
         lambda: rows(reference.train(shakespeare, 276))),
        ("train Alice to 4,096",
         lambda: js.call("train", text=alice, vocab_size=4096),
         lambda: rows(reference.train(alice, 4096))),
        ("train tiny Shakespeare to 1,024, GPT-4 pattern",
         lambda: js.call("train", text=shakespeare, vocab_size=1024, pattern=GPT4_SPLIT_PATTERN),
         lambda: rows(reference.train(shakespeare, 1024, pattern=GPT4_SPLIT_PATTERN))),
        ("encode tiny Shakespeare, Alice's 4,096 table",
         lambda: js.call("encode", text=shakespeare, merges={"ref": "alice-4096"}),
         lambda: reference.encode(shakespeare, alice_table)),
        ("encode tiny Shakespeare, same table, GPT-2 pattern",
         lambda: js.call("encode", text=shakespeare, merges={"ref": "alice-4096"}, pattern=GPT2_SPLIT_PATTERN),
         lambda: reference.encode(shakespeare, alice_table, pattern=GPT2_SPLIT_PATTERN)),
    ]
    header = f"{'task':<52} {'js s':>7} {'reference s':>12} {'js/ref':>7}  same"
    print(header)
    print("-" * len(header), flush=True)
    all_same = True
    for label, run_js, run_reference in tasks:
        got, js_seconds = timed(run_js)
        expected, reference_seconds = timed(run_reference)
        same = got == expected
        all_same &= same
        print(f"{label:<52} {js_seconds:>7.2f} {reference_seconds:>12.2f} {js_seconds / reference_seconds:>6.2f}x"
              f"  {'yes' if same else 'NO'}", flush=True)
    js.close()
    if not all_same:
        print("MISMATCH: the JavaScript solution and the reference disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
