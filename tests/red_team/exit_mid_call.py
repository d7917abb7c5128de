"""Red team: ``os._exit(0)`` inside ``encode``; everything else is the reference."""

from __future__ import annotations

import os

from reference import *  # noqa: F403


def encode(text, merges, **options):
    os._exit(0)
