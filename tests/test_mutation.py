"""bpe_kata.mutation: reading mutmut's results, the table, the ledger and the gate, on synthetic runs."""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from bpe_kata import mutation
from bpe_kata.mutation import Accepted, Mutant

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


def write_run(root: Path, codes: dict[str, int | None] = EXIT_CODES) -> Path:
    folder = root / "mutants" / "reference"
    folder.mkdir(parents=True)
    (folder / "toy.py").write_text(MUTATED_MODULE, encoding="utf-8")
    meta = {"exit_code_by_key": codes, "hash_by_function_name": {}, "type_check_error_by_key": {},
            "durations_by_key": {}, "estimated_durations_by_key": {}}
    (folder / "toy.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    return root / "mutants"


def entry(function: str, original: str, mutated: str, module: str = "reference.toy") -> Accepted:
    return Accepted(module, function, original, mutated, "not-pinned", "a synthetic reason")


def survivor(name: str, original: str, mutated: str, status: str = "survived") -> Mutant:
    return Mutant(name, status, original, mutated)


# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, module, function", [
    ("reference.stream.xǁStreamDecoderǁfeed__mutmut_2", "reference.stream", "StreamDecoder.feed"),
    ("reference.core.x_get_stats__mutmut_11", "reference.core", "get_stats"),
    ("reference.core.x__helper__mutmut_1", "reference.core", "_helper"),
    ("reference.xtra.x_merge__mutmut_3", "reference.xtra", "merge"),
])
def test_mutant_names_split_into_module_and_function(name, module, function):
    assert mutation.split_name(name) == (module, function)


def test_results_carry_status_and_the_changed_line(tmp_path):
    mutants = {m.name: m for m in mutation.read_results(write_run(tmp_path))}
    survived = mutants["reference.toy.x_head__mutmut_1"]
    assert (survived.status, survived.original, survived.mutated) == ("survived", "return ids[:n]",
                                                                       "return ids[:n + 1]")
    method = mutants["reference.toy.xǁDecoderǁfeed__mutmut_1"]
    assert (method.module, method.function, method.status) == ("reference.toy", "Decoder.feed", "no tests")
    assert (method.original, method.mutated) == ("data = self.vocab[token_id]", "data = None")
    signature = mutants["reference.toy.x_head__mutmut_2"]  # only the def line differs
    assert (signature.original, signature.mutated) == ("def head(ids, n=1):", "def head(ids, n=2):")


def test_unknown_exit_codes_are_suspicious_and_missing_ones_not_checked():
    assert mutation.status_of(-15) == "suspicious"
    assert mutation.status_of(None) == "not checked"
    assert mutation.status_of(36) == mutation.status_of(-24) == "timeout"


# --- the table -------------------------------------------------------------------------------


def test_score_counts_killed_and_timed_out_among_checked_mutants():
    counts = Counter({"killed": 6, "timeout": 2, "survived": 1, "no tests": 1, "not checked": 5})
    assert mutation.score(counts) == pytest.approx(0.8)
    assert mutation.score(Counter({"not checked": 3})) is None


def test_table_has_a_row_per_module_and_a_total():
    mutants = [Mutant("reference.a.x_f__mutmut_1", "killed"), Mutant("reference.a.x_f__mutmut_2", "survived"),
               Mutant("reference.b.x_g__mutmut_1", "timeout")]
    lines = mutation.render_table(mutation.tally(mutants))
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:] if not line.startswith("-")}
    assert rows["reference.a"] == ["2", "1", "0", "1", "0", "0", "50.0%"]
    assert rows["reference.b"] == ["1", "0", "1", "0", "0", "0", "100.0%"]
    assert rows["all"] == ["3", "1", "1", "1", "0", "0", "66.7%"]


# --- the gate --------------------------------------------------------------------------------


def test_gate_passes_when_every_survivor_is_accepted():
    mutants = [survivor("reference.toy.x_head__mutmut_1", "return ids[:n]", "return ids[:n + 1]"),
               Mutant("reference.toy.x_head__mutmut_2", "killed")]
    verdict = mutation.gate(mutants, [entry("head", "return  ids[:n]", "return ids[:n + 1]")])
    assert verdict.passed and not verdict.unexpected and not verdict.stale


