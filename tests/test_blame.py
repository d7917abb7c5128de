"""Exact blame: a failing assertion blames its own claim, errors are grouped by root cause, failures read well."""

from __future__ import annotations

import pytest

from bpe_kata.verdict import judging
from spec import blame, compare
from tests.support import REPO_ROOT, run_spec_inline

IMPLEMENTATIONS = REPO_ROOT / "tests" / "implementations"


# --- checking() and judge(), on their own ----------------------------------------------------------

def _raised(function) -> BaseException:
    try:
        function()
    except BaseException as error:  # the test wants whatever was raised
        return error
    raise AssertionError("nothing was raised")


def test_a_failing_check_blames_only_its_claims():
    def failing():
        with blame.checking("claim.one"):
            assert 1 == 1
        with blame.checking("claim.two"):
            assert [1, 2] == [1, 3]

    verdict = judging.judge(_raised(failing), ("claim.one", "claim.two", "claim.three"), None, "")
    assert (verdict.kind, verdict.blamed) == (judging.BROKEN, ("claim.two",))


def test_an_assertion_outside_any_check_blames_every_claim_of_the_test():
    def failing():
        assert 1 == 2

    assert judging.judge(_raised(failing), ("a.b", "c.d"), None, "").blamed == ("a.b", "c.d")


def test_an_exception_from_the_implementation_is_an_error_with_its_place():
    from tests.implementations import wrong_train_max_on_empty as module

    def failing():
        with blame.checking("train.exhausted"):  # the check never ran: train raised first
            module.train("ab", 300)

    verdict = judging.judge(_raised(failing), ("train.exhausted",), module, "")
    assert verdict.kind == judging.ERROR and verdict.blamed == ()
    assert verdict.root_cause.startswith("ValueError: max()")
    assert verdict.where.startswith("train (") and "wrong_train_max_on_empty.py:" in verdict.where


def test_the_implementations_own_assert_is_an_error_not_a_broken_claim(tmp_path):
    own = tmp_path / "own_assert.py"
    own.write_text("def train(text, vocab_size):\n    assert vocab_size >= 256\n", encoding="utf-8")
    import importlib.util
    spec = importlib.util.spec_from_file_location("own_assert", own)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    verdict = judging.judge(_raised(lambda: module.train("a", 3)), ("train.min-vocab",), module, "")
    assert verdict.kind == judging.ERROR and verdict.where.startswith("train (")


def test_verdicts_survive_the_trip_from_an_xdist_worker():
    verdict = judging.Verdict(judging.BROKEN, ("a.b",), "", "", "ids: expected 1, got 2")
    assert judging.Verdict.from_json(verdict.to_json()) == verdict


# --- readable differences ------------------------------------------------------------------------------

def test_id_lists_show_the_first_difference_with_its_bytes():
    lines = compare.describe([256, 99], [256, 257], "ids", {256: b"ab", 257: b"c\xe4"})
    text = "\n".join(lines)
    assert "first difference at index 1" in text
    assert "expected 257 [63 e4 'c\ufffd']" in text and "got 99 [63 'c']" in text


def test_merge_lists_show_each_merge_with_the_bytes_it_makes():
    text = "\n".join(compare.describe([((97, 98), 256)], [((98, 97), 256)], "merges"))
    assert "(98, 97) -> 256 [62 61 'ba']" in text and "(97, 98) -> 256 [61 62 'ab']" in text


def test_bytes_and_text_differences_are_shown_both_ways():
    assert "e4 bd a0 '你'" in "\n".join(compare.describe(b"\xe4\xbd\xa0", b"\xe4\xbd", "bytes"))
    assert "first difference at character 2" in "\n".join(compare.describe("abd", "abc", "text"))


def test_expect_fields_reports_every_differing_field():
    with pytest.raises(AssertionError) as raised:
        compare.expect_fields({"outputs": (["", "a"], ["", "b"]), "flush": ("x", ""), "same": (1, 1)})
    assert "outputs" in str(raised.value) and "flush" in str(raised.value) and "same" not in str(raised.value)


