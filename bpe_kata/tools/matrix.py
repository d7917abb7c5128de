"""``bpe-kata matrix``: which claims real BPE libraries pass, one row per library and version.

Every installed adapter (bpe_kata/adapters) runs through ``bpe-kata gate`` in a child process of
its own, at most one per core (grade.py's runner: one broken library never stops the others),
and through the tie probe (bpe_kata/tools/tie_probe.py). Each failed claim is classified from the
ledger: a documented alternative (its value depends on the first-counted tie rule and the
library follows another documented rule), an undocumented tie rule, a call past the time limit, or a real difference; a
curated note (matrix_notes.toml) may call a difference a spec question instead.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from bpe_kata.adapters import ADAPTERS, VARIANTS
from bpe_kata.tools import grade
from bpe_kata.tools.shard import median
from bpe_kata.verdict.outcomes import LevelStatus
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

GATE = [sys.executable, "-m", "bpe_kata.cli", "gate"]
NOTES = Path(__file__).with_name("matrix_notes.toml")
ALTERNATIVE, UNDOCUMENTED_TIES, REAL, QUESTION, SLOW = ("documented alternative", "undocumented tie rule",
                                                        "real difference", "spec question", "timed out")
#: A failed check on a claim that rests on another claim the library breaks (the report's "not judged").
NOT_JUDGED = "not judged"


@dataclass
class Row:
    adapter: str
    library: str
    version: str
    outcome: grade.Graded | None = None
    ties: dict = field(default_factory=dict)
    differences: dict = field(default_factory=dict)  # claim id -> {class, level, note, first_failure}

    @property
    def name(self) -> str:
        variant = VARIANTS.get(self.adapter)
        return f"{self.library} {self.version}" + (f" ({variant})" if variant else "")


def installed(adapters: dict[str, str] = ADAPTERS) -> list[Row]:
    rows = []
    for module, library in adapters.items():
        try:
            rows.append(Row(module, library, metadata.version(library)))
        except metadata.PackageNotFoundError:
            continue
    return rows


def probe_ties(adapter: str, timeout: float) -> dict:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bpe_kata.tools.tie_probe", adapter],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return {"rule": None, "verdict": "probe timed out"}
    try:
        answer = json.loads(done.stdout) if done.returncode == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}, no answer"])[-1]
        return {"rule": None, "verdict": f"probe failed: {last[:160]}"}
    return answer


def classify(row: Row, claims=None, notes: dict | None = None) -> dict:
    """Every failed claim of the row's report, with its class and what the ledger says."""
    claims = claims if claims is not None else load_claims()
    notes = notes if notes is not None else load_notes()
    rule = row.ties.get("rule")
    found = {}
    for cid, entry in (row.outcome.report.get("claims", {}) if row.outcome else {}).items():
        if entry.get("status") == NOT_JUDGED:
            if not entry.get("rests_on_broken"):  # passed without a call into the library: nothing failed
                continue
            found[cid] = {"class": NOT_JUDGED, "level": entry.get("level"),
                          "note": f"rests on {', '.join(entry.get('rests_on_broken') or [])}, which is broken",
                          "first_failure": entry.get("first_failure", "")}
            continue
        if entry.get("status") != "failed":
            continue
        claim = claims.get(cid)
        # the excuse holds only where the library trained the table under test (the report says so per claim)
        tie_bound = (claim is not None and claim.depends_on_tie_rule == "first-counted"
                     and entry.get("tie_rule_excuse") == "first-counted")
        if tie_bound and rule not in (None, "first-counted"):
            kind = ALTERNATIVE
        elif tie_bound and str(row.ties.get("verdict", "")).startswith("none of the documented rules"):
            kind = UNDOCUMENTED_TIES
        elif entry.get("first_failure", "").startswith("timed out"):
            kind = SLOW
        else:
            kind = REAL
        note = notes.get(row.library, {}).get(cid, {})
        found[cid] = {"class": note.get("class", kind), "level": entry.get("level"), "note": note.get("note", ""),
                      "first_failure": entry.get("first_failure", "")}
    return found


def load_notes(path: Path = NOTES) -> dict:
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text(encoding="utf-8"))


def run(rows: list[Row], extra: list[str], timeout: float, jobs: int | None, keep: Path | None = None) -> list[Row]:
    # The adapters are this project's own code (one trains with the reference): the suite stays
    # readable to them; the rest of the sandbox applies (docs/GATE.md).
    outcomes = grade.grade([r.adapter for r in rows], ["--expose-suite", *extra], timeout, jobs, keep, runner=GATE)
    with ThreadPoolExecutor(max(1, min(jobs or 2, len(rows) or 1))) as pool:
        tie_probes = list(pool.map(lambda r: probe_ties(r.adapter, min(timeout, 120)), rows))
    claims, notes = load_claims(), load_notes()
    for row, outcome, ties in zip(rows, outcomes, tie_probes):
        row.outcome, row.ties = outcome, ties
        outcome.name = row.name
        row.differences = classify(row, claims, notes)
    return rows


def levels_seen(rows: list[Row]) -> list[str]:
    seen = {level for r in rows if r.outcome for level in r.outcome.levels}
    return [level for level in ALL_LEVEL_NAMES if level in seen and level != "facts"]


def cell(row: Row, level: str) -> str:
    return row.outcome.cell(level) if row.outcome else "—"


