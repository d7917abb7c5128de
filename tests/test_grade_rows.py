"""``bpe-kata grade``'s rows as a teacher reads them: "could not load: CAUSE", "hung in train" with the other
levels kept, a row printed as each submission finishes, and a CSV a spreadsheet can count with."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_kata.tools import grade, grade_csv, grade_load, grade_progress, grade_table
from bpe_kata.tools.grade import Graded

REPO = Path(__file__).resolve().parents[1]
MINBPE_STYLE = REPO / "tests" / "grade_class" / "minbpe_style.py"


@pytest.mark.parametrize("value,cause", [
    ("{tmp}/missing", "does not exist"),
    ("{tmp}/missing.py", "does not exist"),
    ("{tmp}/subs/*.py", "a shell pattern that matched no file"),
    ("{tmp}/plain", "has no __init__.py"),
    ("cs999:{tmp}/package", "unknown prefix 'cs999'"),
    ("minbpe:{tmp}/nowhere", "does not exist"),
    ("{tmp}/notes.txt", "is not a .py file"),
    ("cmd:", "names no command"),
])
def test_a_value_that_names_nothing_loadable_is_told_before_anything_runs(tmp_path, value, cause):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "bpe.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "package").mkdir()
    (tmp_path / "package" / "__init__.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    found = grade_load.before_run(value.format(tmp=tmp_path))
    assert found is not None and cause in found, found


@pytest.mark.parametrize("value", ["{tmp}/package", "{tmp}/one.py", "solutions.mine", "cmd:node bpe.mjs",
                                   "minbpe:{tmp}/one.py"])
def test_a_value_that_may_load_is_left_to_the_run(tmp_path, value):
    (tmp_path / "package").mkdir()
    (tmp_path / "package" / "__init__.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "one.py").write_text("x = 1\n", encoding="utf-8")
    assert grade_load.before_run(value.format(tmp=tmp_path)) is None


def test_a_report_whose_load_call_failed_is_not_loaded_and_one_that_answered_is():
    broken = {"root_causes": [{"call": "hello", "exception": "ImplementationError: hello: --impl /x/y: importing it "
                                                             "raised SyntaxError: bad (a.py, line 2).\nmore"}],
              "claims": {"pairs.examples": {"calls": 0}}}
    assert grade_load.not_loaded(broken) == "importing it raised SyntaxError: bad (a.py, line 2)."
    answered = {**broken, "claims": {"pairs.examples": {"calls": 3}}}
    assert grade_load.not_loaded(answered) is None
    assert grade_load.not_loaded({"root_causes": [{"call": "train", "exception": "x"}], "claims": {}}) is None
    hangs = {"root_causes": [], "claims": {"pairs.examples": {"calls": 0}},
             "failures": {"t": "over budget: hello: the run's time budget (21 s of child time) ran out"}}
    assert "did not finish" in grade_load.not_loaded(hangs)
    crashed = {**hangs, "failures": {"t": "crashed: hello: the child exited without answering (exit status 3)"}}
    assert grade_load.not_loaded(crashed) == "importing it ended its process: the child exited without answering " \
                                             "(exit status 3)"
    assert grade_load.not_loaded({**hangs, "failures": {"t": "over budget: train: the run's time budget"}}) is None


def test_the_calls_that_hung_are_named_from_the_reports_failures():
    report = {"failures": {
        "a": "timed out: train: no answer within 10 s (--call-timeout); the child was stopped",
        "b": "timed out: train: not called: it hung in its last 2 calls (--give-up-after-hangs)",
        "c": "too slow: encode(text='ab', merges={}) was still running when the test's budget ran out",
        "d": "timed out: hello: no answer within 60 s",
        "e": "over budget: merge: the run's time budget (105 s of child time, --time-budget) is spent",
        "f": "AssertionError: train returned the wrong merges"}}
    assert grade_load.hung_calls(report) == ["train", "encode"]


def test_rows_are_reported_as_they_finish_with_progress(tmp_path):
    """Values that name nothing never start a child, so this runs no submission: each finished row reaches the
    progress callback once, numbered, and the table keeps the order given."""
    seen: list[tuple[str, int, int]] = []
    values = [str(tmp_path / "b_missing"), str(tmp_path / "a_missing.py"), str(tmp_path / "glob*.py")]
    rows = grade.grade(values, [], 30, jobs=2, progress=lambda o, done, total: seen.append((o.name, done, total)))
    assert [row.submission for row in rows] == values
    assert sorted(done for _, done, _ in seen) == [1, 2, 3] and {total for *_, total in seen} == {3}
    assert all(row.verdict == "could not load" and row.result.startswith("could not load: ") for row in rows)
    text = io.StringIO()
    progress = grade_progress.Progress(stream=text)
    progress(rows[0], 1, 3)
    assert text.getvalue().startswith("[1 of 3, 0:0") and "b_missing: could not load: " in text.getvalue()


def _counts(passed: int, failed: int, status: str, not_started: int = 0) -> dict:
    return {"passed": passed, "failed": failed, "not started": not_started, "not run": 0, "not judged": failed // 2,
            "of which a feature not started": 0, "status": status}


def test_the_csv_has_status_words_and_passed_over_total_per_level(tmp_path):
    rows = [Graded("alice", "alice", seconds=12.34, levels={"pairs": _counts(9, 0, "green"),
                                                            "train": _counts(30, 6, "FAILED")},
                   detail="hung in train", similarity=0.0712),
            Graded("bob", "bob", ended="could not load", detail="bob/ has no __init__.py, so it is not a package")]
    points = [("points", lambda row: 10 if row.name == "alice" else 0)]
    grade_table.write_csv(tmp_path / "class.csv", rows, extra=points)
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        table = {row["submission"]: row for row in csv.DictReader(handle)}
    alice, bob = table["alice"], table["bob"]
    assert (alice["result"], alice["detail"], alice["accepted"], alice["points"]) == ("failed", "hung in train",
                                                                                      "no", "10")
    assert (alice["pairs"], alice["pairs passed"], alice["pairs tests"]) == ("green", "9", "9")
    assert (alice["train"], alice["train passed"], alice["train tests"]) == ("failed", "30", "36")
    assert (alice["passed"], alice["tests"], alice["levels green"]) == ("39", "45", "1")
    assert float(alice["similarity"]) == pytest.approx(0.071) and float(alice["seconds"]) == pytest.approx(12.3)
    assert (bob["result"], bob["pairs"], bob["pairs tests"], bob["tests"]) == ("could not load", "", "", "0")
    assert list(table["alice"])[:5] == ["submission", "result", "detail", "accepted", "points"]
    assert grade_csv.header(["pairs"])[:4] == ["submission", "result", "detail", "accepted"]


def _grade(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict, str]:
    bpe_kata = shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata"))
    done = subprocess.run([bpe_kata, "grade", "--plain", "--jobs", "2", "--json", str(tmp_path / "class.json"),
                           "--html", str(tmp_path / "class.html"), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900)
    data = json.loads((tmp_path / "class.json").read_text(encoding="utf-8"))
    return done, {row["name"]: row for row in data["rows"]}, (tmp_path / "class.html").read_text(encoding="utf-8")


@pytest.mark.heavy
def test_import_and_syntax_errors_are_rows_that_could_not_load_and_blame_no_claim(tmp_path):
    (tmp_path / "imports").mkdir()
    (tmp_path / "imports" / "__init__.py").write_text("import numpyy_not_here\n", encoding="utf-8")
    (tmp_path / "syntax").mkdir()
    (tmp_path / "syntax" / "__init__.py").write_text("def get_stats(ids):\n    return {\n", encoding="utf-8")
    done, rows, page = _grade(tmp_path, "imports", "syntax", "--timeout", "120", "--",
                              "--level", "pairs", "--hypothesis-profile", "fast")
    assert done.returncode == 1
    assert "not installed" in rows["imports"]["detail"] and "SyntaxError" in rows["syntax"]["detail"], rows
    for row in rows.values():
        assert row["ended"] == "could not load" and row["levels"] == {} and row["failed_claims"] == []
    assert "claims broken" not in page and "could not load: " in done.stdout
    assert "[1 of 2, " in done.stderr and "[2 of 2, " in done.stderr  # rows as they finished


HANGS_IN_TRAIN = MINBPE_STYLE.read_text(encoding="utf-8").replace(
    "def train(text, vocab_size):\n", "def train(text, vocab_size):\n    import time\n    time.sleep(3600)\n")


@pytest.mark.heavy
def test_a_hanging_function_fails_its_tests_and_the_other_levels_are_kept(tmp_path):
    assert "time.sleep(3600)" in HANGS_IN_TRAIN
    (tmp_path / "hangs.py").write_text(HANGS_IN_TRAIN, encoding="utf-8")
    done, rows, _ = _grade(tmp_path, "hangs.py", "--timeout", "100", "--", "--level", "pairs", "--level", "merge",
                           "--level", "train", "-m", "not corpus", "--hypothesis-profile", "fast")
    row = rows["hangs"]
    assert row["ended"] == "finished" and row["detail"].startswith("hung in train"), row
    statuses = {level: counts["status"] for level, counts in row["levels"].items()}
    assert (statuses["pairs"], statuses["merge"], statuses["train"]) == ("green", "green", "FAILED"), statuses
    assert row["seconds"] < 100


@pytest.mark.heavy
def test_at_the_wall_limit_the_levels_that_finished_are_kept(tmp_path):
    """The last resort: no per-call limit helps (set past the wall), so the run is interrupted and keeps its report."""
    (tmp_path / "hangs.py").write_text(HANGS_IN_TRAIN, encoding="utf-8")
    done, rows, _ = _grade(tmp_path, "hangs.py", "--timeout", "40", "--call-timeout", "600", "--",
                           "--test-budget", "off", "--time-budget", "1000", "--level", "pairs", "--level", "train",
                           "-m", "not corpus", "--hypothesis-profile", "fast")
    row = rows["hangs"]
    assert row["ended"] == "timed out" and row["complete"] is False, row
    assert row["levels"]["pairs"]["status"] == "green" and row["levels"]["pairs"]["passed"] > 0, row


def test_submissions_that_name_nothing_loadable_are_told_first(tmp_path, monkeypatch):
    """A class's broken paths are rows at once, not after the runs queued before them."""
    (tmp_path / "alice.py").write_text("x = 1\n", encoding="utf-8")
    started: list[str] = []

    def run_one(submission, extra, timeout, workdir, keep, slot, runner, allowed):
        started.append(Path(submission).name)
        return Graded(submission, Path(submission).name)

    monkeypatch.setattr(grade, "run_one", run_one)
    values = [str(tmp_path / "alice.py"), str(tmp_path / "bob_missing"), str(tmp_path / "carol.py")]
    (tmp_path / "carol.py").write_text("x = 1\n", encoding="utf-8")
    rows = grade.grade(values, [], 30, jobs=1)
    assert started == ["bob_missing", "alice.py", "carol.py"]
    assert [row.submission for row in rows] == values  # the table keeps the order given


