"""Evidence for "not judged": a failed test run again with one of the implementation's operations replaced by
the oracle's (issue 37, kind 1).

The ledger's ``rests_on`` (spec/claims.toml) says which claims a claim's tests *may* exercise: true of the
reference's composition (its train calls its get_stats and merge), not of every implementation's. A port whose
helpers crash on ``[]`` but whose train never calls them, or a hash-ordered get_stats beside a trainer with a
defect of its own, used to silence the trainer's claims. So the blame is decided by the run: the failing test
is run once more with the prerequisite's operation (``get_stats`` for a pairs claim, ``merge`` for a merge
claim, ``train`` for a train claim, ...) swapped for the oracle's (spec/oracle/), everywhere the implementation
reaches it, its own internal calls included. The prerequisite is to blame only if the failure goes away
(``Verdict.cleared_by``); otherwise the claim is judged on its own observable.

The swap is done on the function object itself (its code becomes a call of the oracle's function, then is
put back), so every name that refers to it sees the oracle's: module globals, a copy's globals, a method of
a class. Where that cannot be done it is not tried, and the claim is judged on its own observable:
- through the protocol (``cmd:``, ``bpe-kata gate``): the implementation runs in another process;
- an operation that is not a plain Python function or method (an adapter's closure, a builtin);
- train and encode of an implementation with a fixed split (spec/fixed_pattern.py): the oracle's would
  split otherwise;
- a prerequisite of the failing claim's own level (merge.end-guard resting on merge.left-to-right): swapping
  the operation both are about clears both, and says nothing about which one broke.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Iterator

from spec import fixed_pattern
from spec.ledger import load_claims, prerequisites

#: The operations a claim of each level is about, swapped together for a prerequisite of that level
#: (bpe_kata/verdict/causes.py ``LEVEL_CALLS``, without the calls a level only reads its table through).
SWAPPED: dict[str, tuple[str, ...]] = {
    "pairs": ("get_stats",), "merge": ("merge",), "train": ("train",), "bytes": ("train", "encode"),
    "decode": ("build_vocab", "decode"), "encode": ("encode",), "roundtrip": ("encode", "build_vocab", "decode"),
    "surrogates": ("train", "encode"), "regex": ("train", "encode"), "special": ("encode", "build_vocab"),
    "persist": ("save", "load"), "words": ("train_words", "segment_word"), "ties": ("train",),
}

#: Operations whose oracle stands for the implementation's only when no split is fixed.
_SPLITTING = frozenset({"train", "encode"})

_active: list[str] = []


def key(operations: tuple[str, ...]) -> str:
    """The name of a swap, as verdicts carry it ("get_stats", "build_vocab+decode")."""
    return "+".join(operations)


def of_claim(cid: str) -> str | None:
    """The swap that stands in for ``cid``'s operation (None: the ledger has no such claim or level)."""
    claim = load_claims().get(cid)
    operations = SWAPPED.get(claim.level) if claim is not None else None
    return key(operations) if operations else None


def active() -> tuple[str, ...]:
    """The swaps in force (session caches of the implementation's results key on it: a table trained
    before a swap is not the swapped operation's table)."""
    return tuple(_active)


