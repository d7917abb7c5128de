"""Plumbing for the known-wrong modules: make a textbook function use the module's own helpers.

``from tests.implementations.textbook import *`` copies names, so a copied ``train`` would
still call the textbook ``merge``. A known-wrong module that overrides a helper re-homes the
functions that use it, so the mistake reaches ``train`` and ``encode`` the way it would in a
learner's own file.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


def rehome(func: Callable[..., Any], namespace: dict[str, Any]) -> Callable[..., Any]:
    """Return a copy of ``func`` whose global names resolve in ``namespace``."""
    clone = types.FunctionType(
        func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__
    )
    clone.__kwdefaults__ = func.__kwdefaults__
    clone.__doc__ = func.__doc__
    clone.__qualname__ = func.__qualname__
    clone.__annotations__ = dict(func.__annotations__)
    clone.__module__ = namespace.get("__name__", func.__module__)
    return clone