def test_gate_fails_on_a_survivor_the_ledger_does_not_accept():
    new = survivor("reference.toy.x_head__mutmut_1", "return ids[:n]", "return ids[:n - 1]")
    verdict = mutation.gate([new], [entry("head", "return ids[:n]", "return ids[:n + 1]")])
    assert not verdict.passed and verdict.unexpected == [new]


def test_gate_counts_a_mutant_without_tests_as_a_survivor():
    untested = survivor("reference.toy.x_head__mutmut_1", "a", "b", status="no tests")
    assert mutation.gate([untested], []).unexpected == [untested]


def test_gate_fails_on_an_entry_that_no_longer_survives():
    killed = Mutant("reference.toy.x_head__mutmut_1", "killed", "return ids[:n]", "return ids[:n + 1]")
    stale = entry("head", "return ids[:n]", "return ids[:n + 1]")
    verdict = mutation.gate([killed], [stale])
    assert not verdict.passed and verdict.stale == [stale]


def test_gate_takes_a_timeout_as_bearing_out_a_performance_only_entry_only():
    slow = Mutant("reference.toy.x_head__mutmut_1", "timeout", "return ids[:n]", "return ids[:n + 1]")
    performance = Accepted("reference.toy", "head", "return ids[:n]", "return ids[:n + 1]", "performance-only",
                           "only slower: survives or runs past its CPU budget, depending on the machine")
    assert mutation.gate([slow], [performance]).passed
    not_pinned = entry("head", "return ids[:n]", "return ids[:n + 1]")
    assert mutation.gate([slow], [not_pinned]).stale == [not_pinned]
    killed = Mutant("reference.toy.x_head__mutmut_1", "killed", "return ids[:n]", "return ids[:n + 1]")
    assert mutation.gate([killed], [performance]).stale == [performance]


def test_gate_matches_text_not_mutmut_numbers_nor_other_functions():
    renumbered = survivor("reference.toy.x_head__mutmut_7", "return ids[:n]", "return ids[:n + 1]")
    assert mutation.gate([renumbered], [entry("head", "return ids[:n]", "return ids[:n + 1]")]).passed
    elsewhere = survivor("reference.toy.x_tail__mutmut_1", "return ids[:n]", "return ids[:n + 1]")
    verdict = mutation.gate([elsewhere], [entry("head", "return ids[:n]", "return ids[:n + 1]")])
    assert verdict.unexpected == [elsewhere] and len(verdict.stale) == 1


def test_gate_does_not_judge_modules_left_partly_unchecked():
    mutants = [Mutant("reference.toy.x_head__mutmut_1", "not checked"),
               survivor("reference.toy.x_head__mutmut_2", "a", "b")]
    verdict = mutation.gate(mutants, [entry("head", "x", "y")])
    assert verdict.passed and verdict.unjudged == ["reference.toy"]


# --- the ledger ------------------------------------------------------------------------------