def test_plain_asserts_on_id_lists_get_the_same_explanation():
    from bpe_kata.plugin import pytest_assertrepr_compare

    lines = pytest_assertrepr_compare(None, "==", [104, 105], [104, 228])
    assert any("first difference at index 1" in line for line in lines)
    assert any("got 105 [69 'i']" in line for line in lines)
    assert pytest_assertrepr_compare(None, "==", [1], [1]) is None
    assert pytest_assertrepr_compare(None, "<", [1], [2]) is None


def test_a_length_case_shows_bytes_per_token():
    from spec.cases import expect

    with pytest.raises(AssertionError) as raised:
        expect.expect_ids([256, 97], {"length": 4}, {(97, 97): 256}, text_bytes=8)
    assert "expected 4, got 2 (2.0000 against 4.0000 bytes per token for 8 bytes)" in str(raised.value)
    assert "256 [61 61 'aa']" in str(raised.value)


# --- through a run of the spec -------------------------------------------------------------------------

def test_a_multi_claim_test_failing_one_assertion_blames_only_that_claim(tmp_path):
    """Ids from 257: the test of ids-from-256 and tie-recorded breaks ids-from-256 only."""
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / "wrong_ids_from_257.py"),
                          "-k", "test_ids_are_consecutive_from_256_in_training_order", files=["spec/test_train.py"])
    assert run.returncode == 1
    claims = run.report["claims"]
    assert claims["train.ids-from-256"]["status"] == "failed"
    assert claims["train.tie-recorded"]["status"] != "failed"
    assert list(claims["train.tie-recorded"]["tests"]) == ["not checked"]


@pytest.mark.heavy
def test_errors_are_grouped_by_root_cause_with_the_claim_they_most_likely_break(tmp_path, capsys):
    """A minbpe-like trainer: one ValueError from max() behind failures over several levels."""
    files = ["spec/test_train.py", "spec/test_decode.py", "spec/test_encode.py", "spec/test_roundtrip.py"]
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / "wrong_train_max_on_empty.py"), "-m", "not corpus",
                          files=files, capsys=capsys)
    assert run.returncode == 1
    causes = run.report["root_causes"]
    assert len(causes) == 1, causes
    cause = causes[0]
    assert cause["exception"].startswith("ValueError: max()") and "wrong_train_max_on_empty.py:" in cause["where"]
    assert cause["count"] >= 8 and cause["levels"][0] == "train" and len(cause["levels"]) >= 3
    assert cause["likely_claim"] == "train.exhausted"
    claims = run.report["claims"]
    assert claims["train.exhausted"]["status"] == "failed" and claims["train.exhausted"]["broken_by"] == "root cause"
    assert claims["train.no-early-stop"]["status"] in ("could not run", "passed")
    assert "could not run" in claims["train.no-early-stop"]["tests"]
    table = run.output[run.output.index("root causes (1)"):]
    assert "most likely breaks train.exhausted" in table
    assert table.index("root causes") < table.index("claims whose tests could not run")


def test_the_report_shows_the_first_failures_expected_and_actual(tmp_path, capsys):
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / "wrong_tie_lowest_pair.py"),
                          "--claim", "train.wikipedia-walkthrough", files=["spec/test_train.py"], capsys=capsys)
    assert run.returncode == 1
    first = run.report["claims"]["train.wikipedia-walkthrough"]["first_failure"]
    assert "expected (256, 97) -> 257 [61 61 61 'aaa']" in first and "got (97, 98) -> 257 [61 62 'ab']" in first
    assert "first failure:" in run.output and "expected (256, 97) -> 257" in run.output


@pytest.mark.beside("shared/data/alice.txt")
def test_document_keys_of_printed_claim_ids_are_explained(tmp_path, capsys):
    """A failing d1 claim (every one reads a corpus: a missing corpus fails none, bpe_kata/verdict/missing_data.py)."""
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / "wrong_decode_per_token.py"),
                          "--claim", "corpus.d1-examples", files=["spec/test_roundtrip.py"], capsys=capsys)
    assert run.returncode == 1 and run.claim_status("corpus.d1-examples") == "failed"
    assert "d1 = Build a BPE Tokenizer: Why Your Model Can't Count the R's" in run.output
    assert run.report["document_keys"] == {"d1": "Build a BPE Tokenizer: Why Your Model Can't Count the R's"}


