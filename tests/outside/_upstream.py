"""Where an outside implementation's sources are: read from an environment variable, never bundled.

The adapters in this folder wrap code written outside the project (see README.md for each
upstream's repository, commit and licence). None of it is copied here; each adapter finds
its upstream through one environment variable and refuses to load, saying which, when it
is unset, so nothing in the shipped suite depends on them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


class UpstreamMissing(ImportError):
    """The upstream checkout an adapter wraps is not on this machine."""


def upstream(var: str, must_contain: str) -> Path:
    """The folder named by ``var``, checked to hold ``must_contain``; put first on ``sys.path``."""
    where = os.environ.get(var)
    if not where:
        raise UpstreamMissing(f"{var} is not set: see tests/outside/README.md for how to fetch the upstream")
    root = Path(where).expanduser().resolve()
    if not (root / must_contain).exists():
        raise UpstreamMissing(f"{var}={where} does not hold {must_contain}")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return root
