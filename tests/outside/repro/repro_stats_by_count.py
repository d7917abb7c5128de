"""F8 (sunadase/minbpe_rust HashMap+heap, minbpe.cpp std::map): right counts, keys not in first-seen order.
Also shown by the suite's own tests.implementations.wrong_pairs_sorted at --level pairs."""
from spec.oracle import core
from spec.oracle.core import build_vocab, decode, merge  # noqa: F401
from tests.implementations._rehome import rehome


def get_stats(ids):
    counts = core.get_stats(list(ids))
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
