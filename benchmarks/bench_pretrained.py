#!/usr/bin/env python3
"""Time the reference's encode with a published table against tiktoken, on one corpus.

Both encode the whole corpus once, in this process, each with a cold cache (nothing
encoded before: the reference's chunk cache lives only inside one ``encode`` call). Their
tokens must agree exactly, ids renumbered as published; the script exits with status 1
if they do not. It also times loading each table: verifying and parsing the published
files, recovering cl100k_base's merges (without and with the on-disk cache), and building
tiktoken's own Encoding.

Usage:
    python benchmarks/bench_pretrained.py                        # gpt2 and cl100k_base, tiny Shakespeare
    python benchmarks/bench_pretrained.py --tables cl100k_base --corpus FILE
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from spec import pretrained, published, tiktoken_tables  # noqa: E402
from spec.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402

TARGET_RATIO = 2.5


def find_corpus() -> Path | None:
    """As the spec finds it: $BPE_KATA_DATA, ../shared/data, the user cache, a download."""
    try:
        return CorpusFinder().path("tinyshakespeare")
    except CorpusUnavailable:
        return None


def timed(func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def time_loading(name: str) -> None:
    """Loading costs, cold: files read and verified, parsed, merges recovered, renumbered."""
    published.read_verified.cache_clear()
    if name == "cl100k_base":
        data, read = timed(published.read_verified, "cl100k_base.tiktoken")
        ranks, parse = timed(published.parse_tiktoken, data)
        splits, recover = timed(pretrained.recover_splits, ranks)
        _, number = timed(pretrained.to_contract, name, ranks, splits, pretrained.CL100K_SPECIAL_TOKENS)
        print(f"  load {name}: read+verify {read:.2f}s, parse {parse:.2f}s, recover 100k merges {recover:.2f}s, "
              f"renumber {number:.2f}s: {read + parse + recover + number:.2f}s without the split cache")
        with tempfile.TemporaryDirectory() as cache:
            key = hashlib.sha256(data).hexdigest()
            os.environ["XDG_CACHE_HOME"] = cache
            pretrained.cached_splits(ranks, key)
            _, cached = timed(pretrained.cached_splits, ranks, key)
            del os.environ["XDG_CACHE_HOME"]
        print(f"  load {name}: split points read back from the cache in {cached:.2f}s instead of {recover:.2f}s")
    table, total = timed(pretrained.load, name)
    _, build = timed(tiktoken_tables.encoding, name)
    print(f"  load {name}: pretrained.load {total:.2f}s (as the spec does, cache allowed); "
          f"tiktoken Encoding {build:.2f}s")


def cpu_timed(func, *args, **kwargs):
    """Result, wall-clock seconds and this process's CPU seconds (steadier on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def bench(name: str, text: str, encode) -> float:
    """One cold encode each; returns the CPU-time ratio reference / tiktoken."""
    table = pretrained.load(name)
    encoding = tiktoken_tables.encoding(name)
    want, tiktoken_wall, tiktoken_cpu = cpu_timed(encoding.encode, text)
    got, reference_wall, reference_cpu = cpu_timed(encode, text, table.merges, pattern=table.pattern,
                                                   special_tokens=table.special_tokens)
    if table.to_published(got) != want:
        print(f"  {name}: MISMATCH: the reference's tokens differ from tiktoken's", file=sys.stderr)
        sys.exit(1)
    ratio = reference_cpu / tiktoken_cpu
    verdict = "within" if ratio <= TARGET_RATIO else "OVER"
    print(f"  encode {name}: {len(want):,} tokens; CPU tiktoken {tiktoken_cpu:.3f}s, reference {reference_cpu:.3f}s: "
          f"ratio {ratio:.2f}x ({verdict} the {TARGET_RATIO}x target); "
          f"wall {tiktoken_wall:.3f}s vs {reference_wall:.3f}s ({reference_wall / tiktoken_wall:.2f}x)")
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None, help="text file (default: tiny Shakespeare)")
    parser.add_argument("--tables", nargs="+", default=list(pretrained.TABLE_NAMES), choices=pretrained.TABLE_NAMES)
    args = parser.parse_args(argv)
    corpus = args.corpus or find_corpus()
    if corpus is None or not corpus.is_file():
        print("no corpus: pass --corpus FILE or set BPE_KATA_DATA", file=sys.stderr)
        return 2
    text = corpus.read_text(encoding="utf-8")
    try:
        for name in args.tables:
            time_loading(name)
    except published.TableUnavailable as error:
        print(f"published table unavailable: {error}", file=sys.stderr)
        return 2
    from reference import encode

    print(f"corpus {corpus.name}: {len(text.encode('utf-8')):,} bytes")
    ratios = [bench(name, text, encode) for name in args.tables]
    print(f"worst CPU-time ratio {max(ratios):.2f}x (target: at most {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
