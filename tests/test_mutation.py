"""bpe_kata.mutation.mutate: reading mutmut's results, the table, the ledger and the gate, on synthetic runs."""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from bpe_kata.mutation import entries
from bpe_kata.mutation import ledger as mutation_ledger
from bpe_kata.mutation import mutants as mutant_records
from bpe_kata.mutation import mutate as mutation
from bpe_kata.mutation.ledger import Accepted
from bpe_kata.mutation.mutants import Mutant

#: A module as mutmut 3.8 writes it into mutants/: the original and each mutant side by side.
MUTATED_MODULE = textwrap.dedent('''
    mutants_x_head__mutmut = {}

    def head(ids, n=1):
        return ids[:n]

    def x_head__mutmut_orig(ids, n=1):
        return ids[:n]

    def x_head__mutmut_1(ids, n=1):
        return ids[:n + 1]

    def x_head__mutmut_2(ids, n=2):
        return ids[:n]

    class Decoder:
        def feed(self, token_id):
            data = self.vocab[token_id]
            return data

        def xǁDecoderǁfeed__mutmut_orig(self, token_id):
            data = self.vocab[token_id]
            return data

        def xǁDecoderǁfeed__mutmut_1(self, token_id):
            data = None
            return data
''')

EXIT_CODES = {  # mutmut's: 1 killed, 0 survived, 33 no tests, 36 timeout, None not checked
    "reference.toy.x_head__mutmut_1": 0,
    "reference.toy.x_head__mutmut_2": 1,
    "reference.toy.xǁDecoderǁfeed__mutmut_1": 33,
}


HASHES = {"x_head": "h1", "xǁDecoderǁfeed": "f1"}
GATE = "[gate]\nscore_floor = 0.3\nmax_equivalent = 5\nmax_performance_only = 5\nmax_not_pinned = 5\n"
LIMITS = mutation_ledger.Limits(0.0, {"equivalent": 9, "performance-only": 9, "not-pinned": 9})
CONTRACT_SENTENCE = "the reference's choices, not asked of you"


def write_run(root: Path, codes: dict[str, int | None] = EXIT_CODES) -> Path:
    folder = root / "mutants" / "reference"
    folder.mkdir(parents=True)
    (folder / "toy.py").write_text(MUTATED_MODULE, encoding="utf-8")
    meta = {"exit_code_by_key": codes, "hash_by_function_name": HASHES, "type_check_error_by_key": {},
            "durations_by_key": {}, "estimated_durations_by_key": {}}
    (folder / "toy.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    return root / "mutants"


def entry(function: str, original: str, mutated: str, module: str = "reference.toy", line: int = 1,
          hash: str = "h1", category: str = "not-pinned") -> Accepted:
    return Accepted(module, function, hash, line, original, mutated, category, "a synthetic reason",
                    contract=CONTRACT_SENTENCE if category == "not-pinned" else "", check="" if category ==
                    "not-pinned" else "encode")


def survivor(name: str, original: str, mutated: str, status: str = "survived", line: int = 1,
             hash: str = "h1") -> Mutant:
    return Mutant(name, status, original, mutated, line, hash)


def judge(mutants, ledger, limits=LIMITS):
    """The gate without the differential runs (no mutants/ here) and without a checkout's modules."""
    return mutation_ledger.gate(mutants, ledger, limits, None, run_checks=False)


# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, module, function", [
    ("reference.stream.xǁStreamDecoderǁfeed__mutmut_2", "reference.stream", "StreamDecoder.feed"),
    ("reference.core.x_get_stats__mutmut_11", "reference.core", "get_stats"),
    ("reference.core.x__helper__mutmut_1", "reference.core", "_helper"),
    ("reference.xtra.x_merge__mutmut_3", "reference.xtra", "merge"),
])
def test_mutant_names_split_into_module_and_function(name, module, function):
    assert mutant_records.split_name(name) == (module, function)


