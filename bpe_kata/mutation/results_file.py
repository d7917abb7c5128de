"""A mutation run's verdicts as one JSON file (``bpe-kata mutate --results FILE``), and the shards' merge.

mutmut keeps its verdicts in ``mutants/**/*.py.meta`` beside the mutated copy; a shard run on another
machine hands on this file instead: every mutant with its status, the line it changed (the ledger's
key) and mutmut's estimate of its tests' time, which the next ``--shard`` deals by (``--costs``).
``bpe-kata merge`` joins the shards' files, ``bpe-kata mutate --gate --from FILE`` gates the whole.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from bpe_kata.tools import shard as sharding

KIND = "mutate"


class ResultsError(ValueError):
    """The file is not a mutate results file, or is one shard's part; the message says which."""


def document(mutants: list, head: dict | None = None) -> dict:
    data: dict = {"kind": KIND, "mutants": [dataclasses.asdict(m) for m in mutants]}
    if head is not None:
        data[sharding.HEADER] = head
    return data


def write(path: Path, mutants: list, head: dict | None = None) -> None:
    Path(path).write_text(json.dumps(document(mutants, head), indent=1, ensure_ascii=False), encoding="utf-8")


def mutants_of(data: dict) -> list:
    from bpe_kata.mutation.mutants import Mutant

    fields = {f.name for f in dataclasses.fields(Mutant)}
    return [Mutant(**{k: v for k, v in item.items() if k in fields}) for item in data.get("mutants", [])]


def read(path: Path, whole: bool = True) -> list:
    """The mutants of a results file; ``whole``: refuse one shard's part (the gate judges the whole run)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ResultsError(f"{path}: cannot read it as JSON: {error}") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise ResultsError(f"{path}: not a `bpe-kata mutate --results` file")
    if whole and sharding.HEADER in data:
        head = data[sharding.HEADER]
        raise ResultsError(f"{path} is shard {head.get('index')}/{head.get('count')} only: "
                           "`bpe-kata merge OUT` every shard first, then gate OUT")
    return mutants_of(data)


def estimates(path: Path) -> dict[str, float]:
    """Each mutant's recorded cost (seconds of its tests, mutmut's estimate) in an earlier results file."""
    return {m.name: m.estimate for m in read(path, whole=False)}


def costs(names: list[str], recorded: Path | None) -> dict[str, float]:
    """Each mutant's cost for ``--shard``: its recorded estimate when ``--costs`` is given, else 1 (a balance
    by count); a mutant the recording lacks costs the median of the others."""
    known = {} if recorded is None else {n: e for n, e in estimates(recorded).items() if e > 0}
    fallback = sharding.median([known[n] for n in names if n in known])
    return {name: known.get(name, fallback) for name in names}


def merge(parts: list[sharding.Part]) -> dict:
    """The whole run's results from its shards' (checked), mutants in mutmut's order."""
    by_name = {item["name"]: item for part in parts for item in part.data["mutants"]}
    data = {"kind": KIND, "mutants": [by_name[name] for name in sharding.order(parts)]}
    data["merged"] = sharding.merged_header(parts)
    return data


def table(data: dict) -> list[str]:
    from bpe_kata.mutation.mutants import render_table, tally

    return render_table(tally(mutants_of(data)))
