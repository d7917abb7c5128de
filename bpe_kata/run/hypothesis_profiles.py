"""Hypothesis profiles: fast by default, thorough on CI, small and repeatable under mutmut.

Pick one with ``--hypothesis-profile NAME`` or ``HYPOTHESIS_PROFILE=NAME``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import InvalidArgument

# `bpe` is function-scoped only to report "not started"; it returns the same module for every example.
# print_blob: each failure names its example's choices, so a rerun for evidence replays that example alone
# (bpe_kata/run/example_replay.py, which takes the note off the failure shown).
_COMMON = dict(deadline=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

#: 40 examples per property per run: with random draws, repeated runs keep exploring (the
#: suite's known-wrong implementations are all caught by the derandomized 25 of 'fast').
settings.register_profile("default", max_examples=40, **_COMMON)
settings.register_profile("ci", max_examples=150, derandomize=True, database=None, **_COMMON)
settings.register_profile("mutmut", max_examples=25, derandomize=True, database=None, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
#: For runs that only need to know *whether* a claim fails (the suite's known-wrong runs): no shrinking.
settings.register_profile("fast", max_examples=25, derandomize=True, database=None,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate], **_COMMON)


def load_profile_from_environment() -> None:
    """Load ``$HYPOTHESIS_PROFILE`` (default: 'default'); ``--hypothesis-profile`` overrides it."""
    name = os.environ.get("HYPOTHESIS_PROFILE", "default")
    try:
        settings.load_profile(name)
    except InvalidArgument:
        raise SystemExit(f"HYPOTHESIS_PROFILE={name!r} is not a profile of bpe-kata; "
                         "use default, ci, mutmut, thorough or fast") from None


def private_storage() -> None:
    """The loaded profile, keeping its example database in memory only, and Hypothesis's other files (its cache of the
    constants in source files) under the user's cache: a gate's verdict process writes nothing in the judged
    folder (Hypothesis's default home is ``./.hypothesis``, which a committed symlink could send anywhere)."""
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.database import InMemoryExampleDatabase

    from bpe_kata.data.corpora import user_cache_dir

    set_hypothesis_home_dir(user_cache_dir() / "hypothesis")
    # In memory, not none: a failed test run again for evidence (bpe_kata/verdict/reruns.py) replays the example
    # it failed on first, so "it passes in another form" is said of that example, not of fresh random draws.
    settings.register_profile("bpe-kata-isolated", parent=settings.default, database=InMemoryExampleDatabase())
    settings.load_profile("bpe-kata-isolated")
