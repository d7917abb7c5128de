"""``encode_batch`` (docs/PROTOCOL.md, "Batches"): many short encodes in one request where the child
offers it, with the same answers, errors and faults, each at its own text, as one call per text.
Each test can fail for a client that judges a batch's answer differently from the calls it stands
for, or a server whose batch answers differ from its single calls."""

from __future__ import annotations

import sys
import textwrap

import pytest

from bpe_kata.child import client as child_client
from bpe_kata.child.client import CallTimedOut, ChildExited, IsolatedImplementation, ProtocolError, server_command

#: A child speaking the protocol that offers batches: encode answers the text's length; "boom" is a
#: ValueError, "hang" never answers, "exit" exits; a batch holding "short" answers one result too few.
#: Every request's op goes to stderr, so a test can count the batches and the single calls.
CHILD = textwrap.dedent("""
    import json, sys, time
    def encode(text):
        if text == "exit":
            sys.exit(3)
        if text == "hang":
            time.sleep(30)
        if text == "boom":
            raise ValueError("boom")
        return [len(text)]
    for line in sys.stdin:
        request = json.loads(line)
        op, args, rid = request["op"], request["args"], request["id"]
        print(op, file=sys.stderr, flush=True)
        try:
            if op == "hello":
                result = {"protocol": 1, "name": "toy", "version": None, "features": ["encode"], "batch": ["encode"]}
            elif op == "encode":
                result = encode(args["text"])
            else:
                result = [encode(text) for text in args["texts"]]
                if "short" in args["texts"]:
                    result.pop()
        except ValueError as error:
            print(json.dumps({"id": rid, "ok": False, "error": {"kind": "ValueError", "message": str(error)}}),
                  flush=True)
            continue
        print(json.dumps({"id": rid, "ok": True, "result": result}), flush=True)
""")


def toy(call_timeout: float = 10.0) -> IsolatedImplementation:
    return IsolatedImplementation([sys.executable, "-I", "-S", "-c", CHILD], call_timeout=call_timeout).connect()


def ops_received(impl: IsolatedImplementation) -> list[str]:
    return [line for line in impl.child.log_since(0).splitlines() if not line.startswith("---")]


def test_batches_answer_as_one_call_per_text_in_far_fewer_requests():
    with toy() as impl:
        assert impl.batched == ("encode",)
        texts = [f"t{'x' * (k % 13)}" for k in range(3000)]
        assert list(impl.encode_each(texts, {})) == [[len(text)] for text in texts]
        ops = ops_received(impl)
        assert "encode" not in ops and 1 < ops.count("encode_batch") < 20  # batches grow while they are quick


def test_an_error_in_a_batch_is_raised_at_its_own_text_after_the_answers_before_it():
    with toy() as impl:
        answers = impl.encode_each(["a", "bb", "boom", "cccc"], {})
        assert next(answers) == [1] and next(answers) == [2]
        with pytest.raises(ValueError, match="boom"):
            next(answers)
        assert ops_received(impl)[-3:] == ["encode", "encode", "encode"]  # the batch was asked again, one by one


def test_a_crash_in_a_batch_is_the_crash_of_the_call_that_made_it():
    with toy() as impl:
        answers = impl.encode_each(["a", "exit", "b"], {})
        assert next(answers) == [1]  # asked again alone in a new child, after the batch's crash
        with pytest.raises(ChildExited, match="exited without answering"):
            next(answers)
        assert impl.encode("xyz", {}) == [3]


def test_a_batch_that_hangs_is_given_up_and_the_call_that_hangs_times_out_on_its_own(monkeypatch):
    monkeypatch.setattr(child_client, "BATCH_LIMIT", 0.3)
    with toy(call_timeout=1.0) as impl:
        answers = impl.encode_each(["a", "hang", "b"], {})
        assert next(answers) == [1]
        with pytest.raises(CallTimedOut):
            next(answers)
        assert impl.encode("ab", {}) == [2]


def test_a_batch_answer_with_a_result_missing_is_a_protocol_error():
    with toy() as impl:
        with pytest.raises(ProtocolError, match="expected an array of 3 results"):
            list(impl.encode_each(["a", "short", "b"], {}))


def test_a_child_whose_hello_names_no_batch_gets_one_call_per_text():
    with toy() as impl:
        impl.batched = ()  # as after a hello without "batch"
        assert list(impl.encode_each(["a", "bb"], {})) == [[1], [2]]
        assert ops_received(impl)[-2:] == ["encode", "encode"]


