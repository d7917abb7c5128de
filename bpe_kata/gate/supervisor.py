"""The supervisor: the process that owns one gate (or graded) run, above the verdict process.

``bpe-kata gate`` and each submission of ``bpe-kata grade`` run as::

    supervisor (this module)            private run directory, wall limit, subreaper
      └─ verdict process (pytest)       judges; started trusted (trusted_start.py), private bytecode cache
           └─ implementation children   sandboxed (bpe_kata.child.sandbox), scratch directory only

The supervisor makes a private run directory (under the user's cache, mode 0700, never under
``$TMPDIR``; hidden from the children) where the only copies of the JSON report, JUnit and
HTML are written, and a scratch directory inside it, the one place a child may write. It
hashes the installed suite before and after (a change fails the run), reads the ``--expect``
file once (its copy is what the verdict process reads), enforces the wall limit, and once the
verdict process has ended kills every descendant still alive (it is their subreaper, so a
``setsid`` daemon is found too). Only then does it add its record to the report and copy the
files where they were asked for.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bpe_kata.child import sandbox as sandboxing
from bpe_kata.child import view
from bpe_kata.gate import log_text, stopping, trusted_start
from bpe_kata.gate.run_options import (
    DEFAULT_TIME_BUDGET,
    DEFAULT_WALL_LIMIT,
    impl_value,
    private_pycache,
    private_root,
    split_options,
)
from bpe_kata.gate.suite import suite_sha256
from bpe_kata.layout.paths import suite_files
from bpe_kata.platforms.option_names import OUTPUT_OPTIONS, POINTS_OPTION
from bpe_kata.run.spec_command import spec_run

#: pytest's exit status for a usage error, and the one every bpe-kata command gives it.
PYTEST_USAGE_ERROR, USAGE_ERROR = 4, 2
class Supervisor:
    """One run: ``run()`` returns the exit status; ``record`` is what goes into the report."""

    def __init__(self, pytest_args: list[str], *, require_sandbox: bool = False, wall_limit: float | None = None,
                 expose_suite: bool = False, echo=None, graded: bool = False) -> None:
        self.args, self.values, self.flags = split_options(pytest_args)
        self.require = require_sandbox or "--require-sandbox" in self.flags
        self.expose = expose_suite or "--expose-suite" in self.flags
        self.wall_limit = float(self.values.get("--wall-limit", wall_limit or DEFAULT_WALL_LIMIT))
        self.echo = echo or (lambda text: (sys.stdout.write(text), sys.stdout.flush()))
        self.record: dict = {}
        self.graded = graded

    def run(self) -> int:
        from bpe_kata.gate import startup_guard

        found = startup_guard.findings()
        for line in found:
            print(f"bpe-kata: {line}: {startup_guard.REFUSAL}", file=sys.stderr, flush=True)
        if found and self.require:
            print("bpe-kata: --require-sandbox: refusing to run in an environment with start-up code that is not "
                  "the suite's", file=sys.stderr, flush=True)
            return 2
        problem = self._remove_old_outputs() or _points_problem(self.values)
        if problem:
            print(f"bpe-kata: {problem}", file=sys.stderr, flush=True)
            return 2
        files = suite_files()
        start_hash = suite_sha256(files)
        run_dir, self.began = Path(tempfile.mkdtemp(prefix="run-", dir=private_root())), time.monotonic()
        previous = stopping.stop_on_signals()
        try:
            return self._run(run_dir, files, start_hash)
        except stopping.Stopped as stop:
            print(f"bpe-kata: stopped by signal {stop.signal_number}; every process of the run is killed, "
                  "no report is written", file=sys.stderr, flush=True)
            return 128 + stop.signal_number
        finally:
            sandboxing.kill_descendants()  # a stop, or an error of the supervisor's own: nothing of the run lives on
            shutil.rmtree(run_dir, ignore_errors=True)
            stopping.restore_signals(previous)

    def _remove_old_outputs(self) -> str | None:
        """An output path never holds a file this run did not write: a report, JUnit or page left there (or
        committed by the judged repository) would otherwise be read, attested or published after a run that
        stopped before writing its own (an expectations file refused, exit status 2)."""
        for option in ("--bpe-report", "--junitxml", "--bpe-html", *OUTPUT_OPTIONS):
            if option in self.values:
                try:
                    os.unlink(self.values[option])
                except FileNotFoundError:
                    pass
                except OSError as error:
                    return f"{option} {self.values[option]}: cannot remove the file there before the run: {error}"
        return None

    def _view(self, run_root: Path) -> view.View:
        """What the child may read: an allow list (bpe_kata/child/view.py), never a list of what to hide. A graded
        submission's child sees its own folder, not the class's working folder (no borrowing a classmate's)."""
        impl = impl_value(self.args)
        cwd = Path.cwd()
        if self.graded and impl is not None:
            cwd = view.submission_folder(impl, cwd)
        return view.child_view(impl, cwd=cwd, run_root=run_root, expose=self.expose)

    def _run(self, run_dir: Path, files: list[Path], start_hash: str) -> int:
        scratch = run_dir / "scratch"
        scratch.mkdir(mode=0o700)
        seen = self._view(run_dir.parent)
        visible = seen.visible
        box = sandboxing.Sandbox.probe(str(scratch), seen)
        layers = box.layers()
        if not box.sandboxed:
            print(sandboxing.NOT_SANDBOXED, file=sys.stderr, flush=True)
            if self.require:
                print("bpe-kata: --require-sandbox: refusing to run the implementation unsandboxed", file=sys.stderr)
                return 2
        else:
            print(f"bpe-kata: sandbox: {'; '.join(layers)}" + (f"; visible to the child: {', '.join(visible)}"
                                                              if visible else ""), file=sys.stderr, flush=True)
        args = list(self.args)
        hidden = [p for p in seen.protected if p != str(run_dir.parent.resolve())]
        self.record = {"layers": layers, "not_sandboxed": not box.sandboxed, "hidden_from_child": hidden,
                       "visible_to_child": visible, "suite_sha256_start": start_hash,
                       "suite_files": len(files), "wall_limit": self.wall_limit}
        expect = self.values.get("--expect")
        if expect is not None:
            try:
                data = Path(expect).read_bytes()
            except OSError as error:
                print(f"bpe-kata: --expect {expect}: {error}", file=sys.stderr)
                return 2
            copy = run_dir / f"expect{Path(expect).suffix}"
            copy.write_bytes(data)
            from bpe_kata.verdict import expectations

            try:
                expectations.load(copy, shown=expect)
            except expectations.ExpectationsError as error:
                print(f"bpe-kata: {error}", file=sys.stderr)
                return 2
            self.record["expect"] = {"file": expect, "sha256": hashlib.sha256(data).hexdigest()}
            args += ["--expect", str(copy)]
        if not any(a == "--time-budget" or a.startswith("--time-budget=") for a in args):
            args += ["--time-budget", f"{DEFAULT_TIME_BUDGET:g}"]
        report, junit, page = run_dir / "report.json", run_dir / "junit.xml", run_dir / "report.html"
        args += ["--bpe-report", str(report), "--basetemp", str(scratch / "pytest")]
        if "--junitxml" in self.values:
            args += ["--junitxml", str(junit)]
        if "--bpe-html" in self.values:
            args += ["--bpe-html", str(page)]
        # The verdict process's temporary files (the paths it asks a child to save to) go in the
        # scratch directory too: the one place a child may write.
        (scratch / "tmp").mkdir(mode=0o700)
        # The verdict process starts trusted (bpe_kata/gate/trusted_start.py): the allow-listed
        # environment, no PYTHON* variable (its bytecode cache is given with -X pycache_prefix).
        env = trusted_start.environment(**{sandboxing.ENV_VAR: box.to_env(), "TMPDIR": str(scratch / "tmp")})
        args = [*trusted_start.plugin_args(args), "-p", "bpe_kata.gate.trusted_workers", *args]
        status, reason, killed = self._verdict(args, env)
        if status == PYTEST_USAGE_ERROR:
            status = USAGE_ERROR  # bad flags or input are the gate's usage errors: 2, as every command's are
        killed += sandboxing.kill_descendants()
        end_hash = suite_sha256(suite_files())
        self.record.update(suite_sha256_end=end_hash, suite_unchanged=end_hash == start_hash,
                           descendants_killed_after_verdict=killed)
        if end_hash != start_hash:
            reason = reason or "the installed suite changed during the run (suite_sha256_start != suite_sha256_end)"
        data = self._report(report, status)
        if expect is not None and isinstance(data.get("expectations"), dict):
            data["expectations"]["file"] = expect  # the file you named, not the private copy it read
        if reason:
            print(f"bpe-kata: the run failed: {reason}", file=sys.stderr, flush=True)
        self.record["failure"] = reason
        from bpe_kata.verdict import run_status

        data["exit_status"], data["complete"] = run_status.supervised(status, data.get("complete", False), reason)
        status = 1 if reason else status
        data["sandbox"] = self.record
        if "--bpe-report" in self.values:
            target, text = Path(self.values["--bpe-report"]), (json.dumps(data, indent=1) + "\n").encode()
            _write(target, text)
            # the digest to pin: `bpe-kata verify-report FILE --sha256 HEX` (docs/GATE.md)
            print(f"bpe-kata: report sha256 {hashlib.sha256(text).hexdigest()} {target}", file=sys.stderr, flush=True)
        if "--junitxml" in self.values:  # written even when the verdict process wrote none: a failure is one
            from bpe_kata.verdict import junit_verdict

            _write(Path(self.values["--junitxml"]),
                   junit_verdict.agree(junit.read_bytes() if junit.is_file() else None, data))
        if "--bpe-html" in self.values and page.is_file():
            _write(Path(self.values["--bpe-html"]), page.read_bytes())
        from bpe_kata.platforms import (
            outputs,  # Gradescope, Classroom, JUnit per level, Exercism: from the final report
        )

        outputs.write_all(self.values, data, time.monotonic() - self.began)
        return data["exit_status"] if status in (0, 1) else status

    def _verdict(self, args: list[str], env: dict) -> tuple[int, str | None, int]:
        """Run the verdict process under the wall limit, its output relayed; (exit status, failure,
        descendants killed after it ended)."""
        sandboxing.become_subreaper()
        command = trusted_start.command("bpe_kata.gate.supervisor", ["--verdict", *args], private_pycache())
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=env, start_new_session=True)
        relay = threading.Thread(target=self._relay, args=(process.stdout,), daemon=True)
        relay.start()
        try:
            status, reason = process.wait(timeout=self.wall_limit), None
        except subprocess.TimeoutExpired:  # interrupted first: pytest then writes the report of what finished
            stopping.interrupt(process)
            status, reason = 1, f"the wall limit ({self.wall_limit:g} s, --wall-limit) was reached; the run was stopped"
        killed = sandboxing.kill_descendants()  # the relay's pipe closes once no child holds it
        relay.join(timeout=10)
        if status < 0:
            reason = reason or f"the verdict process was killed by signal {-status}"
        return status, reason, killed

    def _relay(self, stream) -> None:
        for line in iter(stream.readline, b""):
            self.echo(log_text.shown(line.decode("utf-8", "replace")))

    @staticmethod
    def _report(path: Path, status: int) -> dict:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"complete": False, "exit_status": 1, "levels": {}, "claims": {},
                    "note": f"the verdict process wrote no report (exit status {status})"}


