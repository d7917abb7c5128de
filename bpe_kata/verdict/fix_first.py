"""Which broken claim to fix first: the order the claims list is printed in, and the run's last line.

One bug breaks many claims: a ``get_stats`` that counts wrongly breaks the pairs claims, then
training, then facts measured on trained tables. The list leads with the claim whose fix is most
likely to mend the others, decided by, in turn:

1. a root: none of the claims it rests on (spec/claims.toml ``rests_on``, followed through, and what it rests on in
   this run alone: the split, for code that splits every text, bpe_kata/verdict/composition.py) is broken;
2. the lowest level it shows at in this run: its own, or that of a claim its fix may mend by this run's evidence
   alone (its reach: the claims whose tests could not run behind a crash it most likely is, or behind the crash of a
   broken claim resting on it, and the broken claims resting on it in this run only, composition.py). The kata is
   climbed level by level, so the defect that shows lowest is met first: a split that makes training crash in the
   tests of two dozen training claims comes before a decode claim (sixth round: decode.unknown-id was named first),
   and a bytes-level crash before a training crash that holds up more claims higher up (seventh round, development);
   a crash that holds up only claims above another root's level does not pass it (train.min-vocab before a surrogate
   crash that holds up a pretrained claim);
3. its own level (bytes before pairs before train ...), then the size of its reach: a likely mistake seen on a later
   level never hides a broken lower one (issue 37: a port whose bytes were wrong was told to fix its pair order first);
4. a claim a confirmed likely mistake names (bpe_kata/verdict/teaching.py): the probe saw that bug;
5. more claims resting on it (fixing train.exhausted may mend dozens; a missing input check such as
   train.min-vocab mends none: issue 37, where it led the list of most CS336 solutions);
6. a contract claim before a fact or an informative one (a corpus figure follows from the contract);
7. fewer prerequisites below it (closer to the bottom of the ledger's graph), then ledger order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from spec.ledger import load_claims, prerequisites
from spec.levels import ALL_LEVEL_NAMES

_KIND_RANK = {"contract": 0, "fact": 1, "informative": 2}


def ledger_prerequisites(cid: str) -> frozenset[str]:
    """Every claim ``cid`` rests on in the ledger, directly or through others."""
    return _below().get(cid, frozenset())


@cache
def _below() -> dict[str, frozenset[str]]:
    """Claim -> every claim it rests on, directly or through others."""
    graph = prerequisites()
    memo: dict[str, frozenset[str]] = {}

    def walk(cid: str, path: frozenset[str]) -> frozenset[str]:
        if cid not in memo:
            found: set[str] = set()
            for other in graph.get(cid, ()):
                if other not in path:
                    found |= {other} | walk(other, path | {other})
            memo[cid] = frozenset(found)
        return memo[cid]

    return {cid: walk(cid, frozenset({cid})) for cid in graph}


@cache
def _resting_on() -> dict[str, int]:
    """Claim -> how many claims rest on it, directly or through others: fixing it may mend them."""
    counts: dict[str, int] = {}
    for under in _below().values():
        for cid in under:
            counts[cid] = counts.get(cid, 0) + 1
    return counts


def order(broken: Iterable[str], diagnosed: Iterable[str] = (),
          run_prerequisites: Mapping[str, frozenset[str]] | None = None,
          held: Mapping[str, Iterable[str]] | None = None) -> list[str]:
    """``broken`` claim ids, the one to fix first leading (see the module's docstring); ``run_prerequisites``:
    claim -> every claim it rests on in this run, in place of the ledger's (bpe_kata/verdict/composition.py);
    ``held``: claim -> the claims whose tests could not run behind a crash it most likely is."""
    broken = list(dict.fromkeys(broken))
    named, every = set(diagnosed), set(broken)
    ledger, below, resting = load_claims(), _below(), _resting_on()
    position = {cid: i for i, cid in enumerate(ledger)}

    def under(cid: str) -> frozenset[str]:
        return (run_prerequisites or {}).get(cid, below.get(cid, frozenset()))

    def key(cid: str) -> tuple:
        claim = ledger.get(cid)
        reached = reach(cid, every, under, held or {})
        return (bool(under(cid) & (every - {cid})), min(map(_level_rank, reached | {cid})), _level_rank(cid),
                -len(reached), cid not in named, -resting.get(cid, 0), _KIND_RANK.get(claim.kind if claim else "", 3),
                len(under(cid)), position.get(cid, len(position)))

    return sorted(broken, key=key)


def _level_rank(cid: str) -> int:
    """The claim's level's place in the climb (a claim outside the ledger: after every level)."""
    claim = load_claims().get(cid)
    return ALL_LEVEL_NAMES.index(claim.level) if claim and claim.level in ALL_LEVEL_NAMES else len(ALL_LEVEL_NAMES)


def reach(cid: str, broken: set[str], under, held: Mapping[str, Iterable[str]]) -> set[str]:
    """The claims fixing ``cid`` may mend by this run's evidence (the module's docstring, key 2): those held up behind
    its crash or the crash of a broken claim resting on it, and the broken claims resting on it in this run only."""
    found = set(held.get(cid, ()))
    for other in (broken | set(held)) - {cid}:  # a crash's claim "not judged" behind this one holds claims up too
        if cid in under(other):
            found |= set(held.get(other, ()))
            if cid not in ledger_prerequisites(other):  # an edge of this run's composition: its evidence
                found.add(other)
    return found - {cid}


def diagnosed_claims(diagnoses: Iterable) -> set[str]:
    """The claims the confirmed likely mistakes name (their teaching.toml ``when``)."""
    return {cid for diagnosis in diagnoses for cid in diagnosis.mistake.when}
