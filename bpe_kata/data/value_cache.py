"""Values the suite computes for itself, kept on disk between runs: parsed published tables,
tiktoken's own reading of their files, the spec's replay of a corpus.

Each run of ``check`` (each pytest-xdist worker) used to parse the published files again and
replay the corpora again: about a second of CPU that gives the same answer every time. A value
is stored under a name made from everything it is computed from (the SHA-256 of the input files
or text, the source of the code that computes it, the library's version), so a changed input or
a changed parser never reads an old value. The file holds the SHA-256 of its payload, checked
when read back, and the caller's ``valid`` check the value's shape: a corrupted, truncated or
foreign file is computed again and rewritten, never used. Never the implementation's results:
only the spec's and the reference libraries' own, which a test compares the implementation with.

The folder is the user cache (``bpe_kata.data.corpora.user_cache_dir``), as for the corpora and
the spec's corpus tables; a sandboxed child of ``bpe-kata gate`` cannot write there (docs/GATE.md).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from bpe_kata.data.corpora import user_cache_dir

T = TypeVar("T")

#: The first line of every file: a changed layout is a different magic, so an old file is recomputed.
MAGIC = b"bpe-kata value cache 1\n"


def key_of(*parts: str | bytes) -> str:
    """A file-name-safe digest of everything a value is computed from."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:32]


def source_digest(*files: str | os.PathLike) -> str:
    """The SHA-256 of source files (the code that computes a value), for ``key_of``."""
    return key_of(*(Path(file).read_bytes() for file in files))


def path_of(kind: str, key: str, folder: Path | None = None) -> Path:
    return (folder or user_cache_dir()) / f"{kind}-{key}.bin"


def read(path: Path) -> object | None:
    """The stored value, or None when the file is missing, corrupted or not one of these files."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, digest, payload = data[:len(MAGIC)], data[len(MAGIC):len(MAGIC) + 64], data[len(MAGIC) + 64:]
    if head != MAGIC or digest != hashlib.sha256(payload).hexdigest().encode("ascii"):
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def write(path: Path, value: object) -> None:
    """Store ``value`` (plain data: tuples, lists, dicts, ints, bytes, str) atomically; a cache that
    cannot be written only makes the next run slower."""
    payload = marshal.dumps(value)
    data = MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + payload
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as tmp:
            tmp.write(data)
        os.replace(tmp.name, path)
    except OSError:
        pass


def cached(kind: str, key: str, compute: Callable[[], T], valid: Callable[[object], bool],
           folder: Path | None = None) -> T:
    """``compute()``, or the value stored under ``kind`` and ``key`` when it is there, intact and ``valid``."""
    path = path_of(kind, key, folder)
    stored = read(path)
    if stored is not None and valid(stored):
        return stored  # type: ignore[return-value]
    value = compute()
    write(path, value)
    return value


def all_of(values: Iterable[object], kind: type | tuple[type, ...]) -> bool:
    """Every value is of ``kind`` exactly (``bool`` is not an ``int`` here): for ``valid`` checks.
    The types are gathered at C speed (a million ids are read back per run)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return set(map(type, values)).issubset(kinds)
