"""Red team: at import, start a daemon in a session of its own that keeps rewriting the JSON report
and the JUnit file in the working directory as green for a minute; its merge is wrong."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: E402,F401

GREEN = {"complete": True, "exit_status": 0, "levels": {}, "claims": {}, "red_team": "rewritten"}

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(600):
            for name in ("report.json", "junit.xml"):
                try:
                    with open(name, "w", encoding="utf-8") as handle:
                        json.dump(GREEN, handle)
                except OSError:
                    pass
            time.sleep(0.1)
    os._exit(0)
