"""Red team: at import, write a fake green table to the parent's stdout through /proc/PPID/fd/1 (a
green-looking CI log); its merge is wrong."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

FAKE = "RED-TEAM-FAKE-TABLE merge 5 0 0 0 green\nbpe-kata: 0 unexpected failures\n"
for pid in (os.getppid(), os.getpgid(0)):
    try:
        with open(f"/proc/{pid}/fd/1", "w") as handle:
            handle.write(FAKE)
    except OSError as error:
        print("red team: could not write to the parent's stdout:", error, file=sys.stderr)
