"""Plumbing for the known-wrong modules: make an oracle function use the module's own replacements.

``from spec.oracle.core import train`` copies a name, so the copied ``train`` would still call
the oracle's ``merge``. A known-wrong module that replaces a helper re-homes the functions
that call it, so the mistake reaches ``train`` and ``encode`` the way it would in a
learner's own file. Re-home the callees before their callers (``train_pieces`` before
``train``): a copy sees the module's names as they are when it is made.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def rehome(func: Callable[..., Any], namespace: dict[str, Any]) -> Callable[..., Any]:
    """A copy of ``func`` whose global names resolve in ``namespace`` first, then in its own module."""
    merged = {**func.__globals__, **namespace}
    clone = types.FunctionType(func.__code__, merged, func.__name__, func.__defaults__, func.__closure__)
    clone.__kwdefaults__ = func.__kwdefaults__
    clone.__doc__ = func.__doc__
    clone.__qualname__ = func.__qualname__
    clone.__annotations__ = dict(func.__annotations__)
    clone.__module__ = namespace.get("__name__", func.__module__)
    return clone


def oracle_with(namespace: dict[str, Any]) -> dict[str, Any]:
    """The whole contract of ``spec.oracle`` (every level), with the core helpers ``namespace`` defines
    (``merge``, ``get_stats``, ``most_frequent``, ``utf8``, the trainer's ``train_pieces``, or the chunker
    ``covering_chunks`` / train's alone ``train_covering_chunks``) put in place
    everywhere the oracle calls them: the production ``train`` (with ``pattern`` and ``tie_rule``), the core's
    and the chunks' encode, and special's ``encode``. A probe (one change to the oracle) calls
    ``globals().update(oracle_with(globals()))``: its mistake then reaches every level, as a learner's would.
    """
    from spec import oracle
    from spec.oracle import chunks, core, special, ties

    helpers = {
        name: namespace.get(name, getattr(core, name)) for name in ("get_stats", "merge", "most_frequent", "utf8")
    }
    core_encode_ids = rehome(core.encode_ids, helpers)  # encode's loop over the bytes: the helpers it calls
    core_encode = rehome(core.encode, {**helpers, "encode_ids": core_encode_ids})
    core_train = rehome(core.train, helpers)
    core_shim = types.SimpleNamespace(**{**vars(core), **helpers, "encode": core_encode, "encode_ids": core_encode_ids,
                                         "train": core_train})
    train_pieces = namespace.get("train_pieces") or rehome(ties.train_pieces, {"merge": helpers["merge"]})
    ties_shim = types.SimpleNamespace(**{**vars(ties), "train_pieces": train_pieces})
    # the chunker: ``covering_chunks`` changes how train and encode cut, ``train_covering_chunks`` train's alone
    chunker = namespace.get("covering_chunks", chunks.covering_chunks)
    encode_chunks = rehome(chunks.encode_chunks, {"core": core_shim, "covering_chunks": chunker})
    chunk_bytes = rehome(chunks.chunk_bytes, {"covering_chunks": namespace.get("train_covering_chunks", chunker)})
    chunks_shim = types.SimpleNamespace(**{**vars(chunks), "encode_chunks": encode_chunks, "chunk_bytes": chunk_bytes})
    return {
        "get_stats": helpers["get_stats"], "merge": helpers["merge"],
        "train": rehome(oracle.train, {"ties": ties_shim, "core": core_shim, "chunks": chunks_shim}),
        "encode": rehome(special.encode, {"core": core_shim, "encode_chunks": encode_chunks}),
        "build_vocab": special.build_vocab, "decode": core.decode, "save": oracle.save, "load": oracle.load,
        "StreamDecoder": oracle.StreamDecoder, "train_words": oracle.train_words, "segment_word": oracle.segment_word,
    }
