"""The GitHub Action (action.yml, docs/ACTION.md) run here step by step (issue 26).

Each ``run:`` step's script is run with bash as a runner would (``bash --noprofile --norc -eo pipefail``),
its ``${{ ... }}`` expressions (all in ``env:``) filled in from the inputs, and ``GITHUB_OUTPUT``,
``GITHUB_STEP_SUMMARY`` pointing at temporary files; ``uses:`` steps (setup-python, upload-artifact) are
not run, but what they would upload must exist. The package installed is the wheel of tests/packaging.py,
in its fresh environment outside the clone.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import RELEASE_GROUP
from tests.support import REPO_ROOT, assert_valid

ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def test_the_action_is_composite_with_the_inputs_the_issue_names():
    assert ACTION["runs"]["using"] == "composite"
    assert {"implementation", "level", "expect", "python-version"} <= set(ACTION["inputs"])
    assert ACTION["inputs"]["implementation"]["required"] is True
    uses = [step["uses"] for step in ACTION["runs"]["steps"] if "uses" in step]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    assert any(u.startswith("actions/upload-artifact@") for u in uses)


def test_the_yaml_is_a_well_formed_composite_action():
    """Every step named, every output and ``steps.X`` reference naming a step that exists, ``uses:`` pinned to a
    major version, and the report attested by GitHub's own action (docs/ACTION.md)."""
    steps = ACTION["runs"]["steps"]
    ids = {step["id"] for step in steps if "id" in step}
    assert all(isinstance(step.get("name"), str) and ("run" in step) != ("uses" in step) for step in steps)
    text = (REPO_ROOT / "action.yml").read_text(encoding="utf-8")
    assert set(re.findall(r"steps\.([\w-]+)\.outputs", text)) <= ids
    assert all(re.fullmatch(r"[\w-]+/[\w-]+@v\d+", step["uses"]) for step in steps if "uses" in step)
    assert {"status", "report", "report-sha256", "badge"} <= set(ACTION["outputs"])
    attest = next(step for step in steps if step.get("uses", "").startswith("actions/attest-build-provenance@"))
    assert attest["with"]["subject-path"] == "${{ steps.gate.outputs.report }}"
    assert attest["if"].startswith("always()") and ACTION["inputs"]["attest"]["default"] == "true"
    assert ACTION["inputs"]["require-sandbox"]["default"] == "true"


def test_no_expression_is_pasted_into_a_script():
    """Inputs reach the scripts through env: only, so an input's text is never run as shell code by itself."""
    for step in ACTION["runs"]["steps"]:
        assert "run" not in step or "${{" not in step["run"], step["name"]


class Runner:
    """Runs the action's steps the way a runner would, as far as a test can."""

    def __init__(self, inputs: dict[str, str], env: dict[str, str], work: Path) -> None:
        self.inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | inputs
        self.env, self.work = env, work
        self.summary = work / "step_summary.md"
        self.outputs: dict[str, dict[str, str]] = {}
        self.uploaded: list[Path] = []
        self.failed: str | None = None  # the first step that failed

    def value(self, expression: str) -> str:
        if expression.startswith("inputs."):
            return self.inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(REPO_ROOT)
        found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        if found:
            return self.outputs.get(found.group(1), {}).get(found.group(2), "")
        raise AssertionError(f"the test does not know the expression {expression!r}")

    def fill(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: self.value(m.group(1)), str(text))

    def run_all(self) -> None:
        for number, step in enumerate(ACTION["runs"]["steps"]):
            condition = step.get("if", "success()")
            if self.failed and condition != "always()":
                continue
            if "uses" in step:
                if step["uses"].startswith("actions/upload-artifact@"):
                    self.uploaded.append(self.work / self.fill(step["with"]["path"]))
                continue
            output = self.work / f"output-{number}"
            output.write_text("", encoding="utf-8")
            env = {**self.env, **{k: self.fill(v) for k, v in step.get("env", {}).items()},
                   "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(self.summary)}
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                  cwd=self.work, env=env, capture_output=True, text=True, timeout=900)
            self.log = getattr(self, "log", "") + f"--- {step['name']} ({done.returncode})\n{done.stdout}{done.stderr}"
            if "id" in step:
                self.outputs[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines() if line)
            if done.returncode != 0 and self.failed is None:
                self.failed = step["name"]


