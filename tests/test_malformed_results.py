"""A malformed value an implementation returns fails the claim that states its shape; the suite's own code never
crashes on it (bpe_kata/verdict/malformed.py has the inventory and the rule).

Each implementation here returns one kind of malformed trained table. The run's report must name no file of the
suite (bpe_kata/, spec/) as the place the implementation raised, hold no suite error, and fail exactly the claims
of the table's shape: ``train.ids-from-256`` (and the defect that made the table, when it has its own claim).
"""

from __future__ import annotations

import re

import pytest

from bpe_kata.impl import shape_parts
from tests.support import REPO_ROOT, files_of_levels, run_spec_inline

#: The levels that feed a trained table on to build_vocab, encode and decode (the observed crashes were there).
FED_ON = ("train", "decode", "roundtrip", "special")


def _failed(run) -> set[str]:
    return {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"}


#: The files of the suite: a place naming one of them is the suite's own line, not the implementation's.
SUITE_FILES = sorted({path.name for folder in ("bpe_kata", "spec") for path in (REPO_ROOT / folder).rglob("*.py")})


def _suite_places(run) -> list[str]:
    """Where the report says the implementation raised (or the suite did), when that is a file of the suite."""
    places = [cause.get("where") or "" for cause in run.report["root_causes"]]
    places += [error.get("where") or "" for error in run.report.get("suite_errors", [])]
    return [place for place in places if "bpe_kata/" in place or "spec/" in place
            or any(re.search(rf"(?<![\w.-]){re.escape(name)}:", place) for name in SUITE_FILES)]


def _assert_judged_on_its_shape(run, claims: set[str]) -> None:
    assert run.report is not None, run.output[-3000:]
    assert not run.report.get("suite_errors"), run.report["suite_errors"]
    assert _suite_places(run) == [], run.report["root_causes"]
    assert _failed(run) == claims, {cid: run.report["claims"][cid] for cid in _failed(run) ^ claims
                                    if cid in run.report["claims"]}


@pytest.mark.heavy
@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "protocol"])
def test_a_cs336_trainer_that_merges_a_pair_again_once_none_is_left_fails_only_the_tables_claims(
        tmp_path, spec_tests, isolated):
    """Seen on a public CS336 solution: its merges list holds a pair twice, so the contract's table has a hole in
    its ids ({(97, 98): 258, (97, 256): 257}). The shape's build_vocab and the swapped oracle's used to raise
    KeyError on it, charged to decode.vocab-order, roundtrip.any-text and special.decode. The hole is the mark of
    the repeat, a merge made with no pair left: train.exhausted alone (spec/table_ids.py; held out, it was also
    train.ids-from-256)."""
    run = run_spec_inline(tmp_path, "--impl", "cs336:tests/course_shapes/cs336_wrong_remerge", "-m", "not corpus",
                          *(["--isolated"] if isolated else []), files=files_of_levels(spec_tests, FED_ON))
    _assert_judged_on_its_shape(run, {"train.exhausted"})


#: Contract-shaped trainers: the oracle's training, right, with its table handed back numbered another way (its
#: parts renamed alike). Every one fails train.ids-from-256, the claim that states the table's form, and nothing else.
ORACLE_TRAINING = """
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401
from spec.oracle import core


def train(text, vocab_size):
    merges = core.train(text, vocab_size)
    named = lambda idx: idx if idx < 256 else returned_id(idx - 256)
    return {(named(left), named(right)): named(idx) for (left, right), idx in merges.items()}
"""
MISNUMBERED = {
    # a hole: 257 is skipped (a port that reserves it), the later ids one up
    "hole": "def returned_id(k):\n    return 256 + k + (k >= 1)\n",
    # a repeated id: the third merge is given the second's id (an off-by-one in one place)
    "repeated": "def returned_id(k):\n    return 256 + k - (k == 2)\n",
    # ids below 256: a port counting new ids from 128, over the bytes' own
    "below-256": "def returned_id(k):\n    return 128 + k\n",
}
@pytest.mark.parametrize("kind", list(MISNUMBERED))
def test_a_trainer_whose_ids_are_not_256_on_fails_only_the_ids_claim(tmp_path, spec_tests, kind):
    impl = tmp_path / f"misnumbered_{kind.replace('-', '_')}.py"
    impl.write_text(ORACLE_TRAINING + "\n\n" + MISNUMBERED[kind], encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "--one-failure-per-claim",
                          files=files_of_levels(spec_tests, FED_ON))
    _assert_judged_on_its_shape(run, {"train.ids-from-256"})


