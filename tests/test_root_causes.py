"""Root causes that stay apart through the protocol and adapters (issue 21, kind 4).

The child names the innermost frame of the implementation's own code (docs/PROTOCOL.md,
optional ``type`` and ``frame``); an adapter's frames are skipped for the wrapped library's;
grouping uses type, place, call and the message's shape, so two bugs never read as one.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from bpe_kata.child.client import ImplementationError, IsolatedImplementation, python_path_env, server_command
from bpe_kata.child.handlers import Server
from bpe_kata.impl import frames
from bpe_kata.impl.loader import load_implementation
from bpe_kata.verdict import judging
from bpe_kata.verdict.outcomes import Outcome
from bpe_kata.verdict.tallies import Results
from tests.support import REPO_ROOT, files_of_levels, run_spec_inline

TWO_BUGS = '''
from spec.oracle import build_vocab, encode, get_stats, merge, train as _train
from spec.oracle.core import decode as _decode


def _count_check(ids):
    raise RuntimeError("counting went wrong")


def _lookup(ids, vocab):
    raise RuntimeError("lookup went wrong")


def train(text, vocab_size):
    _count_check([])
    return _train(text, vocab_size)


def decode(ids, vocab):
    return _lookup(ids, vocab)
'''

LIBRARY = '''
def fit(text, size):
    raise RuntimeError("the library failed")
'''

ADAPTER = '''
__bpe_kata_adapter__ = True
import wrapped_lib


def train(text, vocab_size):
    return wrapped_lib.fit(text, vocab_size)
'''


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")


def test_the_server_sends_the_type_and_the_implementations_innermost_frame(tmp_path):
    _write(tmp_path, {"two_bugs.py": TWO_BUGS})
    server = Server(load_implementation(str(tmp_path / "two_bugs.py")), "two_bugs")
    error = server.handle({"id": 1, "op": "train", "args": {"text": "ab", "vocab_size": 300}})["error"]
    assert error["kind"] == "Error" and error["type"] == "RuntimeError"
    assert error["frame"]["function"] == "_count_check" and error["frame"]["file"].endswith("two_bugs.py")
    assert error["frame"]["line"] == 7


def test_every_error_of_a_server_names_its_own_frame_after_the_paths_are_remembered(tmp_path):
    """The server resolves each file once (frames._resolved_absolute); the second error's frame is still its own."""
    _write(tmp_path, {"two_bugs.py": TWO_BUGS})
    server = Server(load_implementation(str(tmp_path / "two_bugs.py")), "two_bugs")
    first = server.handle({"id": 1, "op": "train", "args": {"text": "ab", "vocab_size": 300}})["error"]["frame"]
    again = server.handle({"id": 2, "op": "train", "args": {"text": "ab", "vocab_size": 300}})["error"]["frame"]
    other = server.handle({"id": 3, "op": "decode", "args": {"ids": [1], "vocab": []}})["error"]
    assert first == again and first["function"] == "_count_check"
    assert other["frame"]["function"] != first["function"] and other["frame"]["file"].endswith("two_bugs.py")


def test_a_relative_file_name_is_resolved_from_the_working_folder_of_the_moment(tmp_path, monkeypatch):
    code = compile("raise ValueError", "relative_name.py", "exec")  # a frame whose file name is relative
    try:
        exec(code, {})
    except ValueError as error:
        frame = [f for f, _ in frames._frames(error) if f.f_code.co_filename == "relative_name.py"][0]
    for folder in (tmp_path / "a", tmp_path / "b"):
        folder.mkdir()
        monkeypatch.chdir(folder)
        assert frames._resolved(frame) == (folder / "relative_name.py").resolve()


def test_an_adapters_frames_give_way_to_the_wrapped_librarys(tmp_path, monkeypatch):
    _write(tmp_path, {"wrapped_lib.py": LIBRARY, "adapter.py": ADAPTER})
    monkeypatch.syspath_prepend(str(tmp_path))
    impl = load_implementation(str(tmp_path / "adapter.py"))
    frame = Server(impl, "adapter").handle({"id": 1, "op": "train", "args": {"text": "ab", "vocab_size": 300}})[
        "error"
    ]["frame"]
    assert (frame["function"], Path(frame["file"]).name, frame["line"]) == ("fit", "wrapped_lib.py", 3)
    try:  # in process, the same place
        impl.train("ab", 300)
    except RuntimeError as error:
        verdict = judging.judge(error, ("train.exhausted",), impl, "")
    assert verdict.where.startswith("fit (") and "wrapped_lib.py:3" in verdict.where and verdict.call == "train"