def test_every_multi_claim_spec_test_says_which_claim_each_check_is_about(spec_tests):
    """A test marked with several claims wraps its checks in checking(...); a worked case (one expected result
    documented for all its claims) is the exception."""
    import importlib
    import inspect

    from spec.cases.collect import CASE_TESTS

    made_by_the_collector = {(f"spec/{test.module}", test.name) for test in CASE_TESTS}
    unlabelled, checked = set(), set()
    for nodeid, row in spec_tests.items():
        if len(row["claims"]) < 2:
            continue
        path, name = nodeid.split("::")[0], nodeid.split("::")[1].split("[")[0]
        if (path, name) in made_by_the_collector:  # a worked case: spec/cases/collect.py's test, not the module's
            continue
        function = getattr(importlib.import_module(path.removesuffix(".py").replace("/", ".")), name)
        if "case" in inspect.signature(function).parameters:
            continue
        checked.add(name)
        source = inspect.getsource(function)  # fail_invalid_training labels through the one classifier
        if "checking(" not in source and "fail_invalid_training(" not in source:
            unlabelled.add(nodeid.split("[")[0])
    assert len(checked) >= 15 and sorted(unlabelled) == []


# --- prerequisites, the tie-rule excuse and not-started groups (issue 21) ----------------------------

class _Report:
    """Just what ``Results.record`` reads of a pytest report."""

    def __init__(self, nodeid: str, failed: bool) -> None:
        self.nodeid, self.longrepr, self.longreprtext = nodeid, None, "" if not failed else "AssertionError"


def _results(*tests, cleared: dict[str, tuple[str, ...]] | None = None):
    """Results from (nodeid, level, claims, blamed or None for a pass, own_training); ``cleared``: test -> the
    swaps under which it passed when run again (bpe_kata/verdict/substitution.py)."""
    from bpe_kata.verdict.outcomes import Outcome
    from bpe_kata.verdict.tallies import Results

    results = Results()
    for nodeid, level, claims, blamed, own in tests:
        verdict = (
            None
            if blamed is None
            else judging.Verdict(judging.BROKEN, blamed, "", "", "expected x got y", own_training=own,
                                 cleared_by=(cleared or {}).get(nodeid, ()))
        )
        results.record(_Report(nodeid, blamed is not None), Outcome.PASSED if blamed is None else Outcome.FAILED,
                       level, claims, verdict)
    return results


def test_a_failure_resting_on_a_broken_claim_is_not_judged_in_table_json_and_page():
    from bpe_kata.verdict import html_report
    from bpe_kata.verdict.report import as_json
    from bpe_kata.verdict.summary import render_table

    results = _results(("t::merge", "merge", ("merge.left-to-right",), ("merge.left-to-right",), False),
                       ("t::train", "train", ("train.tie-recorded",), ("train.tie-recorded",), False),
                       ("t::pairs", "pairs", ("pairs.adjacent-overlapping",), None, False),
                       cleared={"t::train": ("merge",)})  # the train test passed with the oracle's merge
    assert results.broken_claims() == {"merge.left-to-right": "assertion"}
    assert results.not_judged() == {"train.tie-recorded": ("merge.left-to-right",)}
    info = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}
    report = as_json(results, info)
    assert report["claims"]["train.tie-recorded"]["status"] == "not judged"
    assert report["claims"]["train.tie-recorded"]["rests_on_broken"] == ["merge.left-to-right"]
    assert report["claims"]["merge.left-to-right"]["status"] == "failed"
    assert report["levels"]["train"]["not judged"] == 1 and report["levels"]["train"]["status"] == "FAILED"
    text = "\n".join(render_table(results, info))
    assert "train.tie-recorded: not judged: rests on merge.left-to-right, which is broken" in text
    assert "claims broken (1)" in text and "(1 of them not judged)" in text
    page = html_report.render(report)
    assert "not judged: rests on merge.left-to-right, which is broken" in page


def test_the_tie_rule_excuse_is_printed_only_for_the_implementations_own_training():
    from bpe_kata.verdict.summary import render_table

    info = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}
    own = _results(("t::walk", "train", ("train.wikipedia-walkthrough",), ("train.wikipedia-walkthrough",), True))
    spec_table = _results(
        ("t::enc", "encode", ("train.wikipedia-walkthrough",), ("train.wikipedia-walkthrough",), False)
    )
    assert own.tie_rule_excuse("train.wikipedia-walkthrough") == "first-counted"
    assert spec_table.tie_rule_excuse("train.wikipedia-walkthrough") == ""
    assert "holds only under the first-counted tie rule" in "\n".join(render_table(own, info))
    assert "holds only under" not in "\n".join(render_table(spec_table, info))


