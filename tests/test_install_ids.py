"""Test ids and pytest settings are the same however the suite is installed (issue 24).

docs/GATE.md installs bpe-kata without ``-e``: the spec then lives in site-packages, beside no
pyproject.toml. ``bpe-kata check`` and ``gate`` pass the packaged settings file and the spec's
parent as rootdir (bpe_kata/run/spec_command.py), so ids stay ``spec/test_x.py::...`` (expectations
entries match) and the markers, plugins and timeout apply. The install is laid out offline by
setuptools' ``build_py``: the same package and package-data selection a non-editable
``pip install .`` copies into site-packages, without a build (tests/test_package.py builds and installs the
real wheel).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bpe_kata.run import spec_command
from tests.support import REPO_ROOT

#: Written into the probe's folder: records what the run was configured with, once collected.
PROBE = '''
import json, os

def pytest_collection_finish(session):
    import spec
    from hypothesis import settings
    config = session.config
    with open(os.environ["PROBE_OUT"], "w", encoding="utf-8") as out:
        json.dump({"ids": [item.nodeid for item in session.items], "inipath": str(config.inipath),
                   "rootpath": str(config.rootpath), "spec": spec.__file__, "markers": config.getini("markers"),
                   "timeout": config.getini("timeout"), "strict_markers": config.option.strict_markers,
                   "profile": settings.get_current_profile_name(), "addopts": config.getini("addopts")}, out)
'''


def _copy_sources(target: Path) -> None:
    """The files a source distribution would carry for the packages (tracked files only)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", "pyproject.toml", "README.md", "bpe_kata", "spec",
                             "reference", "solutions/__init__.py", "solutions/starter"],
                            cwd=REPO_ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())


@pytest.mark.heavy
def test_an_installed_copy_gives_the_clones_test_ids_and_settings(tmp_path):
    if not (REPO_ROOT / ".git").exists():
        pytest.skip("needs the clone's git metadata to list the package's files")
    source, site, probe, work = (tmp_path / name for name in ("src", "site", "probe", "work"))
    for folder in (source, probe, work):
        folder.mkdir()
    _copy_sources(source)
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                    "--build-lib", str(site)], cwd=source, check=True, capture_output=True)
    assert (site / "spec" / "test_bytes.py").is_file() and not (site / "pyproject.toml").exists()
    (probe / "settings_probe.py").write_text(PROBE, encoding="utf-8")
    out = tmp_path / "probe.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(probe)]), "PROBE_OUT": str(out)}
    env.pop("HYPOTHESIS_PROFILE", None)
    run = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", "--level", "bytes", "-m", "not corpus",
                          "-n", "0", "-p", "settings_probe", "-p", "no:cacheprovider", "--co", "-q",
                          "--hypothesis-profile", "fast"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert Path(seen["spec"]).resolve().is_relative_to(site.resolve())  # the installed copy ran, not the clone
    assert seen["ids"] and all(nodeid.startswith("spec/test_") for nodeid in seen["ids"]), seen["ids"][:3]
    assert "spec/test_bytes.py::test_encode_with_no_merges_case[bytes-ascii-a]" in seen["ids"]
    assert Path(seen["inipath"]).resolve() == (site / "bpe_kata" / "run" / "pytest_settings.ini").resolve()
    assert Path(seen["rootpath"]).resolve() == site.resolve()
    assert any(marker.startswith("slow:") for marker in seen["markers"])  # registered by the settings file only
    assert seen["timeout"] == "600" and seen["strict_markers"] is True
    assert "--disable-plugin-autoload" in seen["addopts"] and seen["profile"] == "fast"
    assert not (site / ".pytest_cache").exists()  # the cache is kept in the working folder, never in site-packages
    assert "PytestConfigWarning" not in run.stdout + run.stderr
    cached = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", "--level", "facts", "-m", "not corpus",
                             "-n", "0", "-k", "bytes_of", "-q"], cwd=work, env=env, capture_output=True, text=True,
                            timeout=300)
    assert cached.returncode in (0, 5), cached.stdout[-3000:] + cached.stderr[-3000:]
    assert (work / ".pytest_cache").is_dir() and not (site / ".pytest_cache").exists()
    assert "PytestConfigWarning" not in cached.stdout + cached.stderr


def test_the_packaged_settings_are_the_projects():
    """bpe_kata/run/pytest_settings.ini says what pyproject.toml's [tool.pytest.ini_options] says (but testpaths)."""
    import configparser

    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(spec_command.SETTINGS, encoding="utf-8")
    packaged = dict(parser["pytest"])
    assert set(packaged) == set(project) - {"testpaths"}
    for key, value in project.items():
        if key == "testpaths":
            continue
        lines = [line.strip() for line in packaged[key].strip().splitlines() if line.strip()]
        expected = value if isinstance(value, list) else [str(value)]
        assert (lines if key in ("markers", "filterwarnings") else " ".join(lines).split() if key == "addopts"
                else lines) == (expected if key != "addopts" else value), key
    data = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert spec_command.SETTINGS.name in data["tool"]["setuptools"]["package-data"]["bpe_kata.run"]


def test_check_and_gate_name_the_rootdir_and_config_unless_the_user_does():
    args = spec_command.defaults([])
    assert args[args.index("--rootdir") + 1] == str(REPO_ROOT) and args[args.index("-c") + 1] == str(
        spec_command.SETTINGS
    )
    assert "--tb=short" in args and "-rN" in args
    assert "--rootdir" not in spec_command.defaults(["-c", "other.ini"])
    assert spec_command.output_args(["--tb=long", "-rfE"]) == []
