"""Implementations that always split text with one pattern (spec/CONTRACT.md, "A fixed split pattern").

Much course code (CS336's, for one) pre-tokenizes every text with GPT-2's pattern and has no
``pattern=`` to turn it off or change it. Such code declares it with a module attribute
``FIXED_PATTERN`` (a published pattern's name, ``"gpt2"`` or ``"gpt4"``, or the regex itself;
over the protocol, the hello's ``fixed_pattern``). The spec then stands between the tests and
the implementation (``PatternFixed``): a call with the fixed pattern or none reaches the implementation
without the keyword and is judged against the oracle splitting with the same pattern (spec/oracle/split.py,
one rule for every level); a call with another pattern cannot be judged. A test that cannot be judged is
"not started" with the reason naming the split its statement needs, never failed.
"""

from __future__ import annotations

import inspect
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

    A call without a pattern, or with the fixed one, reaches the implementation without the keyword:
    while the test runs, the oracle splits with the same pattern (spec/oracle/split.py), so what the
    test compares is computed as the implementation computes it. A call with another pattern calls
    ``refuse(reason)`` (which must raise: the plugin marks the running test "not started", or, inside a
    property, drops that example). Everything else is the implementation's own.
    """

    def __init__(self, wrapped: object, pattern: str, refuse: Callable[[str], Any]) -> None:
        self.wrapped, self.pattern = wrapped, pattern
        self._refuse = refuse
        signature = _with_pattern(getattr(wrapped, "train", None))
        if signature is not None:  # train's keywords are read off the wrapped train (special_tokens is optional)
            method = self.train

            def train(*args, **kwargs):
                return method(*args, **kwargs)
            train.__signature__ = signature
            self.train = train

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.wrapped, name)
        if name == "encode_iterable" and callable(value):  # optional: present here only when the wrapped has it
            def encode_iterable(texts, merges, *args, pattern: str | None = None, **kwargs):
                self._pass("encode_iterable", pattern)
                return value(texts, merges, *args, **kwargs)
            return encode_iterable
        return value

    def _pass(self, op: str, pattern: str | None) -> None:
        if pattern is not None and pattern != self.pattern:
            self._refuse(f"not started: this test checks {op} with the split pattern {label(pattern)}, and the "
                         f"implementation always splits with {label(self.pattern)} ({ATTRIBUTE})")

    def train(self, text, vocab_size, *args, pattern: str | None = None, **kwargs):
        self._pass("train", pattern)
        return self.wrapped.train(text, vocab_size, *args, **kwargs)

    def encode(self, text, merges, *args, pattern: str | None = None, **kwargs):
        self._pass("encode", pattern)
        return self.wrapped.encode(text, merges, *args, **kwargs)


def _with_pattern(train: object) -> inspect.Signature | None:
    """``train``'s signature with a keyword ``pattern`` added (None: no train, or no signature to read)."""
    try:
        signature = inspect.signature(train)
    except (TypeError, ValueError):
        return None
    parameters = list(signature.parameters.values())
    if any(p.name == "pattern" or p.kind is p.VAR_KEYWORD for p in parameters):
        return signature
    added = inspect.Parameter("pattern", inspect.Parameter.KEYWORD_ONLY, default=None)
    return signature.replace(parameters=[*parameters, added])
