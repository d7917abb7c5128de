"""The claims ledger: every claim of the source documents, by stable id (spec/claims.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

LEDGER_PATH = Path(__file__).with_name("claims.toml")
KINDS = ("contract", "fact", "informative")

FIELDS = ("id", "level", "kind", "sources", "statement", "reason", "added", "note", "depends_on_tie_rule")


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

    @property
    def asserted(self) -> bool:
        """Contract and fact claims must each have at least one test."""
        return self.kind in ("contract", "fact")


@lru_cache(maxsize=None)
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
        )
    return claims
