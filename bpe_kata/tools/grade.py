"""``bpe-kata grade``: the spec on a class's implementations, each in its own child process.

Each submission runs as ``bpe-kata check SUBMISSION --isolated --bpe-report FILE`` under a
supervisor of its own (bpe_kata.gate.supervisor: a private run directory, the sandbox required
unless ``--allow-unsandboxed``), and the submission itself in a sandboxed grandchild behind the
stdio protocol, so no submission can write its own verdict or another's row (levels it has not
started stay "not started", unlike ``bpe-kata gate``, which fails them). Each child is a new
session, so a timeout kills everything it started; at most ``jobs`` run at a time, under a
wall-clock limit. A submission that crashes, hangs or writes no report gets a row that says so;
the others are unaffected. The row's cells come from the child's JSON report only; what copy detection
finds in the submission's files (bpe_kata/tools/similarity.py) is its ``flags``, shown beside the
verdict, never instead of it. The class table drawn from the rows is bpe_kata/tools/grade_table.py's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.impl import course_shapes
from bpe_kata.tools import grade_limits, grade_load
from bpe_kata.verdict.outcomes import LevelStatus

#: The command each submission runs under: its own supervisor, which runs ``check --isolated``, so
#: the submission never runs in the process that decides its row.
RUNNER = [sys.executable, "-m", "bpe_kata.gate.supervisor", "--graded"]
#: One process per submission: grading already runs submissions side by side.
RUN_OPTIONS = ["-q", "-n", "0", "-p", "no:cacheprovider"]


@dataclass
class Graded:
    """One submission's row: how its child ended, and its report's levels when it wrote one."""

    submission: str
    name: str
    seconds: float = 0.0
    ended: str = "finished"  # finished / timed out / crashed / could not load
    exit_code: int | None = None
    levels: dict = field(default_factory=dict)
    mistakes: list[str] = field(default_factory=list)
    failed_claims: list[str] = field(default_factory=list)
    detail: str = ""
    page: Path | None = None  # the submission's own HTML report, when kept
    complete: bool = True  # False when the report says some selected tests never finished
    report: dict = field(default_factory=dict)  # the child's whole JSON report, when it wrote one
    flags: list[str] = field(default_factory=list)  # what copy detection found: shown beside the verdict
    similarity: float | None = None  # share of its code that is the reference's (bpe_kata.tools.similarity)
    slot: int = 0  # its place in the order given

    def cell(self, level: str) -> str:
        counts = self.levels.get(level)
        if counts is None:
            return "—"
        if counts["status"] == LevelStatus.FAILED:
            return f"failed {counts['failed']}"
        return counts["status"]

    @property
    def verdict(self) -> str:
        """What the run says, whatever copy detection found (``flags``, in a column of its own)."""
        if self.ended != "finished":
            return self.ended
        if not self.levels:
            return "no report"
        statuses = {c["status"] for c in self.levels.values()}
        return (
            "failed"
            if LevelStatus.FAILED in statuses
            else "green"
            if statuses == {LevelStatus.GREEN} and self.complete
            else "incomplete"
        )

    @property
    def result(self) -> str:
        """The result cell: the verdict and why ("could not load: CAUSE", "failed (hung in train)")."""
        if not self.detail:
            return self.verdict
        return f"{self.verdict}: {self.detail}" if self.ended == grade_load.NOT_LOADED else \
            f"{self.verdict} ({self.detail})"

    @property
    def accepted(self) -> bool:
        """Green and nothing flagged: what ``bpe-kata grade`` exits 0 for."""
        return self.verdict == "green" and not self.flags


def course_folder(submission: str) -> Path | None:
    """A course-shaped value's folder (``cs336:PATH``, ``minbpe:PATH[:CLASS]``); None for any other value."""
    shape, colon, rest = submission.partition(":")
    if not colon or shape not in course_shapes.SHAPES:
        return None
    path = Path(rest.rsplit(":", 1)[0] if shape == "minbpe" and not Path(rest).exists() else rest)
    return path.parent.parent if path.name == "adapters.py" else path


def display_name(submission: str) -> str:
    """The submission's name in the class table, printable: a name is the student's text, so a newline, a
    terminal escape or a direction override in it would let a folder name print rows of its own."""
    return printable(_name(submission))


