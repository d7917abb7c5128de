"""``bpe-kata diff A B``: differential testing between any two tokenizers the suite can load.

The sides (bpe_kata/tools/diff_sides.py) are implementations of the contract (anything ``--impl``
takes), published tokenizers (``tiktoken:NAME``) or saved files (``file:PATH``). Training, encoding
and decoding are compared first on every small input (every text of one or two UTF-8 bytes, every
two of the table's tokens, every single id: bpe_kata/tools/diff_exhaustive.py), then on generated
inputs in seeded Hypothesis runs, round after round until the time box (bpe_kata/tools/diff_search.py);
each divergence is shrunk, shown side by side, held against the contract's answer and the ledger
(diff_report.py), and can be written as a worked case (diff_case.py).
Exit status: 0 no divergence, 1 divergence, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.tools import diff_case, diff_exhaustive, diff_report, diff_search
from bpe_kata.tools.diff_sides import OPERATIONS, Side, SideError, close, resolve
from bpe_kata.tools.tables import Table, TableError

DEFAULT_TABLE = "cases:320"
ROUND_EXAMPLES = 60


@dataclass
class Found:
    divergence: diff_search.Divergence
    verdict: diff_report.DiffFinding
    seconds: float  # from the start of the run until it was found and shrunk


@dataclass
class Result:
    a: str
    b: str
    seed: int
    budget: float
    table: Table | None
    compared: dict[str, str]  # operation -> "compared" or why not
    found: list[Found] = field(default_factory=list)
    examples: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    table_seconds: float = 0.0  # of ``seconds``: getting the table (training it, or reading a published one)


def shared_table(value: str | None) -> Table:
    """The table both implementations encode and decode with: a published one, CORPUS:VOCAB or ``cases:VOCAB``
    trained by the spec's own trainer (spec/fast_train.py, equal to the oracle), or a saved file."""
    from bpe_kata.tools.tables import corpus_text, parse_train_spec, resolve
    from spec import fast_train, oracle

    value = value or DEFAULT_TABLE
    if value.startswith("cases:"):
        _, vocab = parse_train_spec(value)
        text = "\n".join(diff_search.worked_inputs("encode"))
        return Table(value, dict(fast_train.train(text, vocab)))
    if ":" in value and not Path(value).exists():
        from bpe_kata.data import corpora, corpus_tables

        corpus, vocab = parse_train_spec(value)
        text = corpus_text(corpus)
        if corpus in corpora.CORPORA:  # trained once, then read from the user cache
            return Table(value, dict(corpus_tables.table(corpus, text, vocab)))
        return Table(value, dict(fast_train.train(text, vocab)))
    return resolve(oracle, value)


def tables_for(a: Side, b: Side, value: str | None) -> tuple[Table | None, Table | None]:
    if a.fixed or b.fixed:
        if value is not None:
            raise TableError("--table is for two implementations: a published tokenizer or a saved file brings its own")
        return (a.table or b.table), (b.table or a.table)
    table = shared_table(value)
    return table, table


def run(a: Side, b: Side, *, table: str | None = None, budget: float = 20.0, seed: int = 0,
        operations: tuple[str, ...] = OPERATIONS, examples: int = ROUND_EXAMPLES, slices=None) -> Result:
    """Compare the two sides until each operation has diverged or the time box is spent."""
    start = time.monotonic()
    tables = tables_for(a, b, table)
    result = Result(a.name, b.name, seed, budget, tables[0], {}, table_seconds=time.monotonic() - start)
    for operation in operations:
        why = a.missing.get(operation) or b.missing.get(operation)
        if operation == "decode" and tables[0] is not tables[1]:
            why = "two fixed tables number their tokens differently"
        result.compared[operation] = f"not compared: {why}" if why else "compared"
    live = [op for op in operations if result.compared[op] == "compared"]
    found_strategies = diff_search.strategies(tables[0], slices if slices is not None else diff_search.corpus_slices())
    deadline = time.monotonic() + budget  # the time box is the search's: the table is not charged to it
    share = budget / (2 * max(len(live), 1))  # the small inputs take at most half the box, a share per operation
    for operation in list(live):  # every small input first (diff_exhaustive.py), then random rounds
        found = diff_exhaustive.sweep(a, b, operation, tables, deadline=min(deadline, time.monotonic() + share),
                                      counter=result.examples)
        if found is not None:
            verdict = diff_report.classify(found, tables[0], same_table=tables[0] is tables[1])
            result.found.append(Found(found, verdict, time.monotonic() - start))
            live.remove(operation)
    round_number = 0
    while live and time.monotonic() < deadline:
        for operation in list(live):
            run_seed = (seed * 1_000_003 + round_number * 7919 + OPERATIONS.index(operation)) % 2**32
            found = diff_search.search(a, b, operation, found_strategies[operation], tables, run_seed=run_seed,
                                       examples=examples, deadline=deadline, counter=result.examples)
            if found is not None:
                verdict = diff_report.classify(found, tables[0], same_table=tables[0] is tables[1])
                result.found.append(Found(found, verdict, time.monotonic() - start))
                live.remove(operation)
            if time.monotonic() >= deadline:
                break
        round_number += 1
    result.seconds = time.monotonic() - start
    return result


def explain(claims: list[str]) -> list[str]:
    from spec.ledger import load_claims

    ledger = load_claims()
    return [f"  claim {cid}: {ledger[cid].statement}" for cid in claims if cid in ledger]


