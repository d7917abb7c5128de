"""Red team: every call sleeps just under the per-call limit, so a whole run would take days without
a total budget; its merge is wrong too."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _wrong_merge

SLEEP = float(os.environ.get("RED_TEAM_SLEEP", "1.5"))


def get_stats(ids):
    time.sleep(SLEEP)
    return _wrong_merge.get_stats(ids)


def merge(ids, pair, idx):
    time.sleep(SLEEP)
    return _wrong_merge.merge(ids, pair, idx)
