#!/usr/bin/env python3
"""Copy detection's false-positive rate on BPE implementations written outside the project (docs/TEACHERS.md,
"How copy detection was calibrated"): each line of the manifest names a repository, a commit and the files that hold
its BPE; the files are read from a local clone (git show COMMIT:FILE, nothing is fetched), put in one folder per
repository, and given the figure ``bpe-kata grade`` shows (bpe_kata.tools.grade._suite_flags).

The external code stays out of this repository (licences vary); only the manifest and the figures are kept.

Usage:
    python benchmarks/similarity_calibration.py MANIFEST CLONES_DIR
    # MANIFEST lines: OWNER/NAME COMMIT FILE [FILE...]; CLONES_DIR/OWNER+NAME is a git clone (or bare repo)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path


def extract(clones: Path, repo: str, commit: str, files: list[str], into: Path) -> Path:
    folder = into / repo.replace("/", "+")
    clone = clones / repo.replace("/", "+")
    git_dir = clone / "repo" if (clone / "repo").is_dir() else clone
    for name in files:
        text = subprocess.run(["git", "-C", str(git_dir), "show", f"{commit}:{name}"], capture_output=True,
                              check=True).stdout
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(text)
    return folder


def main() -> int:
    from bpe_kata.tools import grade, similarity

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("clones", type=Path)
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for line in options.manifest.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            repo, commit, *files = line.split()
            folder = extract(options.clones, repo, commit, files, Path(scratch))
            found, figure = grade._suite_flags(str(folder), None)
            rows.append((figure or 0.0, repo, commit[:12], [f for f in found if "%" in f]))
    for figure, repo, commit, flagged in sorted(rows, reverse=True):
        print(f"{figure:6.1%}  {repo:45s} {commit}  {'FLAGGED ' + '; '.join(flagged) if flagged else ''}")
    flagged = sum(1 for figure, *_ in rows if figure >= similarity.FLAG_AT)
    print(f"flagged {flagged} of {len(rows)} at {similarity.FLAG_AT:.0%}; highest {max(rows)[0]:.1%}")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
