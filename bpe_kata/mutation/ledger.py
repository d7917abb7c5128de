"""The ledger of accepted mutation survivors (``mutation/accepted.toml``) and the gate over it.

Every entry is one survivor, keyed so that it cannot drift onto another mutant: module,
function, mutmut's hash of the function, the changed line's offset from the function's def
line, and the line before and after (whitespace-normalized). When the function changes,
its hash changes and the entry is stale: it fails the gate until someone looks again.

Every entry also says what pins its claim, and the gate checks it:

* ``equivalent`` and ``performance-only``: ``check`` names a differential probe
  (bpe_kata/mutation/checks.py); the gate runs it on the original and on the mutant, and
  the two must see the same results on the same generated inputs (only time or memory may
  differ).
* ``not-pinned``: ``contract`` quotes the sentence of spec/CONTRACT.md that leaves the
  behaviour free; the gate checks that the sentence is there.

The ledger's ``[gate]`` table holds the floor on the mutation score and a cap on the number
of entries per category (as Stryker's ``break`` threshold and PIT's ``maxSurviving``): a
run below the floor or a category over its cap fails the gate. They are set from a
measured run (benchmarks/README.md) and raised only with the reason in the commit.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES = ("equivalent", "performance-only", "not-pinned")
#: Statuses that are a verdict; any other fails the gate (suspicious, segfault, skipped, unknown...).
DETECTED = ("killed", "timeout", "over memory")
SURVIVED = ("survived", "no tests")
UNCHECKED = ("not checked", "interrupted")
CONTRACT = Path("spec") / "CONTRACT.md"
FIELDS = ("module", "function", "hash", "line", "original", "mutated", "category", "why")


def normalize(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Accepted:
    """A survivor the tests need not kill, why, and what backs the claim."""

    module: str
    function: str
    hash: str  # mutmut's hash of the function when the entry was written
    line: int  # the changed line's offset from the def line
    original: str
    mutated: str
    category: str
    why: str
    check: str = ""  # equivalent / performance-only: the probe of bpe_kata/mutation/checks.py
    contract: str = ""  # not-pinned: the sentence of spec/CONTRACT.md that leaves it free

    @property
    def key(self) -> tuple[str, str, str, int, str, str]:
        return (self.module, self.function, self.hash, self.line, normalize(self.original), normalize(self.mutated))

    def matches(self, mutant) -> bool:
        return self.key == mutant.key

    def same_place(self, mutant) -> bool:
        """The mutant this entry was written for, whatever has happened to its function since."""
        return (self.module, self.function, self.line, normalize(self.original), normalize(self.mutated)) == \
            (mutant.module, mutant.function, mutant.line, mutant.original, mutant.mutated)


@dataclass(frozen=True)
class Limits:
    """The ledger's ``[gate]`` table: a floor on the score and a cap on each category's entries."""

    score_floor: float
    caps: dict[str, int]


class LedgerError(ValueError):
    """The ledger file is malformed; the message names the entry."""


def _read(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LedgerError(f"{path}: not TOML: {error}") from None


def load_ledger(path: Path) -> list[Accepted]:
    from bpe_kata.mutation.checks import PROBES

    ledger, seen = [], {}
    for number, entry in enumerate(_read(path).get("accepted", []), 1):
        missing = [key for key in FIELDS if not isinstance(entry.get(key), int if key == "line" else str)]
        if missing:
            raise LedgerError(f"{path}: entry {number} lacks {', '.join(missing)} (line an int, the others strings)"
                              + ("; an entry without a hash has the old key: migrate the ledger"
                                 " (mutation/migrate_keys.py)" if "hash" in missing else ""))
        if entry["category"] not in CATEGORIES:
            raise LedgerError(f"{path}: entry {number} has category {entry['category']!r}; "
                              f"use one of {', '.join(CATEGORIES)}")
        if not entry["why"].strip():
            raise LedgerError(f"{path}: entry {number} does not say why it is accepted")
        if entry["category"] == "not-pinned" and not str(entry.get("contract", "")).strip():
            raise LedgerError(f"{path}: entry {number} is not-pinned but quotes no contract sentence (contract = ...)")
        if entry["category"] != "not-pinned" and entry.get("check") not in PROBES:
            raise LedgerError(f"{path}: entry {number} is {entry['category']} but names no differential check "
                              f"(check = one of {', '.join(PROBES)})")
        accepted = Accepted(**{key: entry[key] for key in FIELDS},
                            check=entry.get("check", ""), contract=entry.get("contract", ""))
        if accepted.key in seen:
            raise LedgerError(f"{path}: entries {seen[accepted.key]} and {number} have the same key")
        seen[accepted.key] = number
        ledger.append(accepted)
    return ledger


def load_limits(path: Path) -> Limits | None:
    table = _read(path).get("gate")
    if table is None:
        return None
    floor = table.get("score_floor")
    caps = {category: table.get(f"max_{category.replace('-', '_')}") for category in CATEGORIES}
    if not isinstance(floor, float) or not 0 <= floor <= 1 or not all(isinstance(v, int) for v in caps.values()):
        raise LedgerError(f"{path}: [gate] needs score_floor (a fraction) and max_equivalent, "
                          "max_performance_only, max_not_pinned (ints)")
    return Limits(floor, caps)


# --- the gate ------------------------------------------------------------------------------------


@dataclass
class GateVerdict:
    unexpected: list = field(default_factory=list)  # survivors the ledger does not accept
    stale: list[tuple[Accepted, str]] = field(default_factory=list)  # entries that no longer hold, and why
    false_claims: list[tuple[Accepted, str]] = field(default_factory=list)  # a check or a sentence that fails
    not_judged: list[str] = field(default_factory=list)  # unchecked mutants, modules without results
    bad_status: list = field(default_factory=list)  # suspicious, segfault, unknown...
    over_limits: list[str] = field(default_factory=list)  # the score floor, the caps

    @property
    def passed(self) -> bool:
        return not (self.unexpected or self.stale or self.false_claims or self.not_judged or self.bad_status
                    or self.over_limits)


def expected_modules(root: Path) -> list[str]:
    """Every module of reference/ mutmut should have results for."""
    return sorted(".".join(path.relative_to(root).with_suffix("").parts)
                  for path in (root / "reference").rglob("*.py"))


def gate(mutants: list, ledger: list[Accepted], limits: Limits | None, root: Path | None = None,
         run_checks: bool = True) -> GateVerdict:
    """Every way the run and the ledger can disagree, each with its reason.

    A survivor is a mutant that lived through the tests: survived, or had no test at all.
    A performance-only entry also holds when its mutant timed out or ran out of memory.
    """
    from bpe_kata.mutation.mutants import score

    verdict = GateVerdict()
    for module, counts in sorted(_unchecked(mutants).items()):
        verdict.not_judged.append(f"{module}: {counts[0]} of {counts[1]} mutants not checked (a partial or "
                                  "interrupted run is no verdict: run `bpe-kata mutate` over everything)")
    if root is not None:
        have = {m.module for m in mutants}
        meta_dir = root / "mutants"
        for module in expected_modules(root):
            meta = meta_dir.joinpath(*module.split(".")).with_suffix(".py.meta")
            if module not in have and not meta.is_file():
                verdict.not_judged.append(f"{module}: no results in mutants/ (mutmut did not check it)")
    known = set(DETECTED + SURVIVED + UNCHECKED)
    verdict.bad_status = [m for m in mutants if m.status not in known]

    survivors = [m for m in mutants if m.status in SURVIVED]
    verdict.unexpected = [m for m in survivors if not any(entry.matches(m) for entry in ledger)]
    hashes = {(m.module, m.function): m.function_hash for m in mutants}
    for entry in ledger:
        current = hashes.get((entry.module, entry.function))
        holding = survivors + ([m for m in mutants if m.status in DETECTED[1:]]
                               if entry.category == "performance-only" else [])
        if current is None:
            verdict.stale.append((entry, "its function has no mutants any more (renamed or removed): delete "
                                         "the entry, or key it to the function's new name"))
        elif current != entry.hash:
            verdict.stale.append((entry, f"its function changed since the entry was written (hash {entry.hash}, "
                                         f"now {current}): look at the mutant again, then refresh the entry "
                                         "(`--draft` writes it with the new key)"))
        elif any(entry.matches(m) and m.status in UNCHECKED for m in mutants):
            continue  # its module is reported not judged
        elif not any(entry.matches(m) for m in holding):
            verdict.stale.append((entry, "no longer survives: delete it (`bpe-kata mutate --results-only --prune`)"))

    if run_checks:
        verdict.false_claims = check_claims(ledger, mutants, root)

    if limits is None:
        verdict.over_limits.append("the ledger has no [gate] table (score_floor and a cap per category)")
    else:
        value = score(sum((Counter(m.status for m in mutants),), Counter()))
        if value is not None and value < limits.score_floor:
            verdict.over_limits.append(f"score {100 * value:.1f}% is below the floor "
                                       f"{100 * limits.score_floor:.1f}%")
        counts = Counter(entry.category for entry in ledger)
        for category, cap in limits.caps.items():
            if counts[category] > cap:
                verdict.over_limits.append(f"{counts[category]} {category} entries, over the cap of {cap}")
    return verdict


def _unchecked(mutants: list) -> dict[str, tuple[int, int]]:
    totals, missing = Counter(m.module for m in mutants), Counter(m.module for m in mutants if m.status in UNCHECKED)
    return {module: (missing[module], totals[module]) for module in missing}


def killed_now(entry: Accepted, mutants: list) -> bool:
    """The entry's mutant is in this run, its function unchanged, and the tests now detect it."""
    detected = ("killed",) if entry.category == "performance-only" else DETECTED  # a slow one may time out
    return any(entry.matches(m) and m.status in detected for m in mutants)


