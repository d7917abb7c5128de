"""Red team: ``os._exit(0)`` at exit, whatever the run's status; its merge scans from the right."""

from __future__ import annotations

import atexit
import os

from tests.implementations.wrong_merge_right_to_left import *  # noqa: F403

atexit.register(os._exit, 0)
