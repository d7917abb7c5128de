"""``--shard K/N``: which items one of N machines takes, and the header that lets ``bpe-kata merge`` check the parts.

The split must be the same on every machine, with no talk between them, and the shards should end
together: items are dealt by measured cost, the longest first, each to the shard with the least
cost so far (ties to the lower shard; equal costs in key order), the greedy rule of Graham's
longest-processing-time scheduling. The same keys and costs give the same split everywhere.

Every shard's output carries a header: which shard it is, the keys it took, a SHA-256 of the whole
key list and the suite's SHA-256 (bpe_kata/gate/suite.py, the one a gate report carries), so a merge
can refuse a missing shard, a shard given twice, parts of two different splits, and parts run by
different suites.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: The header's key in every sharded output; an unsharded output has none.
HEADER = "shard"


class ShardError(ValueError):
    """A bad ``--shard`` value, or shard outputs that do not make one whole; the message says which."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse(text: str) -> Shard:
    """``"2/5"`` -> Shard(2, 5); anything else, or K outside 1..N, is a ShardError naming the value."""
    index, slash, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count)) if slash else None
    except ValueError:
        shard = None
    if shard is None or not 1 <= shard.index <= shard.count:
        raise ShardError(f"--shard {text!r}: expected K/N with 1 <= K <= N, e.g. 1/4 (a Kubernetes Indexed Job's "
                         "JOB_COMPLETION_INDEX counts from 0: K is that plus one)")
    return shard


def assign(costs: Mapping[str, float], count: int) -> dict[str, int]:
    """Each key's shard (1..count), by longest processing time first; deterministic for the same costs."""
    loads = [0.0] * count
    where = {}
    for key in sorted(costs, key=lambda k: (-costs[k], k)):
        target = min(range(count), key=lambda i: (loads[i], i))
        where[key] = target + 1
        loads[target] += costs[key]
    return where


def select(costs: Mapping[str, float], shard: Shard | None) -> list[str]:
    """The keys ``shard`` takes, in the order given (all of them without a shard)."""
    if shard is None:
        return list(costs)
    where = assign(costs, shard.count)
    return [key for key in costs if where[key] == shard.index]


def digest(keys: Iterable[str]) -> str:
    """SHA-256 of the whole key list, in order: two shards of the same split have the same one."""
    hashed = hashlib.sha256()
    for key in keys:
        hashed.update(key.encode("utf-8", "surrogatepass") + b"\0")
    return hashed.hexdigest()


def header(shard: Shard, whole: list[str], taken: list[str], suite_sha256: str) -> dict:
    return {"index": shard.index, "count": shard.count, "keys": taken, "whole": digest(whole),
            "order": whole, "suite_sha256": suite_sha256}


def median(values: Iterable[float], default: float = 1.0) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else default


@dataclass(frozen=True)
class Part:
    """One shard's output file, as read."""

    path: Path
    data: dict

    @property
    def head(self) -> dict:
        return self.data[HEADER]


def read(paths: list[Path]) -> list[Part]:
    parts = []
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ShardError(f"{path}: cannot read it as JSON: {error}") from None
        if not isinstance(data, dict) or not isinstance(data.get(HEADER), dict):
            raise ShardError(f"{path}: not a shard's output (no {HEADER!r} header: was it run with --shard K/N?)")
        parts.append(Part(Path(path), data))
    return parts


def check(parts: list[Part], kind: str | None = None) -> list[Part]:
    """The parts in shard order, when they are exactly shards 1..N of one split by one suite; else a ShardError."""
    if not parts:
        raise ShardError("no shard outputs given")
    kinds = {part.data.get("kind") for part in parts}
    if len(kinds) != 1 or (kind is not None and kinds != {kind}):
        raise ShardError("the outputs are of different commands: "
                         + ", ".join(f"{p.path} is {p.data.get('kind')!r}" for p in parts))
    first = parts[0]
    for field, what in (("suite_sha256", "mixed suite fingerprints"), ("count", "shards of different splits"),
                        ("whole", "shards of different item lists")):
        values = {p.head.get(field) for p in parts}
        if len(values) > 1:
            listed = "; ".join(f"{p.path}: {str(p.head.get(field))[:16]}" for p in parts)
            raise ShardError(f"{what} ({field}): {listed}. Every shard must run the same suite on the same list; "
                             "rerun the odd ones")
    count = first.head["count"]
    seen: dict[int, Path] = {}
    for part in parts:
        index = part.head["index"]
        if index in seen:
            raise ShardError(f"shard {index}/{count} is given twice: {seen[index]} and {part.path}")
        seen[index] = part.path
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise ShardError(f"missing shard {', '.join(missing)} of {count}: the merge would not be the whole")
    owner: dict[str, Path] = {}
    for part in parts:
        for key in part.head["keys"]:
            if key in owner:
                raise ShardError(f"{key!r} is in two shards: {owner[key]} and {part.path}")
            owner[key] = part.path
    order = first.head["order"]
    if digest(order) != first.head["whole"] or set(owner) != set(order):
        lost = sorted(set(order) - set(owner))[:5]
        raise ShardError(f"the shards hold {len(owner)} items, the whole list has {len(order)}"
                         + (f" (none holds {', '.join(map(repr, lost))})" if lost else ""))
    return sorted(parts, key=lambda p: p.head["index"])


def merged_header(parts: list[Part]) -> dict:
    """What the merged output says of where it came from (no shard header: it is the whole)."""
    return {"count": len(parts), "whole": parts[0].head["whole"], "suite_sha256": parts[0].head["suite_sha256"],
            "from": [str(p.path) for p in parts]}


def order(parts: list[Part]) -> list[str]:
    """The whole key list, in the order the unsharded run would have had."""
    return list(parts[0].head["order"])