def plans(claims: tuple[str, ...], called: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The swaps worth trying for a test that failed on ``claims`` after calling ``called``: one per operation
    of a prerequisite of another level (spec/claims.toml, through other claims too) that the test reached,
    directly or through train or encode (built on get_stats and merge)."""
    ledger, graph = load_claims(), prerequisites()
    reached = set(called) | ({"get_stats", "merge"} if {"train", "encode"} & set(called) else set())
    found: dict[str, tuple[str, ...]] = {}
    for cid in claims:
        own = ledger[cid].level if cid in ledger else None
        seen, todo = set(), list(graph.get(cid, ()))
        while todo:
            other = todo.pop()
            if other in seen:
                continue
            seen.add(other)
            todo.extend(graph.get(other, ()))
            operations = SWAPPED.get(ledger[other].level, ())
            if ledger[other].level != own and operations and reached & set(operations):
                found.setdefault(key(operations), operations)
    return list(found.values())


def _function(implementation: object, operation: str) -> types.FunctionType | None:
    """The implementation's own Python function for ``operation`` (a method's function), or None."""
    value = getattr(implementation, operation, None)
    value = getattr(value, "__func__", value)
    return value if isinstance(value, types.FunctionType) and not value.__closure__ else None


def _is_the_oracles(function: types.FunctionType) -> bool:
    """Defined in spec/oracle/ and running there (a copy of an oracle function with other globals, as the
    known-wrong files make, is the implementation's own)."""
    module = sys.modules.get(function.__module__ or "")
    return (function.__module__ or "").startswith("spec.oracle") and function.__globals__ is getattr(
        module, "__dict__", None)


def _call_oracle(*args, _bpe_kata_oracle, **kwargs):
    return _bpe_kata_oracle(*args, **kwargs)


def _call_oracle_from_method(_bpe_kata_self, *args, _bpe_kata_oracle, **kwargs):
    return _bpe_kata_oracle(*args, **kwargs)


@contextlib.contextmanager
def swapped(implementation: object, operations: tuple[str, ...]) -> Iterator[bool]:
    """Inside, each of ``operations`` of the (in-process) implementation is the oracle's, wherever it is
    reached from; yields False, changing nothing, when one of them cannot be swapped (see the module's
    docstring). An operation that already is the oracle's is left as it is."""
    from spec import oracle

    target = fixed_pattern.unwrap(implementation)
    if isinstance(implementation, fixed_pattern.PatternFixed) and _SPLITTING & set(operations):
        yield False
        return
    changes: list[tuple[types.FunctionType, types.CodeType, dict | None]] = []
    for operation in operations:
        function, theirs = _function(target, operation), getattr(oracle, operation, None)
        if function is None or theirs is None:
            yield False
            return
        if _is_the_oracles(function):
            continue  # already the oracle's (a known-wrong file imports what it does not change); never swapped,
            # or the oracle would call itself
        method = getattr(getattr(target, operation), "__self__", None) is not None
        changes.append((function, function.__code__, function.__kwdefaults__))
        trampoline = _call_oracle_from_method if method else _call_oracle
        function.__code__ = trampoline.__code__
        function.__kwdefaults__ = {"_bpe_kata_oracle": theirs}
    _active.append(key(operations))
    try:
        yield True
    finally:
        _active.pop()
        for function, code, kwdefaults in reversed(changes):
            function.__code__, function.__kwdefaults__ = code, kwdefaults


def evidence(implementation: object, claims: tuple[str, ...], called: tuple[str, ...],
             rerun: Callable[[], None]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the swaps tried, those under which ``rerun`` passed): the failed test run again under each swap of
    ``plans``. A swap that cannot be made is not tried; a rerun that fails in any way does not clear."""
    tried, cleared = [], []
    for operations in plans(claims, called):
        with swapped(implementation, operations) as made:
            if not made:
                continue
            tried.append(key(operations))
            try:
                rerun()
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException:  # noqa: BLE001 - any failure (a skip too: the swap was refused): not cleared
                continue
            cleared.append(key(operations))
    return tuple(tried), tuple(cleared)


def after_failure(implementation: object, claims: tuple[str, ...], error: BaseException,
                  rerun: Callable[[], None]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``evidence`` for a test of ``claims`` that just failed with ``error`` (in process): the swaps of the
    prerequisites of the claims its failing check blamed (of every claim of the test, for an error), given the
    operations it called; the test's record of calls is left as the failure made it (the reruns' are not its)."""
    from bpe_kata.verdict import judging, recording

    if not claims or judging.only_not_implemented(error):
        return (), ()
    blamed = next((found for leaf in judging.leaves(error) if (found := judging.blamed_claims(leaf))), claims)
    record = recording.saved()
    try:
        return evidence(implementation, blamed, record[0], rerun)
    finally:
        recording.restore(record)
