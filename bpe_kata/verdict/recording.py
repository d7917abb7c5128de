"""Which of the implementation's operations the running test called (issue 21: prerequisites judged by the run).

A claim's failure is "not judged" when a prerequisite it rests on is broken and the failing test could have
met that prerequisite's defect. The ledger says which claims a test *may* exercise; this record says which
operations it *did* call (``train``, then ``build_vocab`` on the table it learned, say), so an error in an
encode that never met a trainer is not blamed on the trainer. The spec's calls go through ``Recorder``,
which forwards everything else untouched: the implementation sees the same calls, in the same order.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from bpe_kata.verdict import equivalent_forms, malformed

#: The contract's operations whose calls are recorded (spec/CONTRACT.md).
OPERATIONS = frozenset({"get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "save",
                        "load", "train_words", "segment_word"})
#: Classes whose construction counts as a call (``count``); the instance is the implementation's own, as it is.
CLASSES = frozenset({"StreamDecoder"})

_calls: list[str] = []
#: The last call into the implementation that raised, as it would be typed: ``train('', 256)``. Hypothesis
#: replays its shrunk example last, so after a failed property this is the smallest crashing call
#: (bpe_kata/verdict/crash_probes.py re-runs the behaviour it names; the report prints it).
_raised: list[tuple[str, str, str]] = []  # (the call as typed, the exception's type name, its keywords as JSON)
#: As spec/early_stop.py: a table is replayed on a text only while (merges + 1) x bytes stays under this.
REPLAY_BUDGET = 5_000_000
#: At most this many characters of a call are kept: an input is shown, not stored.
SHOWN_CHARS = 200
_count = [0]
#: The call forms that returned in this test with an answer that shows the call works (``shows_it_works``; a crash
#: on "every call" of a form needs none to have).
_answered: set[str] = set()
#: The call forms that returned at all on a non-empty input (a rerun in an equivalent form needs one).
_returned: set[str] = set()
#: The call form (``call_form``) of the last call that raised in this test ("" none).
_raised_form = [""]


def reset() -> None:
    """A new test starts: forget the previous test's calls."""
    _calls.clear()
    _raised.clear()
    _answered.clear()
    _returned.clear()
    _raised_form[0] = ""
    _count[0] = 0


def answered() -> tuple[str, ...]:
    """The call forms that returned a result since ``reset`` (held out: a trainer that raised only without special
    tokens was said to raise on every call, though the run's trainings with them had returned)."""
    return tuple(sorted(_answered))


def returned() -> tuple[str, ...]:
    """The call forms that returned on a non-empty input since ``reset``, whatever they answered."""
    return tuple(sorted(_returned))


def call_form(name: str, kwargs: dict) -> str:
    """The operation and the keyword arguments given a value (``train+special_tokens``): a crash that every call of
    one form raises, while calls of another form return, is that form's (code that reads ``special_tokens[0]``)."""
    given = sorted(key for key, value in kwargs.items()
                   if value is not None and not (isinstance(value, (str, list, tuple, dict, set, frozenset))
                                                 and not value))
    return "+".join([name, *given])


def is_trivial(args: tuple) -> bool:
    """The call's input is empty (``encode('')``, ``decode([])``): an answer to it says nothing of whether the call
    works (held out: an encode that raised on every text but '' was not every call's crash, and its crash was
    charged to encode.lowest-rank, whose test drew it)."""
    return bool(args) and isinstance(args[0], (str, bytes, list, tuple)) and len(args[0]) == 0


def shows_it_works(name: str, args: tuple, result: object) -> bool:
    """An answer that shows the call works at all: not one on empty input (``is_trivial``), and for ``train`` a table
    with a merge in it. A trainer that crashes whenever it merges answers every call that asks no merge
    (``train(text, 256)``): held out, sixth round, a trainer that took the max of counts it never filled was said
    to crash only when no pair was left, since such calls had returned, and fix first named train.exhausted."""
    if is_trivial(args):
        return False
    if name == "train":
        try:
            return len(result) > 0  # type: ignore[arg-type]
        except TypeError:
            return True  # a table that is not sized: judged elsewhere (malformed.py), not evidence of a crash
    return True


def form_operation(form: str) -> str:
    return form.split("+", 1)[0]


def raised(type_name: str = "") -> str:
    """The last call that raised in this test (of those that raised ``type_name``, when given), as it would be
    typed (``""``: none did). A test may meet several errors (one it expects, under ``pytest.raises``): the
    crashing call shown for a root cause is one that raised the cause's own type."""
    for shown, raised_type, _ in reversed(_raised):
        if not type_name or raised_type == type_name:
            return shown
    return _raised[-1][0] if _raised else ""  # a fault of the child's (killed, timed out) has no type of its own


