"""The defects behind a crash: a test that crashed in a call without special tokens, run again with the call in its
equivalent form (issue 37, kind 2).

Code written for a course that always passes ``<|endoftext|>`` often crashes when no special token is given
(``special_tokens[0]``, a ``None`` iterated): every test calling train or encode without specials then "could not
run", and the defects behind the crash (stale counts, a missing ValueError, a wrong cut) went uncounted. One
equivalence closes the kind: a special token that never occurs in the text changes nothing in a right table or a
right encoding (spec/CONTRACT.md, train's and encode's ``special_tokens``: the text is cut where a special occurs,
the table holds merges only). So a test that crashed in such a call is run once more with every call of
train, encode, encode_iterable and build_vocab that gives no special token given ``ABSENT`` (allowed, with an
id beyond every other). A check that then fails is a defect of its own behind the crash, charged to its claim;
anything else (a pass, the same crash, another error) leaves the test's crash as it was. A rerun can only turn a
crash into a failed check, never into a pass, so a gate's verdict is never softened by it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

#: A special token no text of the spec holds (a private-use code point between markers).
ABSENT = "<|bpe-kata:\ue000absent|>"
#: The operations whose calls without specials have an equivalent form with ``ABSENT``.
REWRITTEN = frozenset({"train", "encode", "encode_iterable", "build_vocab"})

_active = [False]


@contextlib.contextmanager
def rewriting() -> Iterator[None]:
    """Inside, ``rewrite`` gives calls without specials their equivalent form."""
    _active[0] = True
    try:
        yield
    finally:
        _active[0] = False


def active() -> tuple[str, ...]:
    """("absent-special",) during a rerun: a session cache keys on it (a table trained in the equivalent form is
    another entry than the crash the first run cached)."""
    return ("absent-special",) if _active[0] else ()


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
    """The equivalent form of a call without specials, and how to read its result as the original's; None when the
    call has specials, is not rewritten, or its text could hold ``ABSENT``."""
    if not _active[0] or name not in REWRITTEN or has_specials(kwargs):
        return None
    if name == "train":
        text = args[0] if args else kwargs.get("text")
        if not isinstance(text, str) or ABSENT in text:
            return None
        return args, {**kwargs, "special_tokens": [ABSENT]}, lambda result: result
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


def crashed_without_specials(form: str) -> bool:
    """The test's last raising call, of this form (``recording.call_form``: ``train+pattern``), is one ``rewrite``
    takes: an operation it rewrites, called with no special token."""
    name, *keywords = form.split("+") if form else ("",)
    return name in REWRITTEN and "special_tokens" not in keywords


def behind_the_crash(error: BaseException, rerun: Callable[[], None], is_check: Callable[[BaseException], bool],
                     form: str, shown: str) -> BaseException | None:
    """The failed check the test meets once its calls without specials take ``ABSENT``, or None (the crash stands).
    ``form`` and ``shown``: the last call that raised, its form and as typed. The check carries a note saying how it
    was reached and what crashed first."""
    if is_check(error) or not crashed_without_specials(form):
        return None
    first = str(error).strip().splitlines()[0][:160] if str(error).strip() else ""
    crash = f"{type(error).__name__}: {first}" if first else type(error).__name__
    try:
        with rewriting():
            rerun()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as found:  # noqa: BLE001 - only a failed check of the spec counts
        if not is_check(found):
            return None
        found.add_note(f"found behind a crash: {shown} raised {crash}; run again with the special token "
                       f"{ABSENT!r}, which never occurs in the text, given to every call that had none (a right "
                       "implementation answers alike), this check failed")
        return found
    return None


#: The claim a failure of training without special tokens alone breaks (its equivalent form learns right).
WITHOUT_SPECIALS_CLAIM = "train.no-implicit-specials"


def trained_without_specials(forms: tuple[str, ...]) -> bool:
    """Among the call forms that returned in the test (``recording.answered``), a train call with no special."""
    return any(form.split("+")[0] == "train" and "special_tokens" not in form.split("+")[1:] for form in forms)


def only_without_specials(error: BaseException, rerun: Callable[[], None], is_check: Callable[[BaseException], bool],
                          forms: tuple[str, ...]) -> bool:
    """A failed check that goes away once train's calls without specials take ``ABSENT``: the defect is training
    without special tokens (a no-specials path that learns nothing, or cuts a hard-coded special), whatever claim
    the check was about (held out, fifth round: a trainer whose no-specials path swallowed its workers' errors and
    learned nothing had 50 tests charged to the early stop, a claim its other path keeps)."""
    if not is_check(error) or not trained_without_specials(forms):
        return False
    try:
        with rewriting():
            rerun()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - failing in the equivalent form too: the check's own claim stands
        return False
    return True

