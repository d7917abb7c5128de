"""What a child's fault makes of the test under way: the claims it breaks, or a root cause naming the call
(a crash, a call over the test's budget)."""

from __future__ import annotations

import pytest

from bpe_kata.child.client import ChangedInput, ChildExited, IsolationFault
from bpe_kata.child.faults import TooSlow
from bpe_kata.verdict import judging
from spec.faults import changed_input_claims


def blamed_claims(fault: BaseException, claims: tuple[str, ...]) -> tuple[str, ...]:
    """A changed argument is the implementation breaking a claim of its own, whatever the test checked."""
    if isinstance(fault, ChangedInput):
        return changed_input_claims(fault.op, tuple(fault.names or ()))
    return claims


def fault_verdict(fault: IsolationFault, claims: tuple[str, ...], call: str = "", input: str = "") -> judging.Verdict:
    """A fault breaks the claims of the test under way (or the claim a changed input breaks): never
    "could not run", since the child, not the spec, failed to do what the protocol asks.

    A child killed by a signal is the exception (issue 37): a crash in the call under way, like an error the
    implementation raised, so a root cause with the call that crashed (``input``) and the signal, blamed on
    the behaviour that crashed (bpe_kata/verdict/crash_probes.py), not a failure of every claim of the test. A test
    over its budget (``TooSlow``) is a root cause too, naming the call still running, and blamed on no claim:
    slowness says nothing about a value (the claims the slow test named were failed, merge claims of ports
    with no merge among them)."""
    lines = str(fault).strip().splitlines() or [type(fault).__name__]
    if isinstance(fault, ChildExited) and "killed by signal" in lines[0]:
        what, _, message = lines[0].partition(": ")
        cause = f"crashed: {message or what}"
        call = call or (what if what in judging.OPERATIONS else "")
        return judging.Verdict(judging.ERROR, (), cause, "? (the child died: no frame)",
                               f"{cause}\n  in {input or call or 'a call'}\n" + "\n".join(lines[1:12]),
                               call=call, input=input)
    if isinstance(fault, TooSlow):  # slowness is no claim's value: a root cause naming the call, blamed on none
        what = lines[0].split(" was ", 1)[0]
        call = call or (what.partition("(")[0] if "(" in what else "")
        return judging.Verdict(judging.ERROR, (), f"too slow: {lines[0]}", "? (over the test's budget: no frame)",
                               "too slow: " + "\n".join(lines[:12]), call=call, input=input or what)
    return judging.Verdict(judging.BROKEN, claims, "", "", f"{fault.outcome}: " + "\n".join(lines[:12]))


def fault_of(call: pytest.CallInfo) -> IsolationFault | None:
    excinfo = call.excinfo
    return excinfo.value if excinfo is not None and isinstance(excinfo.value, IsolationFault) else None
