"""Red team: a complete implementation the suite ships besides its reference (the project's own
right implementations, found by path from the installed runner), passed off as a submission.
Where none can be read, its own merge is the wrong one."""

import glob
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: E402, F401

_root = os.path.dirname(os.path.dirname(importlib.util.find_spec("bpe_kata").origin))
for _path in sorted(glob.glob(os.path.join(_root, "tests", "implementations", "right_*.py"))):
    try:
        _spec = importlib.util.spec_from_file_location("borrowed", _path)
        _module = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_module)
        get_stats, merge = _module.get_stats, _module.merge  # noqa: F811
        print(f"red team: BORROWED {_path}", file=sys.stderr)
        break
    except Exception:  # noqa: BLE001 - unreadable under the sandbox: keep the wrong merge
        continue
