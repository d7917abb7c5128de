"""``bpe-kata check`` stopped by a SIGTERM (``timeout``, a CI job's limit) says what it finished, as Ctrl-C does.

Eighth round, development: a member whose every training started a pool of 32 processes was killed by a 1,500 s
limit and left nothing: no level table, no report. Stopped so now, the levels that finished are printed and the
report is written, marked incomplete (never a pass)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

from tests.support import REPO_ROOT

SLOW = '''
"""The reference, with a train that sleeps a while on each call."""
import time

import reference
from reference import build_vocab, decode, encode, get_stats, merge  # noqa: F401


def train(*args, **kwargs):
    time.sleep(0.3)
    return reference.train(*args, **kwargs)
'''


def test_a_check_stopped_by_sigterm_prints_what_finished_and_writes_an_incomplete_report(tmp_path):
    impl, report = tmp_path / "slow.py", tmp_path / "report.json"
    impl.write_text(SLOW, encoding="utf-8")
    check = subprocess.Popen(
        [sys.executable, "-c", "from bpe_kata.cli import main; raise SystemExit(main())", "check", str(impl),
         "-m", "not corpus", "-p", "no:randomly", "--bpe-report", str(report)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    lines: list[str] = []
    def read() -> None:
        for line in check.stdout:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 300  # a loaded machine starts the workers slowly: wait for finished tests
    while not any("%]" in line for line in lines) and time.monotonic() < deadline and check.poll() is None:
        time.sleep(0.2)
    check.send_signal(signal.SIGTERM)
    check.wait(timeout=120)
    reader.join(timeout=30)
    output = "".join(lines)
    assert check.returncode not in (0, -signal.SIGTERM), output[-3000:]
    assert "INCOMPLETE run" in output and "level        passed" in output, output[-3000:]
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["complete"] is False and written["exit_status"] != 0, written["exit_status"]
