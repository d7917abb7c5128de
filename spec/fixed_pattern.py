"""Implementations that always split text with one pattern (spec/CONTRACT.md, "A fixed split pattern").

Much course code (CS336's, for one) pre-tokenizes every text with GPT-2's pattern and has no
``pattern=`` to turn it off or change it. Such code declares it with a module attribute
``FIXED_PATTERN`` (a published pattern's name, ``"gpt2"`` or ``"gpt4"``, or the regex itself;
over the protocol, the hello's ``fixed_pattern``). The spec then stands between the tests and
the implementation (``PatternFixed``): a call with the fixed pattern reaches the implementation
without the keyword, a call with another pattern cannot be judged, and a call with none is
judged only in a level whose checks hold whatever the split (``Level.split``, spec/levels.py).
A test that cannot be judged is "not started" with the reason, never failed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spec.patterns import PATTERNS

ATTRIBUTE = "FIXED_PATTERN"


class BadFixedPattern(ValueError):
    """``FIXED_PATTERN`` is neither a published pattern's name nor a regex string."""


def fixed_pattern(impl: object) -> str | None:
    """The regex the implementation always splits with, or None when it declares none."""
    value = getattr(unwrap(impl), ATTRIBUTE, None)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise BadFixedPattern(f"{ATTRIBUTE} must be a pattern's name ({', '.join(PATTERNS)}) or a regex, got {value!r}")
    return PATTERNS.get(value, value)


def label(pattern: str) -> str:
    """A pattern as a reason shows it: its published name, else the regex."""
    return next((name for name, regex in PATTERNS.items() if regex == pattern), repr(pattern))


def unwrap(impl: object) -> object:
    return impl.wrapped if isinstance(impl, PatternFixed) else impl


class PatternFixed:
    """The implementation as the tests see it when it declares a fixed pattern.

    ``refuse(reason)`` is called (and must raise: the plugin marks the running test "not started")
    for a call that cannot be judged; ``split_free()`` says whether the running test's checks hold
    whatever split the implementation uses. Everything else is the implementation's own.
    """

    def __init__(
        self, wrapped: object, pattern: str, refuse: Callable[[str], Any], split_free: Callable[[], bool]
    ) -> None:
        self.wrapped, self.pattern = wrapped, pattern
        self._refuse, self._split_free = refuse, split_free

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)

    def _pass(self, op: str, pattern: str | None) -> None:
        if pattern is None and not self._split_free():
            self._refuse(f"not started: this test checks {op} without a split pattern, and the implementation "
                         f"always splits with {label(self.pattern)} ({ATTRIBUTE})")
        elif pattern is not None and pattern != self.pattern:
            self._refuse(f"not started: this test checks {op} with the split pattern {label(pattern)}, and the "
                         f"implementation always splits with {label(self.pattern)} ({ATTRIBUTE})")

    def unsplit(self, what: str) -> None:
        """Refuse a check that always needs training over the whole text (a corpus's known table)."""
        self._refuse(f"not started: this test checks {what} without a split pattern, and the implementation "
                     f"always splits with {label(self.pattern)} ({ATTRIBUTE})")

    def train(self, text, vocab_size, *args, pattern: str | None = None, **kwargs):
        self._pass("train", pattern)
        return self.wrapped.train(text, vocab_size, *args, **kwargs)

    def encode(self, text, merges, *args, pattern: str | None = None, **kwargs):
        self._pass("encode", pattern)
        return self.wrapped.encode(text, merges, *args, **kwargs)