def test_results_carry_status_and_the_changed_line(tmp_path):
    mutants = {m.name: m for m in mutant_records.read_results(write_run(tmp_path))}
    survived = mutants["reference.toy.x_head__mutmut_1"]
    assert (survived.status, survived.original, survived.mutated) == ("survived", "return ids[:n]",
                                                                       "return ids[:n + 1]")
    assert (survived.line, survived.function_hash) == (1, "h1")  # the line after the def line
    method = mutants["reference.toy.xǁDecoderǁfeed__mutmut_1"]
    assert (method.module, method.function, method.status) == ("reference.toy", "Decoder.feed", "no tests")
    assert (method.original, method.mutated) == ("data = self.vocab[token_id]", "data = None")
    signature = mutants["reference.toy.x_head__mutmut_2"]  # only the def line differs
    assert (signature.original, signature.mutated) == ("def head(ids, n=1):", "def head(ids, n=2):")
    assert signature.line == 0


def test_unknown_exit_codes_are_suspicious_and_missing_ones_not_checked():
    assert mutant_records.status_of(-15) == "suspicious"
    assert mutant_records.status_of(None) == "not checked"
    assert mutant_records.status_of(36) == mutant_records.status_of(-24) == "timeout"
    assert mutant_records.status_of(39) == "over memory"  # bpe_kata/mutation/mutmut_runner.py's exit status


# --- the table -------------------------------------------------------------------------------


def test_score_counts_killed_timed_out_and_over_memory_among_checked_mutants():
    counts = Counter({"killed": 5, "timeout": 2, "over memory": 1, "survived": 1, "no tests": 1, "not checked": 5})
    assert mutant_records.score(counts) == pytest.approx(0.8)
    assert mutant_records.score(Counter({"not checked": 3})) is None


def test_table_has_a_row_per_module_and_a_total():
    mutants = [Mutant("reference.a.x_f__mutmut_1", "killed"), Mutant("reference.a.x_f__mutmut_2", "survived"),
               Mutant("reference.b.x_g__mutmut_1", "timeout")]
    lines = mutant_records.render_table(mutant_records.tally(mutants))
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:] if not line.startswith("-")}
    assert rows["reference.a"] == ["2", "1", "0", "0", "1", "0", "0", "50.0%"]
    assert rows["reference.b"] == ["1", "0", "1", "0", "0", "0", "0", "100.0%"]
    assert rows["all"] == ["3", "1", "1", "0", "1", "0", "0", "66.7%"]


# --- the gate --------------------------------------------------------------------------------


def test_gate_passes_when_every_survivor_is_accepted():
    mutants = [survivor("reference.toy.x_head__mutmut_1", "return ids[:n]", "return ids[:n + 1]"),
               Mutant("reference.toy.x_head__mutmut_2", "killed", function_hash="h1")]
    verdict = judge(mutants, [entry("head", "return  ids[:n]", "return ids[:n + 1]")])
    assert verdict.passed and not verdict.unexpected and not verdict.stale


def test_gate_fails_on_a_survivor_the_ledger_does_not_accept():
    new = survivor("reference.toy.x_head__mutmut_1", "return ids[:n]", "return ids[:n - 1]")
    verdict = judge([new], [entry("head", "return ids[:n]", "return ids[:n + 1]")])
    assert not verdict.passed and verdict.unexpected == [new]


def test_gate_counts_a_mutant_without_tests_as_a_survivor():
    untested = survivor("reference.toy.x_head__mutmut_1", "a", "b", status="no tests")
    assert judge([untested], []).unexpected == [untested]


def test_gate_fails_on_an_entry_that_no_longer_survives():
    killed = Mutant("reference.toy.x_head__mutmut_1", "killed", "return ids[:n]", "return ids[:n + 1]", 1, "h1")
    stale = entry("head", "return ids[:n]", "return ids[:n + 1]")
    verdict = judge([killed], [stale])
    assert not verdict.passed and [e for e, _ in verdict.stale] == [stale]
    assert "no longer survives" in verdict.stale[0][1]


