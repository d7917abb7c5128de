"""Known-wrong implementations fail on the claim that names their mistake; right ones pass.

Each run is a child pytest over the spec, as a user would run it, with a JSON report. The
known-wrong ones are the oracle (spec/oracle/) with one mistake each, so the oracle itself
must pass the whole spec, and each of them must be the oracle but for its mistake.
"""

from __future__ import annotations

import importlib
import inspect
import json
import shlex
import sys
from pathlib import Path

import pytest

import spec.oracle
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES, CORE_LEVELS, PUBLISHED_TABLES_GROUP
from tests.support import REPO_ROOT, files_of_claims, files_of_levels, run_spec_inline

IMPLEMENTATIONS = REPO_ROOT / "tests" / "implementations"
WRONG = sorted(p.stem for p in IMPLEMENTATIONS.glob("wrong_*.py"))
CORE = [level.name for level in CORE_LEVELS]


def default_tie_rule(stem: str) -> str:
    return getattr(importlib.import_module(f"tests.implementations.{stem}"), "DEFAULT_TIE_RULE", "first-counted")


ALL_RIGHT = sorted(p.stem for p in IMPLEMENTATIONS.glob("right_*.py"))
RIGHT = [stem for stem in ALL_RIGHT if default_tie_rule(stem) == "first-counted"]
#: Right implementations whose train breaks ties another documented way by default.
RIGHT_OTHER_TIE_RULE = [stem for stem in ALL_RIGHT if default_tie_rule(stem) != "first-counted"]

#: The claims whose values hold only under the first-counted tie rule: a right implementation
#: with another default may fail these, and nothing else (issue 9). The ledger marks each one.
#: The levels whose tests call train (bytes, pairs, merge, stream, words and pretrained never do).
TRAINING_LEVELS = ("train", "decode", "encode", "roundtrip", "regex", "special", "persist", "ties")
FIRST_COUNTED_ONLY = {"train.tie-first-counted", "train.wikipedia-walkthrough", "regex.chunk-tie-first-counted"}


def mistake_claims(stem: str) -> tuple[str, ...]:
    return importlib.import_module(f"tests.implementations.{stem}").MISTAKE_CLAIMS


@pytest.mark.heavy
@pytest.mark.xdist_group(PUBLISHED_TABLES_GROUP)
def test_the_oracle_is_green_on_every_level(tmp_path):
    """The base of every known-wrong implementation, in the mode their tests run (small examples).

    Were it broken, a known-wrong file could fail its claims through its base, not its mistake.
    """
    run = run_spec_inline(tmp_path, "--impl", "spec.oracle", "-m", "not corpus")
    assert run.report is not None, run.output[-3000:]
    statuses = {level: row["status"] for level, row in run.report["levels"].items()}
    assert statuses == dict.fromkeys(ALL_LEVEL_NAMES, "green"), run.report["claims"]
    assert run.returncode == 0


def written_in(thing: object) -> Path:
    """The file a function or class is written in; a re-homed copy keeps its original's code."""
    return Path(inspect.getfile(thing)).resolve()


ORACLE_FOLDER = Path(spec.oracle.__file__).resolve().parent


@pytest.mark.parametrize("stem", WRONG)
def test_known_wrong_implementation_is_the_oracle_but_for_its_own_definitions(stem):
    """Each contract function it has is the oracle's (imported or re-homed) or written in the file itself."""
    module = importlib.import_module(f"tests.implementations.{stem}")
    here = written_in(module)
    present = {name: getattr(module, name) for name in spec.oracle.__all__ if hasattr(module, name)}
    from_oracle = {name for name, thing in present.items() if written_in(thing).parent == ORACLE_FOLDER}
    own = {name: thing for name, thing in vars(module).items()
           if (inspect.isfunction(thing) or inspect.isclass(thing)) and written_in(thing) == here}
    assert set(present) - from_oracle <= set(own), (
        f"not the oracle's nor the file's own: {set(present) - from_oracle - set(own)}"
    )
    assert from_oracle, "no contract function comes from the oracle: the file is not built on it"
    assert own, "the file defines nothing of its own: where is its mistake?"


def test_there_are_enough_known_wrong_implementations():
    assert len(WRONG) >= 12 and len(RIGHT) >= 2
    assert {default_tie_rule(stem) for stem in RIGHT_OTHER_TIE_RULE} == {"lowest-pair", "bytes-greatest"}


def test_the_first_counted_only_claims_are_those_the_ledger_marks():
    marked = {claim.id for claim in load_claims().values() if claim.depends_on_tie_rule == "first-counted"}
    assert marked == FIRST_COUNTED_ONLY


