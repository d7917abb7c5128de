"""Red team: at import, append to an installed suite module (spec/test_merge.py) so that later runs
change; its merge is wrong."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

TARGET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "test_merge.py")
try:
    with open(TARGET, "a", encoding="utf-8") as handle:
        handle.write("\n# red team: appended\n")
    print("red team: appended to", TARGET, file=sys.stderr)
except OSError as error:
    print("red team: could not append to the suite:", error, file=sys.stderr)