def check_claims(ledger: list[Accepted], mutants: list, root: Path | None) -> list[tuple[Accepted, str]]:
    """The entries whose claim does not hold: a contract sentence not in the contract, a
    differential check on which the original and the mutant disagree."""
    from bpe_kata.mutation.checks import first_difference, run_probe

    false: list[tuple[Accepted, str]] = []
    root = root or Path.cwd()
    contract_path = root / CONTRACT
    contract = normalize(contract_path.read_text(encoding="utf-8")) if contract_path.is_file() else ""
    originals: dict[str, object] = {}
    for entry in ledger:
        if entry.category == "not-pinned":
            if normalize(entry.contract) not in contract:
                false.append((entry, f"its contract sentence is not in {CONTRACT}: {entry.contract[:80]!r}"))
            continue
        mutant = next((m for m in mutants if entry.matches(m)), None)
        if mutant is None:
            continue  # stale, reported as such
        if entry.check not in originals:
            originals[entry.check] = run_probe(root / "mutants", entry.check)
        original = originals[entry.check]
        mutated = run_probe(root / "mutants", entry.check, mutant.name)
        if original.problem:
            false.append((entry, f"check {entry.check!r} on the original: {original.problem}"))
        elif mutated.problem:
            false.append((entry, f"check {entry.check!r} on {mutant.name}: {mutated.problem}"))
        elif mutated.digest != original.digest:
            false.append((entry, f"check {entry.check!r}: {mutant.name} changes a result: "
                                 f"{first_difference(original.outcomes, mutated.outcomes)}"))
    return false


