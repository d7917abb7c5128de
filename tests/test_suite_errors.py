"""The suite's own errors are the suite's (issue 37, kind 3).

The rule (bpe_kata/verdict/judging.py ``_suite_raised``): an error is the implementation's only with evidence, its
innermost frame that is not a library's (nor the oracle's or the protocol client's) being the implementation's
code, or the protocol child having sent it. An error raised by a spec helper or the runner is a SUITE ERROR:
reported apart, charged to no claim, and the run exits ``run_status.SUITE_ERROR``.
"""

from __future__ import annotations

import types

import pytest

import reference
import spec.compare
from bpe_kata.verdict import judging, run_status
from bpe_kata.verdict.judging import PACKAGE_DIR, SPEC_DIR
from tests.support import REPO_ROOT, run_spec_inline


def _raised_in(filename: str, source: str, name: str, *args):
    """The error ``name(*args)`` raises, its code compiled as if it were written in ``filename``."""
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    try:
        namespace[name](*args)
    except Exception as error:  # noqa: BLE001
        return error
    raise AssertionError("did not raise")


HELPER = "def helper(data):\n    return data.decode('utf-8')\n"


def test_a_spec_helpers_unicode_error_is_the_suites_not_the_implementations():
    error = _raised_in(str(SPEC_DIR / "helpers_of_a_test.py"), HELPER, "helper", b"\xff")
    verdict = judging.judge(error, ("bytes.examples",), reference, "")
    assert verdict.kind == judging.SUITE and "helpers_of_a_test.py" in verdict.where
    assert verdict.blamed == ()


def test_a_fixtures_own_error_is_the_suites():
    error = _raised_in(str(PACKAGE_DIR / "run" / "data_fixtures.py"), "def trained(x):\n    return x['table']\n",
                       "trained", {})
    assert judging.judge(error, ("train.prefix",), reference, "").kind == judging.SUITE


def test_an_error_the_implementation_raised_stays_the_implementations():
    """Its own file, and a helper of the oracle it borrows (its namespace holds the helper)."""
    implementation = types.ModuleType("learner")
    error = _raised_in(str(REPO_ROOT / "learner_code.py"), "def train(text, size):\n    return max({})\n",
                       "train", "", 300)
    assert judging.judge(error, ("train.exhausted",), implementation, "").kind == judging.ERROR
    from spec.oracle import core
    implementation.get_stats = core.get_stats
    try:
        core.get_stats(None)
    except TypeError as borrowed:
        assert judging.judge(borrowed, ("pairs.short-input",), implementation, "").kind == judging.ERROR


def test_a_result_the_suite_cannot_read_is_the_implementations():
    """An encode that returns None fails in spec/shapes.py: the implementation's result, not the suite."""
    from spec.shapes import UnreadableResult, ids_of

    with pytest.raises(UnreadableResult) as refused:
        ids_of(None)
    assert judging.judge(refused.value, ("bytes.examples",), reference, "").kind == judging.ERROR


def test_a_run_where_the_suite_raised_says_so_charges_no_claim_and_exits_suite_error(tmp_path, capsys, monkeypatch):
    broken = compile("def expect_equal(actual, expected, what='result', *, merges=None):\n"
                     "    b'\\xff'.decode('utf-8')\n", str(SPEC_DIR / "compare.py"), "exec")
    namespace: dict = {}
    exec(broken, namespace)
    monkeypatch.setattr(spec.compare.expect_equal, "__code__", namespace["expect_equal"].__code__)
    run = run_spec_inline(tmp_path, "--impl", "reference", "-k", "empty_table_encodes", files=["spec/test_bytes.py"],
                          capsys=capsys)
    assert run.returncode == run_status.SUITE_ERROR, run.output[-2000:]
    assert run.report["suite_errors"] and run.report["suite_errors"][0]["exception"].startswith("UnicodeDecodeError")
    assert run.report["root_causes"] == []
    assert not [c for c, row in run.report["claims"].items() if row["status"] == "failed"]
    assert "SUITE ERROR: UnicodeDecodeError" in run.output


#: A port whose new ids start at 500 (its base vocabulary is larger): the decode tests read its trained table.
IDS_FROM_500 = '''
from spec.oracle.core import decode, encode, get_stats, merge  # noqa: F401
from spec.oracle import core


def train(text, vocab_size):
    return {pair: idx + 244 for pair, idx in core.train(text, vocab_size).items()}


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab.get(a, b"?") + vocab.get(b, b"?")
    return vocab
'''


