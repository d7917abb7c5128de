"""The tie probe names the rule an implementation's default train follows, and only that one."""

from __future__ import annotations

import pytest

from bpe_kata.impl.loader import load_implementation
from bpe_kata.tools import tie_probe


@pytest.mark.parametrize(("impl", "verdict"), [
    ("reference", "first-counted"),
    ("tests/implementations/right_default_lowest_pair.py", "lowest-pair"),
    ("tests/implementations/right_default_bytes_greatest.py", "bytes-greatest"),
    ("tests/implementations/wrong_tie_last_counted.py", "none of the documented rules"),
])
def test_the_probe_names_the_default_rule(impl, verdict):
    assert tie_probe.identify(load_implementation(impl))["verdict"] == verdict


def test_every_probe_text_tells_the_documented_rules_apart_or_comes_from_the_cases():
    generated = tie_probe._disagreeing_texts()
    assert len(generated) == len(set(generated)) >= 3
    assert set(generated) <= set(tie_probe.probes())


def test_an_undocumented_rule_is_recognised_by_name():
    class ByteLevelTies:
        train = staticmethod(tie_probe.train_lowest_byte_level_pair)

    assert tie_probe.identify(ByteLevelTies)["verdict"] == ("none of the documented rules "
                                                          "(lowest-pair in byte-level alphabet order)")


def test_an_implementation_without_train_has_no_rule():
    assert tie_probe.identify(object())["verdict"] == "no trainer"
