"""Red team (grade): the suite's reference shipped as bytecode only (``compiled/*.pyc``, no source),
which Python imports as readily as source and a copy detector reading source never sees.
(tests/test_grade_integrity.py compiles the installed reference at test time.)"""

from .compiled import build_vocab, decode, encode, get_stats, merge, train  # noqa: F401
