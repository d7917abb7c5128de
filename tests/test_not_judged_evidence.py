"""Issue 37, kinds 1 and 4: "not judged" only with evidence from this run, and "passed" only with a call.

Kind 1: the ledger's ``rests_on`` is true of the reference's composition (its train calls its get_stats and
merge), not of every implementation's. The rule: a failed test is run again with the prerequisite's operation
swapped for the oracle's (bpe_kata/verdict/substitution.py); the prerequisite is to blame only if the failure goes
away. The implementations below are built as the issue found them in the wild; each has a real defect of its
own beside a broken helper its train or encode never calls, or beside a sibling claim of the same operation.

Kind 4: a contract claim whose tests passed without a single call into the implementation is "not judged".
"""

from __future__ import annotations

import pytest

from bpe_kata.verdict import substitution
from bpe_kata.verdict.judging import BROKEN, ERROR, Verdict
from bpe_kata.verdict.outcomes import Outcome
from bpe_kata.verdict.report import UNWITNESSED_REASON, as_json
from bpe_kata.verdict.tallies import Results
from tests.support import REPO_ROOT, run_spec_inline

IMPLEMENTATIONS = REPO_ROOT / "tests" / "implementations"

#: Helpers that crash on [] (as a port's do), which train and encode never call (they use the oracle's own),
#: and an encode that merges the most frequent known pair, not the lowest rank: a real defect of encode's own.
HELPERS_UNUSED = '''
from spec.oracle.core import build_vocab, decode, train  # noqa: F401
from spec.oracle import core
from tests.implementations.wrong_encode_by_frequency import encode  # noqa: F401


def get_stats(ids):
    return core.get_stats(ids) if ids else {}[("no", "pairs")]


def merge(ids, pair, idx):
    return core.merge(ids, pair, idx) if ids else [][0]
'''

#: get_stats in a hash map's order (PROTOCOL.md allows it of a port), which train never calls, and a train
#: whose new ids start at 257: an unrelated defect of train's own.
HASH_ORDER_BESIDE_TRAIN = '''
from spec.oracle.core import build_vocab, decode, encode, merge  # noqa: F401
from tests.implementations.wrong_ids_from_257 import train  # noqa: F401
from tests.implementations.wrong_pairs_hash_order import get_stats  # noqa: F401
'''

#: A merge that drops the last element when no pair ends the list (aaa -> [256]); train and encode the oracle's.
DROPS_LAST = '''
from spec.oracle.core import build_vocab, decode, encode, get_stats, train  # noqa: F401


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
'''


#: A trainer with two defects of one operation: ties go to the last counted pair, and once no pair is left
#: ``max`` of nothing raises. The crash cannot have made a returned table wrong.
CRASH_BESIDE_TIE = '''
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401


def train(text, vocab_size):
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids, merges = list(text.encode("utf-8", "surrogatepass")), {}
    for i in range(vocab_size - 256):
        stats = get_stats(ids)
        top = max(stats.values())
        pair = [p for p, count in stats.items() if count == top][-1]
        ids = merge(ids, pair, 256 + i)
        merges[pair] = 256 + i
    return merges
'''


