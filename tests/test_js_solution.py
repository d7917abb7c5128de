"""The JavaScript solution (solutions/js, Node, the stdio protocol) on the spec's cases and levels.

Needs ``node`` on the PATH (skipped otherwise). The level run goes through the suite's
``--impl cmd:COMMAND`` runner, which arrives with ``bpe_kata/child/client.py``; until that module is
present it is skipped with that reason.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
import subprocess

import pytest

from spec.levels import LEVELS as ALL_LEVELS
from spec.patterns import PATTERNS
from tests.support import REPO_ROOT, files_of_levels, run_spec_inline

JS = REPO_ROOT / "solutions" / "js"
NODE = shutil.which("node")
LEVELS = [level.name for level in ALL_LEVELS if level.name != "facts"]
#: Over the protocol an iterable travels whole, so the bounded-read test is "not run" (docs/PROTOCOL.md).
PARTLY_RUN = {"special"}



def has_cmd_runner() -> bool:
    try:
        return importlib.util.find_spec("bpe_kata.child.client") is not None
    except ModuleNotFoundError:  # no bpe_kata package at all
        return False


needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript solution cannot run")


def node(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([NODE, *args], capture_output=True, text=True, encoding="utf-8", cwd=REPO_ROOT, timeout=120)


@needs_node
def test_js_passes_the_worked_cases():
    """spec/cases/*.json, read by a small node script: a quick check without the protocol."""
    run = node(str(JS / "check_cases.mjs"), str(REPO_ROOT / "spec" / "cases"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert " 0 wrong" in run.stdout and not run.stdout.startswith("0 cases"), run.stdout


@needs_node
def test_js_translates_the_specs_own_published_patterns():
    """The hand translations are keyed by the spec's pattern strings: a changed pattern must show here."""
    script = (f"import({json.dumps((JS / 'patterns.mjs').as_uri())})"
              ".then(m => console.log(JSON.stringify(m.PUBLISHED_PATTERNS)))")
    run = node("--input-type=module", "-e", script)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == PATTERNS


@needs_node
@pytest.mark.skipif(not has_cmd_runner(),
                    reason="the --impl cmd: runner (bpe_kata/child/client.py) is not on this branch yet")
@pytest.mark.heavy
def test_js_is_green_on_every_level_through_the_protocol(tmp_path, spec_tests):
    """Every level CI gates it on (a new operation the JS lacks fails here, not first in CI); small examples
    only: the corpus tests (whole books) run in `bpe-kata gate cmd:...`."""
    command = f"cmd:{shlex.quote(NODE)} {shlex.quote(str(JS / 'bpe.mjs'))}"
    run = run_spec_inline(tmp_path, "--impl", command, "--level", LEVELS[-1], "-m", "not corpus",
                          files=files_of_levels(spec_tests, LEVELS))
    assert run.returncode == 0, run.output[-3000:]
    wanted = ["partly run" if level in PARTLY_RUN else "green" for level in LEVELS]
    assert [run.level_status(level) for level in LEVELS] == wanted, run.report["levels"]