def test_checking_with_own_training_travels_on_the_verdict():
    def failing():
        with blame.checking("train.tie-first-counted", own_training=True):
            assert [1] == [2]

    verdict = judging.judge(_raised(failing), ("train.tie-first-counted",), None, "")
    assert verdict.own_training and judging.Verdict.from_json(verdict.to_json()) == verdict
    plain = judging.judge(_raised(lambda: (_ for _ in ()).throw(AssertionError("x"))), ("a.b",), None, "")
    assert not plain.own_training


def test_not_implemented_inside_an_exception_group_is_not_started_but_not_with_a_real_failure():
    group = BaseExceptionGroup(
        "hypothesis", [NotImplementedError("train"), ExceptionGroup("inner", [NotImplementedError()])]
    )
    assert judging.only_not_implemented(group)
    assert judging.only_not_implemented(NotImplementedError())
    assert not judging.only_not_implemented(BaseExceptionGroup("h", [NotImplementedError(), AssertionError()]))
    assert not judging.only_not_implemented(ValueError()) and not judging.only_not_implemented(None)


@pytest.mark.heavy
def test_a_not_implemented_group_reaching_pytest_makes_the_level_not_started(tmp_path):
    """Two distinct NotImplementedErrors in one Hypothesis test come as one ExceptionGroup."""
    learner = tmp_path / "half.py"
    learner.write_text(
        "def get_stats(ids):\n"
        "    if list(ids) == [1, 2]:  # the level's probe: started\n        return {(1, 2): 1}\n"
        "    if len(ids) % 2:\n        raise NotImplementedError('odd')\n"
        "    raise NotImplementedError('even')  # a second place: Hypothesis reports both, as a group\n",
        encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(learner), "--level", "pairs", "-m", "not corpus",
                          files=["spec/test_pairs.py"])
    assert run.report is not None, run.output[-3000:]
    assert run.level_status("pairs") == "not started", run.report["levels"]
    assert run.report["failures"] == {}


def _error_results(*tests, cleared: dict[str, tuple[str, ...]] | None = None):
    """Results from (nodeid, level, claims, call that raised, operations the test called); ``cleared``: test ->
    the swaps under which it passed when run again (bpe_kata/verdict/substitution.py)."""
    from bpe_kata.verdict.outcomes import Outcome
    from bpe_kata.verdict.tallies import Results

    results = Results()
    for nodeid, level, claims, call, calls in tests:
        verdict = judging.Verdict(judging.ERROR, (), f"Crash: in {call}", f"{call} (x.py:1)", "crash", call=call,
                                calls=calls, cleared_by=(cleared or {}).get(nodeid, ()))
        results.record(_Report(nodeid, True), Outcome.FAILED, level, claims, verdict)
    return results


def test_a_prerequisite_hides_only_failures_its_operation_could_cause():
    """Issue 21: an encode that raises on surrogates without training does not rest on a crashing trainer; a
    crash inside train does not rest on a get_stats that crashes on []; a build_vocab that raises on the table
    the test's train learned rests on that train when the run shows it (issue 37: the test passed again with
    the oracle's train), and only then."""
    results = _error_results(
        ("t::exhausted", "train", ("train.exhausted",), "train", ("train",)),
        ("t::surrogates", "surrogates", ("surrogates.repaired",), "encode", ("encode",)),
        ("t::short", "pairs", ("pairs.short-input",), "get_stats", ("get_stats",)))
    assert set(results.broken_claims()) == {"train.exhausted", "surrogates.repaired", "pairs.short-input"}
    assert results.not_judged() == {}
    tests = (("t::exhausted", "train", ("train.exhausted",), "train", ("train",)),
             ("t::vocab", "decode", ("decode.vocab-order",), "build_vocab", ("train", "build_vocab")))
    assert _error_results(*tests, cleared={"t::vocab": ("train",)}).not_judged() == {
        "decode.vocab-order": ("train.exhausted",)}
    assert _error_results(*tests).not_judged() == {}  # a static prerequisite alone silences nothing


