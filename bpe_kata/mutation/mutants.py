"""Mutants as mutmut reports them: each one's status from its exit code, the line it changed in the reference,
and the tallies by module. Reading them needs no mutmut: its ``mutants/**/*.py.meta`` JSON files and the
mutated copies it keeps are enough."""

from __future__ import annotations

import ast
import difflib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CLASS_SEPARATOR = "ǁ"  # mutmut names a method's mutants xǁClassǁmethod__mutmut_N

#: mutmut 3.8's exit-code meanings (mutmut/stats.py ``status_by_exit_code``), copied so that
#: reading results works without mutmut; an unknown code is "suspicious", as there.
STATUS_BY_EXIT_CODE: dict[int | None, str] = {
    1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 2: "interrupted",
    None: "not checked", 34: "skipped", 35: "suspicious", 36: "timeout", 37: "caught by type check",
    -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", -11: "segfault", -9: "segfault",
    39: "over memory",  # bpe_kata/mutation/mutmut_runner.py: the child ran out of its address-space limit
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
    line: int = 0  # the first changed line, counted from the function's def line (0)
    function_hash: str = ""  # mutmut's hash of the original function (mutants/**/*.py.meta)
    estimate: float = field(default=0.0, compare=False)  # mutmut's seconds for its tests (what --shard deals by)

    @property
    def module(self) -> str:
        return split_name(self.name)[0]

    @property
    def function(self) -> str:
        return split_name(self.name)[1]

    @property
    def key(self) -> tuple[str, str, str, int, str, str]:
        """What the ledger matches: nothing in it is mutmut's mutant number, which shifts."""
        return (self.module, self.function, self.function_hash, self.line, self.original, self.mutated)


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
    for meta_path in sorted(mutants_dir.rglob("*.py.meta")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        hashes = meta.get("hash_by_function_name", {})
        estimated = {**(meta.get("durations_by_key") or {}), **(meta.get("estimated_durations_by_key") or {})}
        source = meta_path.with_suffix("")  # reference/stream.py.meta -> reference/stream.py
        functions = function_sources(source.read_text(encoding="utf-8")) if source.is_file() else {}
        for name, code in meta["exit_code_by_key"].items():
            original, mutated, line = changed_line(functions, name)
            stem = name.rpartition(".")[2].rpartition("__mutmut_")[0]
            found.append(Mutant(name, status_of(code), original, mutated, line, hashes.get(stem, ""),
                                float(estimated.get(name) or 0.0)))
    return found


def function_sources(text: str) -> dict[str, str]:
    """Source of every function and method of a module, by its own (mangled) name."""
    tree = ast.parse(text)
    lines = text.splitlines()  # by line numbers: ast.get_source_segment splits the whole text per call
    return {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def changed_line(functions: dict[str, str], name: str) -> tuple[str, str, int]:
    """The lines a mutant changed, before and after, whitespace-normalized and joined with ' / ',
    and where the first of them is, counted in lines from the function's def line (0)."""
    mangled = name.rpartition(".")[2]
    stem = mangled.rpartition("__mutmut_")[0]
    before, after = functions.get(f"{stem}__mutmut_orig"), functions.get(mangled)
    if before is None or after is None:
        return "", "", 0
    old_lines = [normalize(line) for line in before.splitlines()[1:]]  # the def line differs by name only
    new_lines = [normalize(line) for line in after.splitlines()[1:]]
    removed, added, first = [], [], None
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += old_lines[i1:i2]
            added += new_lines[j1:j2]
            first = i1 + 1 if first is None else first
    if not removed and not added:  # a mutated signature (a default value): compare the def lines
        bare = stem.rpartition(CLASS_SEPARATOR)[2] if CLASS_SEPARATOR in stem else stem[2:]
        return normalize(before.splitlines()[0]).replace(f"{stem}__mutmut_orig", bare), \
            normalize(after.splitlines()[0]).replace(mangled, bare), 0
    return " / ".join(removed), " / ".join(added), first or 0


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


# --- running mutmut ----------------------------------------------------------------------------
