"""One crash met through several calls is charged once: the call that crashes on every input is the one to make run.

Root causes are grouped by the call that raised (bpe_kata/verdict/causes.py), so a helper that raises whatever its
input, called by several operations, is one cause per operation.
"""

from __future__ import annotations


def charge_none_for_the_same_crash(causes: list[dict]) -> None:
    """A cause raised at the same place and error as another call's crash on every input is that crash met through
    this call: no claim either (eleventh round, development: a minbpe ``merge`` raising NameError on every call was
    charged to encode.lowest-rank where encode called it). Not a cause whose own calls of one form crash on every
    input while other forms returned: that evidence names its own claim (a CS336 Tokenizer sorting special_tokens
    unguarded: every decode crashes, and every encode without specials, a claim of its own)."""
    every = {(c["exception"].partition(":")[0], c["where"]): c["call"] for c in causes
             if c.get("every_call") and not c.get("every_call_scope") and not c["where"].startswith("?")}
    for cause in causes:
        call = every.get((cause["exception"].partition(":")[0], cause["where"]))
        if call is None or call == cause["call"] or cause.get("every_call"):
            continue
        if cause["likely_claim"] and cause.get("every_call_scope"):
            continue
        cause["likely_claim"], cause["same_crash_as"] = None, call
