"""Mutation testing of the reference: run mutmut the one way that works, read its verdicts, gate them.

``bpe-kata mutate`` (bpe_kata/cli.py) calls :func:`main`. It starts from an empty ``mutants/``,
hands mutmut the corpus folder the spec would use (``$BPE_KATA_DATA``: the ``mutants/`` copy
has no ``../shared/data`` beside it) and the derandomized ``mutmut`` Hypothesis profile, runs
``mutmut run`` with the options it was given, then prints a table per module and every
survivor with the line it changed. ``--gate`` compares the survivors with the ledger of
accepted ones (``mutation/accepted.toml``): a survivor not in it fails, and so does an entry
that no longer survives, so the ledger can neither hide a new gap nor rot.

Reading results needs no mutmut: the verdicts are mutmut's ``mutants/**/*.py.meta`` JSON
files, and the changed line is read off the mutated copy of the module, where mutmut keeps
the original function and each mutant side by side.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MUTANTS = "mutants"
LEDGER = Path("mutation") / "accepted.toml"
CATEGORIES = ("equivalent", "performance-only", "not-pinned")
CLASS_SEPARATOR = "ǁ"  # mutmut names a method's mutants xǁClassǁmethod__mutmut_N

#: mutmut 3.8's exit-code meanings (mutmut/stats.py ``status_by_exit_code``), copied so that
#: reading results works without mutmut; an unknown code is "suspicious", as there.
STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 2: "interrupted",
    None: "not checked", 34: "skipped", 35: "suspicious", 36: "timeout", 37: "caught by type check",
    -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", -11: "segfault", -9: "segfault",
    39: "over memory",  # bpe_kata/mutmut_runner.py: the child ran out of its address-space limit
}
#: The columns of the table, in order; anything else is counted under "other".
COLUMNS = ("killed", "timeout", "over memory", "survived", "no tests")
#: What the spec detects: a mutant that fails a test, runs past its CPU limit or past its memory limit.
DETECTED = ("killed", "timeout", "over memory")


@dataclass(frozen=True)
class Mutant:
    """One mutant's verdict and, where the mutated copy is at hand, the line it changed."""

    name: str  # mutmut's key, e.g. reference.stream.xǁStreamDecoderǁfeed__mutmut_2
    status: str
    original: str = ""
    mutated: str = ""

    @property
    def module(self) -> str:
        return split_name(self.name)[0]

    @property
    def function(self) -> str:
        return split_name(self.name)[1]


def split_name(name: str) -> tuple[str, str]:
    """``reference.stream.xǁStreamDecoderǁfeed__mutmut_2`` -> (``reference.stream``, ``StreamDecoder.feed``)."""
    mangled = name.rpartition("__mutmut_")[0]
    module, _, function = mangled.rpartition(".x")
    if function.startswith(CLASS_SEPARATOR):
        cls, _, method = function[1:].partition(CLASS_SEPARATOR)
        return module, f"{cls}.{method}"
    return module, function.removeprefix("_")


def status_of(exit_code: int | None) -> str:
    return STATUS_BY_EXIT_CODE.get(exit_code, "suspicious")


# --- reading mutmut's results ----------------------------------------------------------------


def read_results(mutants_dir: Path) -> list[Mutant]:
    """Every mutant in ``mutants_dir`` with its verdict and changed line, in mutmut's order."""
    found: list[Mutant] = []
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        source = meta.with_suffix("")  # reference/stream.py.meta -> reference/stream.py
        functions = function_sources(source.read_text(encoding="utf-8")) if source.is_file() else {}
        for name, code in codes.items():
            original, mutated = changed_line(functions, name)
            found.append(Mutant(name, status_of(code), original, mutated))
    return found


