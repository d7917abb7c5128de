"""grade's runs and the gate's are built by one function (bpe_kata/run/spec_command.spec_run): from an installed wheel,
outside the clone, a graded submission is judged by the same tests, config and plugins as the gate's run.

Once, grade built its own pytest command: installed without ``-e`` its test ids were site-packages paths, it read no
config file and pytest autoloaded every installed plugin. The release test below is the check a user would make."""

from __future__ import annotations

import json

import pytest

from bpe_kata.run import spec_command
from tests.conftest import RELEASE_GROUP


def test_graded_and_gate_commands_differ_only_by_their_modes_options():
    argv = ["--impl", "reference", "-q", "-n", "0", "--level", "bytes"]
    graded, gate = spec_command.spec_run("graded", argv), spec_command.spec_run("gate", argv)
    without = lambda args, mode: [a for a in args if a not in spec_command.MODE_OPTIONS[mode]]  # noqa: E731
    assert without(graded, "graded") == without(gate, "gate")
    assert "-c" in graded and graded[graded.index("-c") + 1] == str(spec_command.SETTINGS)


@pytest.mark.heavy
@pytest.mark.xdist_group(RELEASE_GROUP)
def test_grade_from_an_installed_wheel_judges_with_the_gates_tests_and_plugins(release):
    gate_report, kept = release.work / "drift-gate.json", release.work / "drift-grade"
    gate = release.run("gate", "reference", "--level", "bytes", "-q", "-n", "0", "-p", "no:cacheprovider",
                       "--bpe-report", str(gate_report))
    assert gate.returncode == 0, gate.stdout[-3000:] + gate.stderr[-3000:]
    grade = release.run("grade", "reference", "--plain", "--reports", str(kept), "--", "--level", "bytes")
    assert grade.returncode == 0, grade.stdout[-3000:] + grade.stderr[-3000:]
    gated = json.loads(gate_report.read_text(encoding="utf-8"))
    graded = json.loads((kept / "01-reference.json").read_text(encoding="utf-8"))
    assert graded["tests"] and set(graded["tests"]) == set(gated["tests"])
    assert all(nodeid.startswith("spec/") for nodeid in graded["tests"]), sorted(graded["tests"])[:3]
    assert graded["pytest"] == gated["pytest"]
    config = graded["pytest"]["config"]
    assert config is not None and config.endswith("pytest_settings.ini") and str(release.venv) in config
    assert "bpe_kata.plugin" in graded["pytest"]["plugins"] and "timeout" in graded["pytest"]["plugins"]
