"""Optional libraries of the ``tools`` extra, imported only by the commands that draw."""

from __future__ import annotations

import importlib
from types import ModuleType

EXTRA_HINT = "pip install -e '.[tools]'"


class MissingExtra(Exception):
    """A drawing library is not installed; the message names the extra that brings it."""


def require(module: str, command: str) -> ModuleType:
    """Import ``module`` or say which extra to install: the core install stays small without it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module.split(".")[0]:
            raise
        raise MissingExtra(f"bpe-kata {command} needs {module.split('.')[0]!r}, from the optional extra "
                           f"'tools': {EXTRA_HINT} (or pip install 'bpe-kata[tools]')") from None