# --- the shipped server ---------------------------------------------------------------------------


def test_the_shipped_server_offers_batches_and_answers_them_as_its_single_calls():
    with IsolatedImplementation(server_command("reference")).connect() as impl:
        assert impl.batched == ("encode",)
        merges = {(97, 98): 256, (256, 99): 257, (257, 257): 258}
        texts = ["abcabc", "", "ab", "héllo", "\ud800x", "abcabcabcabc"] * 40
        assert list(impl.encode_each(texts, merges)) == [impl.encode(text, merges) for text in texts]
        with pytest.raises(ValueError):  # a bad table fails each call, so the batch, then the first call
            list(impl.encode_each(["ab", "abc"], {(97, 98): 255}))


def test_the_shipped_server_refuses_a_malformed_batch():
    import reference
    from bpe_kata.child.handlers import NotServed, Server

    server = Server(reference, "reference")
    with pytest.raises(NotServed, match="takes texts"):
        server.dispatch("encode_batch", {"texts": "ab", "merges": []})
    with pytest.raises(NotServed, match="takes texts"):
        server.dispatch("encode_batch", {"texts": ["ab"], "merges": [], "pattern": None})
    assert server.dispatch("encode_batch", {"texts": ["ab", "b"], "merges": [[97, 98, 256]]}) == [[256], [98]]


def test_every_message_of_a_batched_exchange_fits_the_protocol_schema(tmp_path):
    from tests.support import REPO_ROOT
    from tests.test_schemas import _messages, _protocol_errors

    with IsolatedImplementation([sys.executable, str(REPO_ROOT / "tests" / "protocol_tee.py"), str(tmp_path),
                                   "reference"]).connect() as impl:
        big = {(97 + k % 20, 97 + k // 20): 256 + k for k in range(300)}  # defined once, then sent as a reference
        texts = ["abc", "\ud800\udc00", "hello"] * 20
        assert list(impl.encode_each(texts, big)) == [impl.encode(text, big) for text in texts]
        with pytest.raises(ValueError):
            list(impl.encode_each(["ab"], {(97, 98): 255}))
    messages = _messages(tmp_path)
    assert {"encode_batch", "define", "encode"} <= {op for direction, _, op in messages if direction == ">"}
    bad = [(direction, str(message)[:200], errors) for direction, message, op in messages
           if (errors := _protocol_errors(direction, message, op))]
    assert not bad, bad[:5]


def test_a_batch_over_a_defined_table_answers_and_refuses_as_its_single_calls():
    """The server looks the table, the function and its signature up once per batch: the answers, a changed
    table (reported, and put back) and a signature that cannot take the call stay those of single calls."""
    import reference
    from bpe_kata.child import protocol
    from bpe_kata.child.handlers import NotServed, Server

    table = [[97, 98, 256], *([256 + k, 99, 257 + k] for k in range(299))]
    texts = ["abcc", "", "ab" * 50, "\ud800", {"code_points": [0xD800, 0xDC00]}, "abccc" * 9]
    server = Server(reference, "reference")
    server.dispatch("define", {"name": "t", "kind": "merges", "value": table})
    assert server.dispatch("encode_batch", {"texts": texts, "merges": {"ref": "t"}}) == [
        server.dispatch("encode", {"text": text, "merges": {"ref": "t"}}) for text in texts]

    calls = []

    def encode(text, merges):
        calls.append(text)
        if len(calls) == 2:
            merges.pop((97, 98))
        return [1]

    changing = Server(type("M", (), {"encode": staticmethod(encode)})(), "m")
    changing.dispatch("define", {"name": "t", "kind": "merges", "value": table})
    with pytest.raises(NotServed) as refused:
        changing.dispatch("encode_batch", {"texts": ["a", "b", "c"], "merges": {"ref": "t"}})
    assert refused.value.kind == protocol.CHANGED_INPUT and calls == ["a", "b"]
    assert (97, 98) in changing.definitions["t"][0]

    narrow = Server(type("M", (), {"encode": staticmethod(lambda text: [1])})(), "m")
    narrow.dispatch("define", {"name": "t", "kind": "merges", "value": table})
    with pytest.raises(NotServed) as refused:
        narrow.dispatch("encode_batch", {"texts": ["a"], "merges": {"ref": "t"}})
    assert refused.value.kind == protocol.NOT_IMPLEMENTED
