"""Red team: at import, rewrite the expectations file in the working directory so that every
failure is expected; its merge is wrong."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

LENIENT = '[[expected]]\nlevel = "merge"\nreason = "red team"\n[[expected]]\nclaim = "*"\nreason = "red team"\n'
try:
    with open("expect.toml", "w", encoding="utf-8") as handle:
        handle.write(LENIENT)
    print("red team: rewrote expect.toml", file=sys.stderr)
except OSError as error:
    print("red team: could not rewrite expect.toml:", error, file=sys.stderr)
