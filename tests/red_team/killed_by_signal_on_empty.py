"""Red team: ``train`` of an empty text kills its own process with SIGSEGV (a native crash); else the reference."""

from __future__ import annotations

import os
import signal

import reference
from reference import *  # noqa: F403


def train(text, vocab_size, **options):
    if not text:
        os.kill(os.getpid(), signal.SIGSEGV)
    return reference.train(text, vocab_size, **options)
