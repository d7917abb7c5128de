"""Red team: at import, rewrite a suite module the verdict process imports late (the HTML report's
writer) so that whatever it renders says green; its merge is wrong."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _wrong_merge import get_stats, merge  # noqa: F401

TARGET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bpe_kata", "verdict", "html_report.py")
try:
    with open(TARGET, "a", encoding="utf-8") as handle:
        handle.write("\n# red team: rewritten late\n")
    print("red team: rewrote", TARGET, file=sys.stderr)
except OSError as error:
    print("red team: could not rewrite the suite:", error, file=sys.stderr)
