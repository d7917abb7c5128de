"""F1/F2 (minbpe npm): encode scans positions left to right and applies the first table entry matching there."""
from spec.oracle.core import build_vocab, decode, get_stats, merge, train, utf8  # noqa: F401


def encode(text, merges):
    ids = list(utf8(text))
    changed = True
    while changed:
        changed, out, i = False, [], 0
        while i < len(ids):
            for pair, idx in merges.items():
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    out.append(idx); i += 2; changed = True
                    break
            else:
                out.append(ids[i]); i += 1
        ids = out
    return ids