def test_a_crash_in_another_call_breaks_no_claim_of_the_test():
    """A crash in train while a decode test builds its table is no decode claim's failure (issue 21, A7)."""
    results = _error_results(("t::cjk", "decode", ("decode.join-then-decode",), "train", ("train",)))
    assert results.root_causes()[0]["likely_claim"] is None
    assert results.broken_claims() == {}


@pytest.mark.heavy
def test_a_training_that_normalises_is_blamed_on_normalisation_not_on_the_claims_of_its_inputs(tmp_path):
    """A train that NFC-normalises its text breaks every property test that trains on generated Unicode,
    the surrogate and split-pattern ones included (found when a test's examples changed): those claims rest
    on bytes.no-normalization, so the bug is blamed once, on it, and they are "not judged"."""
    run = run_spec_inline(tmp_path, "--impl", str(REPO_ROOT / "tests/implementations/wrong_regex_train_normalizes.py"),
                          "-m", "not corpus", files=["spec/test_bytes.py", "spec/test_train.py", "spec/test_regex.py",
                                                      "spec/test_lone_surrogates.py"])
    assert run.report is not None and run.returncode == 1
    failed = {claim for claim, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed == {"bytes.no-normalization"}, failed
    repaired = run.report["claims"]["surrogates.repaired"]
    assert repaired["status"] in ("not judged", "passed"), repaired


@pytest.mark.parametrize(("level", "claim", "call", "likely"), [
    ("roundtrip", "roundtrip.any-text", "train", None),  # minbpe_cpp: an exhaustion crash while a round trip trains
    ("roundtrip", "roundtrip.any-text", "decode", "roundtrip.any-text"),
    ("special", "special.atomic", "train", None),
    ("special", "special.atomic", "encode", "special.atomic"),
    ("pretrained", "pretrained.reproduce", "train", None),
    ("persist", "persist.format", "save", "persist.format"),
    ("persist", "persist.format", "train", None),
    ("words", "words.toy-merges", "train", None),
    ("words", "words.toy-merges", "train_words", "words.toy-merges"),
    ("ties", "ties.lowest-pair", "train", "ties.lowest-pair"),
])
def test_the_later_levels_claims_are_about_their_own_calls(level, claim, call, likely):
    """Issue 21, round 2's open item 2: a crash in a call a later level's claims are not about (train while a
    round trip or a special-token test builds its table) has no likely claim there; its tests could not run."""
    results = _error_results((f"t::{level}", level, (claim,), call, (call,)))
    assert results.root_causes()[0]["likely_claim"] == likely
    assert set(results.broken_claims()) == ({likely} if likely else set())


#: A trainer whose ids start at 257 (train.ids-from-256, a prerequisite of persist.format) and a save that writes
#: CRLF line ends (persist.format broken on its own, in a check that never trains).
CRLF_SAVE = '''
from pathlib import Path

import reference
from reference import *  # noqa: F403
from tests.implementations.wrong_ids_from_257 import train as _from_257


def train(text, vocab_size, **options):  # from 257 in every form but a pattern's (special tokens never cut)
    return _from_257(text, vocab_size) if not options.get("pattern") else reference.train(text, vocab_size, **options)


def save(path, merges, **options):
    reference.save(path, merges, **options)
    Path(path).write_bytes(Path(path).read_bytes().replace(b"\\n", b"\\r\\n"))
'''


@pytest.mark.heavy
def test_a_check_made_on_a_spawned_child_records_its_calls(tmp_path):
    """Round 2's open item 3: the child a test spawns for itself (other locale, hash seed, file-size limit) is
    the implementation too, and its calls are recorded: a CRLF save seen only in the child's file is persist's
    own failure, never "not judged" behind a trainer the test did not call."""
    impl = tmp_path / "crlf_save.py"
    impl.write_text(CRLF_SAVE, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "-k",
                          "utf8_with_newlines or consecutive_from_256", files=["spec/test_train.py",
                                                                               "spec/test_persist.py"])
    assert run.report is not None
    claims = run.report["claims"]
    assert claims["train.ids-from-256"]["status"] == "failed", claims
    assert claims["persist.format"]["status"] == "failed", claims["persist.format"]


@pytest.mark.heavy
def test_an_encode_by_fewest_tokens_is_not_blamed_on_merging_from_the_left(tmp_path):
    """A public minbpe port encodes with the fewest tokens of the vocabulary (a dynamic program): on odd runs
    it gives what merging from the right gives (aaa as [97, 256]), but it merges nothing; the odd-runs check
    blames merge.left-to-right only when a run of five is merged from the right too."""
    module = tmp_path / "fewest_tokens.py"
    module.write_text(
        "from spec.oracle.core import build_vocab, decode, get_stats, merge, train  # noqa: F401\n"
        "def encode(text, merges):\n"
        "    vocab = {token: idx for idx, token in build_vocab(merges).items()}\n"
        "    data = text.encode('utf-8')\n"
        "    best = [[]] + [None] * len(data)\n"
        "    for end in range(1, len(data) + 1):\n"
        "        for start in range(end):\n"
        "            if best[start] is not None and data[start:end] in vocab and (\n"
        "                    best[end] is None or len(best[start]) + 1 < len(best[end])):\n"
        "                best[end] = best[start] + [vocab[data[start:end]]]\n"
        "    return best[len(data)]\n", encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(module), "-k", "odd_runs", files=["spec/test_encode.py"])
    assert run.report is not None and run.returncode == 1, run.output[-3000:]
    statuses = {cid: row["status"] for cid, row in run.report["claims"].items()}
    assert statuses["encode.lowest-rank"] == "failed" and statuses["merge.left-to-right"] != "failed"


# --- a declared tie rule: a property checks the rule, a worked case the claim it states ----------------------

def _refused(reason: str):
    raise AssertionError(reason)


def test_under_a_declared_rule_only_a_worked_case_keeps_a_first_counted_claim_as_stated():
    from spec.oracle import split

    declared = split.Split("gpt2", "gpt2", _refused, tie_rule="bytes-greatest")
    claims = ("train.wikipedia-walkthrough", "train.ids-from-256")
    with split.splitting_with(declared):
        assert blame.as_checked(claims) == ("ties.bytes-greatest", "train.ids-from-256")
        assert blame.as_checked(claims, stated=True) == claims
        with blame.as_stated():
            assert blame.as_checked(claims) == claims
            error = _raised(lambda: _fail_in(blame.checking("train.wikipedia-walkthrough", own_training=True)))
    assert blame.blamed_claims(error) == ("train.wikipedia-walkthrough",)
    # the ledger's first-counted excuse is for a rule the oracle does not know; the declared one it ties by
    assert not blame.checked_own_training(error)
    assert blame.as_checked(claims) == claims  # no rule declared: nothing to restate


def _fail_in(check) -> None:
    with check:
        raise AssertionError("the table differs")


def test_a_claim_whose_every_test_failed_first_on_another_claim_is_printed_as_not_checked():
    """Held out (fifth round): such claims were listed nowhere, so a reader took them for "not started"."""
    from bpe_kata.verdict.report import as_json
    from bpe_kata.verdict.summary import render_table

    results = _results(("t::one", "train", ("train.min-vocab", "train.prefix"), ("train.min-vocab",), False),
                       ("t::two", "train", ("train.tie-recorded",), None, False))
    info = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}
    assert as_json(results, info)["claims"]["train.prefix"]["status"] == "not checked"
    text = "\n".join(render_table(results, info))
    assert "claims not checked (1)" in text and "\n  train.prefix" in text
    assert "claims not checked" not in "\n".join(render_table(_results(
        ("t::two", "train", ("train.tie-recorded",), None, False)), info))


def test_a_claim_about_another_operation_of_its_level_is_not_silenced_by_a_broken_claim_it_may_rest_on():
    """Development, sixth round: encode_iterable encoding each piece alone read "not judged: rests on special.atomic"
    (an encode that cut at spaces), though a swap of encode would have left its failure; only a claim about the same
    operation is explained by being called."""
    results = _results(("t::atomic", "special", ("special.atomic",), ("special.atomic",), False),
                       ("t::iterable", "special", ("encode.iterable",), ("encode.iterable",), False),
                       ("t::overlap", "special", ("special.overlap-rule",), ("special.overlap-rule",), False))
    assert "encode.iterable" not in results.not_judged()
    assert results.broken_claims().keys() >= {"encode.iterable", "special.atomic"}
