"""A failed property's failing example, run again alone, so a rerun's evidence is about that example.

A failed test is run again for evidence (bpe_kata/verdict/reruns.py): with its calls without special tokens in their
equivalent form, "the check passes there" says the defect is training without specials. Run whole, a property draws
its examples again and may simply not meet the failing one: a pass that proves nothing (a CI run charged a split's
failure to train.no-implicit-specials so), or another example's crash that hides the answer (ninth round: a check on
'000\\x80' was never tried again, since the rerun met the empty text's exhaustion crash first). Hypothesis names each
failing example by its choices (``print_blob``, forced on by bpe_kata/run/hypothesis_profiles.py); ``replayer`` runs
the test on exactly those choices (``reproduce_failure``), and a replay that completes is a pass of that example.
The blob's note is taken off the failure shown to the learner, who does not own the spec's test functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis.errors import DidNotReproduce

from bpe_kata.verdict.judging import leaves

#: Hypothesis's note naming a failing example: ``@reproduce_failure('6.1.0', b'AXic...')``.
BLOB_NOTE = re.compile(r"@reproduce_failure\((?P<q>['\"])(?P<version>[^'\"]+)(?P=q), "
                       r"b(?P<p>['\"])(?P<blob>[A-Za-z0-9+/=]+)(?P=p)\)")

#: What Hypothesis says when a replayed example no longer fails.
COMPLETED = "completed successfully"


def blob_of(leaf: BaseException) -> tuple[str, bytes] | None:
    """The (Hypothesis version, blob) of the example ``leaf`` failed on, from its notes; None when not noted."""
    for note in getattr(leaf, "__notes__", ()):
        found = BLOB_NOTE.search(note)
        if found:
            return found["version"], found["blob"].encode("ascii")
    return None


def strip_blob_notes(*errors: BaseException | None) -> None:
    """Take the reproduce-the-example notes off ``errors`` and every failure inside them."""
    every = [raised for error in errors if error is not None for raised in (error, *leaves(error))]
    for raised in {id(e): e for e in every}.values():
        notes = getattr(raised, "__notes__", None)
        if notes:
            notes[:] = [note for note in notes if not BLOB_NOTE.search(note)]


def replayer(item: pytest.Item, rerun: Callable[[], None]) -> Callable[[BaseException], Callable[[], None] | None]:
    """For a failure of ``item`` (a Hypothesis test): ``rerun`` (the test run again) on the one example it failed on,
    or None when the failure names none. It raises what the example raises now, and returns when it passes."""
    test = getattr(item, "obj", None)

    def replay_of(leaf: BaseException) -> Callable[[], None] | None:
        blob = blob_of(leaf)
        if blob is None or not getattr(test, "is_hypothesis_test", False):
            return None

        def replay() -> None:
            before = getattr(test, "_hypothesis_internal_use_reproduce_failure", None)
            test._hypothesis_internal_use_reproduce_failure = blob
            try:
                rerun()
            except DidNotReproduce as passed:
                if COMPLETED not in str(passed):
                    raise  # the test's draws changed shape: no answer, as any other error
            finally:
                test._hypothesis_internal_use_reproduce_failure = before
        return replay

    return replay_of
