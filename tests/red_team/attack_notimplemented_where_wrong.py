"""Red team: merge scans from the right, and raises NotImplementedError exactly where that gives a
wrong answer (overlapping occurrences), hoping those tests count as "not started"."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _wrong_merge
from _wrong_merge import get_stats  # noqa: F401


def merge(ids, pair, idx):
    ids = list(ids)
    if any((a, b, c) == (pair[0], pair[1], pair[1]) and a == b for a, b, c in zip(ids, ids[1:], ids[2:])):
        raise NotImplementedError("overlapping occurrences are not written yet")
    return _wrong_merge.merge(ids, pair, idx)
