"""Likely mistakes behind a run's broken claims: a table of claim sets and sentences (teaching.toml).

The messages are derived from which claims broke, never from reading the code under test, so
they hold for any language and any isolation.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TABLE_PATH = Path(__file__).with_name("teaching.toml")
MAX_SHOWN = 3


@dataclass(frozen=True)
class Mistake:
    name: str
    when: tuple[str, ...]
    unless: tuple[str, ...]
    message: str

    def applies(self, broken: set[str]) -> bool:
        return all(c in broken for c in self.when) and not any(c in broken for c in self.unless)


@lru_cache(maxsize=None)
def load_mistakes(path: Path = TABLE_PATH) -> tuple[Mistake, ...]:
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["mistake"]
    return tuple(Mistake(r["name"], tuple(r["when"]), tuple(r.get("unless", ())), r["message"]) for r in rows)


def likely_mistakes(broken_claims: Iterable[str], limit: int = MAX_SHOWN) -> list[Mistake]:
    """The table's mistakes that the broken claims point to, in table (level) order, at most ``limit``."""
    broken = set(broken_claims)
    return [m for m in load_mistakes() if m.applies(broken)][:limit]


def render(broken_claims: Iterable[str]) -> list[str]:
    mistakes = likely_mistakes(broken_claims)
    if not mistakes:
        return []
    return ["likely mistake" + ("s" if len(mistakes) > 1 else "") + ":"] + [f"  - {m.message}" for m in mistakes]