def _name(submission: str) -> str:
    if submission.startswith("cmd:"):
        return submission[:40]
    folder = course_folder(submission)
    if folder is not None:  # a course-shaped value: its folder's name, then the shape
        return f"{folder.stem} ({submission.partition(':')[0]})"
    path = Path(submission)
    return path.stem if path.name == "__init__.py" else path.name.removesuffix(".py") or submission


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, escapes, format characters) written
    as its Python escape, so it shows as what it is and moves nothing on a terminal."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def command(submission: str, report: Path, extra: list[str], runner: list[str] = RUNNER) -> list[str]:
    target = (
        submission
        if submission.startswith("cmd:") or not Path(submission).exists()
        else str(Path(submission).resolve())
    )
    isolated = [] if runner == RUNNER else ["--isolated"]
    return [*started(runner), target, *isolated, "--bpe-report", str(report), *RUN_OPTIONS, *extra]


def started(runner: list[str]) -> list[str]:
    """``python -m MODULE ARGS`` as a trusted start (bpe_kata/gate/trusted_start.py): the supervisor of a
    submission never imports from the class's folder, the environment or a submission's installation."""
    if runner[:2] != [sys.executable, "-m"] or len(runner) < 3:
        return runner
    from bpe_kata.gate import trusted_start
    from bpe_kata.gate.run_options import private_pycache

    return trusted_start.command(runner[2], runner[3:], private_pycache())


def run_one(submission: str, extra: list[str], timeout: float, workdir: Path, keep: Path | None = None,
            slot: int = 0, runner: list[str] = RUNNER, allowed_libraries: list[str] | None = ()) -> Graded:
    """Run the spec on one submission in a child process; never raises for the submission's faults.

    With ``keep``, the child's JSON and HTML reports stay there as ``NN-NAME.json`` and ``.html``;
    ``allowed_libraries``: libraries its imports may name unflagged (None: every one)."""
    outcome = Graded(submission, display_name(submission))
    cause = grade_load.before_run(submission)
    if cause is not None:  # names nothing loadable: nothing to run, no level to fill
        outcome.ended, outcome.detail = grade_load.NOT_LOADED, cause
        return outcome
    outcome.flags, outcome.similarity = _suite_flags(submission, allowed_libraries)
    if keep is not None:
        stem = f"{slot:02d}-{''.join(c if c.isalnum() or c in '-_.' else '_' for c in outcome.name)}"
        report, outcome.page = keep / f"{stem}.json", keep / f"{stem}.html"
        extra = [*extra, "--bpe-html", str(outcome.page)]
    else:
        report = Path(tempfile.mkstemp(prefix="grade-", suffix=".json", dir=workdir)[1])
    report.unlink(missing_ok=True)
    if runner == RUNNER:  # the supervisor stops the run itself at the limit, and every process it started
        extra = [*extra, "--wall-limit", f"{timeout:g}"]
    start = time.monotonic()
    child = subprocess.Popen(
        command(submission, report, extra, runner),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
        errors="replace",
    )
    try:
        output, _ = child.communicate(timeout=timeout + (60 if runner == RUNNER else 0))
    except subprocess.TimeoutExpired:
        grade_limits.kill_tree(child.pid)
        output, _ = child.communicate()
        outcome.ended, outcome.detail = "timed out", f"no result within {timeout:g} s; stopped"
    outcome.seconds = time.monotonic() - start
    outcome.exit_code = child.returncode
    if report.is_file():
        data = outcome.report = json.loads(report.read_text(encoding="utf-8"))
        outcome.levels = data.get("levels", {})
        outcome.mistakes = data.get("likely_mistakes", [])
        outcome.failed_claims = [cid for cid, c in data.get("claims", {}).items() if c.get("status") == "failed"]
        if data.get("complete") is False:  # the gate runner's honest flag: some selected tests never finished
            outcome.complete, outcome.detail = False, "the run did not finish every test"
        failure = (data.get("sandbox") or {}).get("failure")
        if failure and "wall limit" in failure:
            outcome.ended, outcome.detail = "timed out", f"no result within {timeout:g} s; stopped"
        elif failure:
            outcome.ended, outcome.detail = "failed", failure
        hung = grade_load.hung_calls(data)
        if hung:  # each hung call failed its test and the run went on: say which
            outcome.detail = "; ".join(filter(None, [f"hung in {', '.join(hung)}", outcome.detail]))
        cause = grade_load.not_loaded(data)
        if cause is not None:  # no level was judged: no cell says "failed", no claim is blamed
            outcome.ended, outcome.detail = grade_load.NOT_LOADED, cause
            outcome.levels, outcome.mistakes, outcome.failed_claims = {}, [], []
    elif outcome.ended == "finished":
        outcome.ended = "crashed"
        last = [line for line in (output or "").splitlines() if line.strip()][-1:]
        outcome.detail = f"exit code {child.returncode}, no report" + (f": {last[0][:200]}" if last else "")
    if outcome.page is not None and not outcome.page.is_file():
        outcome.page = None
    return outcome


