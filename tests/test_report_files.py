"""Report files (JSON, HTML, --write-expect) are written whole, with the user's umask (issue 24), and
--write-expect's reasons are one short line: the broken claim and what differed."""

from __future__ import annotations

import json
import os
import re
import stat
from contextlib import contextmanager

import pytest

from bpe_kata.verdict import atomic_file, html_report, report, run_status, tallies
from bpe_kata.verdict.outcomes import Outcome

INFO = {"suite_version": "0", "implementation": "x", "module_file": None, "module": "x"}


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_reports_get_the_mode_the_umask_gives_any_new_file(tmp_path, mask, mode):
    with umask(mask):
        assert atomic_file.current_umask() == mask
        report.write_json(tmp_path / "r.json", tallies.Results(), INFO)
        html_report.write(tmp_path / "r.html", report.as_json(tallies.Results(), INFO))
        atomic_file.write_text(tmp_path / "deep" / "r.txt", "x")
    for name in ("r.json", "r.html", "deep/r.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["levels"] == {}
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []  # no temporary file left behind


def test_an_existing_report_is_replaced_whole_and_the_folder_keeps_its_mode(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    target = private / "report.json"
    target.write_text("old", encoding="utf-8")
    with umask(0o022):
        atomic_file.write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(private.stat().st_mode) == 0o700


NOISY = """replayed in the table's order, a merge was not the most frequent pair
assert 'merge 1 (97, 98)→257: replayed in table order' is None
 +  where 'merge 1 (97, 98)→257: replayed in table order' = <function not_greedy at 0x7f>('aab', [])
 +    where <function not_greedy at 0x7f> = <module 'spec.oracle.valid_training'>.not_greedy"""


def test_write_expect_reasons_name_the_claim_and_one_line_of_cause():
    by_test = {"spec/test_train.py::test_a": ("train", ("train.tie-recorded",), Outcome.FAILED),
               "spec/test_train.py::test_b": ("train", ("train.merged-again",), Outcome.FAILED),
               "spec/test_x.py::test_c": ("train", (), Outcome.FAILED)}
    failures = {
        "spec/test_train.py::test_a": NOISY,
        "spec/test_train.py::test_b": "assert 3 > (7 - 3)\n +  where 3 = len([])",
        "spec/test_x.py::test_c": "ids: " + "x" * 300,
    }
    reasons = {entry.value: entry.reason for entry in run_status.starting_entries(by_test, failures)}
    assert reasons["train.tie-recorded"] == ("train.tie-recorded broken when this file was written: "
                                             "replayed in the table's order, a merge was not the most frequent pair")
    assert reasons["train.merged-again"] == "train.merged-again broken when this file was written: assert 3 > (7 - 3)"
    long = reasons["spec/test_x.py::test_c"]
    assert long.startswith("failing when this file was written: ids: xxx") and long.endswith("…")
    assert all("\n" not in reason and "where" not in reason and len(reason) < 200 for reason in reasons.values())


def test_every_declared_test_dependency_is_used():
    """A dependency nothing imports (tqdm was one) is a download and a constraint for nothing."""
    import tomllib
    from importlib.metadata import packages_distributions

    from tests.support import REPO_ROOT

    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {req.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower().replace("_", "-")
             for req in extras["test"] if not req.startswith("bpe-kata")}
    modules: dict[str, set[str]] = {}
    for module, dists in packages_distributions().items():
        for dist in dists:
            modules.setdefault(dist.lower().replace("_", "-"), set()).add(module)
    sources = "\n".join(path.read_text(encoding="utf-8", errors="replace") for folder in ("bpe_kata", "spec", "tests")
                        for path in (REPO_ROOT / folder).rglob("*.py"))
    sources += (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[tool.pytest.ini_options]")[1]
    sources += "".join(path.read_text(encoding="utf-8") for path in (REPO_ROOT / ".github").rglob("*.yml"))

    def named(word: str) -> bool:  # imported, a -p plugin or a distribution looked up by name
        return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", sources) is not None

    unused = {name for name in names if not any(named(word) for word in {name, *modules.get(name, ())})}
    assert unused == set()
