"""The supervisor, the sandbox's parts and the strict result shapes, one by one (issue 22).

The attacks themselves run in tests/test_red_team.py; these check the pieces they rely on,
each with an input that a wrong piece would get wrong.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bpe_kata.child import answers, sandbox, view
from bpe_kata.child.client import IsolatedImplementation, ProtocolError
from bpe_kata.gate import run_options, supervisor
from bpe_kata.layout.paths import reference_dir
from bpe_kata.tools import similarity
from tests.support import REPO_ROOT


@pytest.mark.parametrize("op, value", [
    ("train", "nonsense"), ("train", [[97, 97]]), ("train", [[97, 97, True]]), ("train", [[97, 97, 256.0]]),
    ("encode", [1, "2"]), ("encode", {"ids": [1]}), ("build_vocab", [[0, "0G"]]), ("build_vocab", [[0, "AB"]]),
    ("decode", 5), ("decode", {"code_points": [0x110000]}), ("save", []), ("load", {"merges": []}),
    ("stream_decode", {"feeds": ["a"]}), ("train_words", [[["a", "b"], "2"]]), ("segment_word", ["a", 1]),
    ("get_stats", [[1, 2]]),
])
def test_a_result_that_does_not_fit_its_shape_is_refused(op, value):
    with pytest.raises(answers.BadResult):
        answers.check(op, value)


@pytest.mark.parametrize("op, value", [
    ("train", [[97, 97, 256]]), ("encode", []), ("build_vocab", [[0, "00"], [256, "6161"]]), ("decode", "\ufffd"),
    ("decode", {"code_points": [0xD800, 0xDC00]}), ("save", None),
    ("load", {"merges": [[1, 2, 256]], "pattern": None, "special_tokens": [["<s>", 300]]}),
    ("stream_decode", {"feeds": ["", "a"], "flush": ""}), ("train_words", [[["a", "b"], 2]]),
    ("segment_word", ["ab", "c"]), ("get_stats", [[1, 2, 3]]),
])
def test_a_result_of_the_right_shape_is_accepted(op, value):
    answers.check(op, value)


class _Answers:
    """A child stand-in that answers every request with one fixed result."""

    def __init__(self, value):
        self.value = value
        self.killed = False

    def request(self, op, args):
        return self.value

    def kill(self):
        self.killed = True


def test_a_malformed_result_is_a_protocol_error_never_the_expected_value_error():
    implementation = IsolatedImplementation(["unused"])
    implementation.child = _Answers("nonsense")
    implementation.features = ("train",)
    with pytest.raises(ProtocolError, match="nonsense"):
        implementation.call("train", "some text", 100)
    assert implementation.child.killed


def test_options_the_supervisor_takes_out_of_the_pytest_arguments():
    rest, values, flags = run_options.split_options(
        ["--impl", "x", "--bpe-report=r.json", "--junit-xml", "j.xml", "--expect", "e.toml", "--wall-limit", "5",
         "--require-sandbox", "-q"])
    assert rest == ["--impl", "x", "-q"]
    assert values == {"--bpe-report": "r.json", "--junitxml": "j.xml", "--expect": "e.toml", "--wall-limit": "5"}
    assert flags == {"--require-sandbox"}


def test_the_granted_paths_leave_out_exactly_the_protected_folders(tmp_path):
    for name in ("suite/reference/a.py", "suite/spec/b.py", "suite/bpe_kata/c.py", "suite/top.py", "other/d.py",
                 "cache/pip/wheel.whl", "cache/bpe-kata/runs/run-1/report.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "suite" / "reference")
    protected = [str(tmp_path / p) for p in ("suite/reference", "suite/spec", "cache", "cache/bpe-kata/runs")]
    granted = {Path(p) for p in view.granted_paths([str(tmp_path)], protected)}
    assert tmp_path / "suite/bpe_kata" in granted and tmp_path / "suite/top.py" in granted
    assert tmp_path / "other" in granted
    assert not any(p == tmp_path / "suite/reference" or p.is_relative_to(tmp_path / "suite/spec") for p in granted)
    assert not any(p.is_relative_to(tmp_path / "cache") for p in granted), "nested protected folders stay protected"
    assert tmp_path / "link" not in granted, "a symbolic link is never followed into a grant"
    assert not any(p in (tmp_path, tmp_path / "suite") for p in granted)  # an ancestor would grant everything


def test_the_environment_is_an_allow_list(monkeypatch, tmp_path):
    monkeypatch.setenv("CI_JOB_TOKEN", "secret")
    monkeypatch.setenv("LANG", "C.UTF-8")
    env = sandbox.Sandbox(str(tmp_path)).environment({"PYTHONPATH": "/x"})
    assert "CI_JOB_TOKEN" not in env and env["LANG"] == "C.UTF-8"
    assert env["HOME"] == env["TMPDIR"] == str(tmp_path) and env["PYTHONPATH"] == "/x"


def test_no_layer_says_not_sandboxed_and_require_sandbox_refuses(monkeypatch, capsys):
    monkeypatch.setattr(sandbox.Sandbox, "probe", classmethod(lambda cls, scratch, seen: cls(scratch)))
    status = supervisor.Supervisor(["--impl", "reference", "--require-sandbox"]).run()
    err = capsys.readouterr().err
    assert status == 2
    assert "NOT SANDBOXED" in err and "refusing" in err


@pytest.mark.skipif(not sandbox.landlock_abi(), reason="Landlock is not available: spec/ cannot be hidden here")
def test_the_server_needs_nothing_the_sandbox_hides(tmp_path):
    """The child reads only an allow list, never spec/: a server that imported from it (as it once did, spec.frames
    for where an implementation raised) failed every call under the gate. An answer and a raised
    ValueError (the path that reports the frame) both come back from a child that cannot read spec/."""
    from bpe_kata.child.client import python_path_env, server_command

    box = sandbox.Sandbox.probe(str(tmp_path), view.child_view("reference", cwd=tmp_path, run_root=tmp_path / "run"))
    env = box.environment({"PYTHONPATH": python_path_env({})["PYTHONPATH"]})
    implementation = IsolatedImplementation(server_command("reference"), env=env, sandbox=box, cwd=tmp_path)
    try:
        implementation.connect()
        assert implementation.merge([1, 2, 1, 2], (1, 2), 256) == [256, 256]
        with pytest.raises(ValueError):
            implementation.train("some text", 100)
    finally:
        implementation.close()


@pytest.mark.skipif(sys.platform != "linux", reason="the subreaper is Linux's")
def test_the_sweep_kills_a_daemon_that_left_its_session():
    script = ("import os, time\n"
              "if os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\n    os._exit(0)\n")
    code = ("import subprocess, sys, time\n"
            "from bpe_kata.child import sandbox\n"
            "sandbox.become_subreaper()\n"
            f"subprocess.run([sys.executable, '-c', {script!r}])\n"
            "time.sleep(0.3)\n"
            "left = sandbox.descendants()\n"
            "print(len(left), sandbox.kill_descendants(), len(sandbox.descendants()))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO_ROOT)
    before, killed, after = map(int, done.stdout.split())
    assert before == 1 and killed >= 1 and after == 0


def test_similarity_flags_a_renamed_copy_and_not_an_independent_implementation(tmp_path):
    reference = reference_dir()
    copy = (reference / "core.py").read_text(encoding="utf-8").replace("ids", "tokens").replace("pair", "bigram")
    (tmp_path / "copied.py").write_text("# my own work\n" + copy, encoding="utf-8")
    flags, figure = similarity.flags(tmp_path / "copied.py", reference, REPO_ROOT / "solutions" / "starter")
    assert figure > 0.9 and any("reference's" in f for f in flags)
    own = REPO_ROOT / "tests" / "implementations" / "right_rank_loop.py"
    flags, figure = similarity.flags(own, reference, REPO_ROOT / "solutions" / "starter")
    assert figure < similarity.FLAG_AT and not any("reference's" in f for f in flags)


def test_similarity_flags_a_copy_of_any_implementation_the_suite_ships(tmp_path):
    """Not only the reference: a renamed copy of one of the project's right implementations is flagged."""
    shipped = REPO_ROOT / "tests" / "implementations" / "right_counter.py"
    copy = shipped.read_text(encoding="utf-8").replace("ids", "tokens").replace("pair", "bigram")
    (tmp_path / "copied.py").write_text(copy, encoding="utf-8")
    found, figure = similarity.flags(tmp_path / "copied.py", reference_dir(),
                                     REPO_ROOT / "solutions" / "starter", [shipped])
    assert figure > 0.9 and any("right_counter.py" in f for f in found)
    found, figure = similarity.flags(tmp_path / "copied.py", reference_dir(),
                                     REPO_ROOT / "solutions" / "starter")
    assert figure < similarity.FLAG_AT and found == []  # the reference alone did not see it


