"""Kept results (docs/PROTOCOL.md, "Kept results"): a child whose hello says ``"keep": true`` holds what
``train`` and ``build_vocab`` answered, and the suite names it instead of sending it back. Each test can fail
for a client that names a value the child does not hold (changed since, from a child started again, from a
name given to a later result) or never names one it does, and for a server that hands a kept table out
otherwise than an inline one."""

from __future__ import annotations

import sys
import textwrap

import pytest

from bpe_kata.child import kept as kept_results
from bpe_kata.child import protocol
from bpe_kata.child.client import IsolatedImplementation
from bpe_kata.child.handlers import GuardedTable, Server
from tests.support import REPO_ROOT
from tests.test_protocol import Module
from tests.test_schemas import _messages, _protocol_errors

TABLE = {(97, 98): 256, (256, 99): 257}


def ask(server: Server, op: str, keep=None, **args) -> dict:
    return server.handle({"id": 1, "op": op, "args": args, **({} if keep is None else {"keep": keep})})


def teed(tmp_path) -> IsolatedImplementation:
    """The reference behind tests/protocol_tee.py: every line both ways lands in tmp_path."""
    return IsolatedImplementation([sys.executable, str(REPO_ROOT / "tests" / "protocol_tee.py"), str(tmp_path),
                                   "reference"]).connect()


def sent(tmp_path, op: str) -> list[dict]:
    """The args of every ``op`` request recorded so far, in order."""
    return [message["args"] for direction, message, asked in _messages(tmp_path) if direction == ">" and asked == op]


# --- the shipped server ---------------------------------------------------------------------------------


def test_a_short_kept_result_is_handed_out_as_a_fresh_inline_dict_each_call():
    given = []

    def decode(ids, vocab):
        given.append((vocab, type(vocab), len(vocab)))
        vocab[999] = b"!"  # a change: reported, and never seen by the next call
        return ""

    import reference

    server = Server(Module(build_vocab=reference.build_vocab, decode=decode), "m")
    kept = ask(server, "build_vocab", keep="kept-0", merges=[[97, 98, 256]])
    assert kept["ok"] and [256, "6162"] in kept["result"]
    for _ in range(2):
        error = ask(server, "decode", ids=[256], vocab={"ref": "kept-0"})["error"]
        assert (error["kind"], error["args"]) == ("ChangedInput", ["vocab"])
    (first, first_type, first_size), (second, second_type, second_size) = given
    assert first is not second and first_type is second_type is dict and first_size == second_size == 257


def test_a_long_kept_result_is_held_as_a_definition_and_a_name_is_replaced_by_either_route():
    import reference

    server = Server(reference, "reference")
    long_table = [[97, 98, 256], *([256 + k, 97, 257 + k] for k in range(protocol.DEFINE_AT["vocab"]))]
    assert ask(server, "build_vocab", keep="k", merges=long_table)["ok"]
    assert isinstance(server.definitions["k"][0], GuardedTable) and "k" not in server.kept
    assert ask(server, "build_vocab", keep="k", merges=[[97, 98, 256]])["ok"]  # a keep replaces it
    assert "k" not in server.definitions and len(server.kept["k"]) == 257
    assert ask(server, "define", name="k", kind="vocab", value=[[0, "00"]])["ok"]  # and so does a define
    assert "k" not in server.kept and dict(server.definitions["k"][0]) == {0: b"\x00"}
    assert ask(server, "decode", ids=[0], vocab={"ref": "k"})["result"] == "\x00"


def test_only_a_successful_train_or_build_vocab_is_kept():
    import reference

    server = Server(reference, "reference")
    assert ask(server, "merge", keep="m", ids=[1, 2], pair=[1, 2], idx=256)["result"] == [256]
    assert ask(server, "build_vocab", keep=7, merges=[[97, 98, 256]])["ok"]  # a name that is not a string
    assert ask(server, "build_vocab", keep="bad", merges=[[97, 98, 5]])["error"]["kind"] == "ValueError"
    assert server.kept == {} and server.definitions == {}
    assert "never defined" in ask(server, "decode", ids=[1], vocab={"ref": "bad"})["error"]["message"]
    assert ask(server, "train", keep="t", text="abab", vocab_size=257)["ok"]
    assert server.kept["t"] == {(97, 98): 256}


# --- the client -----------------------------------------------------------------------------------------


