"""Red team: at import, start a daemon in a session of its own that keeps rewriting the JSON report
and the JUnit file in the working directory as green until it is killed; its merge is wrong.

It never stops by itself (LIFETIME is only a safety net, far past any run): a daemon that ended on
its own before the run did would leave the supervisor's sweep nothing to find, and the test could
not tell a working sweep from a missing one. (It used to stop after a minute; the merge level's gate
takes about 13 s at load 7, so that held only by a margin of time.)"""

import json
import os
import sys
import time

LIFETIME = 1800.0  # seconds; test_red_team's gate() gives up on a run after 300

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: E402,F401

GREEN = {"complete": True, "exit_status": 0, "levels": {}, "claims": {}, "red_team": "rewritten"}

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.monotonic() + LIFETIME
        while time.monotonic() < end:
            for name in ("report.json", "junit.xml"):
                try:
                    with open(name, "w", encoding="utf-8") as handle:
                        json.dump(GREEN, handle)
                except OSError:
                    pass
            time.sleep(0.1)
    os._exit(0)
