"""The registry of case operations: each operation name of schema.json, the function that runs it.

Its own module so the operation modules (ops_core.py, ops_production.py) and the runner that
dispatches (runner.py) share one table without importing each other in a circle. ``Fixtures``
is here too: it is the third argument every operation takes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

Pair = tuple[int, int]
Case = dict[str, Any]


class Fixtures(Protocol):
    """What some cases need besides the implementation."""

    def corpus(self, name: str) -> str: ...
    def trained(self, key: str, text: str, vocab_size: int) -> Any: ...
    def corpus_table(self, name: str, vocab_size: int) -> dict[Pair, int]: ...
    def spec_table(self, name: str, vocab_size: int) -> dict[Pair, int]: ...
    def encoded(self, name: str, vocab_size: int, text: str | None) -> list[int]: ...
    def require_feature(self, feature: str) -> None: ...
    def folder(self) -> Path: ...


Check = Callable[[object, Case, Fixtures], None]

#: operation name (schema.json) -> how to call it on an implementation and compare its result.
OPERATIONS: dict[str, Check] = {}


def operation(name: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        OPERATIONS[name] = check
        return check
    return register