@pytest.mark.heavy
@pytest.mark.parametrize("stem", RIGHT_OTHER_TIE_RULE)
def test_right_implementation_with_another_default_tie_rule_fails_only_first_counted_claims(tmp_path, spec_tests, stem):
    """Every level it implements whose tests train, corpus tests included: a tie rule shows only through train."""
    files = files_of_levels(spec_tests, TRAINING_LEVELS)
    run = run_spec_inline(tmp_path, "--impl", f"tests.implementations.{stem}", files=files)
    assert run.report is not None, run.output[-3000:]
    failed = {claim for claim, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed - FIRST_COUNTED_ONLY == set(), {claim: run.report["claims"][claim]["tests"] for claim in failed}
    assert "train.tie-first-counted" in failed  # the run did see its other rule
    # and each failed on the implementation's own training, so the report excuses it by the tie rule
    assert {claim: run.report["claims"][claim].get("tie_rule_excuse") for claim in failed} == dict.fromkeys(
        failed, "first-counted"
    )
    not_green = {level: row["status"] for level, row in run.report["levels"].items()
                 if row["status"] not in ("green", "FAILED")}
    if default_tie_rule(stem) == "bytes-greatest":  # it writes that rule only: the ties level is credited for it
        assert not_green == {"ties": "partly started"}, run.report["levels"]
        assert run.claim_status("ties.bytes-greatest") == "passed"
        assert run.claim_status("ties.lowest-pair") == "not started"
    else:
        assert not_green == {}, run.report["levels"]


#: The known-wrong implementations a plain `pytest` runs: one per level that has any, so every level's mistakes
#: are shown caught on each change; the heavy group (`pytest -m heavy`, CI) runs every one of them.
FAST_SAMPLE = ("wrong_train_normalizes", "wrong_pairs_no_overlap", "wrong_merge_mutates", "wrong_tie_last_counted",
               "wrong_decode_per_token", "wrong_encode_longest_match", "wrong_surrogates_as_question_marks",
               "wrong_regex_train_ignores_pattern", "wrong_special_as_bytes", "wrong_save_in_place",
               "wrong_stream_per_token", "wrong_pretrained_no_pattern", "wrong_words_no_marker",
               "wrong_ties_wrong_rule")


def level_of_mistake(stem: str) -> str:
    return mistake_claims(stem)[0].partition(".")[0]


def test_the_fast_sample_has_one_known_wrong_implementation_per_level():
    """A plain run catches a mistake on every level that has known-wrong implementations, and no more."""
    assert set(FAST_SAMPLE) <= set(WRONG)
    assert sorted(level_of_mistake(stem) for stem in FAST_SAMPLE) == sorted({level_of_mistake(stem) for stem in WRONG})


def wrong_param(stem: str):
    """A known-wrong stem; one with a pretrained mistake runs beside the spec's pretrained tests,
    on the xdist worker that has the published tables loaded already. Outside the fast sample: heavy."""
    pretrained = any(claim.startswith("pretrained.") for claim in mistake_claims(stem))
    marks = [pytest.mark.xdist_group(PUBLISHED_TABLES_GROUP)] if pretrained else []
    return pytest.param(stem, marks=marks + ([] if stem in FAST_SAMPLE else [pytest.mark.heavy]))


#: What a claim may be, besides failed, in a known-wrong run: its mistake is the only thing blamed.
NOT_BLAMED = {"passed", "not judged", "not started", "not run", "could not run", "not checked"}


def judged_failed(report: dict) -> set[str]:
    return {claim for claim, row in report["claims"].items() if row["status"] == "failed"}


@pytest.mark.parametrize("stem", [wrong_param(stem) for stem in WRONG])
def test_known_wrong_implementation_fails_exactly_its_claims(tmp_path, spec_tests, stem):
    """Every spec file that checks one of the mistake's claims runs whole, on the small examples: the mistake's
    claims fail, and every other claim of those files passes, or is "not judged" (it rests on a broken one)."""
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / f"{stem}.py"), "-m", "not corpus",
                          "--one-failure-per-claim", files=files_of_claims(spec_tests, mistake_claims(stem)))
    assert run.report is not None and run.returncode == 1, run.output[-3000:]
    failed = judged_failed(run.report)
    assert failed == set(mistake_claims(stem)), {
        claim: run.report["claims"][claim]
        for claim in failed ^ set(mistake_claims(stem))
        if claim in run.report["claims"]
    }
    assert {row["status"] for claim, row in run.report["claims"].items() if claim not in failed} <= NOT_BLAMED