def test_ledger_entries_need_every_field_a_known_category_and_a_reason(tmp_path):
    ledger = tmp_path / "accepted.toml"
    ledger.write_text('[[accepted]]\nmodule = "reference.toy"\nfunction = "head"\noriginal = "a"\n'
                      'mutated = "b"\ncategory = "equivalent"\nwhy = "same result"\n', encoding="utf-8")
    assert mutation.load_ledger(ledger) == [Accepted("reference.toy", "head", "a", "b", "equivalent", "same result")]
    ledger.write_text('[[accepted]]\nmodule = "reference.toy"\nfunction = "head"\noriginal = "a"\n'
                      'mutated = "b"\ncategory = "looks fine"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation.LedgerError, match="category"):
        mutation.load_ledger(ledger)
    ledger.write_text('[[accepted]]\nmodule = "reference.toy"\nfunction = "head"\noriginal = "a"\n'
                      'category = "equivalent"\nwhy = "x"\n', encoding="utf-8")
    with pytest.raises(mutation.LedgerError, match="entry 1 lacks mutated"):
        mutation.load_ledger(ledger)


def test_the_shipped_ledger_is_well_formed():
    ledger = mutation.load_ledger(mutation.PROJECT_ROOT / mutation.LEDGER)
    keys = [(e.module, e.function, e.original, e.mutated) for e in ledger]
    assert len(keys) == len(set(keys)), "an entry is listed twice"


# --- the command, on a run already made ------------------------------------------------------


def test_results_only_prints_the_table_and_gates_on_the_ledger(tmp_path, capsys):
    write_run(tmp_path)
    ledger = tmp_path / "accepted.toml"
    ledger.write_text("", encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 1
    out = capsys.readouterr().out
    assert "reference.toy" in out and "NEW SURVIVOR reference.toy.x_head__mutmut_1" in out
    assert "gate FAILED: 2 survivor(s)" in out

    ledger.write_text(textwrap.dedent('''
        [[accepted]]
        module = "reference.toy"
        function = "head"
        original = "return ids[:n]"
        mutated = "return ids[:n + 1]"
        category = "not-pinned"
        why = "synthetic"

        [[accepted]]
        module = "reference.toy"
        function = "Decoder.feed"
        original = "data = self.vocab[token_id]"
        mutated = "data = None"
        category = "equivalent"
        why = "synthetic"
    '''), encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 0
    assert "gate passed" in capsys.readouterr().out


def test_results_only_without_a_run_says_to_run_first(tmp_path, capsys):
    assert mutation.main(["--results-only"], root=tmp_path) == 2
    assert "run `bpe-kata mutate` first" in capsys.readouterr().err


# --- session caches under mutmut's recording run (bpe_kata/mutmut_calls.py) ------------------------


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
    from bpe_kata.mutmut_calls import SharedCalls
    calls = SharedCalls()
    recording._stats.add("reference.core.x_get_stats")  # called by the first test before the cache
    with calls.computing("table"):
        recording._stats.add("reference.training.x_train")
    assert recording._stats == {"reference.core.x_get_stats", "reference.training.x_train"}
    recording._stats.clear()  # mutmut's teardown: the next test starts with nothing recorded
    calls.reused("table")
    assert recording._stats == {"reference.training.x_train"}


def test_outside_a_recording_run_nothing_is_recorded(monkeypatch):
    from bpe_kata.mutmut_calls import SharedCalls
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
    with pytest.raises(mutation.LedgerError, match="category"):
        mutation.load_ledger(draft)
    filled = text.replace('category = "?"', 'category = "not-pinned"').replace('why = ""', 'why = "reviewed"')
    ledger.write_text(filled, encoding="utf-8")
    assert mutation.main(["--results-only", "--gate", "--ledger", str(ledger)], root=tmp_path) == 0


# --- the tuned mutmut run (bpe_kata/mutmut_runner.py) -----------------------------------------


def test_test_durations_are_scaled_down_to_the_recording_runs_cpu_time_never_up():
    from types import SimpleNamespace

    from bpe_kata import mutmut_runner

    loaded = SimpleNamespace(stats_time=15.0, duration_by_test={"a": 40.0, "b": 20.0})  # wall 4x the CPU
    assert mutmut_runner.scale_to_cpu_time(loaded) == pytest.approx(0.25)
    assert loaded.duration_by_test == {"a": pytest.approx(10.0), "b": pytest.approx(5.0)}
    idle = SimpleNamespace(stats_time=15.0, duration_by_test={"a": 4.0, "b": 2.0})
    assert mutmut_runner.scale_to_cpu_time(idle) == 1.0 and idle.duration_by_test == {"a": 4.0, "b": 2.0}
    unknown = SimpleNamespace(stats_time=None, duration_by_test={"a": 4.0})
    assert mutmut_runner.scale_to_cpu_time(unknown) == 1.0 and unknown.duration_by_test == {"a": 4.0}


def test_the_tuned_run_fits_the_installed_mutmut():
    pytest.importorskip("mutmut")
    import subprocess

    # install() patches mutmut in the process that runs it: check it in a child, not in this one.
    code = "from bpe_kata import mutmut_runner; mutmut_runner.install(); print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