def test_gate_takes_a_timeout_or_memory_as_bearing_out_a_performance_only_entry_only():
    performance = entry("head", "return ids[:n]", "return ids[:n + 1]", category="performance-only")
    not_pinned = entry("head", "return ids[:n]", "return ids[:n + 1]")
    for status in ("timeout", "over memory"):
        slow = Mutant("reference.toy.x_head__mutmut_1", status, "return ids[:n]", "return ids[:n + 1]", 1, "h1")
        assert judge([slow], [performance]).passed
        assert [e for e, _ in judge([slow], [not_pinned]).stale] == [not_pinned]
    killed = Mutant("reference.toy.x_head__mutmut_1", "killed", "return ids[:n]", "return ids[:n + 1]", 1, "h1")
    assert [e for e, _ in judge([killed], [performance]).stale] == [performance]


def test_gate_matches_the_key_not_mutmut_numbers_nor_other_functions():
    renumbered = survivor("reference.toy.x_head__mutmut_7", "return ids[:n]", "return ids[:n + 1]")
    assert judge([renumbered], [entry("head", "return ids[:n]", "return ids[:n + 1]")]).passed
    elsewhere = survivor("reference.toy.x_tail__mutmut_1", "return ids[:n]", "return ids[:n + 1]")
    verdict = judge([elsewhere], [entry("head", "return ids[:n]", "return ids[:n + 1]")])
    assert verdict.unexpected == [elsewhere] and len(verdict.stale) == 1


def test_twins_need_an_entry_each():
    """The same change on two lines of one function: one entry accepts one twin, not both."""
    first = survivor("reference.toy.x_head__mutmut_1", "x = 1", "x = 2", line=1)
    second = survivor("reference.toy.x_head__mutmut_2", "x = 1", "x = 2", line=3)
    verdict = judge([first, second], [entry("head", "x = 1", "x = 2", line=1)])
    assert verdict.unexpected == [second]
    assert judge([first, second], [entry("head", "x = 1", "x = 2", line=1),
                                   entry("head", "x = 1", "x = 2", line=3)]).passed


def test_an_entry_whose_function_changed_is_stale_even_if_its_line_survives():
    changed = survivor("reference.toy.x_head__mutmut_1", "return ids[:n]", "return ids[:n + 1]", hash="h2")
    verdict = judge([changed], [entry("head", "return ids[:n]", "return ids[:n + 1]", hash="h1")])
    assert not verdict.passed and verdict.unexpected == [changed]
    assert "its function changed" in verdict.stale[0][1] and "h1" in verdict.stale[0][1]


def test_an_entry_whose_function_is_gone_is_stale():
    verdict = judge([survivor("reference.toy.x_other__mutmut_1", "a", "b")], [entry("head", "a", "b")])
    assert "no mutants any more" in verdict.stale[0][1]


@pytest.mark.parametrize("status", ["not checked", "interrupted"])
def test_gate_fails_on_a_module_left_partly_unchecked(status):
    mutants = [Mutant("reference.toy.x_head__mutmut_1", status, function_hash="h1"),
               survivor("reference.toy.x_head__mutmut_2", "a", "b")]
    verdict = judge(mutants, [entry("head", "a", "b")])
    assert not verdict.passed and verdict.not_judged == [
        "reference.toy: 1 of 2 mutants not checked (a partial or interrupted run is no verdict: "
        "run `bpe-kata mutate` over everything)"]


@pytest.mark.parametrize("status", ["suspicious", "segfault", "skipped", "caught by type check"])
def test_gate_fails_on_a_mutant_without_a_verdict(status):
    odd = Mutant("reference.toy.x_head__mutmut_1", status, "a", "b", 1, "h1")
    verdict = judge([odd], [])
    assert not verdict.passed and verdict.bad_status == [odd]
    assert "NO VERDICT reference.toy.x_head__mutmut_1" in "\n".join(mutation_ledger.render_gate(verdict, Path("l")))


def test_gate_fails_on_a_module_of_the_reference_without_results(tmp_path):
    write_run(tmp_path)
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "toy.py").write_text("", encoding="utf-8")
    (tmp_path / "reference" / "fresh.py").write_text("", encoding="utf-8")
    found = mutant_records.read_results(tmp_path / "mutants")
    verdict = mutation_ledger.gate(found, [], LIMITS, tmp_path, run_checks=False)
    assert verdict.not_judged == ["reference.fresh: no results in mutants/ (mutmut did not check it)"]


