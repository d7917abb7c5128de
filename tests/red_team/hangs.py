"""Red team: ``merge`` never returns on more than two ids; everything else is the reference.

The level's probe (``merge([1, 2], ...)``) passes, so the hang happens inside a property test.
"""

from __future__ import annotations

import reference
from reference import *  # noqa: F403


def merge(ids, pair, idx):
    while len(ids) > 2:
        pass
    return reference.merge(ids, pair, idx)
