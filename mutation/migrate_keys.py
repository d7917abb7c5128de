#!/usr/bin/env python3
"""One-off: move mutation/accepted.toml from the text-only key to the key that cannot drift.

The old key was (module, function, line before, line after): one entry accepted every twin
with the same text in the function, and kept accepting after the code around it changed.
The new key adds mutmut's hash of the function and the changed line's offset from the def
line (bpe_kata/mutation/ledger.py). This script reads a complete run in mutants/ (made with
the tests the old ledger did not have) and, for each old entry:

* finds the surviving mutants it matched; none left: the entry is dropped (now killed);
  two or more (twins): one entry per twin, each with its own offset;
* applies the corrections of the audit (issue 23: :data:`CORRECTIONS`);
* names what backs the claim: a differential probe for equivalent and performance-only
  entries (:data:`PROBE_BY_MODULE`), a sentence of spec/CONTRACT.md for not-pinned ones
  (:data:`CONTRACT_BY_REASON`); a reason with no sentence stops the script;

then writes the ledger with a ``[gate]`` table: the score floor and the caps per category
set from this run. Run once, from the repository root, after `bpe-kata mutate`:

    python mutation/migrate_keys.py [--dry-run]
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe_kata.mutation.entries import render_entry  # noqa: E402
from bpe_kata.mutation.ledger import DETECTED, SURVIVED, Accepted, normalize  # noqa: E402
from bpe_kata.mutation.mutate import read_results, score, tally  # noqa: E402

#: With --partial, a mutant the run has not reached yet keeps its entry (the next full run decides:
#: `bpe-kata mutate --results-only --prune` drops it if the new tests kill it).
UNDECIDED: tuple[str, ...] = ()

LEDGER = ROOT / "mutation" / "accepted.toml"

PROBE_BY_MODULE = {
    "reference.core": "encode", "reference.encoding": "encode", "reference.tables": "encode",
    "reference.special": "encode", "reference.scalar_text": "encode", "reference.splitting": "train",
    "reference.training": "train", "reference.chunk_training": "train", "reference.pair_ranking": "train",
    "reference.tie_rules": "train", "reference.persist": "persist", "reference.words": "words",
    "reference.stream": "stream",
}

TYPES = "(the reference's choices, not asked of you)"
TWO_MEANINGS = "The spec never passes such a table, and the file format cannot hold one."
LOAD_ERRORS = ("Any file breaking a rule raises `ValueError` whose message names the file and the line of the "
               "first problem")
SAVE_CHOICES = "*How the reference saves* (its choices; the contract asks only for the atomic rename)"
#: The sentence of spec/CONTRACT.md that leaves each not-pinned behaviour free, by the start of the
#: entry's reason and, where one reason spans modules, by module ("" = any module).
CONTRACT_BY_REASON: dict[tuple[str, str], str] = {
    ("error wording", "reference.persist"): LOAD_ERRORS,
    ("error wording", "reference.special"): "raises `ValueError` naming the token and its character position",
    ("error wording", "reference.core"): "an id not in `vocab` raises `KeyError` or `ValueError` whose message "
                                         "names the id",
    ("error wording", "reference.tie_rules"): "Any other value raises `ValueError` whose message names every rule "
                                              "the implementation has",
    ("error wording", ""): TYPES,
    ("non-int ids", ""): TYPES,
    ("the words saying what was expected", ""): LOAD_ERRORS,
    ("tables that give an id two meanings", ""): TWO_MEANINGS,
    ("whether the message calls the file", ""): LOAD_ERRORS,
    ("the name in the error for a policy", ""): "`allowed_special` is `\"all\"` or a set of special strings",
    ("not equivalent: with no specials", ""): "`allowed_special` is `\"all\"` or a set of special strings",
    ("how the temporary file is named", ""): SAVE_CHOICES,
    ("syncing the folder", ""): SAVE_CHOICES,
    ("expected_sha256", ""): "this keyword is the reference's, not part of the contract (the spec never passes it)",
    ("type validation of arguments", ""): TYPES,
    ("the pattern and the character the message quotes", ""): "error message counts the caller's characters",
    ("whether strings are written with", ""): "any JSON escape is read",
    ("keeping the old file's permission bits", ""): SAVE_CHOICES,
    ("how the message describes the vocabulary", ""): "an id not in `vocab` raises `KeyError` or `ValueError` "
                                                      "whose message names the id",
    ("the order of the special lines", ""): "<id> <JSON string>            n lines, one per special token",
    ("the clean-up after a failed save", ""): SAVE_CHOICES,
    ("reading a one-shot iterator", ""): TYPES,
    ("the contract refuses more than 4000 digits", ""): "A shorter number that an implementation cannot hold "
                                                        "exactly (beyond 2^53 in JavaScript, say) may be refused",
}

#: The audit's corrections (issue 23), by (function, mutated line): the new category and reason.
CORRECTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("encode", "pieces = split_special(text, specials, allowed_special, disallowed_special) if (specials) or True "
               "else [text]"): (
        "not-pinned",
        "not equivalent: with no specials encode skips the policy check, so a policy string other than 'all' "
        "(encode('x', t, allowed_special='none')) is refused only when there are specials; the mutant refuses it "
        "always. The contract allows only 'all' or a collection"),
}


def contract_for(entry: dict) -> str:
    for (start, module), sentence in CONTRACT_BY_REASON.items():
        if entry["why"].startswith(start) and module in ("", entry["module"]):
            return sentence
    return ""


def migrate(old: list[dict], mutants: list) -> tuple[list[Accepted], list[str]]:
    new: list[Accepted] = []
    notes: list[str] = []
    unmapped: set[str] = set()
    for entry in old:
        category, why = CORRECTIONS.get((entry["function"], entry["mutated"]), (entry["category"], entry["why"]))
        holding = SURVIVED + UNDECIDED + (DETECTED[1:] if category == "performance-only" else ())
        found = [m for m in mutants if (m.module, m.function, m.original, m.mutated) ==
                 (entry["module"], entry["function"], normalize(entry["original"]), normalize(entry["mutated"]))]
        alive = [m for m in found if m.status in holding]
        if not alive:
            statuses = ", ".join(sorted({m.status for m in found})) or "not found"
            notes.append(f"dropped ({statuses}): {entry['module']} {entry['function']}: {entry['mutated'][:90]}")
            continue
        if len(alive) > 1:
            notes.append(f"{len(alive)} twins, one entry each: {entry['module']} {entry['function']} "
                         f"lines +{', +'.join(str(m.line) for m in alive)}: {entry['mutated'][:70]}")
        contract = contract_for({**entry, "why": why}) if category == "not-pinned" else ""
        if category == "not-pinned" and not contract:
            unmapped.add(f"{entry['module']}: {entry['why'][:100]}")
        for mutant in alive:
            new.append(Accepted(mutant.module, mutant.function, mutant.function_hash, mutant.line, mutant.original,
                                mutant.mutated, category, why,
                                check=PROBE_BY_MODULE[mutant.module] if category != "not-pinned" else "",
                                contract=contract))
    if unmapped:
        sys.exit("no contract sentence for these reasons (add them to CONTRACT_BY_REASON):\n  "
                 + "\n  ".join(sorted(unmapped)))
    return new, notes


HEADER = """# Survivors of `bpe-kata mutate` that the tests need not kill, and why (docs/TEACHERS.md, "Mutation testing").
#
# Key (bpe_kata/mutation/ledger.py): module, function, mutmut's hash of the function, the changed
# line's offset from the def line, and the line before and after (whitespace-normalized). Twins get
# an entry each; an entry whose function changed (another hash) is stale and fails the gate.
# category: equivalent       - no result changes: `check` names the differential probe the gate runs
#                              (bpe_kata/mutation/checks.py) on the original and the mutant
#           performance-only - only time or memory changes: `check` as for equivalent
#           not-pinned       - a behaviour the contract leaves free: `contract` quotes the sentence of
#                              spec/CONTRACT.md that leaves it free (the gate checks it is there)
# `bpe-kata mutate --gate` fails on a survivor missing here, a stale entry, a false claim, a partial
# run, a mutant without a verdict, a score under the floor or a category over its cap.
# `bpe-kata mutate --results-only --draft FILE` drafts entries; `--prune` drops the killed ones.

