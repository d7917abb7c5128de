"""The claims ledger: every claim of the source documents, by stable id (spec/claims.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

LEDGER_PATH = Path(__file__).with_name("claims.toml")
KINDS = ("contract", "fact", "informative")

#: The five source documents, by title (shared/seeds/README.md gives their files).
DOCUMENTS = (
    "The Merge Table Is the Tokenizer: Why Tokenize, and BPE from Scratch",
    "Build a BPE Tokenizer: Why Your Model Can't Count the R's",
    "Tokenization: Byte-Pair Encoding by Hand",
    "A BPE Tokenizer Is a Learned Rewrite Program",
    "Part I — Basics: Tokenization — BPE from raw bytes",
)

#: Short keys some claim ids carry (``corpus.d1-merges``): ``d1`` is the second document above.
DOCUMENT_KEYS = {f"d{number}": title for number, title in enumerate(DOCUMENTS)}


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
    also_fact: bool = False
    added: bool = False
    #: "first-counted" when the claim's values hold only under that tie rule, else ""
    depends_on_tie_rule: str = ""
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def asserted(self) -> bool:
        """Contract and fact claims must each have at least one test."""
        return self.kind in ("contract", "fact")


@lru_cache(maxsize=None)
def load_claims(path: Path = LEDGER_PATH) -> dict[str, Claim]:
    """All claims by id, in ledger order."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    claims: dict[str, Claim] = {}
    for entry in data.get("claim", []):
        known = {k: entry[k] for k in ("id", "level", "kind", "statement") if k in entry}
        extra = {k: v for k, v in entry.items() if k not in Claim.__dataclass_fields__}
        claims[entry["id"]] = Claim(
            **known,
            sources=tuple(entry.get("sources", ())),
            reason=entry.get("reason", ""),
            also_fact=bool(entry.get("also_fact", False)),
            added=bool(entry.get("added", False)),
            depends_on_tie_rule=entry.get("depends_on_tie_rule", ""),
            extra=extra,
        )
    return claims