def test_a_trained_table_the_suite_cannot_read_fails_the_claim_that_states_its_form(tmp_path, capsys):
    """Dev half of the outside corpus: ports counting ids from 128 or 500 made the oracle's build_vocab raise
    inside the spec's decode tests (a suite error, exit 6). The table is the implementation's value: its form
    is checked first, under train.ids-from-256, and nothing is the suite's."""
    impl = tmp_path / "port.py"
    impl.write_text(IDS_FROM_500, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", files=["spec/test_decode.py"],
                          capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    assert run.returncode != run_status.SUITE_ERROR and not run.report["suite_errors"], run.output[-2000:]
    assert run.report["claims"]["train.ids-from-256"]["status"] == "failed", run.report["claims"]["train.ids-from-256"]


def test_an_assert_of_code_under_test_outside_its_folder_is_its_error_not_the_specs(tmp_path, capsys):
    """Dev half of the outside corpus: an adapter in one folder over an upstream in another; the upstream's own
    ``assert`` (vocab size too small) was taken for the spec's check and blamed on every claim of the test.
    An assertion is the spec's only when raised in the spec's own code."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    (upstream / "tok.py").write_text(
        "from spec.oracle import core\n\n\n"
        "def fit(text, size):\n"
        "    assert len(text) > 0, 'no text to learn from'\n"
        "    return core.train(text, size)\n", encoding="utf-8")
    adapter = tmp_path / "adapter" / "port.py"
    adapter.parent.mkdir()
    adapter.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(upstream)!r})\n"
        "from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401\n"
        "import tok\n\n\n"
        "def train(text, vocab_size):\n"
        "    if vocab_size < 256:\n"
        "        raise ValueError('vocab_size must be at least 256')\n"
        "    return tok.fit(text, vocab_size)\n", encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(adapter), "-m", "not corpus", "-k", "not case",
                          files=["spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    causes = [c for c in run.report["root_causes"] if c["exception"].startswith("AssertionError")]
    assert causes and "port.py" in causes[0]["where"], run.report["root_causes"]
    assert causes[0]["likely_claim"] == "train.exhausted", causes[0]


#: A trainer that learns nothing: every test that reads a fixed id of its table meets a table without it.
LEARNS_NOTHING = '''
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401


def train(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size must be at least 256")
    return {}
'''


@pytest.mark.heavy
def test_a_trainer_that_learns_nothing_meets_no_suite_error_in_the_whole_spec(tmp_path, capsys):
    """The corpus tests read fixed ids (Alice's first twelve merges, Shakespeare's 257 and 273): a table that
    lacks them is a failed check of the claim that says how many merges training makes, never exit 6."""
    impl = tmp_path / "port.py"
    impl.write_text(LEARNS_NOTHING, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    assert not run.report["suite_errors"], run.report["suite_errors"]
    assert run.report["claims"]["train.no-early-stop"]["status"] == "failed"


BYTES_ONLY_VOCAB = '''
from reference import decode, encode, get_stats, merge, train  # noqa: F401


def build_vocab(merges, special_tokens=None):
    """The 256 bytes and the specials, but no merge's id."""
    vocab = {idx: bytes([idx]) for idx in range(256)}
    vocab.update((idx, text.encode("utf-8")) for text, idx in (special_tokens or {}).items())
    return vocab
'''


def test_a_vocab_without_an_id_the_spec_reads_fails_a_check_never_the_suite(tmp_path, capsys):
    """Tenth round, development: a class whose vocab lacked the merges' ids raised KeyError where the spec indexed
    it (ops_core.py, test_pretrained.py), three suite errors and exit 6. The rule: the spec reads a vocab the
    implementation built through ``spec.shapes.token_at``, where a missing id is a value no check accepts."""
    from spec.shapes import MissingId, token_at

    assert isinstance(token_at({}, 256), MissingId) and token_at({256: bytearray(b"ab")}, 256) == b"ab"
    impl = tmp_path / "bytes_only.py"
    impl.write_text(BYTES_ONLY_VOCAB, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus",
                          files=["spec/test_decode.py", "spec/test_special.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    assert not run.report["suite_errors"], run.report["suite_errors"]
    assert run.report["claims"]["decode.vocab-order"]["status"] == "failed", run.report["claims"]["decode.vocab-order"]