def test_gate_fails_below_the_score_floor_and_over_a_cap():
    mutants = [
        Mutant("reference.toy.x_head__mutmut_1", "killed", function_hash="h1"),
        survivor("reference.toy.x_head__mutmut_2", "a", "b"),
        survivor("reference.toy.x_head__mutmut_3", "a", "c"),
    ]
    ledger = [entry("head", "a", "b"), entry("head", "a", "c")]
    assert judge(mutants, ledger, mutation_ledger.Limits(0.33, {"equivalent": 0, "performance-only": 0,
                                                          "not-pinned": 2})).passed
    verdict = judge(mutants, ledger, mutation_ledger.Limits(0.34, {"equivalent": 0, "performance-only": 0,
                                                             "not-pinned": 1}))
    assert verdict.over_limits == ["score 33.3% is below the floor 34.0%", "2 not-pinned entries, over the cap of 1"]
    assert "the ledger has no [gate] table" in judge(mutants, ledger, None).over_limits[0]


def test_a_not_pinned_entry_whose_sentence_is_not_in_the_contract_is_a_false_claim(tmp_path):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "CONTRACT.md").write_text("Types are the reference's choices,\nnot asked of you.\n",
                                                   encoding="utf-8")
    mutants = [
        survivor("reference.toy.x_head__mutmut_1", "a", "b"),
        survivor("reference.toy.x_head__mutmut_2", "a", "c"),
    ]
    true_one = entry("head", "a", "b")
    made_up = Accepted("reference.toy", "head", "h1", 1, "a", "c", "not-pinned", "x", contract="anything goes")
    verdict = mutation_ledger.gate(mutants, [true_one, made_up], LIMITS, tmp_path)
    assert [e for e, _ in verdict.false_claims] == [made_up] and not verdict.passed


# --- the ledger ------------------------------------------------------------------------------

ENTRY = ('[[accepted]]\nmodule = "reference.toy"\nfunction = "head"\nhash = "h1"\nline = 1\noriginal = "a"\n'
         'mutated = "b"\n')


