"""Adapter: 1rsh/minbpe.cpp (C++, header-only) to the bpe-kata contract, through a compiled CLI.

MINBPE_CPP_CLI names the CLI built from tests/outside/minbpe_cpp_cli.cpp against the upstream
headers (README.md here). Names and types only: text goes as its UTF-8 bytes (a C++ std::string),
tables as id triples; the C++ std::map of merges is returned ordered by id (what its ids record:
a std::map has no insertion order), decode's std::string is bytes and is read as UTF-8, strictly
(the upstream returns raw bytes, not text). The CLI is one long-lived child; if it dies (a crash
inside the upstream), the call raises and the next call starts a new one.
"""

from __future__ import annotations

__bpe_kata_adapter__ = True  # its frames are the adapter's, not the upstream's (bpe_kata/impl/frames.py)

import os
import subprocess

_child: subprocess.Popen | None = None


class UpstreamCrashed(RuntimeError):
    """The C++ process ended during a call (a signal or abort inside the upstream)."""


def _ask(line: str) -> list[str]:
    global _child
    cli = os.environ.get("MINBPE_CPP_CLI")
    if not cli:
        raise ImportError("MINBPE_CPP_CLI is not set: see tests/outside/README.md")
    if _child is None or _child.poll() is not None:
        _child = subprocess.Popen([cli], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    _child.stdin.write(line + "\n")
    _child.stdin.flush()
    answer = _child.stdout.readline()
    if not answer:
        code = _child.wait()
        _child = None
        raise UpstreamCrashed(f"minbpe.cpp exited with status {code} during: {line[:60]}")
    kind, _, rest = answer.rstrip("\n").partition(" ")
    if kind == "err":
        raise RuntimeError(rest)
    return rest.split()


def _ids(ids) -> str:
    ids = list(ids)
    return " ".join(map(str, [len(ids), *ids]))


def _triples(words: list[str]) -> list[tuple[int, int, int]]:
    nums = list(map(int, words))
    return [tuple(nums[i:i + 3]) for i in range(0, len(nums), 3)]


def get_stats(ids):
    return {(l, r): n for l, r, n in _triples(_ask(f"get_stats {_ids(ids)}"))}


def merge(ids, pair, idx):
    return list(map(int, _ask(f"merge {_ids(ids)} {pair[0]} {pair[1]} {idx}")))


def train(text, vocab_size):
    learned = _triples(_ask(f"train {vocab_size} {text.encode('utf-8').hex() or '-'}"))
    return {(l, r): i for l, r, i in sorted(learned, key=lambda t: t[2])}


def encode(text, merges):
    table = " ".join(f"{l} {r} {i}" for (l, r), i in merges.items())
    return list(map(int, _ask(f"encode {len(merges)} {table} {text.encode('utf-8').hex() or '-'}")))


def decode(ids, vocab):
    table = " ".join(f"{i} {bytes(b).hex() or '-'}" for i, b in vocab.items())
    answer = _ask(f"decode {len(vocab)} {table} {_ids(ids)}")
    return bytes.fromhex(answer[0] if answer else "").decode("utf-8")


def build_vocab(merges):
    table = " ".join(f"{l} {r} {i}" for (l, r), i in merges.items())
    words = _ask(f"build_vocab {len(merges)} {table}")
    return {int(words[i]): bytes.fromhex("" if words[i + 1] == "-" else words[i + 1]) for i in range(0, len(words), 2)}
