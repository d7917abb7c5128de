"""Red team (grade): the suite's reference carried as ``vendor.zip`` beside this ``__init__.py`` and
imported through zipimport, so a copy detector that reads only ``*.py`` files scores it 0%.
(tests/test_grade_integrity.py packs the zip from the installed reference at test time.)"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).with_name("vendor.zip")))

from vendored_bpe import build_vocab, decode, encode, get_stats, merge, train  # noqa: E402, F401
