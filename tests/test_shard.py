"""``--shard K/N`` and ``bpe-kata merge``: shards are disjoint, their union is the whole, merged equals unsharded.

The end-to-end tests run each shard as a separate ``bpe-kata`` process, as N machines would, and compare
the merged output with one unsharded run: grade on three small submissions, matrix on its two fastest
libraries. Mutation shards are checked on a recorded run (a synthetic mutants/ tree with mutmut's
estimates) with mutmut replaced by that recording, so the names each shard hands mutmut are checked too;
one small real mutmut shard runs when asked (``BPE_KATA_REAL_MUTMUT=1``: mutmut's statistics run takes minutes).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_kata import merge as merging
from bpe_kata.mutation import mutate as mutation
from bpe_kata.mutation import results_file as mutation_results
from bpe_kata.tools import grade_json, grade_table
from bpe_kata.tools import shard as sharding

ROOT = Path(__file__).resolve().parent.parent
BPE_KATA = [sys.executable, "-m", "bpe_kata.cli"]


# --- the split ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""])
def test_a_bad_shard_is_refused_naming_the_value(text):
    with pytest.raises(sharding.ShardError, match="expected K/N"):
        sharding.parse(text)


def test_shards_are_disjoint_cover_everything_and_are_the_same_every_time():
    costs = {f"item{i}": float((i * 37) % 11 + 1) for i in range(40)}
    for count in (1, 2, 3, 7, 50):
        taken = [sharding.select(costs, sharding.Shard(k, count)) for k in range(1, count + 1)]
        flat = [key for part in taken for key in part]
        assert sorted(flat) == sorted(costs) and len(flat) == len(set(flat))
        again = [sharding.select(dict(reversed(costs.items())), sharding.Shard(k, count)) for k in range(1, count + 1)]
        assert [sorted(part) for part in taken] == [sorted(part) for part in again]  # whatever order they come in
        assert sharding.assign(costs, count) == sharding.assign(dict(reversed(costs.items())), count)


def test_shards_are_balanced_by_cost_not_by_count():
    costs = {"big": 100.0, **{f"small{i}": 10.0 for i in range(10)}}
    first, second = (sharding.select(costs, sharding.Shard(k, 2)) for k in (1, 2))
    assert first == ["big"] and len(second) == 10  # 100 s against 100 s, where a split by count gives 140 against 60
    loads = [sum(costs[key] for key in sharding.select(costs, sharding.Shard(k, 3))) for k in (1, 2, 3)]
    assert max(loads) - min(loads) <= max(costs.values())


def test_grade_costs_come_from_an_earlier_table_or_the_source_size(tmp_path):
    (tmp_path / "a.py").write_text("x" * 300)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "m.py").write_text("x" * 50)
    subs = [str(tmp_path / "a.py"), str(tmp_path / "b"), "cmd:node x.mjs"]
    assert grade_json.costs(subs) == {subs[0]: 300.0, subs[1]: 50.0, subs[2]: 300.0}  # unknown: the median
    table = tmp_path / "earlier.json"
    table.write_text(json.dumps({"rows": [{"submission": subs[1], "seconds": 70.0}]}))
    assert grade_json.costs(subs, table) == {subs[0]: 70.0, subs[1]: 70.0, subs[2]: 70.0}


# --- the merge's refusals ----------------------------------------------------------------------------


def graded_part(path: Path, index: int, count: int, order: list[str], taken: list[str], suite: str = "s1",
                kind: str = "grade") -> Path:
    from bpe_kata.tools.grade import Graded

    rows = [grade_json.row(Graded(s, s, levels={"facts": {"status": "green", "failed": 0}})) for s in taken]
    data = {"kind": kind, "rows": rows, "shard": sharding.header(sharding.Shard(index, count), order, taken, suite)}
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def three_parts(tmp_path):
    order = ["a", "b", "c", "d"]
    return tmp_path, order, [graded_part(tmp_path / "p1.json", 1, 3, order, ["a"]),
                             graded_part(tmp_path / "p2.json", 2, 3, order, ["b", "d"]),
                             graded_part(tmp_path / "p3.json", 3, 3, order, ["c"])]


def test_merge_refuses_a_row_whose_own_report_names_another_suite(three_parts, capsys):
    tmp, order, (p1, p2, p3) = three_parts
    data = json.loads(p3.read_text())
    data["rows"][0]["report"] = {"sandbox": {"suite_sha256_start": "s0"}}
    p3.write_text(json.dumps(data))
    assert merging.main([str(tmp / "out.json"), str(p1), str(p2), str(p3)]) == 2
    assert "mixed suite fingerprints" in capsys.readouterr().err and not (tmp / "out.json").exists()


def test_merge_joins_shards_in_the_unsharded_order(three_parts, capsys):
    tmp, order, parts = three_parts
    assert merging.main([str(tmp / "out.json"), *map(str, reversed(parts))]) == 0
    merged = json.loads((tmp / "out.json").read_text())
    assert [r["submission"] for r in merged["rows"]] == order and "shard" not in merged
    assert merged["merged"]["suite_sha256"] == "s1"


@pytest.mark.parametrize("case, message", [
    ("missing", "missing shard 2/3 of 3"),
    ("duplicate", "shard 3/3 is given twice"),
    ("suite", "mixed suite fingerprints"),
    ("split", "shards of different splits"),
    ("list", "shards of different item lists"),
    ("kind", "outputs are of different commands"),
    ("unsharded", "not a shard's output"),
    ("overlap", "'b' is in two shards"),
    ("short", "none holds 'd'"),
])
def test_merge_refuses_what_would_not_be_the_whole(three_parts, case, message, capsys):
    tmp, order, (p1, p2, p3) = three_parts
    odd = tmp / "odd.json"
    given = {
        "missing": lambda: [p1, p3],
        "duplicate": lambda: [p1, p2, p3, p3],
        "suite": lambda: [p1, p2, graded_part(odd, 3, 3, order, ["c"], suite="s2")],
        "split": lambda: [p1, p2, graded_part(odd, 3, 4, order, ["c"])],
        "list": lambda: [p1, p2, graded_part(odd, 3, 3, [*order, "e"], ["c"])],
        "kind": lambda: [p1, p2, graded_part(odd, 3, 3, order, ["c"], kind="matrix")],
        "unsharded": lambda: [p1, p2, odd],
        "overlap": lambda: [p1, p2, graded_part(odd, 3, 3, order, ["c", "b"])],
        "short": lambda: [p1, graded_part(odd, 2, 3, order, ["b"]), p3],
    }[case]()
    if case == "unsharded":
        odd.write_text(json.dumps({"kind": "grade", "rows": []}))
    assert merging.main([str(tmp / "out.json"), *map(str, given)]) == 2
    err = capsys.readouterr().err
    assert "bpe-kata merge: refused:" in err and message in err, err
    assert not (tmp / "out.json").exists()


# --- grade, as separate processes --------------------------------------------------------------------

SUBMISSIONS = ["reference", "tests/implementations/wrong_pairs_no_overlap.py", "solutions/starter"]
SPEC_OPTIONS = ["--", "--expose-suite", "--level", "pairs", "-m", "not corpus", "--hypothesis-profile", "fast"]


def cells(table: dict) -> list[list[str]]:
    """The class table's text cells without the seconds, which differ from run to run."""
    _, body = grade_table.rows([grade_json.graded(r) for r in table["rows"]])
    return [row[:-1] for row in body]