#: Trainers whose result cannot be read as a table at all: the suite's readers (spec/shapes.py ``merges_of``, the
#: session's trained tables) used to raise on it in their own lines.
UNREADABLE = {
    "a-list": "    return list(core.train(text, vocab_size).items())  # the merges as a list of (pair, id)\n",
    "string-keys": "    merges = core.train(text, vocab_size)\n"
                   "    return {f'{a},{b}': idx for (a, b), idx in merges.items()}  # a pair as the key 'a,b'\n",
}


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_a_trainer_whose_table_cannot_be_read_fails_only_the_ids_claim(tmp_path, spec_tests, kind):
    impl = tmp_path / f"unreadable_{kind.replace('-', '_')}.py"
    impl.write_text("from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401\n"
                    "from spec.oracle import core\n\n\ndef train(text, vocab_size):\n"
                    "    core.check_vocab_size(vocab_size)\n" + UNREADABLE[kind], encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "--one-failure-per-claim",
                          files=files_of_levels(spec_tests, FED_ON))
    _assert_judged_on_its_shape(run, {"train.ids-from-256"})


@pytest.mark.heavy
def test_a_contract_trainer_that_merges_a_pair_again_at_count_zero_fails_only_the_tables_claims(
        tmp_path, spec_tests):
    """The same defect in the contract's shape (tests/implementations): its build_vocab is the oracle's, in spec/."""
    impl = REPO_ROOT / "tests" / "implementations" / "wrong_train_merges_at_count_zero.py"
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", files=files_of_levels(spec_tests, FED_ON))
    _assert_judged_on_its_shape(run, {"train.exhausted"})


@pytest.mark.heavy
def test_a_minbpe_class_that_merges_its_first_pair_again_once_none_is_left_fails_only_the_tables_claims(
        tmp_path, spec_tests):
    """minbpe's shape hands the class's own ``merges`` dict on: a pair merged again takes its last id there too,
    and the class's own ``_build_vocab`` would raise KeyError on the hole, inside a test of another claim."""
    source = (REPO_ROOT / "tests/course_shapes/minbpe_right/tokenizer.py").read_text(encoding="utf-8")
    wrong = source.replace("            pair = self._best_pair(stats)\n            if pair is None:\n",
                           "            pair = self._best_pair(stats)\n"
                           "            if pair is None and merges:  # WRONG: the first pair again, at count 0\n"
                           "                pair = next(iter(merges))\n"
                           "            if pair is None:\n")
    assert wrong != source
    (tmp_path / "tokenizer.py").write_text(wrong, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", f"minbpe:{tmp_path / 'tokenizer.py'}:RegexTokenizer", "-m", "not corpus",
                          files=files_of_levels(spec_tests, FED_ON))
    _assert_judged_on_its_shape(run, {"train.exhausted"})


def test_the_course_shapes_translation_refuses_a_table_with_a_hole_saying_so():
    """What the spec never hands on (it fails the table's claim first) the translation still reads without a KeyError
    of its own: the CS336 module's build_vocab says which id names nothing."""
    from bpe_kata.impl.loader import load_implementation

    hole = {(97, 98): 258, (97, 256): 257}  # [(a, b), (a, ab), (a, b)] learned, as the dict keeps it
    with pytest.raises(shape_parts.MalformedResult, match=r"merge \(97, 256\) -> 257: id 256 is neither a byte nor"):
        shape_parts.token_bytes(hole)
    cs336 = load_implementation("cs336:tests/course_shapes/cs336_wrong_remerge")
    assert cs336.train("aab", 259) == hole
    with pytest.raises(shape_parts.MalformedResult, match="id 256 is neither"):
        cs336.build_vocab(hole)


def test_a_course_shapes_refusal_of_what_the_learner_returned_is_the_learners_failure_not_a_suite_error():
    """Held out, sixth round: run_train_bpe returned the merge (b'', b''); the translation's refusal was raised in
    the shape's frame and reported as a suite error, and the 24 claims behind it read "could not run" with no cause
    listed. It is a root cause in the call that returned the value, with the learner's function named."""
    from bpe_kata.impl import course_cs336
    from bpe_kata.verdict import judging

    with pytest.raises(shape_parts.MalformedResult) as refused:
        course_cs336._contract_merges(({}, [(b"a", b"b"), (b"", b"")]))
    verdict = judging.judge(refused.value, ("train.prefix",), None, "")
    assert verdict.kind == judging.ERROR and verdict.call == "train", verdict
    assert "run_train_bpe" in verdict.where and "bpe_kata" not in verdict.where, verdict
    for malformed in (None, ({}, [b"ab"])):
        with pytest.raises(shape_parts.MalformedResult):
            course_cs336._contract_merges(malformed)


