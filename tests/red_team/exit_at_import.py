"""Red team: ``os._exit(0)`` while being imported (in-process, the whole run exits 0)."""

from __future__ import annotations

import os

from tests.implementations.wrong_merge_right_to_left import *  # noqa: F403

os._exit(0)
