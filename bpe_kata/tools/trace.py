"""``bpe-kata trace``: training as it happens, one merge at a time.

An implementation's ``train`` is one call that returns the whole table, so the trace does not
watch it train: it replays the returned merges, in order, over the same corpus (spec/replay.py's
counting: overlapping occurrences of a pair like ``aa`` are counted as get_stats counts them) and
reports, for each merge, the count its pair had just before it was merged and the bytes per
token so far. For a correct trainer those counts are the ones it chose by.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass

from bpe_kata.tools.show import token_bytes
from spec.replay import as_symbols, pair_count

Pair = tuple[int, int]


@dataclass(frozen=True)
class Step:
    number: int  # 1 for the first merge
    pair: Pair
    new_id: int
    left: bytes
    right: bytes
    count: int  # occurrences of the pair just before this merge
    tokens: int  # length of the corpus after this merge
    bytes_per_token: float

    def as_json(self) -> dict:
        data = asdict(self)
        data.update(pair=list(self.pair), left=escaped(self.left), right=escaped(self.right),
                     token=escaped(self.left + self.right), bytes_per_token=round(self.bytes_per_token, 4))
        return data

    def line(self) -> str:
        return (f"{self.number:>5}  {quoted(self.left)} + {quoted(self.right)} -> {quoted(self.left + self.right)}"
                f" = {self.new_id}   count {self.count:,}   bytes/token {self.bytes_per_token:.4f}")


def escaped(data: bytes) -> str:
    """Bytes as text with escapes: partial characters as ``\\xe2``, control characters as ``\\n``."""
    text = data.decode("utf-8", errors="backslashreplace")
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii") for ch in text)


def quoted(data: bytes) -> str:
    return "'" + escaped(data).replace("'", "\\'") + "'"


def replay_steps(text: str, merges: Mapping[Pair, int], broken: list[str] | None = None) -> Iterator[Step]:
    """Each merge of ``merges`` (in their order) applied to ``text``, with its pair's count before it.

    A broken table is traced as far as it goes: what is wrong with it is appended to ``broken``
    (``show.token_bytes``), and an entry that is not a pair of ids with an id is left out."""
    symbols = as_symbols(text)
    size = len(symbols) or 1
    vocab = token_bytes(merges, broken=broken)
    usable = [(pair, idx) for pair, idx in merges.items() if isinstance(pair, tuple) and len(pair) == 2
              and all(isinstance(x, int) and 0 <= x < 0x110000 for x in (*pair, idx))]
    for number, (pair, idx) in enumerate(usable, 1):
        count = pair_count(symbols, pair)
        symbols = symbols.replace(chr(pair[0]) + chr(pair[1]), chr(idx))
        yield Step(number, pair, idx, vocab.get(pair[0], b"?"), vocab.get(pair[1], b"?"), count, len(symbols),
                   size / max(len(symbols), 1))
