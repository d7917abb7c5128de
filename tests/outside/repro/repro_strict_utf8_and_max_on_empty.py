"""A2 (karpathy/minbpe): no surrogate repair (strict UTF-8) AND max() over an empty dict when no pair is left.
On the scratch merge surrogates.repaired is 'not judged: rests on train.exhausted', though
encode(text, {}) fails alone."""
from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome


def utf8(text):
    return text.encode("utf-8")


def _train(text, vocab_size):
    check_vocab_size(vocab_size)
    ids = list(utf8(text))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        best = max(stats, key=stats.get)
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges


check_vocab_size = core.check_vocab_size
train = rehome(_train, globals())
encode = rehome(core.encode, globals())