def test_ledger_entries_need_every_field_a_known_category_a_reason_and_a_backing(tmp_path):
    ledger = tmp_path / "accepted.toml"
    ledger.write_text(ENTRY + 'category = "equivalent"\nwhy = "same result"\ncheck = "encode"\n', encoding="utf-8")
    assert mutation_ledger.load_ledger(ledger) == [Accepted("reference.toy", "head", "h1", 1, "a", "b", "equivalent",
                                                     "same result", check="encode")]
    ledger.write_text(ENTRY + 'category = "looks fine"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="category"):
        mutation_ledger.load_ledger(ledger)
    ledger.write_text(ENTRY.replace('mutated = "b"\n', "") + 'category = "equivalent"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="entry 1 lacks mutated"):
        mutation_ledger.load_ledger(ledger)
    ledger.write_text(ENTRY.replace('hash = "h1"\n', "") + 'category = "equivalent"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="migrate"):
        mutation_ledger.load_ledger(ledger)
    ledger.write_text(ENTRY + 'category = "equivalent"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="names no differential check"):
        mutation_ledger.load_ledger(ledger)
    ledger.write_text(ENTRY + 'category = "not-pinned"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="quotes no contract sentence"):
        mutation_ledger.load_ledger(ledger)
    ledger.write_text(2 * (ENTRY + 'category = "not-pinned"\nwhy = "x"\ncontract = "y"\n'), encoding="utf-8")
    with pytest.raises(mutation_ledger.LedgerError, match="same key"):
        mutation_ledger.load_ledger(ledger)


def test_the_shipped_ledger_is_well_formed_with_limits_and_true_sentences():
    path = mutation.PROJECT_ROOT / mutation.LEDGER
    ledger = mutation_ledger.load_ledger(path)
    limits = mutation_ledger.load_limits(path)
    assert limits is not None and limits.score_floor > 0.5
    counts = Counter(e.category for e in ledger)
    assert all(counts[category] <= cap for category, cap in limits.caps.items())
    contract = mutation_ledger.normalize((mutation.PROJECT_ROOT / "spec" / "CONTRACT.md").read_text("utf-8"))
    assert [
        e for e in ledger if e.category == "not-pinned" and mutation_ledger.normalize(e.contract) not in contract
    ] == []


# --- the command, on a run already made ------------------------------------------------------


def test_results_only_prints_the_table_and_gates_on_the_ledger(tmp_path, capsys):
    write_run(tmp_path)
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "CONTRACT.md").write_text(CONTRACT_SENTENCE, encoding="utf-8")
    ledger = tmp_path / "accepted.toml"
    ledger.write_text(GATE, encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 1
    out = capsys.readouterr().out
    assert "reference.toy" in out and "NEW SURVIVOR reference.toy.x_head__mutmut_1" in out
    assert "gate FAILED: 2 survivor(s)" in out

    ledger.write_text(GATE + textwrap.dedent(f'''
        [[accepted]]
        module = "reference.toy"
        function = "head"
        hash = "h1"
        line = 1
        original = "return ids[:n]"
        mutated = "return ids[:n + 1]"
        category = "not-pinned"
        why = "synthetic"
        contract = "{CONTRACT_SENTENCE}"

        [[accepted]]
        module = "reference.toy"
        function = "Decoder.feed"
        hash = "f1"
        line = 1
        original = "data = self.vocab[token_id]"
        mutated = "data = None"
        category = "not-pinned"
        why = "synthetic"
        contract = "{CONTRACT_SENTENCE}"
    '''), encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 0
    assert "gate passed" in capsys.readouterr().out


def test_results_only_over_a_partial_run_fails_the_gate_with_the_reason(tmp_path, capsys):
    write_run(tmp_path, {**EXIT_CODES, "reference.toy.x_head__mutmut_1": None})
    ledger = tmp_path / "accepted.toml"
    ledger.write_text(GATE, encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 1
    assert "NOT JUDGED reference.toy: 1 of 3 mutants not checked" in capsys.readouterr().out


def test_prune_drops_only_the_entries_whose_mutant_is_now_killed(tmp_path, capsys):
    write_run(tmp_path)
    ledger = tmp_path / "accepted.toml"
    killed = entries.render_entry(entry("head", "def head(ids, n=1):", "def head(ids, n=2):", line=0))
    kept = entries.render_entry(entry("head", "return ids[:n]", "return ids[:n + 1]"))
    ledger.write_text("# header\n" + GATE + "\n" + killed + "\n\n" + kept + "\n", encoding="utf-8")
    mutation.main(["--results-only", "--prune", "--ledger", str(ledger)], root=tmp_path)
    text = ledger.read_text(encoding="utf-8")
    assert text.startswith("# header\n[gate]") and text.count("[[accepted]]") == 1 and "ids[:n + 1]" in text


def test_results_only_without_a_run_says_to_run_first(tmp_path, capsys):
    assert mutation.main(["--results-only"], root=tmp_path) == 2
    assert "run `bpe-kata mutate` first" in capsys.readouterr().err


# --- session caches under mutmut's recording run (bpe_kata/run/mutmut_calls.py) ------------------------


class FakeMutmutState:
    def __init__(self) -> None:
        self._stats: set[str] = set()


@pytest.fixture
def recording(monkeypatch):
    """A stand-in for mutmut's recording run: its state module imported, MUTANT_UNDER_TEST=stats."""
    import types
    state = FakeMutmutState()
    module = types.ModuleType("mutmut.state")
    module.state = lambda: state
    monkeypatch.setitem(sys.modules, "mutmut.state", module)
    monkeypatch.setenv("MUTANT_UNDER_TEST", "stats")
    return state


def test_a_reused_cached_value_records_the_calls_that_computed_it(recording):
    from bpe_kata.run.mutmut_calls import SharedCalls
    calls = SharedCalls()
    recording._stats.add("reference.core.x_get_stats")  # called by the first test before the cache
    with calls.computing("table"):
        recording._stats.add("reference.training.x_train")
    assert recording._stats == {"reference.core.x_get_stats", "reference.training.x_train"}
    recording._stats.clear()  # mutmut's teardown: the next test starts with nothing recorded
    calls.reused("table")
    assert recording._stats == {"reference.training.x_train"}


def test_outside_a_recording_run_nothing_is_recorded(monkeypatch):
    from bpe_kata.run.mutmut_calls import SharedCalls
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    calls = SharedCalls()
    with calls.computing("table"):
        pass
    calls.reused("table")
    assert calls.calls == {}


def test_a_draft_lists_the_unaccepted_survivors_and_cannot_pass_unread(tmp_path):
    write_run(tmp_path)
    ledger, draft = tmp_path / "accepted.toml", tmp_path / "draft.toml"
    ledger.write_text("", encoding="utf-8")
    mutation.main(["--results-only", "--ledger", str(ledger), "--draft", str(draft)], root=tmp_path)
    text = draft.read_text(encoding="utf-8")
    assert text.count("[[accepted]]") == 2 and 'mutated = "return ids[:n + 1]"' in text
    assert 'hash = "h1"' in text and "line = 1" in text
    with pytest.raises(mutation_ledger.LedgerError, match="category"):
        mutation_ledger.load_ledger(draft)
    filled = text.replace('category = "?"', 'category = "not-pinned"').replace('why = ""', 'why = "reviewed"') \
        .replace('# contract = "..."', f'contract = "{CONTRACT_SENTENCE}"')
    ledger.write_text(GATE + filled, encoding="utf-8")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "CONTRACT.md").write_text(CONTRACT_SENTENCE, encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 0


# --- the tuned mutmut run (bpe_kata/mutation/mutmut_runner.py) -----------------------------------------


def test_test_durations_are_scaled_down_to_the_recording_runs_cpu_time_never_up():
    from types import SimpleNamespace

    from bpe_kata.mutation import mutmut_runner

    loaded = SimpleNamespace(stats_time=15.0, duration_by_test={"a": 40.0, "b": 20.0})  # wall 4x the CPU
    assert mutmut_runner.scale_to_cpu_time(loaded) == pytest.approx(0.25)
    assert loaded.duration_by_test == {"a": pytest.approx(10.0), "b": pytest.approx(5.0)}
    idle = SimpleNamespace(stats_time=15.0, duration_by_test={"a": 4.0, "b": 2.0})
    assert mutmut_runner.scale_to_cpu_time(idle) == 1.0 and idle.duration_by_test == {"a": 4.0, "b": 2.0}
    unknown = SimpleNamespace(stats_time=None, duration_by_test={"a": 4.0})
    assert mutmut_runner.scale_to_cpu_time(unknown) == 1.0 and unknown.duration_by_test == {"a": 4.0}


@pytest.mark.heavy
def test_the_tuned_run_fits_the_installed_mutmut():
    pytest.importorskip("mutmut")
    import subprocess

    # install() patches mutmut in the process that runs it: check it in a child, not in this one.
    code = "from bpe_kata.mutation import mutmut_runner; mutmut_runner.install(); print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_a_mutants_child_runs_out_of_memory_at_its_limit_and_says_so():
    """limit_memory caps the address space at what the process has plus the allowance (here 200 MiB):
    a larger allocation is a MemoryError, and a child that met one exits "over memory"."""
    import subprocess

    from bpe_kata.mutation import mutmut_runner

    code = ("from bpe_kata.mutation import mutmut_runner\nmutmut_runner.limit_memory()\n"
            "try:\n    bytearray(1024 ** 3)\nexcept MemoryError:\n    print('over')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          env={**__import__("os").environ, "BPE_KATA_MUTANT_MEMORY": "200"})
    assert done.stdout.strip() == "over", done.stderr[-2000:]
    assert mutant_records.status_of(mutmut_runner.OVER_MEMORY_EXIT) == "over memory"