def function_sources(text: str) -> dict[str, str]:
    """Source of every function and method of a module, by its own (mangled) name."""
    tree = ast.parse(text)
    return {node.name: ast.get_source_segment(text, node) or ""
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def changed_line(functions: dict[str, str], name: str) -> tuple[str, str]:
    """The lines a mutant changed, before and after, whitespace-normalized and joined with ' / '."""
    mangled = name.rpartition(".")[2]
    stem = mangled.rpartition("__mutmut_")[0]
    before, after = functions.get(f"{stem}__mutmut_orig"), functions.get(mangled)
    if before is None or after is None:
        return "", ""
    old_lines = [normalize(line) for line in before.splitlines()[1:]]  # the def line differs by name only
    new_lines = [normalize(line) for line in after.splitlines()[1:]]
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += old_lines[i1:i2]
            added += new_lines[j1:j2]
    if not removed and not added:  # a mutated signature (a default value): compare the def lines
        bare = stem.rpartition(CLASS_SEPARATOR)[2] if CLASS_SEPARATOR in stem else stem[2:]
        return normalize(before.splitlines()[0]).replace(f"{stem}__mutmut_orig", bare), \
            normalize(after.splitlines()[0]).replace(mangled, bare)
    return " / ".join(removed), " / ".join(added)


def normalize(line: str) -> str:
    return " ".join(line.split())


# --- the table ---------------------------------------------------------------------------------


def tally(mutants: list[Mutant]) -> dict[str, Counter]:
    """Counts of each status per module, plus an ``all`` row."""
    rows: dict[str, Counter] = {}
    for mutant in mutants:
        rows.setdefault(mutant.module, Counter())[mutant.status] += 1
    rows["all"] = sum(rows.values(), Counter())
    return rows


def score(counts: Counter) -> float | None:
    """Share of the checked mutants the spec detects (killed or timed out), mutmut's own definition."""
    checked = sum(counts.values()) - counts["not checked"] - counts["skipped"]
    return sum(counts[status] for status in DETECTED) / checked if checked else None


def render_table(rows: dict[str, Counter]) -> list[str]:
    header = f"{'module':<28}{'mutants':>8}{'killed':>8}{'timeout':>8}{'memory':>7}{'survived':>9}{'no tests':>9}" \
             f"{'other':>7}{'score':>8}"
    lines = [header, "-" * len(header)]
    for module, counts in sorted(rows.items(), key=lambda item: (item[0] == "all", item[0])):
        total = sum(counts.values())
        other = total - sum(counts[c] for c in COLUMNS)
        value = score(counts)
        shown = "-" if value is None else f"{100 * value:.1f}%"
        if module == "all":
            lines.append("-" * len(header))
        lines.append(f"{module:<28}{total:>8}{counts['killed']:>8}{counts['timeout']:>8}"
                     f"{counts['over memory']:>7}{counts['survived']:>9}"
                     f"{counts['no tests']:>9}{other:>7}{shown:>8}")
    return lines


# --- the ledger of accepted survivors and the gate ---------------------------------------------


@dataclass(frozen=True)
class Accepted:
    """A survivor the spec need not kill, and why; matched by text, not by mutmut's shifting number."""

    module: str
    function: str
    original: str
    mutated: str
    category: str
    why: str

    def matches(self, mutant: Mutant) -> bool:
        return (self.module, self.function, normalize(self.original), normalize(self.mutated)) == \
            (mutant.module, mutant.function, mutant.original, mutant.mutated)


class LedgerError(ValueError):
    """The ledger file is malformed; the message names the entry."""


def load_ledger(path: Path) -> list[Accepted]:
    if not path.is_file():
        return []
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("accepted", [])
    ledger = []
    for number, entry in enumerate(entries, 1):
        missing = [key for key in ("module", "function", "original", "mutated", "category", "why")
                   if not isinstance(entry.get(key), str)]
        if missing:
            raise LedgerError(f"{path}: entry {number} lacks {', '.join(missing)} (each a string)")
        if entry["category"] not in CATEGORIES:
            raise LedgerError(f"{path}: entry {number} has category {entry['category']!r}; "
                              f"use one of {', '.join(CATEGORIES)}")
        if not entry["why"].strip():
            raise LedgerError(f"{path}: entry {number} does not say why it is accepted")
        ledger.append(Accepted(**{key: entry[key] for key in Accepted.__dataclass_fields__}))
    return ledger


@dataclass(frozen=True)
class GateVerdict:
    unexpected: list[Mutant]  # survivors the ledger does not accept: gaps in the spec
    stale: list[Accepted]  # entries whose mutant no longer survives: the ledger must shrink
    unjudged: list[str]  # modules some of whose mutants were not checked: not judged at all

    @property
    def passed(self) -> bool:
        return not self.unexpected and not self.stale


def gate(mutants: list[Mutant], ledger: list[Accepted]) -> GateVerdict:
    """Survivors against the ledger, in the modules whose every mutant was checked.

    A survivor is anything that lived through the spec: survived, or had no test at all.
    A performance-only entry also holds when its mutant timed out (:func:`timed_out_if_slow`).
    """
    unchecked = sorted({m.module for m in mutants if m.status in ("not checked", "interrupted")})
    judged = [m for m in mutants if m.module not in unchecked]
    survivors = [m for m in judged if m.status in ("survived", "no tests")]
    unexpected = [m for m in survivors if not any(entry.matches(m) for entry in ledger)]
    judged_modules = {m.module for m in judged}
    stale = [entry for entry in ledger if entry.module in judged_modules
             and not any(entry.matches(m) for m in survivors + timed_out_if_slow(entry, judged))]
    return GateVerdict(unexpected, stale, unchecked)


def timed_out_if_slow(entry: Accepted, judged: list[Mutant]) -> list[Mutant]:
    """The timed-out mutants that still bear out a performance-only entry.

    A mutant that only makes the reference slower finishes within its CPU budget or runs
    past it depending on the machine: survived and timed out are both what the entry says.
    """
    return [m for m in judged if m.status == "timeout"] if entry.category == "performance-only" else []


def render_gate(verdict: GateVerdict, ledger_path: Path) -> list[str]:
    lines = []
    for mutant in verdict.unexpected:
        lines += [f"NEW SURVIVOR {mutant.name} ({mutant.status})",
                  f"    in {mutant.function}: {mutant.original!r} -> {mutant.mutated!r}"]
    for entry in verdict.stale:
        lines += [f"STALE ENTRY {entry.module} {entry.function}: {entry.original!r} -> {entry.mutated!r}",
                  "    no longer survives: delete it from the ledger"]
    if verdict.unjudged:
        lines.append(f"not judged (mutants left unchecked): {', '.join(verdict.unjudged)}")
    if verdict.passed:
        lines.append(f"gate passed: every survivor is accepted in {ledger_path}")
    else:
        lines.append(f"gate FAILED: {len(verdict.unexpected)} survivor(s) not in {ledger_path}, "
                     f"{len(verdict.stale)} entry(ies) that no longer survive. Kill a new survivor with a spec "
                     "test, or add it to the ledger with its category and why.")
    return lines


# --- running mutmut ----------------------------------------------------------------------------


def corpus_folder(data_dir: str | None, scratch: Path) -> Path:
    """The folder holding every corpus, found the way the spec finds them (bpe_kata/data/corpora.py).

    When they are found in different folders, a folder of links in ``scratch`` joins them.
    """
    from bpe_kata.data import corpora

    finder = corpora.CorpusFinder(data_dir=data_dir)
    paths = {name: finder.path(name) for name in corpora.CORPORA}
    folders = {path.parent for path in paths.values()}
    if len(folders) == 1:
        return folders.pop().resolve()
    joined = scratch / ".corpora"
    joined.mkdir(parents=True, exist_ok=True)
    for path in paths.values():
        (joined / path.name).symlink_to(path.resolve())
    return joined


def mutmut_environment(data: Path) -> dict[str, str]:
    return {**os.environ, "BPE_KATA_DATA": str(data), "HYPOTHESIS_PROFILE": "mutmut", "BPE_KATA_OFFLINE": "1"}


def run_mutmut(mutmut_args: list[str], env: dict[str, str], root: Path) -> int:
    """``mutmut run ARGS`` in the project root, with limits on CPU time (bpe_kata/mutmut_runner.py)."""
    command = [sys.executable, "-m", "bpe_kata.mutmut_runner", "run", *mutmut_args]
    return subprocess.run(command, cwd=root, env=env, check=False).returncode


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def render_draft(survivors: list[Mutant]) -> str:
    """Ledger entries for ``survivors``, category and reason left for a person to decide.

    ``load_ledger`` refuses them until both are filled in, so a draft cannot pass the gate unread.
    """
    blocks = []
    for mutant in survivors:
        blocks.append("\n".join([
            f"# {mutant.name} ({mutant.status})",
            "[[accepted]]",
            f"module = {toml_string(mutant.module)}",
            f"function = {toml_string(mutant.function)}",
            f"original = {toml_string(mutant.original)}",
            f"mutated = {toml_string(mutant.mutated)}",
            f'category = "?"  # {" | ".join(CATEGORIES)}, or kill it with a spec test instead',
            'why = ""',
        ]))
    return "\n\n".join(blocks) + "\n"


def print_report(mutants: list[Mutant], ledger: list[Accepted], ledger_path: Path, want_gate: bool) -> int:
    print("\n".join(render_table(tally(mutants))))
    survivors = [m for m in mutants if m.status in ("survived", "no tests", "suspicious")]
    if survivors:
        print(f"\nsurvivors ({len(survivors)}; `mutmut show NAME` in the project root gives the diff):")
    for mutant in survivors:
        entry = next((e for e in ledger if e.matches(mutant)), None)
        label = f"accepted: {entry.category}" if entry else "NOT IN LEDGER"
        print(f"  {mutant.name} [{mutant.status}; {label}]\n      {mutant.original!r} -> {mutant.mutated!r}")
    if not want_gate:
        return 0
    verdict = gate(mutants, ledger)
    print()
    print("\n".join(render_gate(verdict, ledger_path)))
    return 0 if verdict.passed else 1


USAGE = """bpe-kata mutate [--gate] [--results-only] [--ledger FILE] [--data-dir DIR] [mutmut run options...]

Mutation testing of reference/ with mutmut (the `dev` extra): every mutant is a small change to
the reference; a mutant the spec does not fail "survived", a gap in the spec or a change the
contract allows. Options mutmut run takes pass through, e.g. --max-children 2, or mutant names
("reference.stream.*") to test only those (the others stay "not checked").

  --gate          fail on a survivor not accepted in the ledger, or a ledger entry that no longer survives
  --results-only  do not run: read the results of the last run in mutants/
  --ledger FILE   the accepted survivors (default mutation/accepted.toml)
  --data-dir DIR  where the corpora are (default: found as the spec finds them)
  --draft FILE    write ledger entries for the survivors the ledger lacks, category and why to fill in"""


def main(argv: list[str], root: Path = PROJECT_ROOT) -> int:
    if any(arg in ("-h", "--help") for arg in argv):
        print("usage: " + USAGE)
        return 0
    parser = argparse.ArgumentParser(prog="bpe-kata mutate", add_help=False)
    parser.add_argument("--gate", action="store_true")
    parser.add_argument("--results-only", action="store_true")
    parser.add_argument("--ledger", type=Path, default=None)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--draft", type=Path, default=None)
    options, mutmut_args = parser.parse_known_args(argv)
    ledger_path = options.ledger or root / LEDGER
    try:
        ledger = load_ledger(ledger_path)
    except LedgerError as error:
        print(f"bpe-kata mutate: {error}", file=sys.stderr)
        return 2
    mutants_dir = root / MUTANTS
    status = 0 if options.results_only else start(options.data_dir, mutmut_args, root)
    if not any(mutants_dir.rglob("*.py.meta")):
        print("bpe-kata mutate: no results in mutants/: run `bpe-kata mutate` first", file=sys.stderr)
        return status or 2
    mutants = read_results(mutants_dir)
    verdict = print_report(mutants, ledger, ledger_path, options.gate)
    if options.draft:
        missing = gate(mutants, ledger).unexpected
        options.draft.write_text(render_draft(missing), encoding="utf-8")
        print(f"wrote {len(missing)} draft entries to {options.draft}: fill in category and why, then move "
              f"them into {ledger_path}")
    return status or verdict


def start(data_dir: str | None, mutmut_args: list[str], root: Path) -> int:
    """A fresh mutmut run; non-zero (with the reason printed) when it cannot run or did not finish."""
    from bpe_kata.data import corpora

    try:
        import mutmut  # noqa: F401 - only to say how to get it
    except ImportError:
        print("bpe-kata mutate: mutmut is not installed; install the dev extra: pip install -e '.[dev]'",
              file=sys.stderr)
        return 2
    if not (root / "pyproject.toml").is_file() or not (root / "reference").is_dir():
        print("bpe-kata mutate: run this from a clone of bpe-kata (an editable install)", file=sys.stderr)
        return 2
    shutil.rmtree(root / MUTANTS, ignore_errors=True)  # always from scratch: mutmut reuses old verdicts
    try:
        data = corpus_folder(data_dir, root / MUTANTS)
    except corpora.CorpusUnavailable as error:
        print(f"bpe-kata mutate: the spec needs the corpora and none could be had: {error}", file=sys.stderr)
        return 2
    print(f"bpe-kata mutate: corpora from {data}; Hypothesis profile mutmut; mutmut run {' '.join(mutmut_args)}")
    status = run_mutmut(mutmut_args, mutmut_environment(data), root)
    if status:
        print(f"bpe-kata mutate: mutmut stopped with exit status {status}; any table below is what it left",
              file=sys.stderr)
    return status
