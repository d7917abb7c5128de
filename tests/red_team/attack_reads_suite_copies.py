"""Red team: a copy of the suite's reference left readable somewhere: a wheel in the clone's ``dist/``,
pip's cache, a sibling worktree of the clone. The places are named, one per line, in
``copies.txt`` beside the attack (the attacker knows where such copies usually are). Where none can
be read, its own merge is the wrong one."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _borrow import reference_from  # noqa: E402
from _wrong_merge import get_stats, merge  # noqa: E402, F401

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "copies.txt"), encoding="utf-8") as _handle:
    _places = _handle.read().split()
for _place in _places:
    try:
        _borrowed = reference_from(_place)
        get_stats, merge = _borrowed.get_stats, _borrowed.merge  # noqa: F811
        print(f"red team: BORROWED the reference from {_place}", file=sys.stderr)
        break
    except Exception:  # noqa: BLE001 - unreadable under the sandbox
        continue
