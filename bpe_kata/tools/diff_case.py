"""A divergence as a worked case (spec/cases/schema.json), so that it can join the spec.

The case's expected value is the contract's answer (the oracle's), never either side's, and
its claims are the one the divergence touches (bpe_kata/tools/diff_report.py). A table is cut
down to the merges the input can reach (a published table has 100,000; a text only ever builds
tokens that are runs of its own bytes) and renumbered from 256 in rank order, which encodes and
decodes the input exactly as the whole table does; the case is checked against the oracle
before it is written.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bpe_kata.tools.diff_report import DiffFinding
from bpe_kata.tools.diff_search import Divergence
from bpe_kata.tools.tables import Table
from spec import oracle
from spec.patterns import PATTERNS

Pair = tuple[int, int]


class CaseUnwritable(Exception):
    """The divergence cannot be said in the case format; the message says why."""


def reduced(table: Table, keep) -> tuple[dict[Pair, int], dict[int, int]]:
    """The merges whose tokens ``keep`` accepts (with every merge they are built from), renumbered from 256
    in rank order; and the map from old ids to new ones."""
    vocab = oracle.build_vocab(dict(table.merges))
    wanted: set[int] = set()

    def want(idx: int) -> None:
        if idx >= 256 and idx not in wanted:
            wanted.add(idx)
            left, right = parts[idx]
            want(left)
            want(right)

    parts = {idx: pair for pair, idx in table.merges.items()}
    for idx in parts:
        if keep(idx, vocab[idx]):
            want(idx)
    renumber = {b: b for b in range(256)}
    merges: dict[Pair, int] = {}
    for pair, idx in sorted(table.merges.items(), key=lambda item: item[1]):
        if idx in wanted:
            renumber[idx] = 256 + len(merges)
            merges[renumber[pair[0]], renumber[pair[1]]] = renumber[idx]
    return merges, renumber


def _rows(merges: dict[Pair, int]) -> list[list[int]]:
    return [[left, right, idx] for (left, right), idx in merges.items()]


def _pattern_name(pattern: str | None) -> str | None:
    for name, known in PATTERNS.items():
        if known == pattern:
            return name
    raise CaseUnwritable("the table's split pattern is none of spec/patterns.py's named ones (gpt2, gpt4), "
                         "which is all a case can name")


def case_of(divergence: Divergence, verdict: DiffFinding, table: Table | None) -> tuple[str, dict]:
    """(the level of the case file, the case) for one divergence."""
    if not verdict.claims:
        raise CaseUnwritable("both sides' answers are the contract's (they differ only in how they fail)")
    if isinstance(verdict.expected, dict):
        raise CaseUnwritable(f"the contract's answer is an error ({verdict.expected['raised']})")
    given, operation = divergence.given, divergence.operation
    digest = hashlib.sha256(json.dumps(given, sort_keys=True).encode("utf-8", "surrogatepass")).hexdigest()[:10]
    case = {"id": f"diff-{operation}-{digest}", "claims": list(verdict.claims), "operation": operation}
    if operation == "train":
        case["input"] = {"text": given["text"], "vocab_size": given["vocab_size"]}
        case["expected"] = {"merges": [[a, b, idx] for (a, b), idx in verdict.expected]}
        return "train", _note(case, verdict)
    if operation == "encode":
        data = given["text"].encode("utf-8")
        specials = {s: i for s, i in table.special_tokens.items() if s in given["text"]}
        merges, _ = reduced(table, lambda idx, piece: piece in data)
        keywords = {}
        if table.pattern is not None or specials:
            keywords = {"pattern": table.pattern, "special_tokens": specials, "allowed_special": "all"}
        ids = oracle.encode(given["text"], merges, **{k: v for k, v in keywords.items() if v is not None})
        if not keywords:
            case["input"] = {"text": given["text"], "merges": _rows(merges)}
            case["expected"] = {"ids": ids}
            return "encode", _note(case, verdict)
        case["operation"] = "encode_special"
        case["input"] = {"text": given["text"], "merges": _rows(merges), "special_tokens": specials,
                         "allowed_special": "all", "disallowed_special": "all"}
        if table.pattern is not None:
            case["input"]["pattern"] = _pattern_name(table.pattern)
        case["expected"] = {"ids": ids}
        return "special", _note(case, verdict)
    used = set(given["ids"])
    merges, renumber = reduced(table, lambda idx, piece: idx in used)
    specials = {s: i for s, i in table.special_tokens.items() if i in used}
    if any(i not in renumber and i not in specials.values() for i in used):
        raise CaseUnwritable("an id is in neither the table nor its special tokens (the contract's answer is an error)")
    ids = [renumber.get(i, i) for i in given["ids"]]
    case["input"] = {"ids": ids, "merges": _rows(merges), **({"special_tokens": specials} if specials else {})}
    case["expected"] = {"text": oracle.decode(ids, oracle.build_vocab(merges, specials or None))}
    return ("special" if specials else "decode"), _note(case, verdict)


def _note(case: dict, verdict: DiffFinding) -> dict:
    case["note"] = f"found by bpe-kata diff: {verdict.kind}; {verdict.note}".strip("; ")
    return case


def write(path: Path, found: list[tuple[str, dict]]) -> list[Path]:
    """One case file per level (the format holds one level a file): ``path`` for the first level, ``path`` with
    ``-LEVEL`` before its suffix for any other. Returns the files written."""
    by_level: dict[str, list[dict]] = {}
    for level, case in found:
        by_level.setdefault(level, []).append(case)
    written = []
    for k, (level, cases) in enumerate(by_level.items()):
        target = path if k == 0 else path.with_name(f"{path.stem}-{level}{path.suffix}")
        document = {"$schema": "./schema.json", "level": level,
                    "description": "Divergences found by bpe-kata diff, with the contract's answer.", "cases": cases}
        target.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written
