"""F3/F14 (minbpe npm, minbpe.cpp): decode skips ids missing from the vocabulary."""
from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids if i in vocab).decode("utf-8", errors="replace")
