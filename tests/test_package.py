"""A release a user can install without cloning (issue 26): the wheel and sdist carry what the suite
reads at run time, and the wheel alone, installed in a fresh environment outside the clone, runs
``check`` and ``gate`` with its spec, cases and claims, and reports its version.

One build per session (the ``release`` fixture, tests/packaging.py); the runs stop at the bytes level.
"""

from __future__ import annotations

import json
import tarfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

import spec
from tests.conftest import RELEASE_GROUP
from tests.packaging import DATA_FILES
from tests.support import REPO_ROOT, assert_valid

pytestmark = [pytest.mark.heavy, pytest.mark.xdist_group(RELEASE_GROUP)]

VERSION = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_one_version_everywhere():
    """pyproject.toml's version is the installed one, the one reports carry, and the CHANGELOG's latest."""
    assert metadata.version("bpe-kata") == VERSION
    assert spec.__version__ == VERSION  # the reports' suite_version (bpe_kata/verdict/report.py)
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{VERSION}]" in changelog


def test_the_wheel_and_the_sdist_carry_the_data_files(release):
    names = set(zipfile.ZipFile(release.wheel).namelist())
    missing = [name for name in DATA_FILES if name not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert all(f"spec/cases/{p.name}" in names for p in (REPO_ROOT / "spec" / "cases").glob("*.json"))
    assert not any(name.startswith(("tests/", "mutation/", "benchmarks/")) for name in names)
    with tarfile.open(release.sdist) as sdist:
        root = sdist.getnames()[0].split("/")[0]
        in_sdist = {name.removeprefix(root + "/") for name in sdist.getnames()}
    missing = [name for name in (*DATA_FILES, "pyproject.toml", "README.md", "CHANGELOG.md") if name not in in_sdist]
    assert not missing, f"the sdist lacks {missing}"


def test_the_installed_wheel_knows_its_version(release):
    shown = release.run("--version")
    assert shown.returncode == 0 and shown.stdout.strip() == f"bpe-kata {VERSION}", shown.stdout + shown.stderr


def test_check_runs_from_the_installed_wheel_outside_the_clone(release):
    report = release.work / "check.json"
    run = release.run("check", "--level", "bytes", "-q", "-n", "0", "-p", "no:cacheprovider",
                      "--hypothesis-profile", "fast", "--bpe-report", str(report))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert_valid("report", data)
    assert data["suite_version"] == VERSION
    assert data["levels"]["bytes"]["status"] == "green" and data["levels"]["bytes"]["passed"] > 0
    assert any(nodeid.endswith("[bytes-ascii-a]") for c in data["claims"].values() for nodeid in c["tests"]["passed"])
    assert Path(data["module_file"]).resolve().is_relative_to(release.venv.resolve())  # not the clone's reference


def test_gate_runs_from_the_installed_wheel_outside_the_clone(release):
    report = release.work / "gate.json"
    run = release.run("gate", "reference", "--level", "bytes", "-q", "-p", "no:cacheprovider",
                      "--bpe-report", str(report), "--junitxml", str(release.work / "gate.xml"))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert_valid("report", data)
    assert data["suite_version"] == VERSION and data["isolated"] is True and data["complete"] is True
    assert data["levels"]["bytes"]["status"] == "green"
    assert not any(str(REPO_ROOT) in path for path in data["sandbox"]["visible_to_child"])
    assert (release.work / "gate.xml").is_file()


def test_claims_lists_the_packaged_ledger(release):
    listed = release.run("claims", "--level", "bytes")
    assert listed.returncode == 0 and "bytes.examples" in listed.stdout, listed.stdout + listed.stderr
