#!/usr/bin/env python3
"""Training with GPT-4's split pattern: the reference against Hugging Face tokenizers, rustbpe, bpeasy.

Every trainer gets the same text as one string and the same split pattern (GPT-4's,
``spec/patterns.py``), and runs in this process, one after the other for each corpus and
vocabulary size, so that a busy machine slows them alike. Beside them is the floor a
pure-Python trainer cannot go under: ``regex.findall`` with the pattern plus counting the
chunks (``collections.Counter``), the first thing any such trainer does.

Merges are compared as the byte strings of the new tokens, in order. They need not agree
past the first tie the trainers break differently: the reference breaks ties by first
occurrence (tie rule ``first-counted``), the Rust trainers by the smaller pair of ids; the
script also trains the reference with ``lowest-pair`` to show which rule each peer follows.

Usage:
    python benchmarks/bench_peers_train.py            # tiny Shakespeare and a 10x text, V = 4,096 and 32,768
    python benchmarks/bench_peers_train.py --quick    # tiny Shakespeare, V = 4,096
Needs the ``bench`` extra: pip install -e '.[bench]'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable

import regex
from _common import Row, corpus_text, mixed_text, print_rows, ratio, timed, verdict

from bpe_kata.data.published import byte_to_unicode
from spec.patterns import GPT4_SPLIT_PATTERN

FLOOR_TARGET = 2.0  # at most this many times the findall-and-count floor
HF_TARGET = 1.0  # at most Hugging Face tokenizers' time


def floor(text: str, vocab_size: int) -> Counter:
    return Counter(regex.findall(GPT4_SPLIT_PATTERN, text))


def reference_tokens(text: str, vocab_size: int, tie_rule: str = "first-counted") -> list[bytes]:
    from reference import build_vocab, train

    merges = train(text, vocab_size, pattern=GPT4_SPLIT_PATTERN, tie_rule=tie_rule)
    vocab = build_vocab(merges)
    return [vocab[idx] for idx in merges.values()]


def hf_tokens(text: str, vocab_size: int) -> list[bytes]:
    """Hugging Face's BPE trainer, split as GPT-4 splits, byte-level alphabet, no normalizer."""
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(GPT4_SPLIT_PATTERN), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=0, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tokenizer.train_from_iterator([text], trainer=trainer)
    unmap = {char: byte for byte, char in byte_to_unicode().items()}
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return [bytes(unmap[c] for c in "".join(m.split(" ") if isinstance(m, str) else m)) for m in merges]


def rustbpe_tokens(text: str, vocab_size: int) -> list[bytes]:
    import rustbpe

    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator(iter([text]), vocab_size, pattern=GPT4_SPLIT_PATTERN)
    return [token for token, rank in sorted(tokenizer.get_mergeable_ranks(), key=lambda item: item[1])[256:]]


def bpeasy_tokens(text: str, vocab_size: int) -> list[bytes]:
    import bpeasy

    vocab = bpeasy.train_bpe(iter([text]), GPT4_SPLIT_PATTERN, max_token_length=1_000_000, vocab_size=vocab_size)
    return [token for token, rank in sorted(vocab.items(), key=lambda item: item[1]) if len(token) > 1]


PEERS: dict[str, Callable[[str, int], list[bytes]]] = {
    "HF tokenizers": hf_tokens, "rustbpe": rustbpe_tokens, "bpeasy": bpeasy_tokens,
}


def agreement(ours: list[bytes], theirs: list[bytes]) -> str:
    """How many merges agree from the start, and how many tokens both tables have."""
    prefix = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    common = len(set(ours) & set(theirs))
    return f"first {prefix} merges same, {common}/{len(ours)} tokens shared"


def run(quick: bool = False, tie_check: bool = True) -> list[Row]:
    shakespeare = corpus_text("tinyshakespeare")
    texts = {"tiny Shakespeare": shakespeare}
    sizes = [4096] if quick else [4096, 32768]
    if not quick:
        texts["10x mixed"] = mixed_text(10 * len(shakespeare))
    rows: list[Row] = []
    for label, text in texts.items():
        for size in sizes:
            where = f"train GPT-4 split, {label} ({len(text.encode()) / 1e6:.1f} MB), V={size}"
            _, floor_time = timed(floor, text, size)
            ours, ref_time = timed(reference_tokens, text, size)
            print(f"{where}: floor {floor_time}; reference {ref_time}, {len(ours)} merges", flush=True)
            rows.append(Row(f"{where}: reference vs floor", f"{ref_time.cpu:.2f}s CPU ({ref_time.wall:.2f}s wall)",
                            f"findall+Counter {floor_time.cpu:.2f}s CPU ({floor_time.wall:.2f}s wall)",
                            ratio(ref_time.cpu, floor_time.cpu), f"<= {FLOOR_TARGET}x",
                            verdict(ref_time.cpu / floor_time.cpu, FLOOR_TARGET), ref_time.load))
            for name, peer in PEERS.items():
                try:
                    theirs, peer_time = timed(peer, text, size)
                except ImportError as error:
                    print(f"  {name}: not installed ({error}); pip install -e '.[bench]'", file=sys.stderr)
                    continue
                agree = agreement(ours, theirs)
                print(f"  {name}: {peer_time}; {agree}", flush=True)
                target = f"<= {HF_TARGET}x" if name == "HF tokenizers" else ""
                rows.append(Row(f"{where}: reference vs {name}", f"{ref_time.cpu:.2f}s CPU ({ref_time.wall:.2f}s wall)",
                                f"{peer_time.cpu:.2f}s CPU ({peer_time.wall:.2f}s wall); {agree}",
                                ratio(ref_time.cpu, peer_time.cpu),
                                target, verdict(ref_time.cpu / peer_time.cpu, HF_TARGET) if target else "",
                                peer_time.load))
            if tie_check and label == "tiny Shakespeare" and size == sizes[0]:
                lowest = reference_tokens(text, size, "lowest-pair")
                for name, peer in PEERS.items():
                    try:
                        print(
                            f"  tie rule: reference with lowest-pair vs {name}: {agreement(lowest, peer(text, size))}"
                        )
                    except ImportError:
                        pass
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny Shakespeare at 4,096 only")
    args = parser.parse_args(argv)
    print_rows(run(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
