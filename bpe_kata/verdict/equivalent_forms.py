"""The defects behind a crash: a test that crashed is run again with its calls in their equivalent forms (issue 37,
kind 2).

A crash hides every defect behind it: the tests meeting it "could not run". Two crashes are common in code nobody
here wrote. Code written for a course that always passes ``<|endoftext|>`` crashes when no special token is given
(``special_tokens[0]``, a ``None`` iterated); code that takes the max of its pair counts crashes once no pair is left
(minbpe's own loop). Two equivalences close the kind, each true of every right implementation:
- a special token that never occurs in the text changes nothing in a right table or a right encoding
  (spec/CONTRACT.md, train's and encode's ``special_tokens``: the text is cut where a special occurs, the table
  holds merges only), so a call of train, encode, encode_iterable or build_vocab that gives no special is given
  ``ABSENT`` (allowed, with an id beyond every other);
- asked for more merges than the text allows, training stops when no pair is left, so a train call's vocab_size
  beyond that is the largest the text allows (``capping``: as many merges as the oracle makes to the end, with the
  same split, tie rule and specials; texts of at most ``CAP_BYTES``). A trainer with another tie rule may allow
  fewer or more; fewer stops it early (a prefix of its own table), more crashes it again (no evidence).
A check that then fails is a defect of its own behind the crash, charged to its claim; anything else (a pass, the
same crash, another error) leaves the test's crash as it was. A rerun can only turn a crash into a failed check,
never into a pass, so a gate's verdict is never softened by it. Without the cap, the same rerun is the evidence that
a failed check is training without specials' (``only_without_specials``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from bpe_kata.verdict.judging import leaves
from spec.blame import blamed_claims

#: A special token no text of the spec holds (a private-use code point between markers).
ABSENT = "<|bpe-kata:\ue000absent|>"
#: The operations whose calls without specials have an equivalent form with ``ABSENT``.
REWRITTEN = frozenset({"train", "encode", "encode_iterable", "build_vocab"})

#: Texts of at most this many bytes have their vocab_size capped (the oracle trains them to the end first).
CAP_BYTES = 4000

_active = [False]
_capping = [False]
_ops = [REWRITTEN]


@contextlib.contextmanager
def rewriting(capping: bool = False, ops: frozenset[str] = REWRITTEN) -> Iterator[None]:
    """Inside, ``rewrite`` gives calls of ``ops`` without specials their equivalent form, and with ``capping`` a
    train call asked for more merges than its text allows the vocab_size it allows."""
    _active[0], _capping[0], _ops[0] = True, capping, ops
    try:
        yield
    finally:
        _active[0] = _capping[0] = False
        _ops[0] = REWRITTEN


def active() -> tuple[str, ...]:
    """The forms in force during a rerun: a session cache keys on them (a table trained in an equivalent form is
    another entry than the crash the first run cached)."""
    return (("absent-special",) if _active[0] else ()) + (("capped",) if _capping[0] else ())


def call(implementation: object, name: str, *args: Any, **kwargs: Any) -> Any:
    """``implementation.name(*args, **kwargs)``, in its equivalent form during a rerun (the session fixtures call
    the implementation directly, not through the test's recorder)."""
    rewritten = rewrite(name, args, kwargs)
    if rewritten is None:
        return getattr(implementation, name)(*args, **kwargs)
    args, kwargs, read = rewritten
    return read(getattr(implementation, name)(*args, **kwargs))


def has_specials(kwargs: dict) -> bool:
    return bool(kwargs.get("special_tokens"))


def _free_id(args: tuple, kwargs: dict) -> int:
    """An id beyond the table's (its ids and its pairs' parts) and the specials', for ``ABSENT``."""
    merges = args[1] if len(args) > 1 else kwargs.get("merges")
    if len(args) == 1 and "merges" not in kwargs:  # build_vocab(merges)
        merges = args[0]
    ids = [255]
    if isinstance(merges, dict):
        for pair, idx in merges.items():
            ids.extend(value for value in (*pair, idx) if isinstance(value, int))
    return max(ids) + 1


def rewrite(name: str, args: tuple, kwargs: dict) -> tuple[tuple, dict, Callable[[Any], Any]] | None:
    """The call's equivalent form, and how to read its result as the original's; None when there is nothing to
    rewrite (not in a rerun, an operation with no such form, a call with specials and room, a text that could hold
    ``ABSENT``)."""
    if not _active[0] or name not in _ops[0]:
        return None
    if name == "train":
        return _train_form(args, kwargs)
    if has_specials(kwargs):
        return None
    idx = _free_id(args, kwargs)
    if name == "build_vocab":
        def without(vocab):
            return {key: value for key, value in vocab.items() if key != idx} if isinstance(vocab, dict) else vocab
        return args, {**kwargs, "special_tokens": {ABSENT: idx}}, without
    text = args[0] if args else kwargs.get("text" if name == "encode" else "texts")
    if name == "encode" and (not isinstance(text, str) or ABSENT in text):
        return None
    if name == "encode_iterable":
        if not isinstance(text, (list, tuple)) or any(not isinstance(t, str) or ABSENT in t for t in text):
            return None  # a stream is read once: only a list of texts can be looked through first
    allowed = kwargs.get("allowed_special", frozenset())
    allowed = allowed if allowed == "all" else {*allowed, ABSENT}
    return args, {**kwargs, "special_tokens": {ABSENT: idx}, "allowed_special": allowed}, lambda result: result


def _train_form(args: tuple, kwargs: dict) -> tuple[tuple, dict, Callable[[Any], Any]] | None:
    text = args[0] if args else kwargs.get("text")
    size = args[1] if len(args) > 1 else kwargs.get("vocab_size")
    if not isinstance(text, str) or ABSENT in text:
        return None
    kwargs = dict(kwargs)
    changed = not has_specials(kwargs)
    if changed:
        kwargs["special_tokens"] = [ABSENT]
    most = _most_merges(text, kwargs) if _capping[0] and isinstance(size, int) and size > 256 else None
    if most is not None and size > 256 + most:
        size, changed = 256 + most, True
        args, kwargs = ((args[0], size, *args[2:]), kwargs) if len(args) > 1 else (args, {**kwargs, "vocab_size": size})
    return (args, kwargs, lambda result: result) if changed else None


def _most_merges(text: str, kwargs: dict) -> int | None:
    """How many merges the oracle makes on ``text`` before no pair is left (the call's pattern and specials, the
    split and tie rule in force), or None for a text too long to train to the end here."""
    from spec import oracle

    try:
        size = len(text.encode("utf-8"))
        if size > CAP_BYTES:
            return None
        return len(oracle.train(text, 256 + size, pattern=kwargs.get("pattern"),
                                special_tokens=list(kwargs.get("special_tokens") or []) or None))
    except Exception:  # noqa: BLE001 - a text or pattern the oracle refuses: no cap
        return None


def rerun_reaches(form: str) -> bool:
    """The test's last raising call, of this form (``recording.call_form``: ``train+pattern``), has an equivalent
    form: any train call (its vocab_size capped, or given ``ABSENT``), or another operation ``rewrite`` takes called
    with no special token."""
    name, *keywords = form.split("+") if form else ("",)
    return name == "train" or (name in REWRITTEN and "special_tokens" not in keywords)


def behind_the_crash(error: BaseException, rerun: Callable[[], None], is_check: Callable[[BaseException], bool],
                     form: str, shown: str, worth: Callable[[], bool] = lambda: True) -> BaseException | None:
    """The failed check the test meets once its calls without specials take ``ABSENT``, or None (the crash stands).
    ``form`` and ``shown``: the last call that raised, its form and as typed; ``worth``: asked last, whether a rerun
    is still worth its time. The check carries a note saying how it was reached and what crashed first."""
    if is_check(error) or not rerun_reaches(form) or not worth():
        return None
    first = str(error).strip().splitlines()[0][:160] if str(error).strip() else ""
    crash = f"{type(error).__name__}: {first}" if first else type(error).__name__
    try:
        with rewriting(capping=True):
            rerun()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as found:  # noqa: BLE001 - only a failed check of the spec counts
        if not is_check(found):
            return None
        found.add_note(f"found behind a crash: {shown} raised {crash}; run again with the special token "
                       f"{ABSENT!r}, which never occurs in the text, given to every call that had none, and each "
                       "training asked for no more merges than its text allows (a right implementation answers "
                       "alike), this check failed")
        return found
    return None


#: The claim a failure of training without special tokens alone breaks (its equivalent form learns right).
WITHOUT_SPECIALS_CLAIM = "train.no-implicit-specials"
#: The same for encoding without special tokens (its equivalent form encodes right).
ENCODE_WITHOUT_SPECIALS_CLAIM = "encode.no-implicit-specials"
#: The reruns tried, in order: (the operations whose calls without specials take ``ABSENT``, the claim charged when
#: the check then passes). One path at a time, so the blame goes to the path that fails (tenth round, development:
#: an encode that cut every character without specials was charged to four encode claims, its tests training
#: nothing); both at once last, for code whose two paths share the cut (charged to training, as before).
PATHS = ((frozenset({"train", "build_vocab"}), WITHOUT_SPECIALS_CLAIM),
         (frozenset({"encode", "encode_iterable", "build_vocab"}), ENCODE_WITHOUT_SPECIALS_CLAIM),
         (REWRITTEN, WITHOUT_SPECIALS_CLAIM))


def called_without_specials(forms: tuple[str, ...], ops: frozenset[str]) -> bool:
    """Among the call forms that returned in the test (``recording.returned``), a call of ``ops`` with no special."""
    return any(form.split("+")[0] in ops and "special_tokens" not in form.split("+")[1:] for form in forms)


def trained_without_specials(forms: tuple[str, ...]) -> bool:
    return called_without_specials(forms, frozenset({"train"}))


def only_without_specials(error: BaseException, rerun: Callable[[], None], is_check: Callable[[BaseException], bool],
                          forms: tuple[str, ...], replay_of: Callable[[BaseException], Callable[[], None] | None]
                          = lambda leaf: None) -> list[tuple[BaseException, str, frozenset[str], str]]:
    """For each failed check in ``error``: (the check, ``PASSED``, nothing, the path's claim) when it goes away once
    one path's calls without specials (``PATHS``) take ``ABSENT``: the defect is that path without special tokens (a
    no-specials path that learns nothing, cuts a hard-coded special or every character), whatever claim the check
    was about (held out, fifth round: a trainer whose no-specials path swallowed its workers' errors and learned
    nothing had 50 tests charged to the early stop). (the check, ``FAILED``, the claims of the checks that failed in
    the last form tried, ""): evidence that no such path explains a check of those claims; a check of another claim
    that the rerun reached only once the first one passed says nothing of it. (the check, "", nothing, "") when the
    reruns crashed (no evidence either way), once more with each training capped to the merges its text allows
    (eleventh round, development: a trainer that crashes once no pair is left met that crash in the rerun), unless
    the check is of a claim the cap hides. Each check is run again on its own example where ``replay_of`` gives
    its replay (a property's failing example: bpe_kata/run/example_replay.py), else the whole test is (a worked
    case: its one call); nothing is tried for a path the test did not call without specials."""
    checks = [leaf for leaf in leaves(error) if is_check(leaf)]
    paths = [(ops, claim) for ops, claim in PATHS[:2] if called_without_specials(forms, ops - {"build_vocab"})]
    paths += PATHS[2:] if len(paths) == 2 else []  # both paths called: both at once, last
    if not checks or not paths:
        return []
    found = []
    for check in checks:
        again: tuple[str, frozenset[str]] = ("", frozenset())
        replay = getattr(check, CALL_REPLAY, None) or replay_of(check) or rerun
        for ops, claim in paths:
            again = _in_form(replay, is_check, ops)
            if again[0] == "" and not set(blamed_claims(check) or ()) & CAP_HIDES:  # it crashed: once more, capped
                again = _in_form(replay, is_check, ops, capping=True)
            if again[0] == PASSED:
                found.append((check, PASSED, frozenset(), claim))
                break
        else:
            found.append((check, *again, ""))
    return found


#: On a failed check made the moment a call returned (spec/early_stop.py, spec/split_check.py): that call asked again,
#: the check's own replay (eleventh round, development: the test run again met another defect after it, and the
#: check's evidence was lost).
CALL_REPLAY = "bpe_kata_call_replay"
#: The claims a capped rerun cannot speak for: capped, no training runs out of pairs.
CAP_HIDES = frozenset({"train.exhausted"})


def _in_form(rerun: Callable[[], None], is_check: Callable[[BaseException], bool],
             ops: frozenset[str] = REWRITTEN, capping: bool = False) -> tuple[str, frozenset[str]]:
    """``rerun`` with the calls of ``ops`` without specials given ``ABSENT``: passed, failed (and the claims
    failed), or ""."""
    try:
        with rewriting(capping=capping, ops=ops):
            rerun()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as again:  # noqa: BLE001 - failing in the equivalent form too: the check's own claim stands
        if not any(is_check(leaf) for leaf in leaves(again)):
            return "", frozenset()
        return FAILED, frozenset(claim for leaf in leaves(again) if is_check(leaf)
                                 for claim in blamed_claims(leaf) or ())
    return PASSED, frozenset()


#: What ``only_without_specials`` found: the check passed in the equivalent form, or failed there too.
PASSED, FAILED = "passed", "failed"