@pytest.mark.parametrize(
    "source",
    [
        "import importlib\nfrom reference import train\n",
        "import spec.oracle as o\n",
        "import importlib\nr = importlib.import_module('reference')\n",
    ],
)
def test_an_import_of_the_reference_is_flagged(tmp_path, source):
    (tmp_path / "sub.py").write_text(source, encoding="utf-8")
    flags, _ = similarity.flags(tmp_path / "sub.py", reference_dir())
    assert flags == ["imports the suite's reference or spec"]


def test_an_own_module_named_like_the_suite_is_not_flagged(tmp_path):
    (tmp_path / "sub.py").write_text("import references\nfrom specification import x\n", encoding="utf-8")
    assert similarity.flags(tmp_path / "sub.py", reference_dir())[0] == []


@pytest.mark.heavy
def test_verify_report_accepts_a_real_report_and_refuses_a_changed_one(tmp_path):
    command = [sys.executable, "-m", "bpe_kata.cli"]
    done = subprocess.run([*command, "gate", "reference", "--level", "bytes", "-q", "-n", "0", "-p", "no:cacheprovider",
                           "--bpe-report", str(tmp_path / "r.json")], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    record = report["sandbox"]
    assert record["suite_unchanged"] and record["suite_sha256_start"] == supervisor.suite_sha256()
    verify = lambda *args: subprocess.run([*command, "verify-report", "--allow-visible", *args],  # noqa: E731
                                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    seen = subprocess.run([*command, "verify-report", "--partial", str(tmp_path / "r.json")], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=60)
    assert seen.returncode == 1 and "could read the suite's own implementations" in seen.stderr  # gate reference
    # A green run of one level is no verdict on the spec: refused unless --partial says that is what you want.
    narrowed = verify(str(tmp_path / "r.json"))
    assert narrowed.returncode == 1 and "judged part of the spec (narrowed by --level bytes)" in narrowed.stderr
    assert verify(str(tmp_path / "r.json"), "--partial").returncode == 0
    assert verify(str(tmp_path / "r.json"), "--partial", "--suite-sha256", "0" * 64).returncode == 1
    report["narrowed_by"] = []  # and hiding the narrowing leaves the spec's other test functions without a record
    (tmp_path / "hidden.json").write_text(json.dumps(report), encoding="utf-8")
    hidden = verify(str(tmp_path / "hidden.json"))
    assert hidden.returncode == 1 and "has no record of" in hidden.stderr, hidden.stderr
    record["suite_sha256_end"] = "0" * 64
    (tmp_path / "forged.json").write_text(json.dumps(report), encoding="utf-8")
    forged = verify(str(tmp_path / "forged.json"), "--partial")
    assert forged.returncode == 1 and "changed during the run" in forged.stderr


@pytest.mark.heavy
def test_the_wall_limit_stops_a_run_and_says_so(tmp_path):
    """The child hangs at import; every other limit is far away (the hello's is --call-timeout 600,
    the time budget 1500 s), so the 8 s wall limit is what must stop the run, however slow the machine."""
    hangs = tmp_path / "hangs.py"
    hangs.write_text("import time\ntime.sleep(3600)\n", encoding="utf-8")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "gate", str(hangs), "--level", "bytes", "-q", "-n",
                           "0", "-p", "no:cacheprovider", "--call-timeout", "600", "--wall-limit", "8",
                           "--bpe-report", str(tmp_path / "r.json")],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    output = done.stdout[-2000:] + done.stderr[-2000:]
    assert done.returncode == 1 and time.monotonic() - start < 60, output
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["exit_status"] == 1 and report["complete"] is False, output
    assert "wall limit" in (report["sandbox"]["failure"] or ""), output
    # The hanging child names its file: looked for in the whole process table (an escaped child is
    # init's, not this worker's), and only this run's (other tests on this worker may hold children).
    assert not processes_mentioning(str(hangs)), "the hanging child outlived the run"


def processes_mentioning(text: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found