def raised_keywords(type_name: str = "") -> str:
    """The keyword arguments of the call ``raised`` names, as JSON (the plain ones: texts, numbers, lists of texts),
    so the direct probes re-run the crashing behaviour in the same form (bpe_kata/verdict/crash_probes.py; held out:
    a trainer given special tokens crashed once no pair was left, and the probes, called without them, met its
    other crash)."""
    for _, raised_type, keywords in reversed(_raised):
        if not type_name or raised_type == type_name:
            return keywords
    return _raised[-1][2] if _raised else ""


def _plain_keywords(kwargs: dict) -> str:
    """``kwargs`` as JSON, keeping only values a probe can be given again (texts, numbers, lists of texts)."""
    def plain(value: object) -> bool:
        if isinstance(value, (list, tuple, set, frozenset)):
            return len(value) <= 16 and all(isinstance(item, str) and len(item) <= 200 for item in value)
        return value is None or isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= 400)

    kept = {key: sorted(value) if isinstance(value, (set, frozenset)) else
            list(value) if isinstance(value, tuple) else value for key, value in kwargs.items() if plain(value)}
    return json.dumps(kept, sort_keys=True) if kept else ""


def shown_call(name: str, args: tuple, kwargs: dict | None = None) -> str:
    """``name(arg, ...)`` with each argument's repr, cut to ``SHOWN_CHARS``."""
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in (kwargs or {}).items()]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 4] + " ...)"


def note(operation: str) -> None:
    """The running test used ``operation``'s result (a session fixture's cached table counts as a call)."""
    _count[0] += 1
    if not _calls or _calls[-1] != operation:
        _calls.append(operation)


def calls() -> tuple[str, ...]:
    """The operations called since ``reset``, in order (a repeated call once)."""
    return tuple(_calls)


def _short(value: Any, items: int = 60) -> str:
    """A value's repr, a long text or table cut first (a corpus is never repr'd whole)."""
    if isinstance(value, (str, bytes, list, tuple)) and len(value) > items:
        return f"{value[:items]!r}... ({len(value)} long)"
    if isinstance(value, dict) and len(value) > items // 4:
        return f"<table of {len(value)} entries>"
    return repr(value)


def count() -> int:
    """How many calls reached the implementation since ``reset`` (issue 37: a claim passes only on them; a
    test that ran only the suite's own checks witnessed nothing about the implementation)."""
    return _count[0]


def answered_form(form: str, works: bool = True) -> None:
    """A call of ``form`` returned for this test outside the recorder (a session fixture's table); ``works``: its
    answer shows the call works (``shows_it_works``)."""
    _returned.add(form)
    if works:
        _answered.add(form)


def raised_form() -> str:
    """The form (``call_form``) of the last call that raised in this test, "" when none did."""
    return _raised_form[0]


def saved() -> tuple:
    """The record so far, to put back after a run that must not count (a rerun under a swap or another form)."""
    return tuple(_calls), _count[0], tuple(_raised), frozenset(_answered), _raised_form[0], frozenset(_returned)


def restore(record: tuple) -> None:
    _calls[:] = record[0]
    _count[0] = record[1]
    _raised[:] = record[2]
    _answered.clear()
    _answered.update(record[3])
    _raised_form[0] = record[4]
    _returned.clear()
    _returned.update(record[5])


