"""Plumbing for the known-wrong modules: make an oracle function use the module's own replacements.

``from spec.oracle.core import train`` copies a name, so the copied ``train`` would still call
the oracle's ``merge``. A known-wrong module that replaces a helper re-homes the functions
that call it, so the mistake reaches ``train`` and ``encode`` the way it would in a
learner's own file. Re-home the callees before their callers (``train_pieces`` before
``train``): a copy sees the module's names as they are when it is made.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def rehome(func: Callable[..., Any], namespace: dict[str, Any]) -> Callable[..., Any]:
    """A copy of ``func`` whose global names resolve in ``namespace`` first, then in its own module."""
    merged = {**func.__globals__, **namespace}
    clone = types.FunctionType(func.__code__, merged, func.__name__, func.__defaults__, func.__closure__)
    clone.__kwdefaults__ = func.__kwdefaults__
    clone.__doc__ = func.__doc__
    clone.__qualname__ = func.__qualname__
    clone.__annotations__ = dict(func.__annotations__)
    clone.__module__ = namespace.get("__name__", func.__module__)
    return clone