#: Terminal cells, short enough for one line per library (the HTML page and JSON say it in full).
SHORT = {LevelStatus.GREEN: "ok", LevelStatus.NOT_STARTED: "-", LevelStatus.PARTLY_STARTED: "part",
         LevelStatus.NOT_RUN: "n/r", LevelStatus.PARTLY_RUN: "part"}


def short(text: str) -> str:
    return SHORT.get(text, text.replace("failed ", "F"))


def table(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    levels = levels_seen(rows)
    header = ["library", "tie rule", *levels, "s"]
    body = [[r.name, r.ties.get("verdict", "?").replace("none of the documented rules", "undocumented"),
             *(short(cell(r, level)) for level in levels),
             f"{r.outcome.seconds:.0f}" if r.outcome else "?"] for r in rows]
    return header, body


def render_plain(rows: list[Row]) -> list[str]:
    header, body = table(rows)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    lines = [line(header), "-" * len(line(header)), *map(line, body),
             "ok: green; -: not started (the library has no such function); F<n>: n tests failed; s: seconds"]
    for r in rows:
        if r.outcome and r.outcome.ended != "finished":
            lines.append(f"{r.name}: {r.outcome.ended} ({r.outcome.detail})")
        by_class: dict[str, list[str]] = {}
        for cid, d in r.differences.items():
            by_class.setdefault(d["class"], []).append(cid)
        for kind, ids in sorted(by_class.items()):
            lines.append(f"{r.name}: {kind}: {', '.join(sorted(ids))}")
    return lines


def as_json(rows: list[Row], measured: str) -> dict:
    return {
        "kind": "matrix",
        "measured": measured,
        "python": sys.version.split()[0],
        "levels": levels_seen(rows),
        "rows": [
            {
                "library": r.library,
                "version": r.version,
                "name": r.name,
                "adapter": r.adapter,
                "tie_rule": r.ties,
                "ended": r.outcome.ended if r.outcome else None,
                "seconds": round(r.outcome.seconds, 1) if r.outcome else None,
                "levels": r.outcome.levels if r.outcome else {},
                "differences": r.differences,
                "claims": {
                    cid: c.get("status") for cid, c in (r.outcome.report.get("claims", {}) if r.outcome else {}).items()
                },
                "claim_levels": {
                    cid: c.get("level") for cid, c in (r.outcome.report.get("claims", {}) if r.outcome else {}).items()
                },
                "detail": r.outcome.detail if r.outcome else "",
            }
            for r in rows
        ],
    }


def rows_from_json(data: dict) -> list[Row]:
    """The rows of an ``as_json`` document, as far as it keeps them: enough to draw the page and the site
    again (a file written before ``claim_levels`` was kept takes each claim's level from the ledger)."""
    rows, ledger = [], None
    for item in data.get("rows", []):
        levels = item.get("claim_levels") or {}
        if not levels and item.get("claims"):
            ledger = ledger if ledger is not None else load_claims()
            levels = {cid: ledger[cid].level for cid in item["claims"] if cid in ledger}
        report = {"claims": {cid: {"status": status, "level": levels.get(cid)}
                             for cid, status in (item.get("claims") or {}).items()}}
        outcome = None
        if item.get("ended") is not None:
            outcome = grade.Graded(item.get("adapter", ""), item.get("name", ""), float(item.get("seconds") or 0),
                                   item["ended"], levels=item.get("levels") or {}, report=report,
                                   detail=item.get("detail", ""))
        rows.append(Row(item.get("adapter", ""), item.get("library", ""), item.get("version", ""), outcome,
                        item.get("tie_rule") or {}, item.get("differences") or {}))
    return rows


#: Seconds each adapter's gate took, measured on 2026-12-02 on 2 shared cores (load 4.7 for the first four,
#: 5 to 8 for tokenizers and bpeasy, run apart): what ``--shard`` deals by when no earlier ``--json`` is given
#: (``--costs``). Only their ratios matter; an adapter missing here costs the median of the others.
COST_SECONDS = {
    "bpe_kata.adapters.with_tiktoken": 45.0,
    "bpe_kata.adapters.with_tiktoken_reference_trained": 81.0,
    "bpe_kata.adapters.with_tokenizers": 219.0,
    "bpe_kata.adapters.with_rustbpe": 12.0,
    "bpe_kata.adapters.with_bpeasy": 51.0,
    "bpe_kata.adapters.with_sentencepiece": 7.0,
}


def costs(rows: list[Row], recorded: dict | None = None) -> dict[str, float]:
    """Each row's cost for ``--shard``: its seconds in an earlier matrix JSON when given, else ``COST_SECONDS``."""
    known = dict(COST_SECONDS)
    if recorded is not None:
        known = {r["adapter"]: float(r["seconds"]) for r in recorded.get("rows", []) if r.get("seconds") is not None}
    fallback = median([known[r.adapter] for r in rows if r.adapter in known])
    return {r.adapter: known.get(r.adapter, fallback) for r in rows}


def merge(parts: list) -> dict:
    """The whole matrix JSON from its shards' (checked by bpe_kata/tools/shard.py), rows in the unsharded order."""
    from bpe_kata.tools import shard as sharding

    by_adapter = {r["adapter"]: r for part in parts for r in part.data["rows"]}
    ordered = [by_adapter[key] for key in sharding.order(parts)]
    seen = {level for part in parts for level in part.data.get("levels", [])}
    return {"kind": "matrix", "measured": max(part.data.get("measured", "") for part in parts),
            "python": parts[0].data.get("python"), "levels": [lv for lv in ALL_LEVEL_NAMES if lv in seen],
            "rows": ordered, "merged": sharding.merged_header(parts)}
