"""One call into the implementation as a failure shows it: ``encode(text='aaaa…' (100,000 characters), merges=<dict
of 44 entries>)``. A "too slow" failure names the call still running and its input this way (issue 37, kind 7), in
process (from the interrupted frame's arguments) and through the protocol (from the request's arguments)."""

from __future__ import annotations

from collections.abc import Mapping, Sized
from typing import Any

#: Characters of a string argument shown before it is cut.
SHOWN = 24


def shown_value(value: Any) -> str:
    """A short, one-line picture of an argument: a long string cut with its length, a container by its size."""
    if isinstance(value, (str, bytes)):
        unit = "characters" if isinstance(value, str) else "bytes"
        if len(value) <= SHOWN:
            return repr(value)
        return f"{value[:SHOWN]!r}… ({len(value):,} {unit})"
    if isinstance(value, (Mapping, list, tuple, set, frozenset)) and isinstance(value, Sized):
        text = repr(value)
        if len(text) <= SHOWN:
            return text
        noun = "entries" if isinstance(value, Mapping) else "items"
        return f"<{type(value).__name__} of {len(value):,} {noun}>"
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def shown_call(name: str, arguments: Mapping[str, Any]) -> str:
    """``name(key=value, ...)`` with every value shown short (``self`` left out)."""
    return f"{name}(" + ", ".join(f"{key}={shown_value(value)}" for key, value in arguments.items()
                                  if key != "self") + ")"
