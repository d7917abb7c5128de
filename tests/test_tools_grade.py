"""bpe-kata grade: one child process per submission; a hanging or crashing one never stops the others."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess

import pytest

from bpe_kata.cli import main

HANGS = '"""Hangs on import."""\nimport time\ntime.sleep(3600)\n'
CRASHES = '"""Kills its interpreter on import."""\nimport os\nos._exit(3)\n'


@pytest.mark.heavy
def test_a_class_with_a_hanging_and_a_crashing_submission(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")  # the full table (the short form: test_the_plain_table_fits_the_terminal...)
    (tmp_path / "hangs.py").write_text(HANGS, encoding="utf-8")
    (tmp_path / "crashes.py").write_text(CRASHES, encoding="utf-8")
    submissions = ["reference", "tests/implementations/wrong_pairs_no_overlap.py", "solutions/starter",
                   str(tmp_path / "hangs.py"), str(tmp_path / "crashes.py")]
    code = main(
        [
            "grade",
            *submissions,
            "--timeout",
            "30",
            "--jobs",
            "5",
            "--csv",
            str(tmp_path / "class.csv"),
            "--html",
            str(tmp_path / "class.html"),
            "--json",
            str(tmp_path / "class.json"),  # validated against its schema by tests/conftest.py
            "--reports",
            str(tmp_path / "reports"),
            "--",
            "--expose-suite",
            "--level",
            "pairs",
            "-m",
            "not corpus",
            "--hypothesis-profile",
            "fast",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1, out
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    assert list(rows) == ["reference", "wrong_pairs_no_overlap", "starter", "hangs", "crashes"]
    assert [rows["reference"][level] for level in ("facts", "bytes", "pairs")] == ["green"] * 3
    assert rows["reference"]["result"] == "green"
    wrong = rows["wrong_pairs_no_overlap"]
    assert wrong["pairs"] == "failed" and wrong["bytes"] == "green", rows
    assert 0 <= int(wrong["pairs passed"]) < int(wrong["pairs tests"]), rows  # numbers a gradebook adds up
    # It imports the suite's oracle (the project's own known-wrong implementation): flagged as such, beside its verdict.
    assert wrong["result"] == "failed" and wrong["flags"].startswith("imports the suite's reference or spec")
    assert rows["starter"]["pairs"] == "not started" and rows["starter"]["result"] == "incomplete"
    # It hangs on import: its load ran out of the run's time budget, before the wall limit.
    assert rows["hangs"]["result"] == "could not load" and "did not finish" in rows["hangs"]["detail"], rows["hangs"]
    # Isolated: the submission dies in its own child on import, and its row says it could not be loaded, why,
    # and no level (nothing of it was judged).
    assert rows["crashes"]["result"] == "could not load" and "exit status 3" in rows["crashes"]["detail"], rows
    assert rows["crashes"]["pairs"] == "" and rows["crashes"]["tests"] == "0"
    page = (tmp_path / "class.html").read_text(encoding="utf-8")
    assert "<table" in page and "wrong_pairs_no_overlap" in page and "get_stats skips" in page
    assert "http" not in page  # standalone
    assert '<a href="reports/02-wrong_pairs_no_overlap.html">' in page  # each finished run's own report, linked
    kept = sorted(path.name for path in (tmp_path / "reports").iterdir())
    expected = [f"{n:02d}-{name}.{ext}" for n, name in ((1, "reference"), (2, "wrong_pairs_no_overlap"),
                                                       (3, "starter"), (5, "crashes")) for ext in ("html", "json")]
    # The hanging one's run ended within the limit, its report kept.
    assert set(kept) - {"04-hangs.html"} == {*expected, "04-hangs.json"}
    stopped = json.loads((tmp_path / "reports" / "04-hangs.json").read_text("utf-8"))
    assert stopped["exit_status"] == 1
    assert "pairs.adjacent-overlapping" in (tmp_path / "reports" / "02-wrong_pairs_no_overlap.html").read_text("utf-8")
    assert out.splitlines()[0].split()[:2] == ["submission", "facts"]
    table = json.loads((tmp_path / "class.json").read_text("utf-8"))  # the same rows as the CSV, as values
    assert [row["name"] for row in table["submissions"]] == list(rows)
    assert [row["verdict"] for row in table["submissions"]] == ["green", "failed", "incomplete", "could not load",
                                                               "could not load"]
    assert [bool(row["flags"]) for row in table["submissions"]] == [False, True, False, False, False]
    assert table["submissions"][2]["cells"]["pairs"] == "not started" and table["levels"][:3] == ["facts", "bytes",
                                                                                                 "pairs"]


def _a_class_on_every_level():
    """Three rows over all sixteen levels, every status, long names and results (the issue's 235 columns)."""
    from bpe_kata.tools import grade
    from spec.levels import ALL_LEVEL_NAMES

    statuses = ["green", "FAILED", "not started", "partly started", "partly run", "not run"]

    def row(name: str, k: int, **extra) -> grade.Graded:
        levels = {level: {"status": statuses[(i + k) % 6], "failed": 12} for i, level in enumerate(ALL_LEVEL_NAMES)}
        return grade.Graded(submission=name, name=name, levels=levels, seconds=123.4, similarity=0.12,
                             mistakes=["get_stats skips the pair after a match"] * 3,
                             failed_claims=["pairs.adjacent-overlapping", "train.merged-again"] * 4, **extra)

    return [
        row("wrong_regex_train_ignores_pattern", 0),
        row("alice", 1, ended="timed out", detail="over the 300 s wall limit"),
        row("bob_the_student_with_a_long_name", 2, flags=["copies"], detail="imports the suite's reference or spec"),
    ]


@pytest.mark.parametrize("width", [120, 100])
def test_the_plain_table_fits_the_terminal_with_a_legend(width):
    from bpe_kata.tools import grade_table

    outcomes = _a_class_on_every_level()
    lines = grade_table.render_plain(outcomes, width)
    assert max(map(len, lines)) <= width, "\n".join(lines)
    assert lines[0].split()[:3] == ["submission", "fac", "byt"] and "F12" in lines[2] and "ok" in lines[2]
    assert any(line.startswith("levels: fac facts, byt bytes") for line in lines)
    assert any(line.startswith("cells: ok green, F<n> failed") for line in lines)
    wide = grade_table.render_plain(outcomes, 400)  # room enough: the full cells, as before
    assert wide[0].split()[:3] == ["submission", "facts", "bytes"] and "failed 12" in wide[2]


def test_the_rich_table_fits_the_terminal():
    rich_console = pytest.importorskip("rich.console")
    from bpe_kata.tools import grade_table

    console = rich_console.Console(width=120, record=True, force_terminal=False)
    grade_table.render_rich(_a_class_on_every_level(), console)
    text = console.export_text()
    assert max(map(len, text.splitlines())) <= 120 and "fac" in text and "gr…" not in text and "F12" in text


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs chromium (headless) to measure the page")
@pytest.mark.heavy
def test_the_class_page_fits_a_1280_pixel_screen(tmp_path):
    from bpe_kata.tools import grade_table

    page = grade_table.class_page(_a_class_on_every_level())
    assert 'title="not started"' in page and ">--<" in page and 'title="surrogates">sur<' in page
    probe = page.replace("</body>", "<script>document.title='W='+document.documentElement.scrollWidth</script></body>")
    (tmp_path / "class.html").write_text(probe, encoding="utf-8")
    dom = subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1280,900",
            "--dump-dom",
            (tmp_path / "class.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    width = int(re.search(r"<title>W=(\d+)</title>", dom.stdout).group(1))
    assert width <= 1280


FORGED_ROW = "bob\nmallory     green  green        green\n\x1b[2K\u202e"


@pytest.mark.heavy
def test_a_folder_name_cannot_print_rows_or_escapes_of_its_own(tmp_path, capsys, monkeypatch):
    """A submission's name is the student's text: printed escaped, it shows as what it is."""
    monkeypatch.setenv("COLUMNS", "160")
    folder = tmp_path / FORGED_ROW
    folder.mkdir()
    (folder / "__init__.py").write_text("def get_stats(ids):\n    return {}\n", encoding="utf-8")
    code = main(["grade", "--plain", str(folder), "--csv", str(tmp_path / "class.csv"), "--",
                 "--level", "bytes", "--hypothesis-profile", "fast"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert not re.search(r"^mallory", out, re.MULTILINE), out
    assert "\x1b" not in out and "\u202e" not in out, out
    assert r"bob\nmallory" in out and r"\x1b[2K\u202e" in out, out


def test_a_name_cannot_be_a_spreadsheet_formula(tmp_path):
    from bpe_kata.tools.grade import Graded
    from bpe_kata.tools.grade_table import write_csv

    formula = '=HYPERLINK("https://evil.example","green")'
    write_csv(tmp_path / "class.csv", [Graded("x", formula), Graded("y", "@SUM(1)")])
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        names = [row["submission"] for row in csv.DictReader(handle)]
    assert names == ['\'=HYPERLINK("https://evil.example","green")', "'@SUM(1)"]


def test_two_submissions_of_one_name_are_told_apart():
    from bpe_kata.tools.grade import Graded, distinct_names

    rows = distinct_names([Graded("sectionA/bob", "bob"), Graded("sectionB/bob", "bob"), Graded("eve.py", "eve")])
    assert [row.name for row in rows] == ["sectionA/bob", "sectionB/bob", "eve"]