def _points_problem(values: dict[str, str]) -> str | None:
    """A --points file that cannot be used, said before the run (its outputs would be scored by it)."""
    if POINTS_OPTION not in values:
        return None
    from bpe_kata.platforms import outputs
    from bpe_kata.platforms.points import PointsError

    try:
        outputs.check(values)
    except PointsError as error:
        return str(error)
    return None


def _write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, target)


def graded(argv: list[str]) -> int:
    """One submission of ``bpe-kata grade``: ``check SUBMISSION --isolated`` under a supervisor of its
    own (its own process, so its sweep of descendants reaches only its own run), the sandbox
    required unless ``--allow-unsandboxed``. Started as ``python -m bpe_kata.gate.supervisor --graded``,
    without the CLI's imports: a class is many runs."""
    allow = "--allow-unsandboxed" in argv
    argv = [arg for arg in argv if arg != "--allow-unsandboxed"]
    if argv and not argv[0].startswith("-"):
        argv = ["--impl", argv[0], *argv[1:]]
    return Supervisor(spec_run("graded", argv), require_sandbox=not allow, graded=True).run()


def _verdict_main(args: list[str]) -> int:
    import pytest

    return int(pytest.main(args))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--verdict"]:
        sys.exit(_verdict_main(sys.argv[2:]))
    if sys.argv[1:2] == ["--graded"]:
        sys.exit(graded(sys.argv[2:]))
    sys.exit("usage: python -m bpe_kata.gate.supervisor --verdict PYTEST_ARGS (started by bpe-kata gate)")
