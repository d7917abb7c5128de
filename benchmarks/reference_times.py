"""Record the reference's CPU seconds per spec test: the table each test's budget is sized from
(bpe_kata/run/reference_times.json, read by bpe_kata/run/budgets.py).

    python benchmarks/reference_times.py            # runs `bpe-kata check` on the reference, writes the table

Each test's key is its file and function (parameters left out, the slowest kept); times are rounded up to a
hundredth. Run it again after adding or changing a spec test: a test with no recorded time gets
``budgets.UNKNOWN`` seconds. The budget is a wide multiple of these figures, so a loaded machine moves it little.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe_kata.run import budgets  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "cpu.json"
        done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", "reference", "-p", "no:cacheprovider",
                               "-p", "benchmarks.cpu_per_test", "--cpu-report", str(report), "--test-budget", "off",
                               "-q"], cwd=ROOT)
        if done.returncode != 0:
            print("reference_times: the reference's run failed; nothing written", file=sys.stderr)
            return 1
        times: dict[str, float] = {}
        for part in sorted(report.parent.glob(report.name + "*")):
            for nodeid, row in json.loads(part.read_text(encoding="utf-8")).items():
                key = budgets.key_of(nodeid)
                times[key] = max(times.get(key, 0.0), math.ceil(row["cpu"] * 100) / 100)
    budgets.REFERENCE_TIMES.write_text(json.dumps(dict(sorted(times.items())), indent=0) + "\n", encoding="utf-8")
    print(f"reference_times: {len(times)} tests written to {budgets.REFERENCE_TIMES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