def render(result: Result) -> list[str]:
    counts = ", ".join(f"{op} {n}" for op, n in result.examples.items()) or "none"
    lines = [f"bpe-kata diff {result.a} {result.b}: {len(result.found)} divergence(s) in {result.seconds:.1f} s "
             f"(--seed {result.seed}, --budget {result.budget:g}; inputs tried: {counts})"]
    if result.table is not None:
        lines.append(f"table: {result.table.name} ({len(result.table.merges):,} merges"
                     + (", split pattern" if result.table.pattern else "")
                     + (f", {len(result.table.special_tokens)} special tokens" if result.table.special_tokens else "")
                     + ")")
    lines += [f"{op}: {state}" for op, state in result.compared.items() if state != "compared"]
    for found in result.found:
        d, v = found.divergence, found.verdict
        left, right = (diff_report.rendered(o.value if o.raised is None else {"raised": o.raised}, d.operation,
                                            result.table) for o in (d.a, d.b))
        part = diff_report.first_difference(d.a.value, d.b.value)
        lines += ["", f"{d.operation}: {diff_report.describe_input(d)}, found and shrunk after {found.seconds:.1f} s",
                  *diff_report.side_by_side((result.a, result.b), left, right, part),
                  f"  first difference at position {part}" if part is not None else "  the answers differ"]
        names = {"a": result.a, "b": result.b}
        if v.off:
            lines.append(f"  off the contract: {', '.join(names[s] for s in v.off)}; {v.kind}: "
                         f"{', '.join(v.claims)} ({v.note})")
            lines += explain(v.claims)
        elif v.kind == "different tables":
            lines.append("  the two tokenizers have tables of their own: a difference of tables, not of the contract")
        else:
            lines.append("  both answers are the contract's (they differ in how they refuse)")
    return lines


def as_json(result: Result) -> dict:
    out = {"a": result.a, "b": result.b, "seed": result.seed, "budget": result.budget,
           "seconds": round(result.seconds, 2), "table_seconds": round(result.table_seconds, 2),
           "examples": result.examples, "operations": result.compared,
           "table": None if result.table is None else {"name": result.table.name, "merges": len(result.table.merges)},
           "divergences": []}
    for found in result.found:
        d, v = found.divergence, found.verdict
        answer = lambda o: {"raised": o.raised} if o.raised else {"value": o.value}  # noqa: E731
        out["divergences"].append({
            "operation": d.operation, "input": d.given, "input_size": diff_report.input_bytes(d),
            "a": answer(d.a), "b": answer(d.b), "first_difference": diff_report.first_difference(d.a.value, d.b.value),
            "contract": v.expected, "off_contract": v.off, "claims": v.claims, "class": v.kind, "note": v.note,
            "seconds": round(found.seconds, 2)})
    return out


def _json_safe(value):
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    return value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bpe-kata diff", description=(
        "Differential testing of two tokenizers: train, encode and decode on generated inputs; every divergence "
        "shrunk to a minimal input, shown side by side and held against the contract and the ledger. A side is "
        "anything --impl takes (module, path, cmd:..., course shapes), tiktoken:NAME or file:SAVED.bpe. "
        "Exit status: 0 no divergence, 1 divergence, 2 usage error."))
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--budget", type=float, default=20.0, metavar="SECONDS", help="time box for the search (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same inputs (default 0)")
    p.add_argument("--table", metavar="T", help=f"the table two implementations share: gpt2, cl100k_base, "
                   f"CORPUS:VOCAB, cases:VOCAB or a saved file (default {DEFAULT_TABLE})")
    p.add_argument("--only", metavar="OPS", default=",".join(OPERATIONS), help="operations, comma-separated")
    p.add_argument("--json", action="store_true", help="the result as JSON on stdout")
    p.add_argument("--save-case", metavar="FILE", type=Path, help="write the divergences as worked cases")
    return p


def main(argv: list[str]) -> int:
    options = parser().parse_args(argv)
    operations = tuple(op.strip() for op in options.only.split(",") if op.strip())
    bad = [op for op in operations if op not in OPERATIONS]
    if bad or not operations:
        return _usage(f"--only {options.only}: operations are {', '.join(OPERATIONS)}")
    if not options.budget > 0:
        return _usage(f"--budget {options.budget:g}: give a positive number of seconds")
    if options.save_case is not None and not options.save_case.parent.is_dir():
        return _usage(f"--save-case {options.save_case}: no such folder {options.save_case.parent}")
    sides: list[Side] = []
    try:
        sides = [resolve(options.a), resolve(options.b)]
        result = run(*sides, table=options.table, budget=options.budget, seed=options.seed, operations=operations)
    except (SideError, TableError) as error:
        return _usage(str(error))
    finally:
        for side in sides:
            close(side)
    try:
        if options.json:
            print(json.dumps(_json_safe(as_json(result)), indent=1, ensure_ascii=False))
        else:
            print("\n".join(render(result)))
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if options.save_case is not None and result.found:
        written, skipped = [], []
        for found in result.found:
            try:
                written.append(diff_case.case_of(found.divergence, found.verdict, result.table))
            except diff_case.CaseUnwritable as why:
                skipped.append(f"{found.divergence.operation}: {why}")
        paths = diff_case.write(options.save_case, written) if written else []
        for line in [f"case written: {p}" for p in paths] + [f"no case for {s}" for s in skipped]:
            print(line, file=sys.stderr)
    return 1 if result.found else 0


def _usage(message: str) -> int:
    print(f"bpe-kata diff: {message}", file=sys.stderr)
    return 2
