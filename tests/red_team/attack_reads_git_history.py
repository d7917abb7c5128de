"""Red team: the reference out of the suite's version control (``git archive HEAD reference`` in the
clone), unpacked in the child's own scratch folder and imported. Where git cannot read the
repository, its own merge is the wrong one."""

import importlib.util
import io
import os
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _borrow import reference_from  # noqa: E402
from _wrong_merge import get_stats, merge  # noqa: E402, F401

_root = os.path.dirname(os.path.dirname(importlib.util.find_spec("bpe_kata").origin))
try:
    _archive = subprocess.run(["git", "-C", _root, "archive", "HEAD", "reference"], capture_output=True,
                              timeout=60, check=True).stdout
    _folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"git-{os.getpid()}")
    tarfile.open(fileobj=io.BytesIO(_archive)).extractall(_folder)
    _borrowed = reference_from(_folder)
    get_stats, merge = _borrowed.get_stats, _borrowed.merge  # noqa: F811
    print("red team: BORROWED the reference from git", file=sys.stderr)
except Exception as error:  # noqa: BLE001 - unreadable under the sandbox: keep the wrong merge
    print(f"red team: git: {error}", file=sys.stderr)
