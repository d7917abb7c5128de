"""The stdio protocol's values (docs/PROTOCOL.md): contract values to JSON and back.

One table names the kind of every argument and result of every operation, and each kind
has one codec, so the client (bpe_kata.child.client) and the server (bpe_kata.child.server) cannot
disagree on a shape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = 1

#: Error kinds a response may carry; the first three are the contract's own exceptions.
NOT_IMPLEMENTED = "NotImplemented"
OTHER_ERROR = "Error"
CHANGED_INPUT = "ChangedInput"

#: Operations and the keyword that makes each keyword feature (spec/levels.py names them).
KEYWORD_FEATURES: dict[str, dict[str, str]] = {
    "train": {"pattern": "train(pattern=)", "tie_rule": "train(tie_rule=)", "special_tokens": "train(special_tokens=)"},
    "encode": {"pattern": "encode(pattern=)", "special_tokens": "encode(special_tokens=)",
               "allowed_special": "encode(special_tokens=)", "disallowed_special": "encode(special_tokens=)"},
    "encode_iterable": {"pattern": "encode(pattern=)", "special_tokens": "encode(special_tokens=)",
                        "allowed_special": "encode(special_tokens=)", "disallowed_special": "encode(special_tokens=)"},
    "build_vocab": {"special_tokens": "build_vocab(special_tokens=)"},
}
OPERATIONS = ("get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "save", "load",
              "train_words", "segment_word")
#: Optional batches (docs/PROTOCOL.md, "Batches"): a child whose hello lists ``"batch": ["encode"]`` also
#: takes ``encode_batch``, the ``encode(text, merges)`` of each of several texts in one request.
BATCHES: dict[str, str] = {"encode": "encode_batch"}


@dataclass(frozen=True)
class Kind:
    """How one kind of value travels: ``dump`` makes it JSON-ready, ``load`` makes it a Python value."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    mutable: bool = False  # the server checks an argument of this kind is unchanged after a call


def only_ints(values: list) -> bool:
    """Every item is an int exactly (a bool is not), the types gathered at C speed (ids come by the million)."""
    return not values or set(map(type, values)) == _INT_ONLY


_INT_ONLY = {int}


def _ids(value: Iterable[int]) -> list[int]:
    if type(value) is list and only_ints(value):
        return value  # already what the line holds: not copied
    return [int(i) for i in value]


def _merges_dump(table: Mapping) -> list[list[int]]:
    return [[int(a), int(b), int(idx)] for (a, b), idx in table.items()]


def _merges_load(rows: list) -> dict[tuple[int, int], int]:
    return {(a, b): idx for a, b, idx in rows}


def _vocab_dump(vocab: Mapping) -> list[list]:
    return [[int(idx), bytes(token).hex()] for idx, token in vocab.items()]


def _vocab_load(rows: list) -> dict[int, bytes]:
    return {idx: bytes.fromhex(token) for idx, token in rows}


def _specials_dump(specials: Mapping | None) -> list | None:
    return None if specials is None else [[str(s), int(i)] for s, i in specials.items()]


def _specials_load(rows: list | None) -> dict[str, int] | None:
    return None if rows is None else {s: i for s, i in rows}


def _special_set_dump(value) -> str | list[str]:
    return value if value == "all" else [str(s) for s in value]


def _special_set_load(value) -> str | set[str]:
    return value if value == "all" else set(value)


def _corpus_dump(corpus) -> str | list:
    return corpus if isinstance(corpus, str) else [[str(w), int(n)] for w, n in corpus.items()]


def _corpus_load(value) -> str | dict[str, int]:
    return value if isinstance(value, str) else {w: n for w, n in value}


def _word_pairs_dump(merges: Iterable) -> list[list[str]]:
    """``segment_word`` takes train_words' items ``((l, r), n)`` or bare pairs ``(l, r)``."""
    rows = []
    for item in merges:
        pair = item[0] if isinstance(item[0], (tuple, list)) else item
        rows.append([str(pair[0]), str(pair[1])])
    return rows


def _loaded_dump(value) -> dict:
    merges, pattern, specials = value
    return {"merges": _merges_dump(merges), "pattern": pattern, "special_tokens": _specials_dump(dict(specials))}


def _loaded_load(value: dict) -> tuple:
    return _merges_load(value["merges"]), value["pattern"], _specials_load(value["special_tokens"]) or {}


_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def needs_code_points(value) -> bool:
    """A str holding a high surrogate followed by a low one, which JSON cannot carry as itself.

    JSON reads the escapes ``\\ud800\\udc00`` as the one character U+10000, so such a str
    would arrive one code point shorter. A child whose hello says ``"code_points": true``
    is sent it as ``{"code_points": [...]}`` instead (``code_points_of``).
    """
    return isinstance(value, str) and _SURROGATE_PAIR.search(value) is not None


def code_points_of(text: str) -> dict:
    return {"code_points": [ord(c) for c in text]}


def _text_dump(text: str) -> str:
    return str(text)


def _text_load(value) -> str:
    return "".join(map(chr, value["code_points"])) if isinstance(value, dict) else value


def _optional_text_load(value) -> str | None:
    return None if value is None else _text_load(value)


