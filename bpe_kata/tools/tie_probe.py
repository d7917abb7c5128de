"""Which documented tie rule an implementation's default ``train`` follows.

Run as ``python -m bpe_kata.tools.tie_probe IMPL`` (a child process: the library may crash or hang);
prints one JSON object. It trains on the ties cases' texts (spec/cases/ties.json) and on small
texts where the three documented rules all disagree, and compares each table with the
reference's under every rule. A rule is named only when it matches on every probe; a library
that follows none is checked against the undocumented rules seen in the wild (``UNDOCUMENTED``).
"""

from __future__ import annotations

import json
import random
import sys

from bpe_kata.impl.loader import load_implementation
from reference import get_stats as reference_get_stats
from reference import merge as reference_merge
from reference import train as reference_train
from spec.cases import cases_of
from spec.tie_rules import TIE_RULES


def _disagreeing_texts(count: int = 6, seed: int = 0) -> list[tuple[str, int]]:
    """Small texts on which every documented rule learns a different table."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        text = "".join(rng.choice("abcdZ ") for _ in range(rng.randint(8, 16)))
        tables = {json.dumps(sorted(reference_train(text, 260, tie_rule=r).items())) for r in TIE_RULES}
        if len(tables) == len(TIE_RULES):
            found.append((text, 260))
    return found


def _byte_level_rank() -> dict[int, int]:
    """Each byte's place when bytes are sorted by GPT-2's printable stand-in character (the order
    tokenizers' byte-level alphabet gets its ids in): printable ASCII and Latin-1 first."""
    kept = {*range(33, 127), *range(161, 173), *range(174, 256)}
    stand_in, extra = {}, 256
    for b in range(256):
        stand_in[b], extra = (b, extra) if b in kept else (extra, extra + 1)
    return {b: place for place, b in enumerate(sorted(range(256), key=stand_in.get))}


def train_lowest_byte_level_pair(text: str, vocab_size: int) -> dict:
    """Ties to the lowest pair of ids when a byte's id is its byte-level rank (merges keep theirs):
    an undocumented rule, named here so that a library following it is recognised."""
    ids, merges, key = list(text.encode("utf-8")), {}, _byte_level_rank()
    for idx in range(256, vocab_size):
        stats = reference_get_stats(ids)
        if not stats:
            break
        top = max(stats.values())
        best = min((p for p, n in stats.items() if n == top), key=lambda p: (key[p[0]], key[p[1]]))
        merges[best], key[idx] = idx, idx
        ids = reference_merge(ids, best, idx)
    return merges


#: Rules no document names, recognised so the matrix can say which one a library follows.
UNDOCUMENTED = {"lowest-pair in byte-level alphabet order": train_lowest_byte_level_pair}


def probes() -> list[tuple[str, int]]:
    from_cases = {(c["input"]["text"], c["input"]["vocab_size"]) for c in cases_of("ties", "train")}
    return sorted(from_cases) + _disagreeing_texts()


def identify(impl) -> dict:
    if not callable(getattr(impl, "train", None)):
        return {"rule": None, "verdict": "no trainer", "probes": []}
    matches = {rule: 0 for rule in TIE_RULES}
    seen = []
    for text, vocab_size in probes():
        learned = [list(pair) + [idx] for pair, idx in dict(impl.train(text, vocab_size)).items()]
        agree = [r for r in TIE_RULES
                 if learned == [list(p) + [i] for p, i in reference_train(text, vocab_size, tie_rule=r).items()]]
        for rule in agree:
            matches[rule] += 1
        seen.append({"text": text, "vocab_size": vocab_size, "merges": learned, "agrees_with": agree})
    whole = [rule for rule, n in matches.items() if n == len(seen)]
    verdict = whole[0] if len(whole) == 1 else "none of the documented rules" if not whole else "undecided"
    if not whole:
        named = [name for name, rule in UNDOCUMENTED.items()
                 if all([list(p) + [i] for p, i in rule(x["text"], x["vocab_size"]).items()] == x["merges"]
                        for x in seen)]
        verdict += f" ({named[0]})" if named else ""
    return {"rule": whole[0] if len(whole) == 1 else None, "verdict": verdict, "matches": matches,
            "probes": seen}


def main(argv: list[str]) -> int:
    print(json.dumps(identify(load_implementation(argv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