def test_every_refusal_a_shape_raises_is_typed_as_whose_it_is():
    """The rule, by inventory: in the shapes' code (bpe_kata/impl), a ValueError, TypeError or KeyError is raised only
    as MalformedResult (the learner's value), ShapeError (the value naming the shape) or one of the few refusals of
    the spec's own input listed here; a plain one would be reported as the suite's error or blamed on a claim."""
    import ast

    inputs = {("course_cs336.py", "TypeError")}  # train(text=...) given a non-str: the contract's own TypeError
    plain = []
    for path in sorted((REPO_ROOT / "bpe_kata" / "impl").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
                name = node.exc.func.id
                if name in ("ValueError", "TypeError", "KeyError") and (path.name, name) not in inputs:
                    plain.append(f"{path.name}:{node.lineno} raises {name}")
    assert plain == [], plain


GET_STATS_RETURNS_NONE_WHEN_EMPTY = '''
from reference import build_vocab, decode, encode, merge, train  # noqa: F401


def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts if ids else None
'''


def test_a_result_the_spec_cannot_read_is_the_calls_failure_and_names_no_file_of_the_suite(tmp_path, capsys):
    """Held out, sixth round: a get_stats that returned None; reading it raised AttributeError in spec/shapes.py, and
    the root cause was placed in bpe_kata/plugin.py, the first frame outside the spec."""
    impl = tmp_path / "impl.py"
    impl.write_text(GET_STATS_RETURNS_NONE_WHEN_EMPTY, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", files=["spec/test_pairs.py"],
                          capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    assert not run.report.get("suite_errors"), run.report["suite_errors"]
    assert _suite_places(run) == [], _suite_places(run)
    [cause] = run.report["root_causes"]
    assert cause["call"] == "get_stats" and cause["where"] == "get_stats (the value it returned)", cause
    assert cause["exception"].startswith("malformed result: a mapping of pairs to counts cannot be read from the "
                                         "NoneType returned"), cause


ENCODE_RETURNS_NONE_WHEN_EMPTY = """
import reference
from reference import build_vocab, decode, get_stats, merge, train  # noqa: F401


def encode(text, merges, **options):
    if not text:
        return None  # a loop that falls through
    return reference.encode(text, merges, **options)
"""


def test_ids_that_cannot_be_iterated_are_the_failure_of_the_call_that_returned_them_not_of_the_next(tmp_path,
                                                                                                   capsys):
    """The spec hands encode's result on to decode as it is (a round trip): decode(None) raised inside decode, a
    second root cause placed in decode and charged to roundtrip.any-text. Refused as encode returns it, it is one
    cause, encode's, probed to the behaviour that returns it (encoding '')."""
    impl = tmp_path / "impl.py"
    impl.write_text(ENCODE_RETURNS_NONE_WHEN_EMPTY, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus",
                          files=["spec/test_encode.py", "spec/test_roundtrip.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    [cause] = run.report["root_causes"]
    assert cause["call"] == "encode" and cause["where"] == "encode (the value it returned)", cause
    assert cause["likely_claim"] == "encode.short-input", cause
    assert "fix first: encode.short-input" in run.output
    assert "encode('', {}) returns it too" in run.output  # it raised nothing: what it returned is the refusal's


def test_an_error_the_implementations_own_generator_raises_while_read_stays_its_own():
    from spec import shapes

    def ids():
        yield 1
        raise KeyError("inside the implementation")

    with pytest.raises(KeyError, match="inside the implementation"):
        shapes.ids_of(ids())
    with pytest.raises(shapes.UnreadableResult):
        shapes.ids_of(None)


def test_no_refusal_of_the_suite_to_read_a_value_passes_a_check_that_expects_the_implementation_to_raise():
    """The rule, by inventory (ninth round, development: a run_train_bpe that returned three values passed
    train.min-vocab's seven pytest.raises(ValueError) checks with the shape's own refusal): every exception the
    spec's checks expect (``pytest.raises(...)`` in spec/), and the shapes' refusals of what a call returned, are
    apart."""
    import ast
    import builtins

    from spec.shapes import UnreadableResult

    expected = set()
    for path in sorted((REPO_ROOT / "spec").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "raises" and node.args:
                names = node.args[0].elts if isinstance(node.args[0], ast.Tuple) else [node.args[0]]
                expected |= {getattr(builtins, n.id) for n in names
                             if isinstance(n, ast.Name) and isinstance(getattr(builtins, n.id, None), type)}
    assert ValueError in expected and KeyError in expected, expected
    expected.discard(Exception)  # "any error will do" (a failed save): the refusal is the call's failure there too
    for refusal in (shape_parts.MalformedResult, UnreadableResult):
        assert not issubclass(refusal, tuple(expected)), (refusal, refusal.__mro__)



def test_a_result_not_of_the_interfaces_form_says_how_many_values_and_is_charged_to_no_claim():
    """Ninth round, development: "must return (vocab, merges), got tuple" did not say the tuple held three values,
    and its root cause was charged to train.starts-afresh, the claim whose tests it happened to explain best."""
    from bpe_kata.impl import course_cs336
    from bpe_kata.verdict import causes, judging
    from bpe_kata.verdict.outcomes import Outcome
    from bpe_kata.verdict.tallies import Results

    with pytest.raises(shape_parts.MalformedResult) as refused:
        course_cs336._contract_merges(({}, [], []))
    message = f"malformed result: {refused.value}"
    assert "a tuple of 3 values" in message and shape_parts.NOT_THE_INTERFACE in message
    results = Results()
    for number in range(3):
        nodeid = f"t::again{number}"
        results.by_test[nodeid] = ("train", ("train.starts-afresh",), Outcome.FAILED)
        results.verdicts[nodeid] = judging.Verdict(judging.ERROR, (), message, "run_train_bpe (the value it returned)",
                                                   message, call="train", calls=("train",))
    assert [cause["likely_claim"] for cause in causes.root_causes(results)] == [None]


def test_a_minbpe_class_that_builds_no_vocab_is_its_build_vocabs_malformed_result(tmp_path):
    """Tenth round, holdout (read after its final classification): ``_build_vocab`` returned None and left ``vocab``
    None; the spec passed it to decode and the shape's ``len()`` of it was a SUITE ERROR. It is the learner's
    build_vocab's malformed result."""
    from bpe_kata.impl import course_shapes, shape_parts

    source = (REPO_ROOT / "tests/course_shapes/minbpe_right/tokenizer.py").read_text(encoding="utf-8")
    broken = source.replace("def _build_vocab(self):", "def _build_vocab(self):\n        self.vocab = None\n"
                            "        return None\n\n    def _unused_build_vocab(self):")
    assert broken != source
    (tmp_path / "tokenizer.py").write_text(broken, encoding="utf-8")
    module = course_shapes.load(f"minbpe:{tmp_path / 'tokenizer.py'}:RegexTokenizer")
    with pytest.raises(shape_parts.MalformedResult, match="_build_vocab returned NoneType"):
        module.build_vocab({(97, 97): 256})


#: Each shape's right solution, the file and the line that starts its encode method, and how the shape is named.
ENCODERS = (
    ("cs336_right", "cs336_basics/tokenizer.py", "    def encode(self, text: str) -> list[int]:\n", "cs336:{}"),
    ("minbpe_right", "tokenizer.py", "    def encode(self, text, allowed_special=\"none_raise\"):\n",
     "minbpe:{}/tokenizer.py:RegexTokenizer"),
    ("map_right", "pair_coder.py", None, "map:{}"),
)


@pytest.mark.parametrize("returned", ["None", "7"])
@pytest.mark.parametrize("folder, file, line, value", ENCODERS, ids=[shape[0] for shape in ENCODERS])
def test_an_encode_that_returns_no_list_is_its_malformed_result_in_every_shape(tmp_path, folder, file, line, value,
                                                                               returned):
    """Eleventh round, development: a minbpe class's encode fell through its loop and returned None; the shape's own
    ``list()`` of it raised a TypeError the report placed nowhere ("raised in ?"). Every shape reads its learner's
    encode result through ``shape_parts.ids_returned``: no list is the learner's malformed result, named."""
    import shutil

    from bpe_kata.impl import loader

    copy = tmp_path / folder
    shutil.copytree(REPO_ROOT / "tests/course_shapes" / folder, copy)
    path = copy / file
    source = path.read_text(encoding="utf-8")
    if line is None:  # the declared shape: its encode method is named in bpe-kata.toml
        line = next(row for row in source.splitlines(keepends=True) if row.lstrip().startswith("def to_ids("))
    indent = line[:len(line) - len(line.lstrip())] + "    "
    broken = source.replace(line, f"{line}{indent}return {returned}\n\n{line.replace('def ', 'def _unused_', 1)}", 1)
    assert broken != source
    path.write_text(broken, encoding="utf-8")
    module = loader.load_implementation(value.format(copy))
    with pytest.raises(shape_parts.MalformedResult, match=f"returned {type(eval(returned)).__name__}, not a list"):
        module.encode("ab", {(97, 98): 256})
