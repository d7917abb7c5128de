"""Smoke tests of the outside adapters: each loads and answers in the contract's types.

Skipped, naming the environment variable, when the upstream is not on this machine (CI has no
network, so it never has them). Whether the upstream is *right* is the spec's business
(`bpe-kata check`, docs/OUTSIDE.md), not these tests'.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
PYTHON_ADAPTERS = {"minbpe_py": "MINBPE_PY_SRC", "kelhass_py": "KELHASS_PY_SRC", "minbpe_cpp": "MINBPE_CPP_CLI"}
SERVERS = {"minbpe_js": ("MINBPE_JS_DIR", lambda: ["node", str(HERE / "minbpe_js_server.cjs")]),
           "sunadase_rs": ("SUNADASE_RS_BIN", lambda: [os.environ["SUNADASE_RS_BIN"]])}


def _needs(var: str) -> None:
    if not os.environ.get(var):
        pytest.skip(f"{var} is not set: the upstream is fetched by hand (tests/outside/README.md)")


@pytest.fixture
def on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(HERE))


@pytest.mark.parametrize("name", sorted(PYTHON_ADAPTERS))
def test_python_adapter_speaks_the_contract_types(name, on_path):
    _needs(PYTHON_ADAPTERS[name])
    impl = importlib.import_module(name)
    merges = impl.train("aaabdaaabac", 259)
    assert isinstance(merges, dict) and all(isinstance(k, tuple) and len(k) == 2 for k in merges)
    assert sorted(merges.values()) == [256, 257, 258]
    ids = impl.encode("aaabdaaabac", merges)
    assert all(isinstance(i, int) for i in ids)
    assert impl.decode(ids, impl.build_vocab(merges)) == "aaabdaaabac"


def test_cs336_adapter_speaks_the_contract_types(on_path):
    _needs("CS336_KZAHER_SRC")
    sys.path.insert(0, str(HERE.parent.parent))
    impl = importlib.import_module("cs336_kzaher")
    from spec.patterns import GPT2_SPLIT_PATTERN
    merges = impl.train("the thin then the thin", 260, pattern=GPT2_SPLIT_PATTERN)
    assert sorted(merges.values()) == list(range(256, 256 + len(merges)))
    assert all(isinstance(i, int) for i in impl.encode("the thin", merges, pattern=GPT2_SPLIT_PATTERN))
    with pytest.raises(NotImplementedError):
        impl.train("abc", 260)


def test_second_cs336_adapter_speaks_the_contract_types(on_path):
    _needs("CS336_DILAWARM_SRC")
    impl = importlib.import_module("cs336_dilawarm")
    merges = impl.train("the thin then the thin", 260)
    assert sorted(merges.values()) == list(range(256, 256 + len(merges)))
    ids = impl.encode("the thin", merges)
    assert all(isinstance(i, int) for i in ids)
    vocab = {i: bytes([i]) for i in range(256)}
    for (left, right), idx in merges.items():
        vocab[idx] = vocab[left] + vocab[right]
    assert impl.decode(ids, vocab) == "the thin"


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_server_answers_hello_and_train(name):
    var, command = SERVERS[name]
    _needs(var)
    requests = [{"id": 0, "op": "hello", "args": {"protocol": 1}},
                {"id": 1, "op": "train", "args": {"text": "aaabdaaabac", "vocab_size": 259}}]
    done = subprocess.run(command(), input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [0, 1] and all(a["ok"] for a in answers)
    assert sorted(t[2] for t in answers[1]["result"]) == [256, 257, 258]