@pytest.mark.heavy
def test_sharded_grade_merges_to_the_unsharded_table(tmp_path):
    runs = [subprocess.Popen([*BPE_KATA, "grade", *SUBMISSIONS, "--jobs", "1", "--plain", "--json",
                              str(tmp_path / f"{name}.json"), *shard, *SPEC_OPTIONS], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for name, shard in [("whole", []), ("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"])]]
    for run in runs:
        _, err = run.communicate(timeout=600)
        assert run.returncode in (0, 1), err
    parts = [json.loads((tmp_path / f"s{k}.json").read_text()) for k in (1, 2)]
    assert sorted(parts[0]["shard"]["keys"] + parts[1]["shard"]["keys"]) == sorted(SUBMISSIONS)
    assert all(part["shard"]["keys"] for part in parts)
    done = subprocess.run([*BPE_KATA, "merge", str(tmp_path / "merged.json"), str(tmp_path / "s2.json"),
                           str(tmp_path / "s1.json"), "--csv", str(tmp_path / "merged.csv")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr  # as unsharded: not every submission is green
    whole, merged = (json.loads((tmp_path / f"{name}.json").read_text()) for name in ("whole", "merged"))
    assert cells(merged) == cells(whole)
    assert [r["verdict"] for r in merged["rows"]] == [r["verdict"] for r in whole["rows"]] == \
        ["green", "failed", "incomplete"]
    assert [r["flags"] for r in merged["rows"]] == [r["flags"] for r in whole["rows"]]
    assert "wrong_pairs_no_overlap" in done.stdout and (tmp_path / "merged.csv").is_file()


# --- mutate, on a recorded run ------------------------------------------------------------------------

#: A recorded run: each mutant's verdict (mutmut's exit code) and mutmut's estimate of its tests' seconds.
RECORDED = {f"reference.toy.x_f{i}__mutmut_{j}": (0 if (i, j) == (2, 1) else 1, float(1 + (i * 7 + j) % 5))
            for i in range(4) for j in range(1, 6)}
TOY = "".join(f"def x_f{i}__mutmut_orig(a):\n    return a + 1\n\n"
              + "".join(f"def x_f{i}__mutmut_{j}(a):\n    return a - {j}\n\n" for j in range(1, 6)) for i in range(4))


def write_recorded(root: Path, checked: set[str] | None = None) -> None:
    """mutants/ as mutmut leaves it, with only ``checked`` (default all) given a verdict."""
    folder = root / "mutants" / "reference"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "toy.py").write_text(TOY, encoding="utf-8")
    codes = {n: (c if checked is None or n in checked else None) for n, (c, _) in RECORDED.items()}
    meta = {"exit_code_by_key": codes, "hash_by_function_name": {f"x_f{i}": f"h{i}" for i in range(4)},
            "estimated_durations_by_key": {n: e for n, (_, e) in RECORDED.items() if checked is None or n in checked}}
    (folder / "toy.py.meta").write_text(json.dumps(meta), encoding="utf-8")


@pytest.fixture
def recorded_mutmut(monkeypatch):
    """mutmut replaced by the recording: listing writes every mutant unchecked, a run checks the names given."""
    given: list[list[str]] = []

    def listing(root):
        write_recorded(root, set())
        return list(RECORDED)

    def start(data_dir, args, root, fresh=True):
        given.append(list(args))
        names = {arg for arg in args if arg.startswith("reference.")}
        write_recorded(root, names or None)  # no names: mutmut checks every mutant
        return 0

    monkeypatch.setattr(mutation, "listing", listing)
    monkeypatch.setattr(mutation, "start", start)
    return given


def test_sharded_mutation_results_merge_to_the_unsharded_verdicts(tmp_path, recorded_mutmut, capsys):
    ledger = tmp_path / "accepted.toml"
    ledger.write_text("[gate]\nscore_floor = 0.5\nmax_equivalent = 1\nmax_performance_only = 1\n"
                      "max_not_pinned = 1\n", encoding="utf-8")
    whole = tmp_path / "whole.json"
    assert mutation.main(["--results", str(whole), "--ledger", str(ledger)], root=tmp_path) == 0
    costs = tmp_path / "costs.json"
    costs.write_text(whole.read_text())
    parts = []
    for k in (1, 2, 3):
        parts.append(tmp_path / f"m{k}.json")
        assert mutation.main(["--shard", f"{k}/3", "--costs", str(costs), "--results", str(parts[-1]),
                              "--ledger", str(ledger), "--max-children", "1"], root=tmp_path) == 0
    named = [args[2:] for args in recorded_mutmut[1:]]  # each shard handed mutmut its own names only
    assert [args[:2] for args in recorded_mutmut[1:]] == [["--max-children", "1"]] * 3
    assert sorted(n for names in named for n in names) == sorted(RECORDED)
    loads = [sum(RECORDED[n][1] for n in names) for names in named]
    assert max(loads) - min(loads) <= max(e for _, e in RECORDED.values())
    shard_files = [json.loads(p.read_text()) for p in parts]
    assert [sorted(m["name"] for m in f["mutants"]) for f in shard_files] == [sorted(n) for n in named]

    capsys.readouterr()
    assert merging.main([str(tmp_path / "merged.json"), *map(str, parts)]) == 0
    merged = mutation_results.read(tmp_path / "merged.json")
    assert merged == mutation_results.read(whole)  # the same mutants, verdicts and keys, in the same order
    table = capsys.readouterr().out
    assert "reference.toy" in table and "95.0%" in table

    assert mutation.main(["--gate", "--from", str(tmp_path / "merged.json"), "--ledger", str(ledger)],
                         root=tmp_path) == 1
    gated = capsys.readouterr().out
    assert "NEW SURVIVOR reference.toy.x_f2__mutmut_1" in gated  # the one survivor, found as unsharded

    assert mutation.main(["--gate", "--from", str(parts[0]), "--ledger", str(ledger)], root=tmp_path) == 2
    assert "is shard 1/3 only" in capsys.readouterr().err


def test_a_shard_refuses_the_gate_and_wants_a_results_file(tmp_path, recorded_mutmut, capsys):
    assert mutation.main(["--shard", "1/2", "--gate", "--results", str(tmp_path / "r.json")], root=tmp_path) == 2
    assert mutation.main(["--shard", "1/2"], root=tmp_path) == 2
    err = capsys.readouterr().err
    assert "--gate judge(s) the whole run" in err and "a shard's verdicts go to --results FILE" in err
    assert not recorded_mutmut


# --- matrix, on its fastest rows ----------------------------------------------------------------------

FAST = ("rustbpe", "sentencepiece")


@pytest.mark.skipif(any(importlib.util.find_spec(name) is None for name in FAST),
                    reason="the matrix extra's rustbpe and sentencepiece are not installed")
@pytest.mark.heavy
def test_sharded_matrix_merges_to_the_unsharded_matrix(tmp_path):
    only = [arg for name in FAST for arg in ("--only", name)]
    gate = ["--", "--level", "train", "-m", "not corpus", "--hypothesis-profile", "fast"]
    runs = [subprocess.Popen([*BPE_KATA, "matrix", *only, "--jobs", "1", "--json", str(tmp_path / f"{name}.json"),
                              *shard, *gate], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for name, shard in [("whole", []), ("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"])]]
    for run in runs:
        _, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
    done = subprocess.run([*BPE_KATA, "merge", str(tmp_path / "merged.json"), str(tmp_path / "s1.json"),
                           str(tmp_path / "s2.json"), "--site", str(tmp_path / "site")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    whole, merged = (json.loads((tmp_path / f"{name}.json").read_text()) for name in ("whole", "merged"))
    def same_run(row: dict) -> dict:
        """The row without what differs between two runs of one library: seconds, and a crash's text (pids)."""
        classes = {cid: (d["class"], d["level"]) for cid, d in row["differences"].items()}
        return {**{k: v for k, v in row.items() if k not in ("seconds", "detail")}, "differences": classes}

    differing = {(a["name"], key): (a[key], b.get(key)) for a, b in zip(map(same_run, whole["rows"]),
                                                                         map(same_run, merged["rows"]))
                 for key in a if a[key] != b.get(key)}
    assert not differing, differing
    assert merged["levels"] == whole["levels"] and len(merged["rows"]) == 2
    assert (tmp_path / "site" / "index.html").is_file()


# --- one real mutation shard --------------------------------------------------------------------------


@pytest.mark.heavy
@pytest.mark.skipif(importlib.util.find_spec("mutmut") is None, reason="mutmut (the dev extra) is not installed")
@pytest.mark.skipif(not os.environ.get("BPE_KATA_REAL_MUTMUT"),
                    reason="a real mutmut shard runs the whole spec once for mutmut's statistics (about 6 min at "
                           "load 10 on 2 cores): set BPE_KATA_REAL_MUTMUT=1 to run it")
def test_one_real_mutation_shard_checks_exactly_its_own_mutants(tmp_path):
    """A small real shard (a 400th of the mutants, spread over the modules by the split): mutmut lists every mutant,
    checks this shard's only, and the results file carries the whole listing for the merge."""
    out = tmp_path / "r1.json"
    done = subprocess.run([*BPE_KATA, "mutate", "--shard", "1/400", "--results", str(out), "--max-children", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    data = json.loads(out.read_text())
    listed = data["shard"]["order"]
    taken = sharding.select({name: 1.0 for name in listed}, sharding.Shard(1, 400))
    assert data["shard"]["keys"] == taken and 1 <= len(taken) <= len(listed) // 400 + 1
    assert [m["name"] for m in data["mutants"]] == taken
    assert all(m["status"] in ("killed", "timeout", "over memory", "survived", "no tests") for m in data["mutants"])
    assert all(m["estimate"] > 0 for m in data["mutants"])  # what the next --costs deals by