@pytest.mark.heavy
@pytest.mark.xdist_group(RELEASE_GROUP)
def test_the_actions_steps_gate_summarise_and_badge_then_fail(release, tmp_path):
    """One run of every step on a failing implementation (the wheel's gate of a green one is tests/test_package.py's):
    the reports, the summary and the badge are written, the artifact's folder holds them, then the job fails."""
    work = tmp_path / "repo"
    work.mkdir()
    # A user's repository with its own implementation (the gate's sandbox shows the child nothing of the suite).
    (work / "mybpe.py").write_text('def encode(text, merges):\n    return list(text.encode("utf-16-le"))\n',
                                   encoding="utf-8")
    env = {**release.env(), "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    runner = Runner({"implementation": "mybpe.py", "level": "bytes", "package": str(release.wheel),
                     "args": "-m 'not slow and not corpus'"}, env, work)
    runner.run_all()
    out = work / "bpe-kata-results"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert_valid("report", report)
    assert (out / "junit.xml").is_file() and (out / "report.html").is_file(), runner.log
    assert runner.uploaded == [out]
    assert runner.outputs["gate"]["status"] == "1", runner.log
    digest = hashlib.sha256((out / "report.json").read_bytes()).hexdigest()
    assert runner.outputs["gate"]["report-sha256"] == digest and f"report sha256 {digest}" in runner.log
    assert runner.failed == "Fail when the gate failed", runner.log  # the job fails, after the summary
    summary = runner.summary.read_text(encoding="utf-8")
    assert "| level | passed | failed |" in summary and "| bytes |" in summary and "`bytes.examples`" in summary
    badge = json.loads((out / "badge.json").read_text(encoding="utf-8"))
    assert badge == {"schemaVersion": 1, "label": "bpe-kata", "message": badge["message"], "color": "red"}


def test_the_summary_step_says_when_there_is_no_report(tmp_path):
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "summary")
    summary = tmp_path / "summary.md"
    env = {**os.environ, "BPE_KATA_OUT": str(tmp_path / "none"), "GITHUB_OUTPUT": str(tmp_path / "out"),
           "GITHUB_STEP_SUMMARY": str(summary)}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=env,
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and "no report" in summary.read_text(encoding="utf-8")


def test_the_gate_step_passes_the_inputs_as_words_and_never_evaluates_them(tmp_path):
    """The gate step's command line, seen by a stand-in ``bpe-kata`` that prints its arguments."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bpe-kata").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$SEEN"\nexit 3\n', encoding="utf-8")
    (fake / "bpe-kata").chmod(0o755)
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "gate")
    output, seen = tmp_path / "output", tmp_path / "seen"
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}", "SEEN": str(seen),
           "GITHUB_OUTPUT": str(output), "BPE_KATA_IMPL": "cmd:node my dir/bpe.mjs", "BPE_KATA_LEVEL": "train",
           "BPE_KATA_EXPECT": "known.toml", "BPE_KATA_OUT": "out",
           "BPE_KATA_ARGS": "-m 'not corpus' --call-timeout 30 $(touch pwned) `touch pwned`"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=env,
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr  # the gate's status is kept for the last step, not raised here
    words = seen.read_text(encoding="utf-8").splitlines()
    assert words[:2] == ["gate", "cmd:node my dir/bpe.mjs"]
    assert words[words.index("--level") + 1] == "train" and words[words.index("--expect") + 1] == "known.toml"
    assert words[-8:] == ["-m", "not corpus", "--call-timeout", "30", "$(touch", "pwned)", "`touch", "pwned`"]
    assert "not corpus" in words and "$(touch" in words and not (tmp_path / "pwned").exists()
    assert "status=3" in output.read_text(encoding="utf-8")
    assert "--require-sandbox" in words  # GATE.md asks CI to refuse to run unsandboxed; the input's default
