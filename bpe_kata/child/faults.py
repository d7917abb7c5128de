"""What a child can do wrong, as the client raises it: each fault a pytest outcome, so that no
``pytest.raises(Exception)`` and no ``except Exception`` in a fixture can take it for an ordinary
error; and the implementation's own errors, carried over the protocol."""

from __future__ import annotations

from collections.abc import Sequence

try:
    # pytest's base of its own outcomes: a failed fixture caches it and the test is reported
    # failed. Not pytest.fail's exception, which Hypothesis catches to shrink and replay
    # (one more time limit, or one more crash, for every attempt).
    from _pytest.outcomes import OutcomeException as _FaultBase
except ImportError:  # pragma: no cover  (the client used outside pytest)
    _FaultBase = BaseException  # type: ignore[misc,assignment]


class IsolationFault(_FaultBase):
    """The child did not answer as the protocol says. Never a pass, never a contract error."""

    outcome = "failed"


class CallTimedOut(IsolationFault):
    outcome = "timed out"


class ChildExited(IsolationFault):
    outcome = "crashed"


class ProtocolError(IsolationFault):
    outcome = "protocol error"


class OverBudget(IsolationFault):
    """The run's total child time (``--time-budget``) is spent: this call and every later one fail."""

    outcome = "over budget"


class TooSlow(IsolationFault):
    """The test's own time budget ran out while the implementation was computing (bpe_kata/run/budgets.py):
    that test fails "too slow", a root cause naming the call still running and charged to no claim; the run
    goes on."""

    outcome = "too slow"


class ChangedInput(IsolationFault):
    """The implementation changed an argument it was given (the server checked after the call)."""

    outcome = "changed its input"

    def __init__(self, message: str, op: str, names: Sequence[str]) -> None:
        super().__init__(message)
        self.op, self.names = op, tuple(names)


class ImplementationError(Exception):
    """The protocol's ``Error`` kind: anything but the contract's errors, raised by the implementation."""


CONTRACT_EXCEPTIONS: dict[str, type[Exception]] = {"ValueError": ValueError, "KeyError": KeyError,
                                                   "TypeError": TypeError}
