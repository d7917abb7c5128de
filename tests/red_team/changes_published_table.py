"""Red team: the reference, but ``encode`` adds a pair to the table it was given.

The results stay right (the pair never occurs). In-process, the shared published table
changes and a later test is blamed for it; isolated, the server sees the change at once.
"""

from __future__ import annotations

import reference
from reference import *  # noqa: F403


def encode(text, merges, **options):
    ids = reference.encode(text, merges, **options)
    merges.setdefault((1_000_000, 1_000_000), 10**9)
    return ids
