"""F4 (minbpe npm: TextDecoder drops a leading BOM): decode loses a leading U+FEFF. Passes every core level."""
from spec.oracle.core import build_vocab, encode, get_stats, merge, train  # noqa: F401


def decode(ids, vocab):
    for i in ids:
        if i not in vocab:
            raise KeyError(f"unknown token id {i}")
    return b"".join(vocab[i] for i in ids).decode("utf-8-sig", errors="replace")
