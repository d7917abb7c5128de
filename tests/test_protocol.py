"""The stdio protocol (docs/PROTOCOL.md): its values, the shipped server, and the client's faults."""

from __future__ import annotations

import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_kata.child import line_pipes, protocol
from bpe_kata.child.client import (
    CallTimedOut,
    ChangedInput,
    ChildExited,
    ImplementationError,
    IsolatedImplementation,
    ProtocolError,
    parse_command,
    python_path_env,
    server_command,
)
from bpe_kata.child.handlers import Server
from bpe_kata.child.signatures import features_of

# --- values ---------------------------------------------------------------------------------

tables = st.dictionaries(st.tuples(st.integers(0, 400), st.integers(0, 400)), st.integers(256, 9999), max_size=20)
vocabularies = st.dictionaries(st.integers(0, 9999), st.binary(max_size=6), max_size=20)


def through_a_line(kind: protocol.Kind, value):
    """dump, one protocol line there and back, load: what the other side gets."""
    line = protocol.encode_line({"id": 1, "ok": True, "result": kind.dump(value)})
    return kind.load(protocol.decode_line(line)["result"])


@given(st.text())
def test_any_text_survives_a_line_lone_surrogates_included(text):
    assert through_a_line(protocol.TEXT, text) == text


def test_a_lone_surrogate_travels_as_an_escape():
    assert b"\\ud800" in protocol.encode_line({"id": 1, "args": {"text": "a\ud800"}})


@given(tables)
def test_merge_tables_keep_their_order(table):
    assert list(through_a_line(protocol.MERGES, table).items()) == list(table.items())


@given(vocabularies)
def test_vocabularies_keep_every_byte(vocab):
    assert through_a_line(protocol.VOCAB, vocab) == vocab


def test_word_level_values_and_the_loaded_tokenizer():
    assert through_a_line(protocol.WORD_MERGES, [(("l", "o"), 7)]) == [(("l", "o"), 7)]
    assert through_a_line(protocol.WORD_PAIRS, [(("l", "o"), 7), ("lo", "w")]) == [("l", "o"), ("lo", "w")]
    assert through_a_line(protocol.CORPUS, {"low": 5, "lower": 2}) == {"low": 5, "lower": 2}
    loaded = ({(97, 98): 256}, None, {"<|x|>": 300})
    assert through_a_line(protocol.LOADED, loaded) == loaded
    assert through_a_line(protocol.SPECIAL_SET, "all") == "all"
    assert through_a_line(protocol.SPECIAL_SET, frozenset({"<|x|>"})) == {"<|x|>"}


plain_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@given(plain_values)
def test_a_line_is_ascii_on_one_line_and_reads_back(value):
    """Lone surrogates, non-ASCII text and ints past 64 bits included."""
    message = {"id": 1, "ok": True, "result": value}
    line = protocol.encode_line(message)
    assert line.isascii() and line.endswith(b"\n") and line.count(b"\n") == 1
    assert protocol.decode_line(line) == message


#: A value each kind's dump takes, with the loose types a caller may hand it (floats, bools, tuples); every
#: kind but LOADED, whose pattern goes as the implementation gave it.
PLAIN_SAMPLES = {
    "TEXT": "ab", "OPTIONAL_TEXT": None, "INT": 3.0, "PATH": __import__("pathlib").Path("x"), "IDS": (1, True, 2.0),
    "PAIR": (1.0, 2), "MERGES": {(1, 2.0): 256.0}, "VOCAB": {1.0: b"a"}, "SPECIALS": {"<|x|>": 300.0},
    "SPECIAL_SET": {"<|x|>"}, "CORPUS": {"low": 5.0}, "WORD_PAIRS": [(("l", "o"), 7)], "STATS": {(1, 2): 3.0},
    "WORD_MERGES": [(("l", "o"), 7.0)], "WORDS": ["lo"], "NULL": None, "STREAM": (["a"], "b"), "TEXTS": iter(["a"]),
    "SPECIAL_STRINGS": ("<|x|>",),
}


