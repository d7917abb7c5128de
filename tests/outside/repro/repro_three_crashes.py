"""F13 (minbpe.cpp through an adapter): three different bugs raise one exception type from one helper.
The report shows one root cause (one place) with one likely claim; train.exhausted and pairs.short-input
are only "could not run"."""
from spec.oracle import core
from spec.oracle.core import build_vocab, decode, merge  # noqa: F401
from tests.implementations._rehome import rehome


class Crashed(RuntimeError):
    pass


def crash(what):
    raise Crashed(what)


def get_stats(ids):
    ids = list(ids)
    if not ids:
        crash("segfault: get_stats of an empty list")
    return core.get_stats(ids)


def check_vocab_size(vocab_size):
    if vocab_size < 256:
        crash("abort: vocab_size >= 256 assertion")


def most_frequent(stats):
    if not stats:
        crash("segfault: stats[0] of no pairs")
    return core.most_frequent(stats)


def _train(text, vocab_size):
    check_vocab_size(vocab_size)
    ids = list(core.utf8(text))
    merges = {}
    for idx in range(256, vocab_size):
        best = most_frequent(core.get_stats(ids))
        ids = merge(ids, best, idx)
        merges[best] = idx
    return merges


train = rehome(_train, globals())
encode = rehome(core.encode, globals())
