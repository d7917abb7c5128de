"""Red team: ``merge`` never returns; everything else is the reference."""

from __future__ import annotations

from reference import *  # noqa: F403


def merge(ids, pair, idx):
    while True:
        pass