def test_every_kind_but_loaded_dumps_only_plain_values():
    """A kind's dump is str, int, list, dict and None all through (no float, no value passed on as given),
    whatever loose types it was handed: the other side reads an int where the contract has one."""
    def plain(value) -> bool:
        if type(value) in (list, tuple):
            return all(map(plain, value))
        if type(value) is dict:
            return all(type(k) is str and plain(v) for k, v in value.items())
        return value is None or type(value) in (str, int, bool)

    kinds = {name: kind for name, kind in vars(protocol).items() if isinstance(kind, protocol.Kind)}
    assert set(kinds) == {*PLAIN_SAMPLES, "LOADED"}
    for name, sample in PLAIN_SAMPLES.items():
        assert plain(kinds[name].dump(sample)), name


def test_load_and_hello_answer_with_values_as_the_implementation_gave_them():
    """A load's pattern and the hello's version go back as the implementation gave them (a NaN, a float)."""
    impl = type(sys)("nan_pattern")
    impl.load = lambda path: ({(97, 98): 256}, float("nan"), {})
    impl.__version__ = 1.5
    server = Server(impl, "nan_pattern")
    assert b"NaN" in server.answer({"id": 1, "op": "load", "args": {"path": "x"}})
    assert b'"version":1.5' in server.answer({"id": 2, "op": "hello", "args": {"protocol": protocol.PROTOCOL_VERSION}})


def test_a_line_that_is_not_an_object_is_refused():
    for line in (b"[1, 2]\n", b"hello\n", b'"text"\n'):
        with pytest.raises(ValueError):
            protocol.decode_line(line)


def test_cmd_values_are_split_like_a_shell():
    assert parse_command('cmd:node "my dir/bpe.js" --fast') == ["node", "my dir/bpe.js", "--fast"]
    assert parse_command("solutions.mine") is None
    with pytest.raises(ValueError):
        parse_command("cmd:  ")


# --- the server, in this process --------------------------------------------------------------

class Module:
    """A stand-in module: whatever functions a test gives it."""

    def __init__(self, **functions) -> None:
        self.__dict__.update(functions)


def answer(server: Server, op: str, **args) -> dict:
    return server.handle({"id": 7, "op": op, "args": args})


def test_hello_lists_functions_and_the_keywords_their_signatures_take():
    def train(text, vocab_size, *, pattern=None):
        return {}

    def encode(text, merges, **options):
        return []

    features = features_of(Module(train=train, encode=encode))
    assert {"train", "train(pattern=)", "encode", "encode(pattern=)", "encode(special_tokens=)"} <= set(features)
    assert "train(tie_rule=)" not in features and "decode" not in features


def test_missing_functions_keywords_and_stubs_are_not_implemented():
    def train(text, vocab_size):
        raise NotImplementedError

    server = Server(Module(train=train, merge=lambda ids, pair, idx: []), "m")
    kinds = [answer(server, "decode", ids=[], vocab=[])["error"]["kind"],
             answer(server, "train", text="a", vocab_size=300, pattern="x")["error"]["kind"],
             answer(server, "train", text="a", vocab_size=300)["error"]["kind"]]
    assert kinds == ["NotImplemented"] * 3


def test_contract_errors_keep_their_kind_and_others_are_error():
    def decode(ids, vocab):
        raise KeyError(ids[0])

    def merge(ids, pair, idx):
        raise ZeroDivisionError("oops")

    server = Server(Module(decode=decode, merge=merge), "m")
    error = answer(server, "decode", ids=[5], vocab=[])["error"]
    assert {k: error[k] for k in ("kind", "message")} == {"kind": "KeyError", "message": "5"}
    assert error.keys() <= {"kind", "message", "frame"}  # the frame is optional (docs/PROTOCOL.md)
    error = answer(server, "merge", ids=[1], pair=[1, 2], idx=256)["error"]
    assert error["kind"] == "Error" and "ZeroDivisionError: oops" in error["message"]
    assert error["type"] == "ZeroDivisionError" and error["frame"]["function"] == "merge"