def render_gate(verdict: GateVerdict, ledger_path: Path) -> list[str]:
    lines = []
    for mutant in verdict.unexpected:
        lines += [f"NEW SURVIVOR {mutant.name} ({mutant.status})",
                  f"    in {mutant.function}, line +{mutant.line}: {mutant.original!r} -> {mutant.mutated!r}"]
    for entry, reason in verdict.stale:
        lines += [f"STALE ENTRY {entry.module} {entry.function} line +{entry.line}: "
                  f"{entry.original!r} -> {entry.mutated!r}", f"    {reason}"]
    for entry, reason in verdict.false_claims:
        lines += [f"FALSE CLAIM ({entry.category}) {entry.module} {entry.function} line +{entry.line}: "
                  f"{entry.original!r} -> {entry.mutated!r}", f"    {reason}"]
    for reason in verdict.not_judged:
        lines.append(f"NOT JUDGED {reason}")
    for mutant in verdict.bad_status:
        lines.append(f"NO VERDICT {mutant.name}: status {mutant.status!r} (a crash or an unknown exit code: "
                     "`mutmut show` it, and run again)")
    for reason in verdict.over_limits:
        lines.append(f"OVER LIMIT {reason}")
    if verdict.passed:
        lines.append(f"gate passed: every survivor is accepted in {ledger_path}, and every entry's claim checked")
    else:
        lines.append(
            f"gate FAILED: {len(verdict.unexpected)} survivor(s) not in {ledger_path}, {len(verdict.stale)} stale "
            f"entry(ies), {len(verdict.false_claims)} false claim(s), {len(verdict.not_judged)} part(s) not judged, "
            f"{len(verdict.bad_status)} mutant(s) without a verdict, {len(verdict.over_limits)} limit(s) broken. "
            "Kill a new survivor with a test, or add it to the ledger (`--draft FILE`) with its category, why "
            "and check or contract sentence.")
    return lines