TEXT = Kind(_text_dump, _text_load)
#: ``encode_iterable``'s texts travel as one list (read whole, so the protocol judges the ids, not the laziness).
TEXTS = Kind(lambda texts: [_text_dump(t) for t in texts], lambda values: iter([_text_load(v) for v in values]))
OPTIONAL_TEXT = Kind(lambda v: None if v is None else _text_dump(v), _optional_text_load)
INT = Kind(int, int)
PATH = Kind(lambda p: str(p), str)
IDS = Kind(_ids, list, mutable=True)
PAIR = Kind(lambda p: [int(p[0]), int(p[1])], tuple)
MERGES = Kind(_merges_dump, _merges_load, mutable=True)
VOCAB = Kind(_vocab_dump, _vocab_load, mutable=True)
SPECIALS = Kind(_specials_dump, _specials_load, mutable=True)
SPECIAL_SET = Kind(_special_set_dump, _special_set_load)
#: ``train``'s specials: a list of strings (no ids: the table holds merges only).
SPECIAL_STRINGS = Kind(lambda v: None if v is None else [str(s) for s in v], lambda v: None if v is None else list(v),
                       mutable=True)
CORPUS = Kind(_corpus_dump, _corpus_load, mutable=True)
WORD_PAIRS = Kind(_word_pairs_dump, lambda rows: [tuple(r) for r in rows], mutable=True)
STATS = Kind(
    lambda s: [[int(a), int(b), int(n)] for (a, b), n in s.items()], lambda rows: {(a, b): n for a, b, n in rows}
)
WORD_MERGES = Kind(lambda m: [[[str(a), str(b)], int(n)] for (a, b), n in m],
                   lambda rows: [((a, b), n) for (a, b), n in rows])
WORDS = Kind(lambda w: [str(s) for s in w], list)
NULL = Kind(lambda _: None, lambda _: None)
LOADED = Kind(_loaded_dump, _loaded_load)  # the pattern goes as the implementation gave it
STREAM = Kind(lambda v: {"feeds": [str(s) for s in v[0]], "flush": str(v[1])},
              lambda v: (list(v["feeds"]), v["flush"]))

#: Every operation's arguments (positional first, in the contract's order) and result.
ARGUMENTS: dict[str, dict[str, Kind]] = {
    "get_stats": {"ids": IDS},
    "merge": {"ids": IDS, "pair": PAIR, "idx": INT},
    "train": {"text": TEXT, "vocab_size": INT, "pattern": OPTIONAL_TEXT, "tie_rule": TEXT,
              "special_tokens": SPECIAL_STRINGS},
    "build_vocab": {"merges": MERGES, "special_tokens": SPECIALS},
    "decode": {"ids": IDS, "vocab": VOCAB},
    "encode": {"text": TEXT, "merges": MERGES, "pattern": OPTIONAL_TEXT, "special_tokens": SPECIALS,
               "allowed_special": SPECIAL_SET, "disallowed_special": SPECIAL_SET},
    "encode_iterable": {"texts": TEXTS, "merges": MERGES, "pattern": OPTIONAL_TEXT, "special_tokens": SPECIALS,
                        "allowed_special": SPECIAL_SET, "disallowed_special": SPECIAL_SET},
    "save": {"path": PATH, "merges": MERGES, "pattern": OPTIONAL_TEXT, "special_tokens": SPECIALS},
    "load": {"path": PATH},
    "stream_decode": {"vocab": VOCAB, "ids": IDS},
    "train_words": {"corpus": CORPUS, "num_merges": INT, "end_of_word": OPTIONAL_TEXT},
    "segment_word": {"word": TEXT, "merges": WORD_PAIRS, "end_of_word": OPTIONAL_TEXT},
}
POSITIONAL: dict[str, tuple[str, ...]] = {
    "get_stats": ("ids",), "merge": ("ids", "pair", "idx"), "train": ("text", "vocab_size"),
    "build_vocab": ("merges",), "decode": ("ids", "vocab"), "encode": ("text", "merges"),
    "encode_iterable": ("texts", "merges"), "save": ("path", "merges"),
    "load": ("path",), "stream_decode": ("vocab", "ids"), "train_words": ("corpus", "num_merges"),
    "segment_word": ("word", "merges"),
}
RESULTS: dict[str, Kind] = {
    "get_stats": STATS, "merge": IDS, "train": MERGES, "build_vocab": VOCAB, "decode": TEXT, "encode": IDS,
    "encode_iterable": IDS, "save": NULL, "load": LOADED, "stream_decode": STREAM, "train_words": WORD_MERGES,
    "segment_word": WORDS,
}
#: Kinds a ``define`` may hold, and so an argument may name by ``{"ref": NAME}``.
DEFINABLE: dict[str, Kind] = {"merges": MERGES, "vocab": VOCAB}
#: Tables at least this long are sent once per child with ``define`` and then named by reference:
#: merge tables from 256 merges (a corpus table is passed for each of thousands of pieces; the
#: property tests' tables stay under 50), vocabularies from 2,048 ids (every vocabulary has the
#: 256 bytes, and the property tests build a new one for nearly every call).
DEFINE_AT: dict[str, int] = {"merges": 256, "vocab": 2048}


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"ref"} and isinstance(value["ref"], str)


#: One encoder for every line (``json.dumps`` with options builds a new one per call).
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def encode_line(message: dict) -> bytes:
    """One message as one line. ASCII escapes keep lone surrogates (``\\ud800``) intact."""
    return _LINE_ENCODER.encode(message).encode("ascii") + b"\n"


def decode_line(line: bytes | str) -> dict:
    """One line as a message; ValueError when it is not a JSON object."""
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("a message must be a JSON object")
    return message


def error_response(request_id, kind: str, message: str, **extra) -> dict:
    return {"id": request_id, "ok": False, "error": {"kind": kind, "message": message, **extra}}