def test_the_shipped_adapters_are_marked():
    from bpe_kata.adapters import _glue, with_tiktoken  # tiktoken: the test extra installs it (through tables)
    for module in (_glue, with_tiktoken):
        assert module.__bpe_kata_adapter__ is True


@pytest.mark.parametrize("library", ["bpeasy", "rustbpe", "tokenizers"])
def test_the_matrix_adapters_are_marked(library):
    import importlib

    # Only the matrix extra installs these libraries: skipped, with the reason, where it is not installed.
    pytest.importorskip(library, reason=f"{library} is not installed (pip install -e '.[matrix]')")
    assert importlib.import_module(f"bpe_kata.adapters.with_{library}").__bpe_kata_adapter__ is True


def test_the_client_keeps_the_childs_type_frame_and_call(tmp_path):
    _write(tmp_path, {"two_bugs.py": TWO_BUGS})
    impl = IsolatedImplementation(server_command(str(tmp_path / "two_bugs.py")), env=python_path_env()).connect()
    try:
        with pytest.raises(ImplementationError) as caught:
            impl.decode([1], {1: b"a"})
    finally:
        impl.close()
    verdict = judging.judge(caught.value, ("decode.vocab-order",), impl, "")
    assert verdict.root_cause == "RuntimeError: lookup went wrong" and verdict.call == "decode"
    assert verdict.where.startswith("_lookup (") and "two_bugs.py:11" in verdict.where


def _results(*verdicts: judging.Verdict) -> Results:
    results = Results()
    for number, verdict in enumerate(verdicts):
        nodeid = f"spec/test_x.py::test_{number}"
        results.by_test[nodeid] = ("train", ("train.exhausted",), Outcome.FAILED)
        results.verdicts[nodeid] = verdict
    return results


def _error(cause: str, where: str = "?", call: str = "") -> judging.Verdict:
    return judging.Verdict(judging.ERROR, (), cause, where, cause, call)


def test_two_bugs_without_a_place_stay_two_causes_each_with_its_own_message():
    """An old server sends no frame: every place is "?", and the messages tell the bugs apart (their data does not)."""
    causes = _results(_error("ImplementationError: train: RuntimeError: a at 3"), _error("ImplementationError: train: "
                      "KeyError: 7"), _error("ImplementationError: train: RuntimeError: a at 4")).root_causes()
    assert sorted((c["exception"], c["count"]) for c in causes) == [
        ("ImplementationError: train: KeyError: 7", 1), ("ImplementationError: train: RuntimeError: a at 3", 2)]


def test_one_bug_seen_with_other_data_stays_one_cause_listing_its_messages_and_another_call_splits_it():
    same = [_error(f"UnicodeDecodeError: can't decode byte 0x{b:x} in position {b}", "decode (bpe.py:3)", "decode")
            for b in (128, 255)]
    (cause,) = _results(*same).root_causes()
    assert cause["count"] == 2 and cause["messages"] == [v.root_cause for v in same]
    other_call = _error("UnicodeDecodeError: can't decode byte 0x80 in position 1", "decode (bpe.py:3)", "encode")
    assert sorted(c["call"] for c in _results(*same, other_call).root_causes()) == ["decode", "encode"]


@pytest.mark.parametrize("where", ["?", "? (minbpe_cpp.py:30, the adapter's own line)"])
def test_errors_where_the_place_says_nothing_stay_apart_by_their_wording(where):
    """Outside finding F13: three crashes of a program behind one adapter line (or a child that sends no
    frame), two of them in the same call: three causes, each with its own message."""
    causes = _results(_error("RuntimeError: get_stats read out of bounds", where, "get_stats"),
                      _error("RuntimeError: no pair left at step 3", where, "train"),
                      _error("RuntimeError: vocab_size below 256: 100", where, "train"),
                      _error("RuntimeError: no pair left at step 9", where, "train")).root_causes()
    assert sorted((c["exception"], c["count"]) for c in causes) == [
        ("RuntimeError: get_stats read out of bounds", 1), ("RuntimeError: no pair left at step 3", 2),
        ("RuntimeError: vocab_size below 256: 100", 1)]


