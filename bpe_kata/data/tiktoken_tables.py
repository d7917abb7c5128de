"""tiktoken, the independent reference, built offline from the verified published files.

tiktoken's own registry (tiktoken_ext.openai_public) builds each encoding: its split
pattern, its special tokens, and (for GPT-2) its own reading of encoder.json and vocab.bpe.
Only the file reads are redirected: each file the registry asks for, by the SHA-256 it
expects, is served from the verified local copy, so nothing is ever downloaded.
"""

from __future__ import annotations

from functools import cache

from bpe_kata.data.published import FILES, INSTALL_HINT, TableUnavailable, read_verified


@cache
def encoding(name: str):
    """tiktoken's Encoding ``name`` ("gpt2", "cl100k_base"); TableUnavailable when it cannot be built."""
    try:
        import tiktoken.load  # noqa: F401 - present, or the install hint below
        from tiktoken_ext import openai_public  # noqa: F401
    except ImportError as error:
        raise TableUnavailable(
            f"tiktoken is not installed ({error}): pip install tiktoken (or {INSTALL_HINT})") from None
    by_hash = {file.sha256: file.filename for file in FILES.values()}
    return served_from(name, lambda sha256: read_verified(by_hash[sha256]) if sha256 in by_hash else None,
                       "which the suite does not ship; tiktoken's registry changed: pin tiktoken to the range in "
                       "pyproject.toml")


def served_from(name: str, local, missing: str):
    """tiktoken's own Encoding ``name`` built with every file it would download served by ``local(sha256)``
    (verified bytes, or None when there are none: TableUnavailable, ``missing`` saying why)."""
    import tiktoken
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
        params = openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        tiktoken.load.read_file_cached = original
    return tiktoken.Encoding(**params)
