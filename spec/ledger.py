"""The claims ledger: every claim of the source documents, by stable id (spec/claims.toml)."""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LEDGER_PATH = Path(__file__).with_name("claims.toml")
KINDS = ("contract", "fact", "informative")

FIELDS = ("id", "level", "kind", "sources", "statement", "reason", "added", "note", "depends_on_tie_rule", "rests_on")


def _read(path: Path) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


#: The source documents by the short key claims cite them with (the ledger's [documents] table);
#: claim ids carry the same keys (``corpus.d1-merges``).
DOCUMENT_KEYS: dict[str, str] = dict(_read(LEDGER_PATH)["documents"])
DOCUMENTS: tuple[str, ...] = tuple(DOCUMENT_KEYS.values())


def document_keys_in(claim_ids) -> dict[str, str]:
    """The document keys used by these claim ids, with the title each stands for (for the report's note)."""
    used = {part.split("-")[0] for cid in claim_ids for part in cid.split(".")[1:]}
    return {key: title for key, title in DOCUMENT_KEYS.items() if key in used}


@dataclass(frozen=True)
class Claim:
    id: str
    level: str
    kind: str
    sources: tuple[str, ...]
    statement: str
    reason: str = ""
    added: bool = False
    #: "first-counted" when the claim's values hold only under that tie rule, else ""
    depends_on_tie_rule: str = ""
    #: the claims this one's tests also exercise (ids, or patterns such as "merge.*"), resolved by
    #: ``prerequisites``: while one of them is broken in a run, a failure here is "not judged"
    rests_on: tuple[str, ...] = ()

    @property
    def asserted(self) -> bool:
        """Contract and fact claims must each have at least one test."""
        return self.kind in ("contract", "fact")


@cache
def load_claims(path: Path = LEDGER_PATH) -> dict[str, Claim]:
    """All claims by id, in ledger order, their sources resolved from document keys to titles."""
    data = _read(path)
    documents = data.get("documents", {})
    claims: dict[str, Claim] = {}
    for entry in data.get("claim", []):
        unknown = sorted(set(entry) - set(FIELDS))
        if unknown:
            raise ValueError(f"claim {entry.get('id')!r} has unknown fields {unknown}")
        uncited = [key for key in entry.get("sources", ()) if key not in documents]
        if uncited:
            raise ValueError(f"claim {entry['id']!r} cites unknown documents {uncited}")
        claims[entry["id"]] = Claim(
            id=entry["id"], level=entry["level"], kind=entry["kind"], statement=entry["statement"],
            sources=tuple(documents[key] for key in entry.get("sources", ())),
            reason=entry.get("reason", ""),
            added=bool(entry.get("added", False)),
            depends_on_tie_rule=entry.get("depends_on_tie_rule", ""),
            rests_on=tuple(entry.get("rests_on", ())),
        )
    return claims


def resolve(pattern: str, claims: dict[str, Claim]) -> list[str]:
    """The claim ids a ``rests_on`` entry names: itself, or every id its pattern ("train.*") matches."""
    if any(ch in pattern for ch in "*?["):
        return [cid for cid in claims if fnmatch.fnmatchcase(cid, pattern)]
    return [pattern] if pattern in claims else []


@cache
def prerequisites(path: Path = LEDGER_PATH) -> dict[str, tuple[str, ...]]:
    """Claim -> the claims it rests on directly (patterns expanded; a claim never rests on itself)."""
    claims = load_claims(path)
    return {cid: tuple(dict.fromkeys(other for pattern in claim.rests_on for other in resolve(pattern, claims)
                                     if other != cid))
            for cid, claim in claims.items()}


def unknown_prerequisites(path: Path = LEDGER_PATH) -> dict[str, list[str]]:
    """Claim -> the ``rests_on`` entries that name no claim (a typo, or a claim since renamed)."""
    claims = load_claims(path)
    return {cid: bad for cid, claim in claims.items()
            if (bad := [pattern for pattern in claim.rests_on if not resolve(pattern, claims)])}


def prerequisite_cycle(graph: dict[str, tuple[str, ...]]) -> list[str] | None:
    """A cycle of the graph (as the list of ids round it), or None when it is acyclic."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in graph:
        if node not in state and (found := visit(node)):
            return found
    return None


def not_judged(
    broken: set[str] | dict[str, str], graph: dict[str, tuple[str, ...]] | None = None
) -> dict[str, tuple[str, ...]]:
    """Of the claims broken in a run, those resting (directly or through other claims) on another broken one:
    claim -> the broken claims it rests on that are judged broken themselves (the ones to fix first).

    A failure there may be the prerequisite's, so it is not blamed on the claim. The graph is acyclic, so
    every chain ends at a broken claim that rests on nothing broken: the run keeps at least one judged claim.
    """
    graph = prerequisites() if graph is None else graph
    broken = set(broken)

    def broken_below(cid: str, seen: set[str]) -> set[str]:
        found: set[str] = set()
        for other in graph.get(cid, ()):
            if other in seen:
                continue
            seen.add(other)
            found |= {other} if other in broken else set()
            found |= broken_below(other, seen)
        return found

    below = {cid: broken_below(cid, set()) for cid in broken}
    resting = {cid for cid, found in below.items() if found}
    order = {cid: i for i, cid in enumerate(graph)}
    return {cid: tuple(sorted(below[cid] - resting, key=lambda c: order.get(c, len(order)))) for cid in resting}
