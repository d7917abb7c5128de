"""The work ``check`` and ``gate`` share instead of redoing (issue 27): the disk caches of values
the spec computes for itself (bpe_kata/data/value_cache.py and its users) and the pipelined calls
of one child (bpe_kata/child/pipeline.py). Each test can fail for a cache that
serves a stale or corrupted value, or a pipeline that changes what the calls answer."""

from __future__ import annotations

import sys
import textwrap

import pytest

from bpe_kata.child.client import CallTimedOut, ChildExited, IsolatedImplementation, ProtocolError
from bpe_kata.data import corpus_tables, pretrained, tiktoken_tables, value_cache

# --- value_cache ---------------------------------------------------------------------------------


def test_a_stored_value_is_read_back_and_not_computed_again(tmp_path):
    calls = []
    compute = lambda: calls.append(1) or {"ids": [1, 2, 3], "name": "x"}  # noqa: E731
    first = value_cache.cached("kind", "key", compute, lambda v: True, folder=tmp_path)
    second = value_cache.cached("kind", "key", compute, lambda v: True, folder=tmp_path)
    assert first == second == {"ids": [1, 2, 3], "name": "x"} and calls == [1]


@pytest.mark.parametrize("damage", ["flip a payload byte", "truncate", "another magic", "empty"])
def test_a_corrupted_file_is_computed_again_and_rewritten(tmp_path, damage):
    value_cache.cached("kind", "key", lambda: [10, 20, 30], lambda v: True, folder=tmp_path)
    path = value_cache.path_of("kind", "key", tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip a payload byte":
        data[-2] ^= 0x01
    elif damage == "truncate":
        del data[-3:]
    elif damage == "another magic":
        data[0:3] = b"xyz"
    else:
        data.clear()
    path.write_bytes(bytes(data))
    assert value_cache.read(path) is None
    assert value_cache.cached("kind", "key", lambda: [1, 2], lambda v: True, folder=tmp_path) == [1, 2]
    assert value_cache.read(path) == [1, 2]  # rewritten


def test_an_intact_file_of_the_wrong_shape_is_computed_again(tmp_path):
    value_cache.write(value_cache.path_of("kind", "key", tmp_path), ["not", "ids"])
    ids = lambda v: type(v) is list and value_cache.all_of(v, int)  # noqa: E731
    assert value_cache.cached("kind", "key", lambda: [7], ids, folder=tmp_path) == [7]


def test_the_key_changes_with_every_input_and_its_boundaries():
    assert len({value_cache.key_of("a", "bc"), value_cache.key_of("ab", "c"), value_cache.key_of("a", "bd"),
                value_cache.key_of("a", "bc", "")}) == 4


def test_all_of_does_not_take_bool_for_int():
    assert value_cache.all_of([1, 2], int) and not value_cache.all_of([1, True], int)


# --- the caches' users ---------------------------------------------------------------------------


def test_a_stored_replay_is_used_only_when_it_spells_the_corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text, merges = "abab ab", [((97, 98), 256)]
    right = [256, 256, 32, 256]
    assert corpus_tables.replayed("toy", text, merges, lambda: right) == right
    # a stored sequence that does not spell the text (another table's replay, a hand edit) is replaced
    for path in tmp_path.rglob("replay-*.bin"):
        value_cache.write(path, [256, 256, 32, 97])
    assert corpus_tables.replayed("toy", text, merges, lambda: right) == right
    # another text is another key: never the first text's ids
    assert corpus_tables.replayed("toy", "abab", merges, lambda: [256, 256]) == [256, 256]


def test_a_stored_published_table_must_have_the_tables_shape():
    merges = [(97, 98), (256, 99)]
    good = (merges, {"<|x|>": 300}, list(range(258)), [bytes([b]) for b in range(256)] + [b"ab", b"abc"])
    assert pretrained._is_table_data(good)
    assert not pretrained._is_table_data((merges, {"<|x|>": 300}, list(range(257)), good[3]))  # one id short
    assert not pretrained._is_table_data((merges, {"<|x|>": "300"}, good[2], good[3]))
    assert not pretrained._is_table_data((merges + [(1,)], good[1], good[2] + [0], good[3] + [b"z"]))


class FakeEncoding:
    """A stand-in for tiktoken's Encoding: one id per byte."""

    n_vocab = 256

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, text: str, **policy) -> list[int]:
        self.calls += 1
        return list(text.encode("utf-8"))

    def decode_bytes(self, ids: list[int]) -> bytes:
        return bytes(ids)