def _run(tmp_path, source: str, *files: str, args: tuple[str, ...] = ()):
    impl = tmp_path / "port.py"
    impl.write_text(source, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", *args, files=list(files))
    assert run.report is not None, run.output[-3000:]
    return {cid: row for cid, row in run.report["claims"].items()}


def test_helpers_nobody_calls_do_not_silence_encodes_own_defect(tmp_path):
    claims = _run(tmp_path, HELPERS_UNUSED, "spec/test_pairs.py", "spec/test_merge.py", "spec/test_encode.py")
    assert claims["encode.lowest-rank"]["status"] == "failed", claims["encode.lowest-rank"]
    assert any(row["status"] == "failed" for cid, row in claims.items() if cid.startswith(("pairs.", "merge.")))
    assert not [cid for cid, row in claims.items() if row["status"] == "not judged"], claims


def test_a_hash_ordered_get_stats_does_not_hide_a_trainers_own_defect(tmp_path):
    claims = _run(tmp_path, HASH_ORDER_BESIDE_TRAIN, "spec/test_pairs.py", "spec/test_train.py")
    assert claims["pairs.first-seen-order"]["status"] == "failed", claims["pairs.first-seen-order"]
    assert claims["train.ids-from-256"]["status"] == "failed", claims["train.ids-from-256"]
    assert not [cid for cid, row in claims.items() if row["status"] == "not judged"], claims


def test_a_merge_dropping_the_last_element_fails_its_own_claims_none_not_judged(tmp_path):
    claims = _run(tmp_path, DROPS_LAST, "spec/test_merge.py")
    failed = {cid for cid, row in claims.items() if row["status"] == "failed"}
    assert "merge.end-guard" in failed, claims["merge.end-guard"]
    assert not [cid for cid, row in claims.items() if row["status"] == "not judged"], claims


def test_a_helper_the_trainer_does_call_is_still_to_blame(tmp_path):
    """The known-wrong hash-ordered get_stats is re-homed into train: swapping it for the oracle's clears the
    training failures, so they stay "not judged", and the reason names the claim the swap showed at fault."""
    claims = _run(tmp_path, (IMPLEMENTATIONS / "wrong_pairs_hash_order.py").read_text(encoding="utf-8"),
                  "spec/test_pairs.py", "spec/test_train.py")
    resting = {cid: row for cid, row in claims.items() if row["status"] == "not judged"}
    assert {cid for cid, row in claims.items() if row["status"] == "failed"} == {"pairs.first-seen-order"}
    assert resting, claims
    assert all(row["not_judged_reason"] == "not judged: rests on pairs.first-seen-order, which is broken"
               for row in resting.values()), resting


def test_through_the_protocol_a_static_prerequisite_never_silences_a_claim(tmp_path):
    """Nothing can be swapped in another process: the trainer's failures are its own claims' (issue 37), never
    "not judged" behind get_stats (a sibling claim of train's own level may still explain them: no swap splits
    one operation)."""
    claims = _run(tmp_path, (IMPLEMENTATIONS / "wrong_pairs_hash_order.py").read_text(encoding="utf-8"),
                  "spec/test_pairs.py", "spec/test_train.py", args=("--isolated",))
    assert claims["pairs.first-seen-order"]["status"] == "failed"
    assert claims["train.tie-first-counted"]["status"] == "failed", claims["train.tie-first-counted"]
    behind_pairs = [cid for cid, row in claims.items() if row["status"] == "not judged"
                    and any(other.startswith("pairs.") for other in row["rests_on_broken"])]
    assert not behind_pairs, {cid: claims[cid]["not_judged_reason"] for cid in behind_pairs}


# --- the rule on recorded verdicts: no evidence, no silence ------------------------------------------------

class _Report:
    def __init__(self, nodeid: str, failed: bool) -> None:
        self.nodeid, self.longrepr, self.longreprtext = nodeid, None, "AssertionError" if failed else ""


def _results(cleared: tuple[str, ...]) -> Results:
    results = Results()
    results.record(_Report("t::merge", True), Outcome.FAILED, "merge", ("merge.left-to-right",),
                   Verdict(BROKEN, ("merge.left-to-right",), "", "", "x"))
    results.record(_Report("t::train", True), Outcome.FAILED, "train", ("train.tie-recorded",),
                   Verdict(BROKEN, ("train.tie-recorded",), "", "", "x", calls=("train",),
                           substituted=("merge",), cleared_by=cleared))
    return results


def test_a_failure_the_swap_did_not_clear_is_judged():
    assert _results(()).not_judged() == {}
    assert set(_results(()).broken_claims()) == {"merge.left-to-right", "train.tie-recorded"}


def test_a_failure_the_swap_cleared_rests_on_that_claim():
    assert _results(("merge",)).not_judged() == {"train.tie-recorded": ("merge.left-to-right",)}


def test_a_swap_of_another_operation_is_no_evidence():
    assert _results(("get_stats",)).not_judged() == {}


def _siblings(calls: tuple[str, ...]) -> Results:
    results = Results()
    results.record(_Report("t::exhausted", True), Outcome.FAILED, "train", ("train.exhausted",),
                   Verdict(BROKEN, ("train.exhausted",), "", "", "x", calls=("train",)))
    results.record(_Report("t::tie", True), Outcome.FAILED, "train", ("train.tie-recorded",),
                   Verdict(BROKEN, ("train.tie-recorded",), "", "", "x", calls=calls))
    return results


def test_a_sibling_of_the_same_operation_explains_a_failure_only_in_a_test_that_called_it():
    """No swap splits two claims of one operation; the run still says whether the test called it."""
    assert _siblings(("train",)).not_judged() == {"train.tie-recorded": ("train.exhausted",)}
    assert _siblings(("get_stats",)).not_judged() == {}


def test_a_prerequisite_of_the_claims_own_level_is_never_swapped():
    """Swapping merge clears both merge.end-guard and merge.left-to-right: it tells nothing apart."""
    assert substitution.plans(("merge.end-guard",), ("merge",)) == []
    assert sorted(substitution.plans(("train.tie-recorded",), ("train",))) == [("get_stats",), ("merge",)]


def test_a_swap_reaches_the_implementations_own_internal_calls_and_is_undone():
    import types

    module = types.ModuleType("port")
    exec("def get_stats(ids):\n    return {'mine': 1}\n\ndef train(ids):\n    return get_stats(ids)\n", vars(module))
    with substitution.swapped(module, ("get_stats",)) as made:
        assert made and module.train([1, 2, 1, 2]) == {(1, 2): 2, (2, 1): 1}
    assert module.train([1, 2]) == {"mine": 1}


# --- kind 4: "passed" needs a call -------------------------------------------------------------------------

def _passed(calls: int | None) -> Results:
    results = Results()
    results.record(_Report("t::chunks", False), Outcome.PASSED, "regex", ("regex.gpt2-chunks",))
    if calls is not None:
        results.calls["t::chunks"] = calls
    return results


@pytest.mark.parametrize(("calls", "status"), [(0, "not judged"), (3, "passed"), (None, "passed")])
def test_a_contract_claim_passes_only_on_a_call_into_the_implementation(calls, status):
    info = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}
    row = as_json(_passed(calls), info)["claims"]["regex.gpt2-chunks"]
    assert row["status"] == status
    assert row.get("calls") == calls
    assert (row.get("not_judged_reason") == UNWITNESSED_REASON) is (status == "not judged")