# The floor and the caps (as Stryker's `break` and PIT's `maxSurviving`), set from the run of
# {date} (benchmarks/README.md): lower a cap or raise the floor freely; raise a cap or lower the
# floor only with the reason in the commit message.
[gate]
score_floor = {floor}
max_equivalent = {equivalent}
max_performance_only = {performance}
max_not_pinned = {not_pinned}
"""  # noqa: E501  (the header of mutation/accepted.toml, word for word)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    parser.add_argument("--date", default="2026-12-02")
    parser.add_argument("--partial", action="store_true",
                        help="the run in mutants/ is not complete: keep the entries of mutants not checked yet")
    parser.add_argument("--floor", type=float, default=None, help="the score floor (default: this run's score)")
    options = parser.parse_args()
    old = tomllib.loads(LEDGER.read_text(encoding="utf-8")).get("accepted", [])
    if old and "hash" in old[0]:
        sys.exit(f"{LEDGER} already has the new keys: nothing to migrate")
    mutants = read_results(ROOT / "mutants")
    global UNDECIDED
    if options.partial:
        UNDECIDED = ("not checked", "interrupted")
    elif any(m.status in ("not checked", "interrupted") for m in mutants) or not mutants:
        sys.exit("mutants/ holds no complete run: run `bpe-kata mutate` first (or --partial)")
    new, notes = migrate(old, mutants)
    counts = Counter(entry.category for entry in new)
    value = score(tally(mutants)["all"])
    floor = options.floor if options.floor is not None else math.floor(1000 * value) / 1000  # rounded down
    print("\n".join(notes))
    print(f"{len(old)} entries before, {len(new)} after; score {100 * value:.2f}% (floor {floor}); {dict(counts)}")
    if options.dry_run:
        return 0
    header = HEADER.format(date=options.date, floor=floor, equivalent=counts["equivalent"],
                           performance=counts["performance-only"], not_pinned=counts["not-pinned"])
    LEDGER.write_text(header + "\n" + "\n\n".join(render_entry(e) for e in new) + "\n", encoding="utf-8")
    print(f"wrote {LEDGER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
