"""Known-wrong: load takes whatever lines it finds, so truncated or reordered files load without a word."""

from __future__ import annotations

import json

from spec.oracle.chunks import train  # noqa: F401
from spec.oracle.core import decode, get_stats, merge  # noqa: F401
from spec.oracle.persist import save  # noqa: F401
from spec.oracle.special import build_vocab, encode  # noqa: F401
from spec.oracle.stream import StreamDecoder  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("persist.corrupt-file-errors",)


def load(path):
    """Reads each line by its shape; counts, order, ids and the version are never checked."""
    merges, pattern, specials = {}, None, {}
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        for line in handle.read().split("\n"):
            fields = line.split(" ")
            if line.startswith("pattern "):
                pattern = json.loads(line[len("pattern "):])
            elif len(fields) >= 2 and fields[0].isdigit() and fields[1].startswith('"'):
                specials[json.loads(line.split(" ", 1)[1])] = int(fields[0])
            elif len(fields) == 3 and all(field.isdigit() for field in fields):
                merges[int(fields[0]), int(fields[1])] = int(fields[2])
    return merges, pattern, specials