def _suite_flags(submission: str, allowed_libraries: list[str] | None = ()) -> tuple[list[str], float | None]:
    """What a submission's files show: it imports the suite or a library, copies the reference, ships
    what cannot be read (bpe_kata/tools/similarity.py, delegation.py, shipped.py)."""
    from bpe_kata.layout.paths import SPEC_DIR, reference_dir, shipped_implementations
    from bpe_kata.tools.similarity import flags

    path = course_folder(submission) or Path(submission)  # a course-shaped folder is read like any other
    if submission.startswith("cmd:") or not path.exists():
        return [], None
    reference = reference_dir()
    shipped = [SPEC_DIR / "oracle", *(f for d in shipped_implementations() for f in sorted(d.glob("right_*.py")))]
    if any(path.resolve().is_relative_to(own) for own in [reference, *shipped] if own is not None):
        return [], 1.0  # the suite's own code, graded as a control
    # The suite's known-wrong implementations are derived from its oracle by design: figured, never flagged so.
    control = any(path.resolve().is_relative_to(folder) for folder in shipped_implementations())
    return flags(path, reference, common_code(), shipped, allowed_libraries, not control)


def common_code() -> list[Path]:
    """The code every learner has or writes the same way, left out of the similarity figure: the starter and the
    oracle's textbook core (bpe_kata/tools/similarity.py says why)."""
    from bpe_kata.layout.paths import SPEC_DIR, SUITE_ROOT

    return [SUITE_ROOT / "solutions" / "starter", SPEC_DIR / "oracle" / "core.py"]


def unusable_names(submissions: list[str]) -> list[str]:
    """The submissions whose names are not valid UTF-8 (no report, page or table could name them)."""
    return [name for name in submissions if not _utf8(name)]


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def grade(submissions: list[str], extra: list[str], timeout: float, jobs: int | None = None,
          keep: Path | None = None, runner: list[str] = RUNNER,
          allowed_libraries: list[str] | None = (), call_timeout: float | None = None,
          progress: Callable[[Graded, int, int], None] | None = None) -> list[Graded]:
    """Every submission's outcome, in the order given (``keep``: a folder for each one's reports;
    ``runner``: the command each one runs under, ``bpe-kata check`` unless told; ``allowed_libraries``:
    see ``run_one``; ``call_timeout``: bpe_kata/tools/grade_limits.py; ``progress``: called with each
    outcome as it finishes, how many have, and how many there are)."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(submissions) or 1))
    extra = grade_limits.limits(extra, timeout, call_timeout)
    if keep is not None:
        keep = keep.expanduser().resolve()
        keep.mkdir(parents=True, exist_ok=True)
    outcomes: list[Graded] = []
    with tempfile.TemporaryDirectory(prefix="bpe-kata-grade-") as workdir, ThreadPoolExecutor(jobs) as pool:
        # those that name nothing loadable first: their rows are told at once, not after the runs queued before them
        order = sorted(enumerate(submissions, 1), key=lambda item: grade_load.before_run(item[1]) is None)
        running = {pool.submit(run_one, submission, extra, timeout, Path(workdir), keep, slot, runner,
                               allowed_libraries): slot for slot, submission in order}
        for future in as_completed(running):  # each row as it finishes, in the order they finish
            outcomes.append(future.result())
            outcomes[-1].slot = running[future]
            if progress is not None:
                progress(outcomes[-1], len(outcomes), len(submissions))
    return distinct_names(sorted(outcomes, key=lambda outcome: outcome.slot))


def distinct_names(outcomes: list[Graded]) -> list[Graded]:
    """Two rows never share a name: submissions whose names collide (``sectionA/bob``, ``sectionB/bob``) are
    named by their whole path as given, so a green row cannot be read as another student's."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.name] = counts.get(outcome.name, 0) + 1
    for outcome in outcomes:
        if counts[outcome.name] > 1:
            outcome.name = printable(outcome.submission)
    return outcomes
