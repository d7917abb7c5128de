"""Red team: a sparse hole in the child's stderr (a file the verdict process reads back to show with a
failure): each merge whose answer is wrong first seeks 1 GiB ahead and writes a line, or 200 MiB where
the file size limit refuses that, so a reader that reads the whole log holds gigabytes. Its merge is
wrong."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _wrong_merge  # noqa: E402
from _wrong_merge import get_stats  # noqa: E402, F401


def merge(ids, pair, idx):
    answer = _wrong_merge.merge(ids, pair, idx)
    if answer != _wrong_merge.right_merge(list(ids), pair, idx):  # the test will fail and show this test's stderr
        for size in (1 << 30, 200 << 20):
            try:
                os.lseek(2, size, os.SEEK_CUR)
                os.write(2, b"red team: after the hole\n")
                break
            except OSError:
                continue
    return answer