@pytest.mark.heavy
def test_a_gate_run_through_the_protocol_names_both_bugs_at_their_own_lines(tmp_path, spec_tests, capsys):
    _write(tmp_path, {"two_bugs.py": TWO_BUGS})
    run = run_spec_inline(tmp_path, "--impl", str(tmp_path / "two_bugs.py"), "--isolated", "--level", "decode",
                          "-m", "not corpus", files=files_of_levels(spec_tests, ("train", "decode")), capsys=capsys)
    causes = {c["exception"]: c for c in run.report["root_causes"]}
    assert set(causes) == {"RuntimeError: counting went wrong", "RuntimeError: lookup went wrong"}, list(causes)
    assert "two_bugs.py:7" in causes["RuntimeError: counting went wrong"]["where"]
    assert "two_bugs.py:11" in causes["RuntimeError: lookup went wrong"]["where"]
    assert causes["RuntimeError: lookup went wrong"]["call"] == "decode"


def test_the_js_solution_sends_a_frame_with_its_errors():
    node = subprocess.run(["node", "--version"], capture_output=True)
    if node.returncode:
        pytest.skip("node is not installed")
    requests = [{"id": 0, "op": "hello", "args": {"protocol": 1}},
                {"id": 1, "op": "train", "args": {"text": "ab", "vocab_size": 100}}]
    out = subprocess.run(["node", "solutions/js/bpe.mjs"], input="".join(json.dumps(r) + "\n" for r in requests),
                         capture_output=True, text=True, cwd=REPO_ROOT, timeout=60).stdout
    error = json.loads(out.splitlines()[1])["error"]
    assert error["kind"] == "ValueError" and error["frame"]["file"].startswith("solutions/js/")
    assert isinstance(error["frame"]["line"], int)


def test_a_child_without_a_frame_is_placed_by_its_message_or_nowhere_never_in_the_spec():
    """Outside finding F10: a panic's message names its file:line; the spec's own fixture is never the place."""
    panic = ImplementationError("train: thread 'main' panicked at src/main.rs:134:20: called `Option::unwrap()`")
    panic.bpe_kata_call, panic.bpe_kata_type, panic.bpe_kata_frame = "train", None, None
    plain = ImplementationError("train: vocab_size must be at least 256")
    plain.bpe_kata_call, plain.bpe_kata_type, plain.bpe_kata_frame = "train", None, None
    verdicts = []
    for error in (panic, plain):
        try:
            raise error
        except ImplementationError as raised:
            verdicts.append(judging.judge(raised, ("train.exhausted",), None, ""))
    assert [v.where for v in verdicts] == ["? (src/main.rs:134)", "?"]


HELPER = '''
from spec.oracle import build_vocab, decode, encode, get_stats, merge, train as _train


def crash(message):
    raise RuntimeError(message)


def train(text, vocab_size):
    if vocab_size < 256:
        crash("vocab_size below 256")
    if len(text) < 3:
        crash("no pair left")
    return _train(text, vocab_size)
'''


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "protocol"])
def test_one_helper_raising_for_two_bugs_is_two_places(tmp_path, isolated):
    """Outside finding F13's repro: the place names the implementation's own callers of the helper."""
    _write(tmp_path, {"helper.py": HELPER})
    impl = load_implementation(str(tmp_path / "helper.py"))
    if isolated:
        impl = IsolatedImplementation(server_command(str(tmp_path / "helper.py")), env=python_path_env()).connect()
    verdicts = []
    try:
        for args in (("abc", 100), ("ab", 300)):
            try:
                impl.train(*args)
            except Exception as error:
                verdicts.append(judging.judge(error, ("train.exhausted",), impl, ""))
    finally:
        if isolated:
            impl.close()
    first, second = (v.where for v in verdicts)
    assert first.startswith("crash (") and " from train (" in first and "helper.py:11" in first, first
    assert "helper.py:13" in second and first != second
    assert len(_results(*verdicts).root_causes()) == 2


