"""The reference implementation of byte-level BPE: the fast one the specification checks.

Each module has one job: ``core`` holds the whole-sequence building blocks, ``training``
the incremental trainer, ``encoding`` the rank-ordered replay.
"""

from .core import build_vocab, decode, get_stats, merge
from .encoding import encode
from .training import train

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode"]
