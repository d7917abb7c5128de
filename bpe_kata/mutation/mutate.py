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
import os
import shutil
import subprocess
import sys
from pathlib import Path

from bpe_kata.mutation.entries import render_draft, write_ledger
from bpe_kata.mutation.ledger import (
    SURVIVED,
    Accepted,
    LedgerError,
    Limits,
    gate,
    killed_now,
    load_ledger,
    load_limits,
    render_gate,
)
from bpe_kata.mutation.mutants import Mutant, read_results, render_table, tally

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MUTANTS = "mutants"
LEDGER = Path("mutation") / "accepted.toml"
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
    """``mutmut run ARGS`` in the project root, with limits on CPU time (bpe_kata/mutation/mutmut_runner.py)."""
    command = [sys.executable, "-m", "bpe_kata.mutation.mutmut_runner", "run", *mutmut_args]
    return subprocess.run(command, cwd=root, env=env, check=False).returncode


def print_report(mutants: list[Mutant], ledger: list[Accepted], limits: Limits | None, ledger_path: Path,
                 want_gate: bool, root: Path) -> int:
    print("\n".join(render_table(tally(mutants))))
    survivors = [m for m in mutants if m.status in SURVIVED]
    if survivors:
        print(f"\nsurvivors ({len(survivors)}; `mutmut show NAME` in the project root gives the diff):")
    for mutant in survivors:
        entry = next((e for e in ledger if e.matches(mutant)), None)
        label = f"accepted: {entry.category}" if entry else "NOT IN LEDGER"
        print(f"  {mutant.name} [{mutant.status}; {label}]\n      {mutant.original!r} -> {mutant.mutated!r}")
    if not want_gate:
        return 0
    print("\nchecking what each entry claims (differential runs of the equivalent and performance-only ones)...",
          flush=True)
    verdict = gate(mutants, ledger, limits, root)
    print()
    print("\n".join(render_gate(verdict, ledger_path)))
    return 0 if verdict.passed else 1


USAGE = """bpe-kata mutate [--gate] [--results-only] [--ledger FILE] [--data-dir DIR] [--draft FILE] [--prune]
                [--results FILE] [--from FILE] [--shard K/N [--costs FILE]] [mutmut run options...]

Mutation testing of reference/ with mutmut (the `dev` extra): every mutant is a small change to
the reference; a mutant the spec and the reference's own tests do not fail "survived", a gap in
the tests or a change the contract allows. Options mutmut run takes pass through, e.g.
--max-children 2, or mutant names ("reference.stream.*") to test only those (the others stay
"not checked", and --gate then fails: a partial run is not a verdict).

  --gate          fail on: a survivor not accepted in the ledger; an entry that no longer survives
                  or whose function changed; an entry whose claim is false (its differential check or
                  contract sentence); a mutant not checked, or "suspicious", "segfault" or of an unknown
                  status; a module without results; a score below the ledger's floor; a category over its cap
  --results-only  do not run: read the results of the last run in mutants/
  --ledger FILE   the accepted survivors (default mutation/accepted.toml)
  --data-dir DIR  where the corpora are (default: found as the spec finds them)
  --draft FILE    write ledger entries for the survivors the ledger lacks, category and why to fill in
  --prune         rewrite the ledger without the entries whose mutant is now killed (never others)
  --results FILE  also write the verdicts as JSON (with --shard: the shard's part for `bpe-kata merge`)
  --from FILE     do not run: read the verdicts from a --results (or merged) file; the gate's differential
                  checks use mutants/, written by mutmut's generation step alone when it is absent
  --shard K/N     run only shard K of N of the mutants (mutmut's generation step lists them), dealt by cost;
                  needs --results; the gate is for the merged whole (docs/SCALE.md)
  --costs FILE    an earlier --results file: --shard deals by its recorded estimates (default: by count)"""


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
    parser.add_argument("--prune", action="store_true")
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--from", dest="source", type=Path, default=None)
    parser.add_argument("--shard", default=None)
    parser.add_argument("--costs", type=Path, default=None)
    options, mutmut_args = parser.parse_known_args(argv)
    ledger_path = options.ledger or root / LEDGER
    try:
        ledger = load_ledger(ledger_path)
        limits = load_limits(ledger_path)
    except LedgerError as error:
        print(f"bpe-kata mutate: {error}", file=sys.stderr)
        return 2
    mutants_dir = root / MUTANTS
    if options.shard:
        return run_shard(options, mutmut_args, root)
    if options.source is not None:
        from bpe_kata.mutation import results_file

        try:
            mutants = results_file.read(options.source)
        except results_file.ResultsError as error:
            print(f"bpe-kata mutate: --from {error}", file=sys.stderr)
            return 2
        if options.gate and not any(mutants_dir.rglob("*.py.meta")):
            status = generate(root)  # the differential checks run the probes on the mutated copy
            if status:
                return status
        status = 0
    else:
        status = 0 if options.results_only else start(options.data_dir, mutmut_args, root)
        if not any(mutants_dir.rglob("*.py.meta")):
            print("bpe-kata mutate: no results in mutants/: run `bpe-kata mutate` first", file=sys.stderr)
            return status or 2
        mutants = read_results(mutants_dir)
    if options.results:
        from bpe_kata.mutation import results_file

        results_file.write(options.results, mutants)
    verdict = print_report(mutants, ledger, limits, ledger_path, options.gate, root)
    if options.draft:
        missing = [m for m in mutants if m.status in SURVIVED and not any(e.matches(m) for e in ledger)]
        options.draft.write_text(render_draft(missing), encoding="utf-8")
        print(f"wrote {len(missing)} draft entries to {options.draft}: fill in category, why and check or "
              f"contract, then move them into {ledger_path}")
    if options.prune:
        kept = [e for e in ledger if not killed_now(e, mutants)]
        write_ledger(ledger_path, kept)
        print(f"pruned {len(ledger) - len(kept)} entries whose mutant is now killed from {ledger_path}")
    return status or verdict


