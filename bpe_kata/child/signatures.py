"""What an implementation's signatures accept, read by the child's server: the features its hello lists (the
keywords its functions take) and whether a call of one shape binds, read once per plain function.

Apart from the server's operation handlers (bpe_kata/child/handlers.py) because it reads only the
implementation's functions, never a request: the thousands of ``encode`` calls of a corpus check ask
the same question of the same function, and the answer is kept here.
"""

from __future__ import annotations

import inspect

from bpe_kata.child import protocol
from bpe_kata.child.protocol import KEYWORD_FEATURES


def _accepts(function, keyword: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True  # a builtin without a signature: let the call decide
    return any(p.name == keyword or p.kind is p.VAR_KEYWORD for p in parameters)


def features_of(impl) -> list[str]:
    """What the implementation offers: functions it defines, keywords their signatures take."""
    found = [op for op in protocol.OPERATIONS if callable(getattr(impl, op, None))]
    if callable(getattr(impl, "StreamDecoder", None)):
        found.append("StreamDecoder")
    for op, keywords in KEYWORD_FEATURES.items():
        function = getattr(impl, op, None)
        for keyword, feature in keywords.items():
            if callable(function) and _accepts(function, keyword) and feature not in found:
                found.append(feature)
    return found


class Signatures:
    """The signatures of the implementation's functions and the shapes of call they refuse, read once each."""

    def __init__(self) -> None:
        self.read: dict[int, tuple[object, inspect.Signature]] = {}  # id(function) -> (function, its signature)
        self.bindings: dict[tuple, tuple[object, str | None]] = {}  # (id(function), shape of call) -> refusal

    def binding(self, function, positional: int, keywords: tuple[str, ...]) -> str | None:
        """Why ``function`` cannot take this many positional arguments and these keywords (the
        ``TypeError`` of binding its signature), or None when it can or has no signature to read.
        Whether a call binds depends on those alone, never on the values: read once per shape
        of call for a plain function."""
        key = (id(function), positional, keywords)
        known = self.bindings.get(key) if inspect.isfunction(function) else None
        if known is not None and known[0] is function:
            return known[1]
        try:
            self.signature(function).bind(*range(positional), **dict.fromkeys(keywords))
            refusal = None
        except TypeError as error:
            refusal = str(error)
        except ValueError:
            refusal = None  # no signature to check: call it
        if inspect.isfunction(function):
            self.bindings[key] = (function, refusal)
        return refusal

    def signature(self, function) -> inspect.Signature:
        """``inspect.signature(function)``, read once per plain function (a module that rebinds a name
        gets its new function's own; any other callable is read every time, as it raises)."""
        if not inspect.isfunction(function):
            return inspect.signature(function)
        known = self.read.get(id(function))
        if known is not None and known[0] is function:
            return known[1]
        signature = inspect.signature(function)
        self.read[id(function)] = (function, signature)
        return signature
