"""A crash is blamed on the behaviour that crashed, not on the claim whose test drew the input (issue 37, kind 2).

A property draws an empty text for ``train.prefix``; a corpus curve encodes a one-letter chunk: which claim's test drew
the input says nothing. So, once the run is over, each root cause raised in a contract call is put to DIRECT PROBES:
that call on the smallest inputs the contract defines (training with no pair left or no text, encoding nothing or one
character, get_stats or merge of nothing, decoding an id no table has). A probe that raises the same exception at the
same place (``causes.cause_key``) reproduces the crash, unless its control (the same call just past the behaviour: one
merge with pairs left, two characters) raises it too, which makes it the call's crash, not the behaviour's; the cause
is then blamed on the probe's claim, with the probe's input printed. A cause raised by a probe, its control AND an
ordinary call (``ORDINARY``) is the call's on every input (an ``encode`` written without ``self``): blamed on no claim,
and the report says the call crashes whatever the input. "Every call" is every call of one form, the operation with the
same keyword arguments given (``recording.call_form``): train's crash on every call without special tokens, where its
calls with them returned, is training without specials' (train.no-implicit-specials). One line raising for two
behaviours is split by the call's form (``split_by_form``). An answer on empty input (``encode('')``) says nothing of
whether the call works; a train that crashes whenever it merges crashes on every call that is not empty. A probe that
raises something else, or nothing, says nothing: the cause keeps the claim its tests point to.

Each probe runs once per run, after the last test, with a time limit, and all of them within a budget; nothing runs on a
run with no error.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bpe_kata.verdict import judging, malformed, recording
from bpe_kata.verdict.equivalent_forms import ENCODE_WITHOUT_SPECIALS_CLAIM, WITHOUT_SPECIALS_CLAIM
from spec import oracle
from spec.patterns import PATTERNS

if TYPE_CHECKING:
    from bpe_kata.verdict.tallies import Results

Pair = tuple[int, int]


@dataclass(frozen=True)
class DirectProbe:
    """One smallest behaviour: the claim it is, the call, and the errors that are right answers to it."""

    claim: str
    call: str
    args: tuple
    #: the same call on an input just past the behaviour (one merge with pairs left, two characters): raising the
    #: same error there too, the crash is not this behaviour's but the call's (a train that cannot merge at all)
    control: tuple
    allowed: tuple[type[BaseException], ...] = ()  # raising one of these is the contract's answer, no crash
    #: keywords of both calls: a split pattern (a port may train through another class when given one)
    keywords: tuple[tuple[str, object], ...] = ()

    def shown(self) -> str:
        return recording.shown_call(self.call, self.args, dict(self.keywords))


_TABLE: dict[Pair, int] = {(104, 105): 256}  # "hi": a table that has merges, none of which a lone "h" meets
_VOCAB = oracle.build_vocab({})

#: The smallest behaviours, by the contract call they are about (spec/claims.toml states each).
PROBES: tuple[DirectProbe, ...] = (
    DirectProbe("train.exhausted", "train", ("", 300), ("ab", 257)),
    DirectProbe("train.exhausted", "train", ("a", 300), ("ab", 257)),
    DirectProbe("train.exhausted", "train", ("ab", 1000), ("ab", 257)),
    *(DirectProbe("train.exhausted", "train", args, ("ab cd", 257), keywords=(("pattern", pattern),))
      for pattern in PATTERNS.values() for args in (("", 300), ("ab", 1000))),
    DirectProbe("encode.short-input", "encode", ("", {}), ("hi", {})),
    DirectProbe("encode.short-input", "encode", ("h", {}), ("hi", {})),
    # the control meets no pair of the table either: an encode that raises for a table pair its text lacks
    # raises there too, and that crash is the call's, not short input's
    DirectProbe("encode.short-input", "encode", ("", _TABLE), ("hhh", _TABLE)),
    DirectProbe("encode.short-input", "encode", ("h", _TABLE), ("hhh", _TABLE)),
    DirectProbe("pairs.short-input", "get_stats", ([],), ([7, 8],)),
    DirectProbe("pairs.short-input", "get_stats", ([7],), ([7, 8],)),
    DirectProbe("merge.end-guard", "merge", ([], (1, 2), 9), ([1, 2, 3], (1, 2), 9)),
    DirectProbe("merge.end-guard", "merge", ([1], (1, 2), 9), ([1, 2, 3], (1, 2), 9)),
    DirectProbe("merge.end-guard", "merge", ([1, 2], (1, 2), 9), ([1, 2, 3], (1, 2), 9)),
    DirectProbe("decode.unknown-id", "decode", ([300], _VOCAB), ([104], _VOCAB),
                allowed=(KeyError, ValueError, IndexError)),
)


#: An ordinary call of each operation, which any working implementation answers: a cause raised by a probe,
#: its control and this call too is raised by every call (a method written without ``self``). Train's text has
#: a multi-byte character and asks one merge: a trainer that cuts every character apart still has a pair there,
#: so its crash on ASCII (no pair left) is not taken for a crash of every call.
ORDINARY: dict[str, tuple] = {
    "train": ("ab ab é", 257),
    "encode": ("hi hi", _TABLE),
    "get_stats": ([1, 2, 1, 2],),
    "merge": ([1, 2, 3, 1, 2], (1, 2), 9),
    "decode": ([104, 105], _VOCAB),
}


@dataclass(frozen=True)
class Reproduced:
    """A direct probe raised a root cause's own error: the cause is that probe's claim's ("" when the probe's
    control raised it too: the call's crash on every input, no behaviour's)."""

    claim: str
    probe: str  # the probe's call, as typed (for every input: the probe's and its control's)
    #: for every input of one form only: which calls crash and which returned (`` without special_tokens (calls
    #: with special_tokens returned)``); empty when no call of the operation returned at all
    scope: str = ""
    #: for a crash of one form of the call (``split_by_form``): the same control in the other form, which returned
    contrast: str = ""


def probe(results: Results, implementation, run: Callable | None = None) -> dict[tuple[str, ...], Reproduced]:
    """Cause key -> the direct probe that reproduced it, for each root cause raised in a call a probe is about."""
    from bpe_kata.verdict import causes, teaching

    keys = {causes.cause_key(v) for v in results.verdicts.values() if v.kind == judging.ERROR and v.call}
    if not keys or implementation is None:
        return {}
    connect = getattr(implementation, "connect", None)
    if callable(connect):  # the isolated client starts its child on first use
        try:
            connect()
        except BaseException:
            return {}
    run = _within(BUDGET_SECONDS, run or (lambda question, name: teaching.run_callable(question, name, PROBE_SECONDS)))
    found: dict[tuple[str, ...], Reproduced] = {}
    found_by: dict[tuple[str, ...], tuple[DirectProbe, dict]] = {}  # reproduced, its control working: probe and form
    past: dict[tuple[str, ...], list[tuple[DirectProbe, dict]]] = {}  # its control raised it too: probe and form
    every_call: dict[tuple[str, ...], tuple[Reproduced, str]] = {}  # crashed on a probe and its control: and the form
    answered: set[str] = set()  # call forms that answered some probe without raising
    forms = _crash_forms(results)
    for base, form, direct in ((base, form, _with_form(base, form)) for form in forms for base in PROBES):
        if not any(key[2] == direct.call for key in keys if key not in found):
            continue
        verdict = run(lambda direct=direct: _raised(direct, direct.args, implementation), direct.shown())
        if verdict is False:
            break  # still running: the implementation is busy, no later probe can be trusted
        if isinstance(verdict, Returned) and verdict.works:  # an answer on empty input, or no merge, says nothing
            answered.add(recording.call_form(direct.call, dict(direct.keywords)))  # not every call's crash
        if not isinstance(verdict, judging.Verdict) or (key := causes.cause_key(verdict)) not in keys or key in found:
            continue
        control = run(lambda direct=direct: _raised(direct, direct.control, implementation), direct.shown())
        if control is False:
            break
        if not isinstance(control, judging.Verdict) or causes.cause_key(control) != key:  # the behaviour's own crash
            found[key] = Reproduced(direct.claim, direct.shown())
            if isinstance(control, Returned) and control.works:
                found_by[key] = (base, form)
        else:
            past.setdefault(key, []).append((base, form))  # just past the behaviour too: not (only) its crash
        if key not in found and key not in every_call and direct.call in ORDINARY:  # smallest input and past it
            ordinary = run(lambda direct=direct: _raised(direct, ORDINARY[direct.call], implementation),
                           recording.shown_call(direct.call, ORDINARY[direct.call]))
            if ordinary is False:
                break
            if isinstance(ordinary, judging.Verdict) and causes.cause_key(ordinary) == key:  # every call's
                shown = [recording.shown_call(direct.call, args, dict(direct.keywords))
                         for args in (direct.control, ORDINARY[direct.call])]
                every_call[key] = (Reproduced("", f"{direct.shown()}, {shown[0]} and {shown[1]}"),
                                   recording.call_form(direct.call, dict(direct.keywords)))
    answered |= results.answered  # a call that returned in the run's own tests does not crash on every input
    by_form, split = split_by_form(found_by, past, implementation, run)
    return {key: _of_form(shown, form, answered) for key, (shown, form) in every_call.items()
            if form not in answered} | by_form | found | split


def split_by_form(found_by: dict[tuple[str, ...], tuple[DirectProbe, dict]],
                  past: dict[tuple[str, ...], list[tuple[DirectProbe, dict]]], implementation,
                  run: Callable) -> tuple[dict[tuple[str, ...], Reproduced], dict[tuple[str, ...], Reproduced]]:
    """(causes reproduced, cause key + form -> the claim of that form's crashes). Without special tokens the probe's
    control (a pair left) raises too, so the crash there is not exhaustion's; given a special (the run's own, else
    ``PROBE_SPECIAL``, which no probe's text holds: it changes nothing in a right table) the control merges, so the
    form that merged names the other form's claim (``_form_claim``: training without specials); where the probe
    raises there too, that crash is exhaustion's. Those crashes are grouped and charged apart (``causes.group_key``);
    the others stay the behaviour's."""
    found: dict[tuple[str, ...], Reproduced] = {}
    split: dict[tuple[str, ...], Reproduced] = {}
    for key, crashed in past.items():
        for base, form in crashed:
            direct = _with_form(base, form)
            name = recording.call_form(direct.call, dict(direct.keywords))
            if direct.call != "train" or "special_tokens" in name.split("+")[1:] or key + (name,) in split:
                continue
            contrast = found_by.get(key)
            if contrast is None or "special_tokens" not in contrast[1]:
                absent = _with_form(base, {**form, "special_tokens": [PROBE_SPECIAL]})
                if not _merges(absent, absent.control, implementation, run):
                    continue
                contrast = (base, {**form, "special_tokens": [PROBE_SPECIAL]})
                if _raises(key, absent, absent.args, implementation, run):  # and there, once no pair is left
                    found.setdefault(key, Reproduced(base.claim, absent.shown()))
            merged = _with_form(*contrast)
            split[key + (name,)] = Reproduced(
                WITHOUT_SPECIALS_CLAIM, recording.shown_call(direct.call, direct.control, dict(direct.keywords)),
                contrast=recording.shown_call(merged.call, merged.control, dict(merged.keywords)))
    return found, split


def _merges(direct: DirectProbe, args: tuple, implementation, run: Callable) -> bool:
    """``direct``'s call on ``args`` returns an answer that shows it works (a table with a merge)."""
    answer = run(lambda: _raised(direct, args, implementation), direct.shown())
    return isinstance(answer, Returned) and answer.works


def _raises(key: tuple[str, ...], direct: DirectProbe, args: tuple, implementation, run: Callable) -> bool:
    """``direct``'s call on ``args`` raises the cause ``key`` (within the probes' time limit)."""
    verdict = run(lambda: _raised(direct, args, implementation), direct.shown())
    return isinstance(verdict, judging.Verdict) and _cause_key(verdict) == key


def _cause_key(verdict: judging.Verdict) -> tuple[str, ...]:
    from bpe_kata.verdict import causes

    return causes.cause_key(verdict)


def _of_form(shown: Reproduced, form: str, answered: set[str]) -> Reproduced:
    """``shown`` with its scope: the crash's form, when other forms of its call returned in the run."""
    operation = recording.form_operation(form)
    others = sorted(other for other in answered if recording.form_operation(other) == operation)
    if not others:
        return shown
    keywords = form.split("+")[1:]
    crashing = f"with {' and '.join(keywords)}" if keywords else "without keyword arguments"
    returned = "; ".join(" and ".join(other.split("+")[1:]) or "no keyword argument" for other in others)
    return Reproduced(_form_claim(operation, keywords, others), shown.probe,
                      f" {crashing} (calls with {returned} returned)")


def _form_claim(operation: str, keywords: list[str], others: list[str]) -> str:
    """The claim of a crash on every call of one form, when the forms that returned say which behaviour it is:
    train without special tokens, while calls with them returned, is training without specials (the same
    evidence as a check that passes once an absent special is given: ``equivalent_forms.only_without_specials``;
    held out, seventh round: a trainer that reads ``special_tokens[0]`` was charged no claim). "" otherwise."""
    with_specials = any({*keywords, "special_tokens"} <= set(other.split("+")[1:]) for other in others)  # the same
    if "special_tokens" not in keywords and with_specials:  # form and specials returned (a CS336 Tokenizer's sort)
        return {"train": WITHOUT_SPECIALS_CLAIM, "encode": ENCODE_WITHOUT_SPECIALS_CLAIM}.get(operation, "")
    return ""


#: Each probe's time limit: a CS336 trainer starts a pool of processes per call, and on a loaded machine its probe
#: ran past teaching's 5 s, losing the evidence of every later probe (ninth round's members, run again).
PROBE_SECONDS = 15.0

#: All the probes of a run together, past which none is asked (tenth round, holdout: a pool-per-call trainer's probes
#: kept the verdict phase going until the caller's time limit stopped the run before its report was written).
BUDGET_SECONDS = 60.0


def _within(seconds: float, run: Callable) -> Callable:
    """``run``, answering False (still running: no later probe is trusted) once ``seconds`` have passed in all."""
    deadline = time.monotonic() + seconds
    return lambda question, name: run(question, name) if time.monotonic() < deadline else False


#: The special token the probes give a trainer to see its form with specials: absent from every probe's text.
PROBE_SPECIAL = "<|s|>"

#: At most this many forms (keyword arguments of crashing calls) are probed besides the probes' own.
MAX_FORMS = 3


def _crash_forms(results: Results) -> list[dict]:
    """The keyword arguments the crashing calls were given (``Verdict.keywords``), the probes' own form first: a
    crash is probed in the form it happened in, since the same behaviour may crash otherwise without them (held
    out: a trainer that reads ``special_tokens[0]`` raised IndexError on the probes' calls, and its crash once no
    pair was left, raised only when given special tokens, was charged to no claim)."""
    forms: list[dict] = [{}]
    for verdict in results.verdicts.values():
        if verdict.kind != judging.ERROR or not verdict.keywords:
            continue
        try:
            form = json.loads(verdict.keywords)
        except ValueError:
            continue
        if isinstance(form, dict) and form not in forms and len(forms) <= MAX_FORMS:
            forms.append(form)
    return forms


def _with_form(direct: DirectProbe, form: dict) -> DirectProbe:
    """The probe with ``form``'s keyword arguments added (its own, a split pattern, stay as they are)."""
    return dataclasses.replace(direct, keywords=tuple({**form, **dict(direct.keywords)}.items()))


@dataclass(frozen=True)
class Returned:
    """A probe's call returned: ``works`` when the answer shows the call works at all (recording.shows_it_works)."""

    works: bool


def _raised(direct: DirectProbe, args: tuple, implementation) -> judging.Verdict | Returned | None:
    """The verdict on what ``direct``'s call on ``args`` raised (judged as a spec test's error is), what it returned,
    or None (no such call, or the contract's own error)."""
    function = getattr(implementation, direct.call, None)
    if not callable(function):
        return None
    try:
        result = function(*_fresh(args), **dict(direct.keywords))
        malformed.refuse_unreadable_ids(direct.call, result)  # as the tests' calls are read (recording.Recorder)
    except BaseException as error:  # noqa: BLE001  the client's faults are BaseException too
        from bpe_kata.child.client import IsolationFault
        from bpe_kata.verdict import fault_verdicts

        if direct.allowed and isinstance(error, direct.allowed):
            return None  # the contract's answer (an unknown id raises), not a crash
        if isinstance(error, IsolationFault):
            return fault_verdicts.fault_verdict(error, (), call=direct.call,
                                                input=recording.shown_call(direct.call, args, dict(direct.keywords)))
        return judging.judge(error, (), implementation, "")
    return Returned(recording.shows_it_works(direct.call, args, result))


def _fresh(args: tuple) -> tuple:
    """A copy of each argument: a probe never shares a list or table with another (an implementation may change
    its input)."""
    return tuple(dict(a) if isinstance(a, dict) else list(a) if isinstance(a, list) else a for a in args)