def test_a_changed_argument_is_reported_and_a_definition_put_back():
    def encode(text, merges):
        merges[(1, 1)] = 999
        return []

    server = Server(Module(encode=encode), "m")
    answer(server, "define", name="t", kind="merges", value=[[97, 98, 256]])
    for merges in ([[97, 98, 256]], {"ref": "t"}):
        error = answer(server, "encode", text="ab", merges=merges)["error"]
        assert (error["kind"], error["args"]) == ("ChangedInput", ["merges"])
    assert dict(server.definitions["t"][0]) == {(97, 98): 256}


# --- the client, with real children -------------------------------------------------------------

def child_program(tmp_path, body: str) -> list[str]:
    """A tiny protocol program: answers hello, then does ``body`` for every other request."""
    path = tmp_path / "child.py"
    path.write_text(
        textwrap.dedent("""
        import json, os, sys, time
        for line in sys.stdin:
            request = json.loads(line)
            if request["op"] == "hello":
                hello = {"protocol": 1, "name": "t", "features": ["merge", "get_stats"]}
                print(json.dumps({"id": request["id"], "ok": True, "result": hello}), flush=True)
                continue
        """)
        + textwrap.indent(textwrap.dedent(body), "    "),
        encoding="utf-8",
    )
    return [sys.executable, str(path)]


def test_a_call_past_its_time_limit_times_out_and_the_next_call_gets_a_new_child(tmp_path):
    marker = tmp_path / "slept-once"
    body = f'''
        if not os.path.exists({str(marker)!r}):
            open({str(marker)!r}, "w").close()
            time.sleep(60)
        print(json.dumps({{"id": request["id"], "ok": True, "result": [1]}}), flush=True)
    '''
    impl = IsolatedImplementation(child_program(tmp_path, body), call_timeout=1).connect()
    with pytest.raises(CallTimedOut):
        impl.merge([1, 2], (1, 2), 300)
    assert impl.merge([1, 2], (1, 2), 300) == [1]
    assert impl.child.starts == 2
    impl.close()


@pytest.mark.parametrize("body, fault, shown", [
    ('sys.exit(3)', ChildExited, "exit status 3"),
    ('print("debugging...", flush=True)', ProtocolError, "debugging..."),
    ('print(json.dumps({"id": 999, "ok": True, "result": []}), flush=True)', ProtocolError, "999"),
    ('print(json.dumps({"id": request["id"], "ok": "yes"}), flush=True)', ProtocolError, "neither"),
    ('print(json.dumps({"id": request["id"], "ok": False, "error": {"kind": "Odd", "message": "m"}}), flush=True)',
     ProtocolError, "Odd"),
    ('sys.stdout.write(\'{"id": \' + str(request["id"]) + \', "ok": tr\'); sys.stdout.flush(); sys.exit(0)',
     ProtocolError, "no line end"),
])
def test_an_exit_junk_or_a_wrong_answer_is_a_fault_that_says_what_happened(tmp_path, body, fault, shown):
    impl = IsolatedImplementation(child_program(tmp_path, body), call_timeout=20).connect()
    with pytest.raises(fault) as raised:
        impl.merge([1, 2], (1, 2), 300)
    assert shown in str(raised.value)
    impl.close()


def test_a_long_answer_in_many_pieces_arrives_whole_and_one_past_the_limit_is_refused(tmp_path, monkeypatch):
    """A published vocabulary comes back as megabytes, a pipe's worth at a time; a line with no end in sight
    is cut off at ``MAX_LINE`` instead of filling the memory."""
    body = '''
        line = json.dumps({"id": request["id"], "ok": True, "result": list(range(request["args"]["ids"][0]))})
        for start in range(0, len(line), 7000):
            sys.stdout.write(line[start:start + 7000])
            sys.stdout.flush()
            time.sleep(0.001)
        print(flush=True)
    '''
    impl = IsolatedImplementation(child_program(tmp_path, body), call_timeout=20).connect()
    try:
        assert impl.merge([200_000], (1, 2), 300) == list(range(200_000))  # 1.3 MB in 190 pieces
        assert impl.merge([3], (1, 2), 300) == [0, 1, 2]
        monkeypatch.setattr(line_pipes, "MAX_LINE", 100_000)
        with pytest.raises(ProtocolError, match="longer than"):
            impl.merge([200_000], (1, 2), 300)
    finally:
        impl.close()


