"""bpe-kata grade: one child process per submission; a hanging or crashing one never stops the others."""

from __future__ import annotations

import csv
import json

import pytest

from bpe_kata.cli import main

HANGS = '"""Hangs on import."""\nimport time\ntime.sleep(3600)\n'
CRASHES = '"""Kills its interpreter on import."""\nimport os\nos._exit(3)\n'


@pytest.mark.slow
def test_a_class_with_a_hanging_and_a_crashing_submission(tmp_path, capsys):
    (tmp_path / "hangs.py").write_text(HANGS, encoding="utf-8")
    (tmp_path / "crashes.py").write_text(CRASHES, encoding="utf-8")
    submissions = ["reference", "tests/implementations/wrong_pairs_no_overlap.py", "solutions/starter",
                   str(tmp_path / "hangs.py"), str(tmp_path / "crashes.py")]
    code = main(["grade", *submissions, "--timeout", "30", "--jobs", "5", "--csv", str(tmp_path / "class.csv"),
                 "--html", str(tmp_path / "class.html"), "--reports", str(tmp_path / "reports"), "--", "--expose-suite", "--level", "pairs", "-m", "not corpus",
                 "--hypothesis-profile", "fast"])
    out = capsys.readouterr().out
    assert code == 1, out
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    assert list(rows) == ["reference", "wrong_pairs_no_overlap", "starter", "hangs", "crashes"]
    assert [rows["reference"][level] for level in ("facts", "bytes", "pairs")] == ["green"] * 3
    assert rows["reference"]["result"] == "green"
    wrong = rows["wrong_pairs_no_overlap"]
    assert wrong["pairs"].startswith("failed ") and wrong["bytes"] == "green", rows
    # It imports the suite's oracle (the project's own known-wrong implementation): flagged as such.
    assert wrong["result"].startswith("flagged (imports the suite's reference or spec")
    assert rows["starter"]["pairs"] == "not started" and rows["starter"]["result"] == "incomplete"
    assert rows["hangs"]["result"].startswith("timed out") and float(rows["hangs"]["seconds"]) >= 30
    # Isolated: the submission dies in its own child, and the run that judges it reports failures.
    assert rows["crashes"]["result"] == "failed" and rows["crashes"]["pairs"].startswith("failed ")
    page = (tmp_path / "class.html").read_text(encoding="utf-8")
    assert "<table" in page and "wrong_pairs_no_overlap" in page and "get_stats skips" in page
    assert "http" not in page  # standalone
    assert '<a href="reports/02-wrong_pairs_no_overlap.html">' in page  # each finished run's own report, linked
    kept = sorted(path.name for path in (tmp_path / "reports").iterdir())
    expected = [f"{n:02d}-{name}.{ext}" for n, name in ((1, "reference"), (2, "wrong_pairs_no_overlap"),
                                                       (3, "starter"), (5, "crashes")) for ext in ("html", "json")]
    # The hanging one's supervisor stopped it at the limit and wrote the report itself, saying why.
    assert kept == sorted([*expected, "04-hangs.json"])
    stopped = json.loads((tmp_path / "reports" / "04-hangs.json").read_text("utf-8"))
    assert stopped["exit_status"] == 1 and "wall limit" in stopped["sandbox"]["failure"]
    assert "pairs.adjacent-overlapping" in (tmp_path / "reports" / "02-wrong_pairs_no_overlap.html").read_text("utf-8")
    assert out.splitlines()[0].split()[:2] == ["submission", "facts"]
