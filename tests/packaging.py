"""The built release, once per session: a wheel and an sdist of the clone, and a fresh virtual environment
outside the clone with only the wheel installed (tests/test_package.py, tests/test_action.py).

Offline: the build uses this environment's setuptools (``python -m build --no-isolation``, the test extra
pins it), and the fresh environment gets its dependencies by a ``.pth`` line naming this environment's
site-packages, never its editable bpe-kata (a plain path line does not run the editable install's hook),
so no package index is asked. ``.ci/run`` does the networked half: a fresh environment that installs the
wheel with its dependencies from the index.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from tests.support import REPO_ROOT, SHARED

#: What a release ships beside the code: the files the suite reads at run time.
DATA_FILES = ("spec/claims.toml", "spec/teaching.toml", "spec/CONTRACT.md", "spec/cases/bytes.json",
              "spec/cases/schema.json", "bpe_kata/run/pytest_settings.ini", "bpe_kata/tools/matrix_notes.toml",
              "bpe_kata/schemas/report.schema.json", "bpe_kata/schemas/protocol.schema.json",
              "bpe_kata/schemas/expectations.schema.json", "bpe_kata/schemas/grade.schema.json",
              "solutions/starter/__init__.py", "bpe_kata/adapters/with_tiktoken.py", "reference/core.py")


@dataclass(frozen=True)
class Release:
    wheel: Path
    sdist: Path
    venv: Path  # a fresh environment outside the clone with the wheel installed
    work: Path  # an empty folder outside the clone to run from

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def env(self) -> dict[str, str]:
        """The environment of a command run from the release: its venv first on PATH, nothing of the clone."""
        env = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "HYPOTHESIS_PROFILE")}
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        env["VIRTUAL_ENV"] = str(self.venv)
        # The corpora are not in a release (their licences and sizes); an installed copy finds them through
        # $BPE_KATA_DATA or fetches them (bpe_kata/data/corpora.py). Here: the clone's ../shared/data.
        if "BPE_KATA_DATA" not in env and (SHARED / "data").is_dir():
            env["BPE_KATA_DATA"] = str(SHARED / "data")
        return env

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / "bpe-kata"), *args], cwd=self.work, env=self.env(),
                              capture_output=True, text=True, timeout=timeout)


def _tracked_sources(target: Path) -> None:
    """The clone's tracked files (what a release is built from; no venvs, caches or build leftovers)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())


def build_release(root: Path) -> Release:
    """Build the sdist, then the wheel from it (``python -m build``'s order), and install the wheel in a
    fresh environment; ``root`` is a folder outside the clone."""
    source, dist, venv, work = root / "src", root / "dist", root / "venv", root / "work"
    for folder in (source, work):
        folder.mkdir(parents=True)
    _tracked_sources(source)
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
                   check=True, capture_output=True, timeout=600)
    wheel, = dist.glob("bpe_kata-*.whl")
    sdist, = dist.glob("bpe_kata-*.tar.gz")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    fresh_site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", where],
                                     check=True, capture_output=True, text=True).stdout.strip())
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()}
    (fresh_site / "_dependencies_from_the_test_env.pth").write_text(
        "".join(f"{path}\n" for path in sorted(ours) if Path(path).is_dir()), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
                    "--no-deps", "--no-index", "--no-compile", str(wheel)],
                   check=True, capture_output=True, timeout=600)
    return Release(wheel, sdist, venv, work)