def test_a_remembered_tiktoken_encoding_is_checked_against_the_text(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tiktoken_tables, "REMEMBERED_CHARS", 4)
    fake = FakeEncoding()
    remembered = tiktoken_tables.RememberedEncoding(fake, "test-key")
    assert remembered.encode("hello") == list(b"hello") and fake.calls == 1
    assert remembered.encode("hello") == list(b"hello") and fake.calls == 1  # read back
    for path in tmp_path.rglob("tiktoken-ids-*.bin"):
        value_cache.write(path, list(b"jello"))  # ids of another text under the same name
    assert remembered.encode("hello") == list(b"hello") and fake.calls == 2
    assert remembered.encode("hi") == list(b"hi") and fake.calls == 3  # short texts: tiktoken every time
    assert remembered.encode("hello", allowed_special="all") == list(b"hello") and fake.calls == 4


# --- pipelined calls -----------------------------------------------------------------------------

#: A child speaking the protocol: encode answers the text's length; "boom" is a ValueError,
#: "hang" never answers, "swap" answers with the next request's id, "exit" exits.
CHILD = textwrap.dedent("""
    import json, sys, time
    for line in sys.stdin:
        request = json.loads(line)
        op, args, rid = request["op"], request["args"], request["id"]
        text = args.get("text")
        if op == "hello":
            result = {"protocol": 1, "name": "toy", "version": None, "features": ["encode"]}
        elif text == "exit":
            sys.exit(3)
        elif text == "boom":
            print(json.dumps({"id": rid, "ok": False, "error": {"kind": "ValueError", "message": "boom"}}), flush=True)
            continue
        elif text == "hang":
            time.sleep(30)
        if text == "swap":
            rid += 1
        if op == "encode":
            result = [len(text)]
        print(json.dumps({"id": rid, "ok": True, "result": result}), flush=True)
""")


def toy(call_timeout: float = 10.0) -> IsolatedImplementation:
    return IsolatedImplementation([sys.executable, "-I", "-S", "-c", CHILD], call_timeout=call_timeout).connect()


def test_pipelined_calls_answer_as_calls_one_by_one():
    with toy() as impl:
        texts = [f"t{'x' * k}" for k in range(150)]  # more than the window in flight
        assert list(impl.encode_each(texts, {})) == [impl.encode(text, {}) for text in texts] == [
            [len(text)] for text in texts]
        assert impl.child.process is not None  # all answered: the same child goes on


def test_an_error_answer_is_raised_at_its_call_and_the_child_with_calls_in_flight_replaced():
    with toy() as impl:
        answers = impl.encode_each(["a", "bb", "boom", "cccc", "dd"], {})
        assert next(answers) == [1] and next(answers) == [2]
        with pytest.raises(ValueError, match="boom"):
            next(answers)
        assert impl.child.process is None  # its answers to "cccc" and "dd" are not wanted
        assert impl.encode("abc", {}) == [3]  # a new child answers the next call


def test_stopping_early_replaces_the_child_and_the_next_call_gets_its_own_answer():
    with toy() as impl:
        answers = impl.encode_each(["a"] * 40, {})
        assert next(answers) == [1]
        answers.close()
        assert impl.child.process is None
        assert impl.encode("abcd", {}) == [4]


def test_faults_in_a_pipeline_are_the_faults_of_one_call():
    with toy(call_timeout=0.3) as impl:
        with pytest.raises(CallTimedOut):
            list(impl.encode_each(["a", "hang", "b"], {}))
        with pytest.raises(ProtocolError, match="expected the answer to request"):
            list(impl.encode_each(["a", "swap", "b"], {}))
        assert impl.encode("ab", {}) == [2]


def test_a_child_that_exits_mid_pipeline_has_crashed_at_the_call_under_way():
    with toy() as impl:
        answers = impl.encode_each(["a", "exit", "b"], {})
        assert next(answers) == [1]
        with pytest.raises(ChildExited, match="exited without answering"):
            next(answers)

