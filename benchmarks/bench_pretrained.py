#!/usr/bin/env python3
"""Time the reference's encode with a published table against tiktoken, on one corpus.

Both encode the whole corpus in this process, interleaved: once cold (nothing encoded
before: the reference's chunk cache lives only inside one ``encode`` call), then once warm
(a second call: tiktoken and Hugging Face keep what they learned). For GPT-2, Hugging Face
``tokenizers`` loaded with the published encoder.json and vocab.bpe runs beside them (the
``bench`` extra). Tokens must agree exactly, ids renumbered as published; the script exits
with status 1 if they do not. The reference's time is then cut into its parts (split,
chunk loop, join), each beside its floor. It also times loading each table: verifying and parsing the published
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
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "benchmarks")]

from bpe_kata.data import pretrained, published, tiktoken_tables  # noqa: E402
from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable  # noqa: E402

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


def hf_gpt2():
    """Hugging Face tokenizers' BPE loaded with GPT-2's published encoder.json and vocab.bpe."""
    import json

    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = json.loads(published.read_verified("encoder.json"))
    lines = published.read_verified("vocab.bpe").decode("utf-8").splitlines()
    merges = [tuple(line.split(" ")) for line in lines[1:] if line and not line.startswith("#")]
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    return lambda text: tokenizer.encode(text).ids


def parts(name: str, text: str) -> dict[str, tuple[float, str, float]]:
    """CPU seconds of the reference's parts, each with the floor it cannot go under: part -> (s, floor, s).

    split: ``whole_matches`` (findall and the coverage check) against ``regex.findall`` alone;
    chunk loop: finding the distinct chunks and encoding each once, against ``set(chunks)``;
    join: looking every chunk's ids up and joining them, against joining them without lookups.
    """
    from itertools import chain

    from reference.encoding import _encode_chunks
    from reference.splitting import compile_pattern, whole_matches

    table = pretrained.load(name)
    compiled = compile_pattern(table.pattern)
    cache: dict = {"": ()}
    chunks, _, split = cpu_timed(whole_matches, table.pattern, text)
    _, _, findall = cpu_timed(compiled.findall, text)
    lazy, _, loop = cpu_timed(_encode_chunks, chunks, table.merges, cache)  # returns a lazy join
    _, _, distinct = cpu_timed(set, chunks)
    _, _, join = cpu_timed(list, lazy)
    looked_up = [cache[chunk] for chunk in chunks]
    _, _, join_floor = cpu_timed(lambda: list(chain.from_iterable(looked_up)))
    return {"split": (split, "regex findall alone", findall),
            "chunk loop": (loop, "set(chunks)", distinct),
            "join": (join, "joining without lookups", join_floor)}


def bench(name: str, text: str, encode, warm: bool = True) -> list[tuple[str, float, float]]:
    """Cold then warm encodes, interleaved; returns (who, CPU s, wall s) per run, checked against tiktoken."""
    table = pretrained.load(name)
    encoding = tiktoken_tables.encoding(name)
    runs = []
    others = [("HF tokenizers", hf_gpt2())] if name == "gpt2" and _have_tokenizers() else []
    for when in ("cold", "warm") if warm else ("cold",):
        want, tiktoken_wall, tiktoken_cpu = cpu_timed(encoding.encode, text, allowed_special=set())
        got, reference_wall, reference_cpu = cpu_timed(encode, text, table.merges, pattern=table.pattern,
                                                       special_tokens=table.special_tokens)
        if table.to_published(got) != want:
            print(f"  {name}: MISMATCH: the reference's tokens differ from tiktoken's", file=sys.stderr)
            sys.exit(1)
        runs += [
            (f"tiktoken {when}", tiktoken_cpu, tiktoken_wall),
            (f"reference {when}", reference_cpu, reference_wall),
        ]
        for who, other in others:
            theirs, wall, cpu = cpu_timed(other, text)
            if theirs != want:
                print(f"  {name}: {who}'s tokens differ from tiktoken's", file=sys.stderr)
            runs.append((f"{who} {when}", cpu, wall))
    for who, cpu, wall in runs:
        print(f"  encode {name}: {who}: {cpu:.3f}s CPU, {wall:.3f}s wall")
    return runs


def _have_tokenizers() -> bool:
    try:
        import tokenizers  # noqa: F401
    except ImportError:
        print("  (Hugging Face tokenizers not installed: pip install -e '.[bench]')", file=sys.stderr)
        return False
    return True


def rows(quick: bool = False) -> list:
    """run_all's rows: each table cold and warm against tiktoken (and HF for GPT-2), then the parts."""
    from _common import Row, load_average, verdict

    from reference import encode

    text = find_corpus().read_text(encoding="utf-8")
    out = []
    for name in pretrained.TABLE_NAMES:
        load = load_average()
        runs = {who: (cpu, wall) for who, cpu, wall in bench(name, text, encode)}
        for when in ("cold", "warm"):
            ref_cpu, ref_wall = runs[f"reference {when}"]
            for who in (f"tiktoken {when}", f"HF tokenizers {when}"):
                if who not in runs:
                    continue
                cpu, wall = runs[who]
                target = f"<= {TARGET_RATIO}x" if who.startswith("tiktoken") else ""
                out.append(Row(f"encode {name}, tiny Shakespeare, {when}: reference vs {who.split(' ')[0]}"
                               f"{' tokenizers' if who.startswith('HF') else ''}",
                               f"{ref_cpu:.2f}s CPU ({ref_wall:.2f}s wall)", f"{cpu:.2f}s CPU ({wall:.2f}s wall)",
                               f"{ref_cpu / cpu:.2f}x", target,
                               verdict(ref_cpu / cpu, TARGET_RATIO) if target else "", load))
        if quick:
            continue
        load = load_average()
        cost = parts(name, text)
        tiktoken_cpu = runs["tiktoken cold"][0]
        for part, (seconds, floor_name, floor_seconds) in cost.items():
            out.append(Row(f"encode {name}, reference cold, part '{part}'", f"{seconds:.3f}s CPU",
                           f"floor ({floor_name}) {floor_seconds:.3f}s CPU",
                           f"{seconds / floor_seconds:.1f}x its floor", "",
                           f"= {seconds / tiktoken_cpu:.2f}x tiktoken's whole encode", load))
    return out


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
    ratios = []
    for name in args.tables:
        runs = dict((who, cpu) for who, cpu, _ in bench(name, text, encode))
        ratios.append(runs["reference cold"] / runs["tiktoken cold"])
        print(f"  {name}: cold CPU ratio {ratios[-1]:.2f}x, warm {runs['reference warm'] / runs['tiktoken warm']:.2f}x")
        for part, (seconds, floor_name, floor_seconds) in parts(name, text).items():
            print(f"    {part}: {seconds:.3f}s CPU; floor ({floor_name}) {floor_seconds:.3f}s CPU")
    print(f"worst cold CPU-time ratio {max(ratios):.2f}x (target: at most {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