#: Probes: the oracle with one change (tests/implementations/_rehome.py's ``oracle_with`` carries it to every
#: level), run over every level that trains, merges or encodes, to prove the blame exact where it used to
#: spread (issue 21). Left out: pretrained (published tables, slow to load; it trains nothing), persist and
#: words (they neither count pairs nor merge ids).
PROBES = ["wrong_merge_duplicates_symbol", "wrong_merge_overlapping_runs", "wrong_merge_scrambled_overlaps",
          "wrong_merge_hash_seed_overlaps", "wrong_train_phantom_merge", "wrong_pairs_hash_order",
          "wrong_merge_right_to_left", "wrong_pairs_sorted",
          # a trainer that stops short is one claim on every level, however many tests train as a means (issue 37)
          "wrong_train_learns_nothing", "wrong_train_one_merge_fewer", "wrong_stats_once",
          # a hard-coded special and a merge at count 0: each one claim, by the one classifier of invalid tables
          "wrong_train_endoftext_boundary", "wrong_train_merges_at_count_zero",
          # a split other than the asked one: the asked pattern's chunk claim, at train's or encode's return
          "wrong_regex_train_splits_every_character", "wrong_regex_no_look_ahead", "wrong_regex_pattern_on_bytes",
          # a text-mode read: one claim on every level, whichever test meets the folded line ends
          "wrong_text_mode_everywhere"]
PROBE_LEVELS = [name for name in ALL_LEVEL_NAMES if name not in ("pretrained", "persist", "words", "facts")]


@pytest.mark.heavy
@pytest.mark.parametrize("stem", PROBES)
def test_probe_fails_exactly_its_claims_on_every_level(tmp_path, spec_tests, stem):
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / f"{stem}.py"), "-m", "not corpus",
                          files=files_of_levels(spec_tests, PROBE_LEVELS))
    assert run.report is not None and run.returncode == 1, run.output[-3000:]
    failed = judged_failed(run.report)
    assert failed == set(mistake_claims(stem)), {
        claim: run.report["claims"][claim]
        for claim in failed ^ set(mistake_claims(stem))
        if claim in run.report["claims"]
    }
    assert {row["status"] for claim, row in run.report["claims"].items() if claim not in failed} <= NOT_BLAMED


#: Mistakes that slipped past the spec once, when only a worked case or two could show them
#: (issue 9): the generated inputs alone must catch each, so its kin are caught too.
CAUGHT_BY_PROPERTIES = ("wrong_train_normalizes", "wrong_regex_train_normalizes", "wrong_merge_right_to_left",
                        "wrong_encode_merges_from_right", "wrong_special_byte_position",
                        "wrong_regex_chunk_ties_by_frequency")


@pytest.mark.parametrize("stem", [stem if stem == "wrong_encode_merges_from_right" else
                                  pytest.param(stem, marks=pytest.mark.heavy) for stem in CAUGHT_BY_PROPERTIES])
def test_generated_inputs_alone_catch_the_mistake(tmp_path, spec_tests, stem):
    """The worked cases left out (-k 'not case'): the property tests must fail on the mistake's first claim."""
    claim = mistake_claims(stem)[0]
    run = run_spec_inline(tmp_path, "--impl", str(IMPLEMENTATIONS / f"{stem}.py"), "-m", "not corpus", "-k", "not case",
                          "--one-failure-per-claim", "--claim", claim, files=files_of_claims(spec_tests, [claim]))
    assert run.returncode == 1 and run.claim_status(claim) == "failed", run.report and run.report["claims"]


@pytest.mark.heavy
@pytest.mark.parametrize("stem", RIGHT)
def test_right_implementation_written_differently_passes_every_core_level(tmp_path, spec_tests, stem):
    """Corpus tests are left out: these are deliberately slow textbook-style trainers."""
    run = run_spec_inline(
        tmp_path,
        "--impl",
        f"tests.implementations.{stem}",
        "--level",
        "roundtrip",
        "-m",
        "not corpus",
        files=files_of_levels(spec_tests, CORE),
    )
    assert run.returncode == 0, run.output[-3000:]
    assert [run.level_status(level) for level in CORE] == ["green"] * len(CORE), run.report["levels"]


@pytest.mark.heavy
def test_wrong_implementation_given_as_a_file_anywhere_on_disk(tmp_path):
    """A self-contained learner file outside the repository: the oracle's core, with strict decoding."""
    source = inspect.getsource(spec.oracle.core).replace('errors="replace"', 'errors="strict"')
    assert 'errors="strict"' in source
    learner = tmp_path / "somewhere" / "my_bpe.py"
    learner.parent.mkdir()
    learner.write_text(source, encoding="utf-8")
    run = run_spec_inline(
        tmp_path,
        "--impl",
        str(learner),
        "--claim",
        "decode.*",
        "--claim",
        "merge.*",
        "-m",
        "not corpus",
        "--one-failure-per-claim",
    )
    assert run.returncode == 1
    assert run.claim_status("decode.replace-128") == "failed"
    assert run.claim_status("merge.left-to-right") == "passed"


