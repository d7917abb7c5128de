"""The known-wrong probes' plumbing (tests/implementations/_rehome.py): a helper a probe replaces reaches every
operation that calls it, however the oracle's core is split into functions (a refactor that moved encode's loop
into ``encode_ids`` left the probes' encode with the right ``merge``, and a wrong merge passed encode's tests)."""

from __future__ import annotations

import pytest

from spec.patterns import GPT2_SPLIT_PATTERN
from tests.implementations._rehome import oracle_with


@pytest.mark.parametrize("call", ["encode", "encode with a pattern", "train"])
def test_a_replaced_merge_is_called_by_every_operation_that_merges(call):
    from spec.oracle import core

    called: list[str] = []

    def spy(*args, **kwargs):
        called.append("merge")
        return core.merge(*args, **kwargs)

    contract = oracle_with({"merge": spy, "__name__": "spy"})
    if call == "train":
        contract["train"]("aaab aaab", 260)
    else:
        keywords = {"pattern": GPT2_SPLIT_PATTERN} if "pattern" in call else {}
        contract["encode"]("aaab aaab", {(97, 97): 256, (256, 97): 257}, **keywords)
    assert called, f"the probe's merge never reached {call}"