def test_a_claim_with_a_failed_test_is_never_also_passed_without_a_call():
    """A claim one test broke is failed, not "not judged" for another test of it that made no call."""
    results = _passed(0)
    results.record(_Report("t::other", True), Outcome.FAILED, "regex", ("regex.gpt2-chunks",),
                   Verdict(BROKEN, ("regex.gpt2-chunks",), "", "", "x"))
    assert results.unwitnessed() == set()


def test_a_claim_whose_other_test_could_not_run_is_that_not_also_passed_without_a_call():
    """Eleventh round, development: the text listed regex.roundtrip both as "not judged: passed without a call" and
    as "could not run", its report's one status. One status, the same in both."""
    results = _passed(0)
    results.record(_Report("t::other", True), Outcome.FAILED, "regex", ("regex.gpt2-chunks",),
                   Verdict(ERROR, (), "NameError: x", "f (x.py:1)", "x"))
    assert results.unwitnessed() == set()
    info = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}
    assert as_json(results, info)["claims"]["regex.gpt2-chunks"]["status"] != "not judged"


def test_fact_claims_are_the_suites_own_and_pass_without_a_call():
    results = Results()
    results.record(_Report("t::facts", False), Outcome.PASSED, "facts", ("bytes.lengths",))
    results.calls["t::facts"] = 0
    assert results.unwitnessed() == set()


def test_every_claim_of_a_real_run_records_its_calls(tmp_path):
    claims = _run(tmp_path, "from spec.oracle.core import *  # noqa: F403\n", "spec/test_merge.py")
    assert all(row["calls"] > 0 for row in claims.values() if row["status"] == "passed"), claims


def test_a_claim_checked_only_by_the_suites_own_pattern_check_is_not_judged(tmp_path):
    """Issue 37's pattern-fixed port: regex.gpt2-chunks "passed" though only the suite's check of its own
    pattern ran. Here only that check runs (-k): no call reaches the implementation, so it is not judged."""
    impl = tmp_path / "port.py"
    impl.write_text("from spec.oracle import *  # noqa: F403\n", encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-k", "grouped_pattern_has_the_whole_matches",
                          files=["spec/test_regex.py"])
    assert run.report is not None, run.output[-3000:]
    row = run.report["claims"]["regex.gpt2-chunks"]
    assert (row["status"], row["calls"], row["not_judged_reason"]) == ("not judged", 0, UNWITNESSED_REASON), row


def test_a_crash_of_one_operation_does_not_excuse_a_wrong_value_it_returned(tmp_path):
    """Two claims of one operation cannot be told apart by a swap; but a sibling broken only by a crash (train
    when no pair is left) explains errors, never a failed check of a table train did return (issue 37 kind 1)."""
    claims = _run(tmp_path, CRASH_BESIDE_TIE, "spec/test_train.py")
    assert claims["train.tie-first-counted"]["status"] == "failed", claims["train.tie-first-counted"]
    assert claims["train.exhausted"]["status"] == "failed", claims["train.exhausted"]