class Recorder:
    """The implementation as a test sees it: each operation called is noted, then the call is passed on."""

    def __init__(self, implementation: object) -> None:
        object.__setattr__(self, "_bpe_kata_wrapped", implementation)

    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_bpe_kata_wrapped"), name)
        if name in CLASSES and callable(value):
            def constructed(*args, **kwargs):
                _count[0] += 1
                return value(*args, **kwargs)

            return constructed
        if name not in OPERATIONS or not callable(value):
            return value

        @functools.wraps(value)
        def recorded(*args, **kwargs):
            given = (args, kwargs)
            if name in malformed.FED:  # a malformed table train returned is train's failure, not this call's
                malformed.refuse_fed(name, args, kwargs)
            note(name)
            rewritten = equivalent_forms.rewrite(name, args, kwargs)  # only in a rerun behind a crash
            if rewritten is not None:
                args, kwargs, read = rewritten
            try:
                result = value(*args, **kwargs)
                malformed.refuse_unreadable_ids(name, result)
            except BaseException as error:
                kind = getattr(error, "bpe_kata_type", None) or type(error).__name__  # a child's, through the client
                _raised.append((shown_call(name, args, kwargs), kind, _plain_keywords(kwargs)))
                _raised_form[0] = call_form(name, kwargs)
                del _raised[:-8]  # the last few are enough to find the cause's own
                raise
            if rewritten is not None:
                result = read(result)
            if not is_trivial(args):
                _returned.add(call_form(name, kwargs))
            if shows_it_works(name, args, result):
                _answered.add(call_form(name, kwargs))
            try:
                if name == "train":  # a table that stopped short is one claim's failure, whatever test drew it
                    check_trained_call(args, kwargs, result, value)
                elif name == "encode":  # so is an encoder that cuts otherwise than the pattern
                    check_encoded_call(args, kwargs, result, value)
            except AssertionError as failure:  # a rerun asks this call again, not the test (equivalent_forms.py)
                setattr(failure, equivalent_forms.CALL_REPLAY, lambda: recorded(*given[0], **given[1]))
                raise
            return result

        return recorded

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_bpe_kata_wrapped"), name, value)

    def __repr__(self) -> str:
        return repr(object.__getattribute__(self, "_bpe_kata_wrapped"))


def check_trained_call(args: tuple, kwargs: dict, result: object, train: Any = None) -> None:
    """``train(text, vocab_size, pattern=...)``'s table, noted when its form is wrong (bpe_kata/verdict/malformed.py)
    and checked for a split other than the asked one and for an early stop (spec/early_stop.py); ``train`` is
    asked again, with more room, only to tell a trainer that never merges its own tokens from one that stops one
    merge short, and on a small text only to tell a trainer that cuts every character apart from one that
    learns nothing."""
    from spec.early_stop import check_trained

    text = args[0] if args else kwargs.get("text")
    vocab_size = args[1] if len(args) > 1 else kwargs.get("vocab_size")
    malformed.note_trained(result, lambda: _pair_learned_again(text, vocab_size, result, kwargs))  # its claim's
    cut_from = None
    if kwargs.get("special_tokens"):  # learned from the pieces between specials: those are what it is checked on
        try:
            from spec.oracle.special import documents

            cut_from = (text, list(kwargs["special_tokens"]))
            text = documents(text, cut_from[1])
        except Exception:  # noqa: BLE001 - specials the oracle refuses: train.special-tokens's tests judge them
            return
    options = {key: value for key, value in kwargs.items() if key not in ("text", "vocab_size")}
    retrain = (lambda size: train(text, size, **options)) if train is not None else None
    train_on = (lambda other, size: train(other, size, **options)) if train is not None else None
    check_trained(text, vocab_size, result, kwargs.get("pattern"), retrain, train_on, cut_from)


def _pair_learned_again(text: object, vocab_size: object, result: object, kwargs: dict) -> str | None:
    """The claim a malformed table breaks when it is a pair learned twice (spec/cases/expect.py), on the text as the
    trainer learned it (cut at the specials asked)."""
    from spec.shapes import merges_of
    from spec.table_ids import pair_learned_again

    if not isinstance(text, str) or not isinstance(vocab_size, int) or not isinstance(result, Mapping):
        return None
    if (len(result) + 1) * len(text.encode("utf-8", "surrogatepass")) > REPLAY_BUDGET:
        return None  # a corpus: left to the form's own claim
    if kwargs.get("special_tokens"):
        from spec.oracle.special import documents

        text = documents(text, list(kwargs["special_tokens"]))
    return pair_learned_again(text, merges_of(result), vocab_size, kwargs.get("pattern"))


def check_encoded_call(args: tuple, kwargs: dict, result: object, encode: Any = None) -> None:
    """``encode(text, merges, pattern=...)``'s ids, checked for a split other than the asked one
    (spec/split_check.py); ``encode`` is asked again, on a variant's probe, only for the evidence of a split."""
    from spec.split_check import check_encoded

    text = args[0] if args else kwargs.get("text")
    merges = args[1] if len(args) > 1 else kwargs.get("merges")
    options = {key: value for key, value in kwargs.items() if key not in ("text", "merges")}
    encode_on = (lambda other, table: encode(other, table, **options)) if encode is not None else None
    check_encoded(text, merges, result, options, encode_on)


def unwrap(implementation: object) -> object:
    return object.__getattribute__(implementation, "_bpe_kata_wrapped") if isinstance(implementation, Recorder) \
        else implementation