def test_launched_children_start_side_by_side_and_answer_once_connected(tmp_path):
    """``launch`` sends the hello without reading it; ``connect`` (or a first call) reads it, in any order."""
    body = 'print(json.dumps({"id": request["id"], "ok": True, "result": [os.getpid()]}), flush=True)'
    program = child_program(tmp_path, body)  # written once: rewriting it while a child reads it ends that child
    children = [IsolatedImplementation(program, call_timeout=20).launch() for _ in range(3)]
    try:
        pids = [child.child.process.pid for child in children]
        assert len(set(pids)) == 3 and all(child.child.pending_hello is not None for child in children)
        children[2].connect()
        assert children[2].merge([1], (1, 2), 300) == [pids[2]] and children[2].child.starts == 1
        assert children[0].child.request("merge", {"ids": [1], "pair": [1, 2], "idx": 300}) == [pids[0]]
        assert callable(children[1].connect().merge) and children[1].merge([1], (1, 2), 300) == [pids[1]]
        assert [child.child.starts for child in children] == [1, 1, 1]
    finally:
        for child in children:
            child.close()


def test_a_launched_child_that_exits_is_a_fault_when_connected(tmp_path):
    (tmp_path / "gone.py").write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    impl = IsolatedImplementation([sys.executable, str(tmp_path / "gone.py")], call_timeout=20).launch()
    with pytest.raises(ChildExited, match="exit status 4"):
        impl.connect()
    assert impl.child.process is None and impl.child.pending_hello is None
    impl.close()


def test_faults_are_not_exceptions_a_test_could_expect():
    for fault in (CallTimedOut, ChildExited, ProtocolError, ChangedInput):
        assert not issubclass(fault, Exception)
    assert issubclass(ImplementationError, Exception)


def test_the_proxy_offers_only_the_hello_features_and_big_tables_go_once(tmp_path):
    impl = IsolatedImplementation(server_command("reference"), env=python_path_env()).connect()
    try:
        assert callable(impl.encode) and callable(impl.StreamDecoder)
        table = {(0, 1): 256, **{(256 + k, 2): 257 + k for k in range(3000)}}  # a valid chain of merges
        assert impl.encode("ab", table) == [97, 98] and impl.encode("ab", table) == [97, 98]
        assert len(impl.child.definitions) == 1
        impl.child.kill()  # a restart defines it again
        assert impl.encode("\x00\x01", table) == [256]
    finally:
        impl.close()
    starter = IsolatedImplementation(server_command("solutions.starter"), env=python_path_env()).connect()
    try:
        assert not hasattr(starter, "nonexistent") and callable(starter.train)
        with pytest.raises(NotImplementedError):
            starter.train("ab", 257, pattern="x")  # no train(pattern=) in its hello
        with pytest.raises(NotImplementedError):
            starter.train("ab", 257)  # the stub raises, the server says NotImplemented
    finally:
        starter.close()


def test_a_surrogate_pair_stays_two_code_points():
    """JSON would read the two escapes as one character; the caller's positions must survive."""
    text = "a\ud800\udc00<|x|>\udfff"
    assert len(through_a_line(protocol.TEXT, text)) == 8  # what a plain JSON string does to it
    assert protocol.needs_code_points(text) and not protocol.needs_code_points("a\U00010000\ud800")
    line = protocol.encode_line({"id": 1, "args": {"text": protocol.code_points_of(text)}})
    assert protocol.TEXT.load(protocol.decode_line(line)["args"]["text"]) == text
    impl = IsolatedImplementation(server_command("reference"), env=python_path_env()).connect()
    try:
        assert impl.code_points  # the shipped server reads them
        with pytest.raises(ValueError, match=r"position 2\b"):
            impl.encode("\ud800\udc00<|x|>", {}, special_tokens={"<|x|>": 300})
    finally:
        impl.close()


def test_a_result_of_the_wrong_shape_is_an_error_not_a_contract_error():
    server = Server(Module(merge=lambda ids, pair, idx: None), "m")
    error = answer(server, "merge", ids=[1, 2], pair=[1, 2], idx=256)["error"]
    assert error["kind"] == "Error" and "NoneType" in error["message"]
