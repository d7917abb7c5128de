"""Red team: the reference, printing debug lines to stdout at import and on every call."""

from __future__ import annotations

import functools
import os

import reference

print("debug: imported")
os.write(1, b"debug: raw write to fd 1\n")


def _chatty(function):
    @functools.wraps(function)
    def call(*args, **kwargs):
        print(f"debug: {function.__name__} called")
        os.write(1, b'{"id": 1, "ok": true, "result": null}\n')  # even a fake answer goes nowhere
        return function(*args, **kwargs)
    return call


for _name in ("get_stats", "merge", "train", "build_vocab", "decode", "encode", "save", "load",
              "train_words", "segment_word"):
    globals()[_name] = _chatty(getattr(reference, _name))
StreamDecoder = reference.StreamDecoder