def test_results_go_back_by_name_and_a_changed_or_restarted_one_goes_as_itself(tmp_path):
    with teed(tmp_path) as impl:
        assert impl.kept.offered
        merges = impl.train("abcabcabd", 259)
        vocab = impl.build_vocab(merges)
        ids = impl.encode("abcabd", merges)
        assert impl.decode(ids, vocab) == "abcabd"
        assert sent(tmp_path, "encode")[-1]["merges"] == {"ref": "kept-0"}
        assert sent(tmp_path, "build_vocab")[-1]["merges"] == {"ref": "kept-0"}
        assert sent(tmp_path, "decode")[-1]["vocab"] == {"ref": "kept-1"}

        vocab[97] = b"z"  # the same length, another value: the child's copy is no longer this
        assert impl.decode([97, 98], vocab) == "zb"
        assert isinstance(sent(tmp_path, "decode")[-1]["vocab"], list)
        vocab[97] = b"a"  # the same JSON again: the name stands for it again
        assert impl.decode([97], vocab) == "a" and sent(tmp_path, "decode")[-1]["vocab"] == {"ref": "kept-1"}

        impl.child.kill()  # a new child holds nothing
        assert impl.decode(ids, vocab) == "abcabd" and isinstance(sent(tmp_path, "decode")[-1]["vocab"], list)
    bad = [(d, str(m)[:200], e) for d, m, op in _messages(tmp_path) if (e := _protocol_errors(d, m, op))]
    assert not bad, bad[:5]


def test_a_name_given_to_a_later_result_no_longer_stands_for_the_earlier_one(tmp_path):
    with teed(tmp_path) as impl:
        first = impl.build_vocab(TABLE)
        decoder = impl.StreamDecoder(first)
        assert decoder.feed(257) == "abc" and sent(tmp_path, "stream_decode")[-1]["vocab"] == {"ref": "kept-0"}
        for k in range(kept_results.SLOTS):  # kept-0 now holds the last of these
            impl.build_vocab({(97, 97 + k % 3): 256})
        assert impl.decode([257], first) == "abc" and isinstance(sent(tmp_path, "decode")[-1]["vocab"], list)
        assert decoder.feed(256) == "ab" and isinstance(sent(tmp_path, "stream_decode")[-1]["vocab"], list)
        assert decoder.flush() == ""


def test_a_long_result_is_named_while_it_is_the_same_object_and_length(tmp_path):
    long_table = {(97, 98): 256, **{(256 + k, 97): 257 + k for k in range(protocol.DEFINE_AT["vocab"])}}
    with teed(tmp_path) as impl:
        vocab = impl.build_vocab(long_table)
        assert impl.decode([256, 257], vocab) == "ababa" and sent(tmp_path, "decode")[-1]["vocab"] == {"ref": "kept-0"}
        assert [name for name in impl.child.definitions if name.startswith("vocab")] == []  # never sent back
        assert impl.decode([256], dict(vocab)) == "ab"  # another object: defined as any long table is
        copy_defined = sent(tmp_path, "decode")[-1]["vocab"]["ref"]
        assert copy_defined.startswith("vocab-") and copy_defined in impl.child.definitions
        vocab[10**6] = b"!"  # a longer one: not what the child holds
        assert impl.decode([256], vocab) == "ab"
        assert sent(tmp_path, "decode")[-1]["vocab"]["ref"] not in ("kept-0", copy_defined)


def test_a_child_whose_hello_does_not_offer_keep_is_never_sent_one(tmp_path):
    log = tmp_path / "requests.log"
    child = textwrap.dedent(f"""
        import json, sys
        for line in sys.stdin:
            open({str(log)!r}, "a").write(line)
            request = json.loads(line)
            if request["op"] == "hello":
                result = {{"protocol": 1, "name": "t", "features": ["build_vocab", "decode"]}}
            elif request["op"] == "build_vocab":
                result = [[i, bytes([i]).hex()] for i in range(256)]
            else:
                result = "x"
            print(json.dumps({{"id": request["id"], "ok": True, "result": result}}), flush=True)
    """)
    with IsolatedImplementation([sys.executable, "-I", "-S", "-c", child]).connect() as impl:
        vocab = impl.build_vocab({})
        assert impl.decode([1], vocab) == "x"
    requests = [protocol.decode_line(line) for line in log.read_bytes().splitlines()]
    assert not any("keep" in request for request in requests)
    assert isinstance(requests[-1]["args"]["vocab"], list)


@pytest.mark.parametrize("answered", [[[1, "61"], [2**70, "62"]], [[1, "61"]]])
def test_the_key_of_a_kept_result_is_its_json_whatever_its_ints(answered):
    assert protocol.plain_bytes(answered) == protocol.encode_line(answered)[:-1]


def test_a_short_result_with_huge_tokens_goes_back_as_itself(tmp_path, monkeypatch):
    """A child cannot make the suite hold many copies of its largest answers as names."""
    monkeypatch.setattr(kept_results, "KEY_LIMIT", 10_000)
    doubling = {(97, 98): 256, **{(255 + k, 255 + k): 256 + k for k in range(1, 12)}}  # token 267: "ab" * 2**11
    with teed(tmp_path) as impl:
        small, big = impl.build_vocab(TABLE), impl.build_vocab(doubling)
        assert impl.decode([257], small) == "abc" and sent(tmp_path, "decode")[-1]["vocab"] == {"ref": "kept-0"}
        assert impl.decode([267], big) == "ab" * 2**11 and isinstance(sent(tmp_path, "decode")[-1]["vocab"], list)
