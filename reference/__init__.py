"""The reference implementation of byte-level BPE: the fast one the specification checks.

Each module has one job: ``core`` holds the whole-sequence building blocks, ``training``
the incremental trainer, ``encoding`` the rank-ordered replay, ``iterable`` that replay read
lazily from a stream of texts. Beyond the core:
``chunk_training`` and ``splitting`` (split patterns), ``special`` (special tokens),
``persist`` (save and load), ``stream`` (incremental decoding). Input is checked in two
places: ``tables`` (one rule for merge tables and special tokens, whoever receives them)
and ``scalar_text`` (surrogates in a str repaired as tiktoken repairs them).
"""

from .core import build_vocab, decode, get_stats, merge
from .encoding import encode
from .iterable import encode_iterable
from .persist import load, save
from .stream import StreamDecoder
from .training import train
from .words import segment_word, train_words

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "train_words",
           "segment_word", "save", "load", "StreamDecoder"]
