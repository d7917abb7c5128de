"""Red team: a protocol server (run with ``cmd:``) whose command line names the suite's ``reference/``
folder, so that a sandbox showing every path of the command shows the reference: it serves the
reference when it can read it, else its own wrong merge (``_wrong_merge.py``)."""

import os
import sys

from bpe_kata.child import server

_target = sys.argv[1]
try:
    with open(os.path.join(_target, "__init__.py"), encoding="utf-8") as _handle:
        _handle.read()
    _value = _target
    print(f"red team: BORROWED {_target}", file=sys.stderr)
except OSError:
    _value = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_wrong_merge.py")
sys.exit(server.main([_value]))
