"""F7 (sunadase/minbpe_rust): ids start from code points, not UTF-8 bytes (encode and train)."""
from spec.oracle import core
from spec.oracle.core import build_vocab, decode, get_stats, merge  # noqa: F401
from tests.implementations._rehome import rehome


def utf8(text):
    return [ord(c) for c in core.scalar_text(text)]


train = rehome(core.train, globals())
encode = rehome(core.encode, globals())