def test_the_rich_progress_line_is_the_plain_one_in_colour():
    rich_console = pytest.importorskip("rich.console", reason="rich is the terminal extra's")
    console = rich_console.Console(file=io.StringIO(), width=200, force_terminal=True)
    row = Graded("bob", "bob", levels={"pairs": _counts(9, 0, "green")}, seconds=3)
    grade_progress.Progress(console)(row, 2, 12)
    shown = console.file.getvalue()
    assert shown.startswith("\x1b[32m") and "[ 2 of 12, 0:00] bob: green  (1 green; 3 s)" in shown, shown


def test_the_csv_scores_each_report_with_the_teachers_points(tmp_path):
    """grade --points FILE: each submission's points out of its possible, as the platform files score the same
    report (bpe_kata/platforms/points.py); a submission with no report has none."""
    from bpe_kata.platforms import points as scoring
    from bpe_kata.tools.batch_commands import points_columns
    from tests.support import REPO_ROOT, run_spec_inline

    wrong = REPO_ROOT / "tests" / "implementations" / "wrong_merge_end_guard.py"
    run = run_spec_inline(tmp_path, "--impl", str(wrong),
                          "--level", "merge", "-m", "not corpus", files=["spec/test_bytes.py", "spec/test_pairs.py",
                                                                          "spec/test_merge.py"])
    (tmp_path / "points.toml").write_text("[levels]\nmerge = 30\n", encoding="utf-8")
    weights = scoring.load(tmp_path / "points.toml")
    rows = [Graded("alice", "alice", report=run.report), Graded("bob", "bob", ended="could not load")]
    grade_table.write_csv(tmp_path / "class.csv", rows, extra=points_columns(weights))
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        table = {row["submission"]: row for row in csv.DictReader(handle)}
    earned, possible = scoring.total(scoring.level_scores(run.report, weights))
    assert (float(table["alice"]["points"]), float(table["alice"]["max points"])) == (earned, possible)
    assert earned < possible and (table["bob"]["points"], table["bob"]["max points"]) == ("", "")
