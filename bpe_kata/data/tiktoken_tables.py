"""tiktoken, the independent reference, built offline from the verified published files.

tiktoken's own registry (tiktoken_ext.openai_public) builds each encoding: its split
pattern, its special tokens, and (for GPT-2) its own reading of encoder.json and vocab.bpe.
Only the file reads are redirected: each file the registry asks for, by the SHA-256 it
expects, is served from the verified local copy, so nothing is ever downloaded.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache

from bpe_kata.data import value_cache
from bpe_kata.data.published import FILES, INSTALL_HINT, TableUnavailable, read_verified


@cache
def encoding(name: str):
    """tiktoken's Encoding ``name`` ("gpt2", "cl100k_base"); TableUnavailable when it cannot be built."""
    try:
        import tiktoken.load  # noqa: F401 - present, or the install hint below
        from tiktoken_ext import openai_public  # noqa: F401
    except ImportError as error:
        raise TableUnavailable(f"tiktoken cannot be imported ({error}) in {sys.prefix}: {INSTALL_HINT}") from None
    by_hash = {file.sha256: file.filename for file in FILES.values()}
    return served_from(name, lambda sha256: read_verified(by_hash[sha256]) if sha256 in by_hash else None,
                       "which the suite does not ship; tiktoken's registry changed: pin tiktoken to the range in "
                       "pyproject.toml", cache_key=_cache_key(name))


def _cache_key(name: str) -> str | None:
    """What tiktoken's reading of the published files depends on: tiktoken's version (its registry and
    its readers), the files' SHA-256 (each file is read and checked again before the stored reading is
    used) and this module. None when the name is not a published table the suite ships."""
    from importlib import metadata

    from bpe_kata.data.published import TOKENIZERS

    if name not in TOKENIZERS:
        return None
    for file in TOKENIZERS[name].files:
        read_verified(file.filename)  # present and the published bytes, or TableUnavailable as before
    try:
        version = metadata.version("tiktoken")
    except metadata.PackageNotFoundError:
        return None
    return value_cache.key_of(name, version, *(file.sha256 for file in TOKENIZERS[name].files),
                              value_cache.source_digest(__file__))


def served_from(name: str, local, missing: str, cache_key: str | None = None):
    """tiktoken's own Encoding ``name`` built with every file it would download served by ``local(sha256)``
    (verified bytes, or None when there are none: TableUnavailable, ``missing`` saying why).

    With ``cache_key``, the arguments tiktoken's registry makes of the files (its own reading:
    ranks, pattern, special tokens) are kept on disk under that key (bpe_kata/data/value_cache.py)
    and the Encoding is built from them: the same Encoding, without parsing the files again."""
    import tiktoken

    if cache_key is None:
        return tiktoken.Encoding(**_registry_params(name, local, missing))
    params = value_cache.cached("tiktoken", cache_key, lambda: _registry_params(name, local, missing), _is_params)
    return tiktoken.Encoding(**params)


def _is_params(value: object) -> bool:
    """The shape of the registry's arguments to ``tiktoken.Encoding``."""
    if not (isinstance(value, dict) and set(value) <= {"name", "explicit_n_vocab", "pat_str", "mergeable_ranks",
                                                         "special_tokens"}):
        return False
    ranks, specials = value.get("mergeable_ranks"), value.get("special_tokens")
    return (type(value.get("name")) is str and type(value.get("pat_str")) is str
            and type(ranks) is dict and value_cache.all_of(ranks, bytes) and value_cache.all_of(ranks.values(), int)
            and type(specials) is dict and value_cache.all_of(specials, str)
            and value_cache.all_of(specials.values(), int))


def _registry_params(name: str, local, missing: str) -> dict:
    """What tiktoken's registry passes to ``tiktoken.Encoding`` for ``name``, its files served by ``local``."""
    import tiktoken.load
    from tiktoken_ext import openai_public

    def read_local(blobpath: str, expected_hash: str | None = None) -> bytes:
        data = local(expected_hash)
        if data is None:
            raise TableUnavailable(f"tiktoken wants {blobpath} (sha256 {expected_hash}), {missing}")
        return data

    original = tiktoken.load.read_file_cached
    tiktoken.load.read_file_cached = read_local
    try:
        return openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        tiktoken.load.read_file_cached = original


#: Texts at least this long (the corpora) have their tiktoken ids kept on disk.
REMEMBERED_CHARS = 1 << 16


class RememberedEncoding:
    """tiktoken's Encoding as the spec uses it, with its ids for whole corpora kept on disk.

    ``encode(text)`` of a text of ``REMEMBERED_CHARS`` or more, with tiktoken's default policy,
    is stored under the encoding's cache key and the text's SHA-256 (bpe_kata/data/value_cache.py)
    and read back only when the stored ids decode, through tiktoken, to exactly that text. Every
    other call, and every other attribute, is the Encoding's own.
    """

    def __init__(self, encoding, cache_key: str) -> None:
        self._encoding, self._key = encoding, cache_key

    def __getattr__(self, name: str):
        value = getattr(self._encoding, name)
        if callable(value):  # a bound method stays the same: looked up once (100,000 calls in a test)
            setattr(self, name, value)
        return value

    def encode(self, text: str, **policy) -> list[int]:
        if policy or len(text) < REMEMBERED_CHARS:
            return self._encoding.encode(text, **policy)
        data = text.encode("utf-8")
        size = self._encoding.n_vocab

        def spells_the_text(ids: object) -> bool:
            return (type(ids) is list and value_cache.all_of(ids, int)
                    and (not ids or 0 <= min(ids) and max(ids) < size) and self._encoding.decode_bytes(ids) == data)

        key = value_cache.key_of(self._key, hashlib.sha256(data).hexdigest())
        return list(value_cache.cached("tiktoken-ids", key, lambda: self._encoding.encode(text), spells_the_text))


@cache
def remembered(name: str) -> RememberedEncoding | object:
    """``encoding(name)``, its whole-corpus encodings kept on disk where the table has a cache key."""
    key = _cache_key(name)
    return encoding(name) if key is None else RememberedEncoding(encoding(name), key)