@pytest.mark.heavy
def test_starter_reports_every_level_not_started(tmp_path):
    run = run_spec_inline(tmp_path, "--impl", "solutions.starter", "-m", "not corpus")
    assert run.returncode == 0
    assert set(run.report["levels"]) >= set(CORE)
    statuses = {level: row["status"] for level, row in run.report["levels"].items() if level != "facts"}
    assert statuses == dict.fromkeys(statuses, "not started")
    assert run.report["failures"] == {}
    # the table's "why" section: one reason per level, not one per test
    assert {level: len(reasons) for level, reasons in run.report["skip_reasons"].items()} == dict.fromkeys(statuses, 1)


@pytest.mark.heavy
def test_documents_shaped_trainer_fails_only_the_claim_its_empty_max_breaks(tmp_path, spec_tests):
    """minbpe's shape (``max`` over the pair counts, no empty check) over the whole core: one claim broken.

    Its error shows in tests of four levels; every other claim those tests name is "could not
    run", never "failed", so the verdict names exactly the one mistake the code has.
    """
    run = run_spec_inline(
        tmp_path,
        "--impl",
        str(IMPLEMENTATIONS / "wrong_train_max_on_empty.py"),
        "--level",
        "roundtrip",
        "-m",
        "not corpus",
        files=files_of_levels(spec_tests, CORE),
    )
    assert run.report is not None, run.output[-3000:]
    failed = {claim for claim, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed == {"train.exhausted"}, {claim: run.report["claims"][claim]["tests"] for claim in failed}
    statuses = {row["status"] for row in run.report["claims"].values()}
    assert statuses <= {"passed", "failed", "could not run", "not run", "not judged"}, statuses


#: The memory test of encode.iterable (spec/test_encode_iterable.py), on its own: in a child under RLIMIT_AS.
MEMORY_TEST = "test_memory_stays_bounded_on_a_large_input"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's")
@pytest.mark.parametrize(("impl", "passes"), [
    ("reference", True),
    ("tests.implementations.right_default_lowest_pair", True),
    pytest.param("spec.oracle", True, marks=pytest.mark.heavy),  # the base of every known-wrong one: 10 to 30 s
    ("cs336:tests/course_shapes/cs336_right", True),
    (str(IMPLEMENTATIONS / "wrong_encode_iterable_joins_all.py"), False),
], ids=["reference", "right-lowest-pair", "oracle", "cs336-right", "joins-all"])
def test_the_memory_of_encode_iterable_stays_bounded_for_the_right_and_not_for_a_join(tmp_path, impl, passes):
    """Alone (``-k``), the memory test passes the reference, a right implementation, the oracle (whose
    encode_iterable every known-wrong one but the join has) and the CS336 right solution, and fails the one that
    joins its input first, with a message saying what was measured."""
    run = run_spec_inline(tmp_path, "--impl", impl, "-k", MEMORY_TEST, files=["spec/test_encode_iterable.py"])
    assert run.report is not None, run.output[-3000:]
    row = run.report["claims"]["encode.iterable"]
    assert row["status"] == ("passed" if passes else "failed"), row
    assert run.returncode == (0 if passes else 1)
    if not passes:
        assert "ran out of memory" in json.dumps(row) and "address-space limit" in json.dumps(row), row


def test_the_memory_test_is_not_run_through_the_protocol(tmp_path):
    """Through ``cmd:`` the protocol carries an iterable whole: the memory test is "not run", with the reason."""
    command = f"cmd:{shlex.quote(sys.executable)} -m bpe_kata.child.server reference"
    run = run_spec_inline(tmp_path, "--impl", command, "-k", MEMORY_TEST, files=["spec/test_encode_iterable.py"])
    assert run.report is not None, run.output[-3000:]
    assert run.returncode == 0
    assert "protocol sends an iterable whole" in json.dumps(run.report), run.report["claims"]["encode.iterable"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status are Linux's")
def test_a_child_that_dies_in_the_memory_test_fails_the_claim_saying_so(tmp_path):
    """A child that exits while encode_iterable runs (as one killed for its memory would) fails encode.iterable
    with its exit status and what was measured, never a suite error."""
    impl = tmp_path / "dies.py"
    impl.write_text("import os\nfrom reference import *  # noqa\n\n\n"
                    "def encode_iterable(texts, merges, **keywords):\n"
                    "    for k, _ in enumerate(texts):\n"
                    "        if k == 100_000:\n"
                    "            os._exit(3)\n"
                    "        yield 97\n", encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-k", MEMORY_TEST, files=["spec/test_encode_iterable.py"])
    assert run.report is not None, run.output[-3000:]
    row = run.report["claims"]["encode.iterable"]
    assert row["status"] == "failed", row
    assert "died without answering (exit status 3)" in json.dumps(row), row
    assert "characters fed" in json.dumps(row) and "the last count the child reported" in json.dumps(row), row