def run_shard(options, mutmut_args: list[str], root: Path) -> int:
    """One shard: list every mutant (mutmut's generation step), take this shard's by cost, run mutmut on those
    names only, and write their verdicts with the shard header for `bpe-kata merge`."""
    from bpe_kata.gate.suite import suite_sha256
    from bpe_kata.mutation import results_file
    from bpe_kata.tools import shard as sharding

    refused = [flag for flag, given in (("--gate", options.gate), ("--results-only", options.results_only),
                                        ("--from", options.source), ("--prune", options.prune)) if given]
    if refused or options.results is None:
        why = f"{', '.join(refused)} judge(s) the whole run" if refused else "a shard's verdicts go to --results FILE"
        print(f"bpe-kata mutate: --shard: {why}; merge the shards (`bpe-kata merge`), then "
              "`bpe-kata mutate --gate --from MERGED`", file=sys.stderr)
        return 2
    try:
        shard = sharding.parse(options.shard)
        listed = listing(root)
        taken = sharding.select(results_file.costs(listed, options.costs), shard)
    except (sharding.ShardError, results_file.ResultsError) as error:
        print(f"bpe-kata mutate: {error}", file=sys.stderr)
        return 2
    except ListingError as error:
        print(f"bpe-kata mutate: --shard: {error}", file=sys.stderr)
        return error.status
    print(f"bpe-kata mutate: shard {shard}: {len(taken)} of {len(listed)} mutants", flush=True)
    # mutants/ is the listing's fresh generation, no verdict in it yet: mutmut keeps it rather than mutating again
    status = start(options.data_dir, [*mutmut_args, *taken], root, fresh=False) if taken else 0
    chosen = set(taken)
    mutants = [m for m in read_results(root / MUTANTS) if m.name in chosen] if taken else []
    results_file.write(options.results, mutants, sharding.header(shard, listed, taken, suite_sha256()))
    print("\n".join(render_table(tally(mutants))))
    return status


class ListingError(RuntimeError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def listing(root: Path) -> list[str]:
    """Every mutant's name, in mutmut's order, from a fresh generation step (no test runs)."""
    shutil.rmtree(root / MUTANTS, ignore_errors=True)
    status = generate(root)
    if status:
        raise ListingError("mutmut's generation step failed", status)
    return [m.name for m in read_results(root / MUTANTS)]


def generate(root: Path) -> int:
    """mutmut's generation step alone (bpe_kata/mutation/mutmut_runner.py ``generate``): writes mutants/."""
    try:
        import mutmut  # noqa: F401 - only to say how to get it
    except ImportError:
        print("bpe-kata mutate: mutmut is not installed; install the dev extra: pip install -e '.[dev]'",
              file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "bpe_kata.mutation.mutmut_runner", "generate"]
    done = subprocess.run(command, cwd=root, check=False, stdout=subprocess.DEVNULL)
    return done.returncode


def start(data_dir: str | None, mutmut_args: list[str], root: Path, fresh: bool = True) -> int:
    """A mutmut run, from an empty mutants/ unless ``fresh`` is False (a mutants/ just generated, no verdict in
    it); non-zero (with the reason printed) when it cannot run or did not finish."""
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
    if fresh:
        shutil.rmtree(root / MUTANTS, ignore_errors=True)  # from scratch: mutmut reuses old verdicts
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
