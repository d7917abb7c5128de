"""The verdict a failed spec test's report carries: a child's fault's (bpe_kata/verdict/fault_verdicts.py) or
the judged error's (bpe_kata/verdict/judging.py), with the calls the test made, the swaps tried when it ran again
(bpe_kata/verdict/substitution.py) and, for an error, the input that raised."""

from __future__ import annotations

import dataclasses

import pytest

from bpe_kata.verdict import fault_verdicts, judging, recording


def of_failure(call: pytest.CallInfo, claims: tuple[str, ...], implementation, longreprtext: str,
               evidence: tuple[tuple[str, ...], tuple[str, ...]]) -> judging.Verdict:
    """``evidence``: the swaps tried and those that made the failure go away."""
    fault = fault_verdicts.fault_of(call)
    verdict = (fault_verdicts.fault_verdict(fault, fault_verdicts.blamed_claims(fault, claims),
                                         call=recording.raised().partition("(")[0],
                                         input=recording.raised()) if fault is not None else
               judging.judge(call.excinfo.value, claims, implementation, longreprtext))
    tried, cleared = evidence
    raised_type = verdict.root_cause.partition(":")[0]
    error = verdict.kind == judging.ERROR
    if error and verdict.where == judging.RETURNED and recording.calls():  # the last call returned the unreadable value
        returned = recording.calls()[-1]
        verdict = dataclasses.replace(verdict, call=returned, where=f"{returned} {judging.RETURNED}",
                                      detail=verdict.detail.replace(judging.RETURNED, f"{returned} {judging.RETURNED}"))
    return dataclasses.replace(verdict, calls=recording.calls(), substituted=tried, cleared_by=cleared,
                               input=recording.raised(raised_type) if error else "",
                               keywords=recording.raised_keywords(raised_type) if error else "")