def test_an_adapter_that_raises_itself_gives_no_place_of_its_own(tmp_path):
    """The wrapped code (a program behind a CLI, say) has no Python frame: the adapter's line says nothing."""
    _write(tmp_path, {"cli_adapter.py": "__bpe_kata_adapter__ = True\n\n\ndef train(text, vocab_size):\n"
                                        "    raise RuntimeError('the program crashed: status -11')\n"})
    impl = load_implementation(str(tmp_path / "cli_adapter.py"))
    with pytest.raises(RuntimeError) as caught:
        impl.train("ab", 300)
    verdict = judging.judge(caught.value, ("train.exhausted",), impl, "")
    assert verdict.where.startswith("? (") and "the adapter's own line" in verdict.where and verdict.call == "train"


def _error_in(nodeid: str, level: str, claims: tuple[str, ...], cause: str, where: str, call: str) -> tuple:
    return nodeid, level, claims, judging.Verdict(judging.ERROR, (), cause, where, cause, call, calls=(call,))


def test_one_bug_split_by_what_hypothesis_drew_keeps_one_likely_claim_and_hides_nothing():
    """Coordinator note (round 2): a strict decode whose errors fall into two causes (a second exception type or
    place for one drawn example) gave the smaller cause the likely claim decode.join-then-decode, which then made
    the real decode.replace-128 "not judged". The smaller cause's tests carry decode.replace-128 too: the bug seen
    twice is the likelier reading, whichever examples were drawn."""
    results = Results()
    rows = [_error_in("t::case128", "decode", ("decode.replace-128",), "UnicodeDecodeError: x", "decode (b.py:5)",
                      "decode"),
            _error_in("t::anybytes", "decode", ("decode.replace-128",), "UnicodeDecodeError: y", "decode (b.py:5)",
                      "decode"),
            _error_in("t::lookup", "decode", ("decode.join-then-decode", "decode.replace-128"),
                      "ExceptionGroup: two errors", "decode (b.py:5)", "decode")]
    for nodeid, level, claims, verdict in rows:
        results.by_test[nodeid] = (level, claims, Outcome.FAILED)
        results.verdicts[nodeid] = verdict
    assert len(results.root_causes()) == 2
    assert {c["likely_claim"] for c in results.root_causes()} == {"decode.replace-128"}
    assert results.broken_claims() == {"decode.replace-128": "root cause"} and results.not_judged() == {}


def test_a_crash_when_no_pair_is_left_is_blamed_on_its_own_worked_case_not_on_many_claim_tests_or_chunking():
    """A minbpe-style trainer (``max()`` over no pairs) reached through the minbpe course shape: the worked cases
    of exhaustion raise, and so do many-claim property tests listing train.ids-from-256 and tests of the chunking
    claims (which rest on train's). The score once tied train.ids-from-256 with train.exhausted and ledger order
    chose the former; with each test's vote shared among the claims it lists, and a prerequisite preferred among
    claims whose own tests raised, it is train.exhausted."""
    where, error = "train (regex.py:56)", "ValueError: max() arg is an empty sequence"
    many = ("train.tie-recorded", "train.ids-from-256", "train.no-early-stop", "bytes.no-normalization")
    rows = [_error_in(f"t::exhausted{k}", "train", ("train.exhausted",), error, where, "train") for k in range(3)]
    rows += [_error_in(f"t::property{k}", "train", many, error, where, "train") for k in range(6)]
    rows += [_error_in(f"t::chunks{k}", "regex", ("regex.gpt2-chunks",), error, where, "train") for k in range(8)]
    results = Results()
    for nodeid, level, claims, verdict in rows:
        results.by_test[nodeid] = (level, claims, Outcome.FAILED)
        results.verdicts[nodeid] = verdict
    for k in range(3):  # train.ids-from-256 holds where training never runs out of pairs
        results.by_test[f"t::fine{k}"] = ("train", ("train.ids-from-256",), Outcome.PASSED)
    assert [c["likely_claim"] for c in results.root_causes()] == ["train.exhausted"]
