"""The class table of ``bpe-kata grade`` as JSON (``--json FILE``): what ``bpe-kata merge`` joins and ``--costs`` reads.

Each row is a graded submission (bpe_kata/tools/grade.py's ``Graded``) in full, the child's report
included, so a merged table draws exactly the cells an unsharded run would. A shard's file also has
the shard header (bpe_kata/tools/shard.py).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from bpe_kata.tools import shard as sharding
from bpe_kata.tools.grade import Graded
from bpe_kata.tools.shipped import shown

KIND = "grade"


def row(outcome: Graded) -> dict:
    data = dataclasses.asdict(outcome)
    data["page"] = None if outcome.page is None else shown(outcome.page)  # JSON holds UTF-8 only
    data["verdict"] = outcome.verdict  # for readers of the file; recomputed from the rest when read back
    return data


def graded(data: dict) -> Graded:
    fields = {f.name for f in dataclasses.fields(Graded)}
    values = {key: value for key, value in data.items() if key in fields}
    values["page"] = None if values.get("page") is None else Path(values["page"])
    return Graded(**values)


def document(outcomes: list[Graded], head: dict | None = None) -> dict:
    """The one grade JSON (bpe_kata/schemas/grade.schema.json): the table as it reads
    (``grade_table.as_json``) and, under ``rows``, each submission in full for merge and --costs."""
    from bpe_kata.tools import grade_table

    data: dict = {"kind": KIND, **grade_table.as_json(outcomes), "rows": [row(o) for o in outcomes]}
    if head is not None:
        data[sharding.HEADER] = head
    return data


def write(path: Path, outcomes: list[Graded], head: dict | None = None) -> None:
    Path(path).write_text(json.dumps(document(outcomes, head), indent=1, ensure_ascii=False), encoding="utf-8")


def merge(parts: list[sharding.Part]) -> tuple[dict, list[Graded]]:
    """The whole class table from its shards (already checked), rows in the unsharded order."""
    for part in parts:  # each row's own report says which suite judged it: the shard's, or the merge is mixed
        for r in part.data["rows"]:
            judged = ((r.get("report") or {}).get("sandbox") or {}).get("suite_sha256_start")
            shard_suite = part.head["suite_sha256"]
            if judged and judged != shard_suite:
                raise sharding.ShardError(f"mixed suite fingerprints: {part.path}: {r['submission']}'s report was "
                                          f"judged by suite {judged[:16]}, the shard says {shard_suite[:16]}")
    by_submission = {r["submission"]: r for part in parts for r in part.data["rows"]}
    outcomes = [graded(by_submission[key]) for key in sharding.order(parts)]
    data = document(outcomes)
    data["merged"] = sharding.merged_header(parts)
    return data, outcomes


def source_size(submission: str) -> float:
    """A submission's bytes of source: its file, or every file under its folder (hidden ones left out)."""
    path = Path(submission)
    if path.is_file():
        return float(path.stat().st_size)
    if path.is_dir():
        return float(sum(p.stat().st_size for p in path.rglob("*")
                         if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)))
    return 0.0  # a module name or cmd:COMMAND: unknown


def costs(submissions: list[str], recorded: Path | None = None) -> dict[str, float]:
    """Each submission's cost for ``--shard``: its seconds in an earlier ``--json`` table when given, else its
    source size; an unknown one costs the median of the known ones."""
    known: dict[str, float] = {}
    if recorded is not None:
        try:
            data = json.loads(Path(recorded).read_text(encoding="utf-8"))
            seconds = {r["submission"]: float(r["seconds"]) for r in data["rows"]}
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise sharding.ShardError(f"--costs {recorded}: not a grade --json table: {error}") from None
        known = {s: seconds[s] for s in submissions if s in seconds}
    else:
        known = {s: size for s in submissions if (size := source_size(s)) > 0}
    fallback = sharding.median(known.values())
    return {s: known.get(s, fallback) for s in dict.fromkeys(submissions)}


def shard_header(submissions: list[str], shard: sharding.Shard, taken: list[str]) -> dict:
    from bpe_kata.gate.suite import suite_sha256

    return sharding.header(shard, list(dict.fromkeys(submissions)), taken, suite_sha256())
