"""``bpe-kata matrix``: libraries through the gate side by side, differences classified, a page to read.

The end-to-end run uses two adapters on the train level without corpora (skipped when either
library is missing); classification and isolation are tested without any library.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bpe_kata.tools import grade, matrix
from bpe_kata.tools.matrix_html import render
from tests.test_html_report import browser, headless

ROOT = Path(__file__).resolve().parent.parent
TWO = ("rustbpe", "tokenizers")


def row_with(claims: dict, ties: dict) -> matrix.Row:
    outcome = grade.Graded("lib", "lib 1.0", report={"claims": claims})
    return matrix.Row("some.adapter", "lib", "1.0", outcome, ties)


def failed(level: str, first: str = "expected [1] got [2]") -> dict:
    return {"status": "failed", "level": level, "first_failure": first}


def trained_here(level: str) -> dict:
    """A failure the report excuses by the tie rule: every failing check was on the library's own training."""
    return {**failed(level), "tie_rule_excuse": "first-counted"}


def test_failures_are_classified_from_the_ledger_and_the_tie_rule():
    claims = {"train.tie-first-counted": trained_here("train"), "train.min-vocab": failed("train"),
              "train.shakespeare-20": failed("train", "timed out: train: no answer within 60 s"),
              "bytes.base-256": {"status": "passed", "level": "bytes"}}
    found = matrix.classify(row_with(claims, {"rule": "lowest-pair", "verdict": "lowest-pair"}), notes={})
    assert found["train.tie-first-counted"]["class"] == matrix.ALTERNATIVE
    assert found["train.min-vocab"]["class"] == matrix.REAL
    assert found["train.shakespeare-20"]["class"] == matrix.SLOW
    assert "bytes.base-256" not in found
    undocumented = matrix.classify(row_with(claims, {"rule": None, "verdict": "none of the documented rules"}),
                                   notes={})
    assert undocumented["train.tie-first-counted"]["class"] == matrix.UNDOCUMENTED_TIES
    first_counted = matrix.classify(row_with(claims, {"rule": "first-counted", "verdict": "first-counted"}), notes={})
    assert first_counted["train.tie-first-counted"]["class"] == matrix.REAL


def test_a_tie_bound_claim_failed_on_the_spec_s_own_table_is_a_real_difference():
    """corpus.d1-curve or a worked encode case use the spec's tables: no tie rule of the library's excuses them."""
    claims = {"train.wikipedia-walkthrough": failed("train"), "corpus.d1-curve": failed("encode")}
    found = matrix.classify(row_with(claims, {"rule": "lowest-pair", "verdict": "lowest-pair"}), notes={})
    assert {cid: d["class"] for cid, d in found.items()} == dict.fromkeys(claims, matrix.REAL)


def test_a_claim_not_judged_is_classified_as_such_naming_what_it_rests_on():
    claims = {
        "merge.left-to-right": failed("merge"),
        "train.tie-recorded": {"status": "not judged", "level": "train", "rests_on_broken": ["merge.left-to-right"]},
    }
    found = matrix.classify(row_with(claims, {"rule": "first-counted", "verdict": "first-counted"}), notes={})
    assert found["merge.left-to-right"]["class"] == matrix.REAL
    assert found["train.tie-recorded"]["class"] == matrix.NOT_JUDGED
    assert "merge.left-to-right" in found["train.tie-recorded"]["note"]


def test_a_note_names_a_spec_question():
    notes = {"lib": {"train.min-vocab": {"class": matrix.QUESTION, "note": "why must it raise?"}}}
    found = matrix.classify(row_with({"train.min-vocab": failed("train")}, {}), notes=notes)
    assert found["train.min-vocab"] == {"class": matrix.QUESTION, "level": "train", "note": "why must it raise?",
                                        "first_failure": "expected [1] got [2]"}


def test_the_notes_file_names_only_ledger_claims_and_known_classes():
    from spec.ledger import load_claims

    known = load_claims()
    for library, entries in matrix.load_notes().items():
        for cid, note in entries.items():
            assert cid in known, (library, cid)
            assert note["class"] in (matrix.ALTERNATIVE, matrix.UNDOCUMENTED_TIES, matrix.REAL, matrix.QUESTION)
            assert note["note"]


@pytest.mark.heavy
def test_a_broken_library_never_stops_the_others():
    rows = [matrix.Row("reference", "reference", "0"), matrix.Row(str(ROOT / "tests/red_team/exit_at_import.py"),
                                                                     "exits", "0")]
    matrix.run(rows, ["--level", "bytes", "-m", "not corpus"], timeout=300, jobs=2)
    good, broken = rows
    assert good.outcome.ended == "finished" and good.outcome.levels["bytes"]["status"] == "green"
    assert good.ties["verdict"] == "first-counted" and not good.differences
    assert broken.outcome.verdict != "green" and broken.ties["verdict"].startswith("probe failed")


def installed(*libraries: str) -> bool:
    return all(importlib.util.find_spec(name) for name in libraries)


@pytest.fixture(scope="module")
def two_libraries(tmp_path_factory):
    if not installed(*TWO):
        pytest.skip("needs rustbpe and tokenizers: pip install 'bpe-kata[matrix]'")
    tmp = tmp_path_factory.mktemp("matrix")
    command = [sys.executable, "-m", "bpe_kata.cli", "matrix", *(f"--only={name}" for name in TWO),
               "--json", str(tmp / "m.json"), "--html", str(tmp / "m.html"), "--", "--level", "train",
               "-m", "not corpus"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout, json.loads((tmp / "m.json").read_text()), tmp / "m.html"


@pytest.mark.heavy
def test_the_matrix_names_each_library_its_tie_rule_and_its_differences(two_libraries):
    out, data, _ = two_libraries
    rows = {r["library"]: r for r in data["rows"]}
    assert set(rows) == set(TWO) and "train" in data["levels"]
    assert rows["rustbpe"]["tie_rule"]["verdict"] == "lowest-pair"
    assert rows["rustbpe"]["differences"]["train.tie-first-counted"]["class"] == matrix.ALTERNATIVE
    assert rows["tokenizers"]["tie_rule"]["verdict"] == ("none of the documented rules "
                                                         "(lowest-pair in byte-level alphabet order)")
    assert rows["tokenizers"]["differences"]["train.tie-first-counted"]["class"] == matrix.UNDOCUMENTED_TIES
    for row in rows.values():
        assert row["levels"]["train"]["status"] == "FAILED"
        assert all(d["first_failure"] for d in row["differences"].values())
        assert re.search(rf"^{row['library']} {re.escape(row['version'])}\s", out, re.M)


class Cells(HTMLParser):
    """Each row's library and its details elements (open or not)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[bool]] = {}
        self.library = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-library" in attrs:
            self.library = attrs["data-library"]
            self.rows[self.library] = []
        if tag == "details" and self.library:
            self.rows[self.library].append("open" in attrs)


def cells(html: str) -> dict[str, list[bool]]:
    parser = Cells()
    parser.feed(html)
    return parser.rows


@pytest.mark.heavy
def test_the_page_holds_every_failure_with_expected_and_actual(two_libraries):
    _, data, page = two_libraries
    html = page.read_text(encoding="utf-8")
    assert set(cells(html)) == set(TWO) and not any(any(v) for v in cells(html).values())
    for row in data["rows"]:
        for cid, difference in row["differences"].items():
            status = "not judged" if difference["class"] == matrix.NOT_JUDGED else "failed"
            assert f"<code>{cid}</code> {status}" in html
    assert "expected" in html and matrix.ALTERNATIVE in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)


def test_everything_from_a_library_is_escaped():
    row = row_with({"train.min-vocab": failed("train", "got '<img src=x onerror=alert(1)>'")}, {"verdict": "<b>"})
    row.outcome.levels = {"train": {"status": "FAILED", "failed": 1}}
    row.differences = matrix.classify(row, notes={})
    html = render([row], "today")
    assert "<img" not in html and "<b>" not in html and "&lt;img src=x" in html


@pytest.mark.skipif(browser() is None, reason="no headless browser installed (apt-get install -y chromium)")
@pytest.mark.heavy
def test_a_browser_opens_one_librarys_cells(two_libraries, tmp_path):
    _, _, page = two_libraries
    dom = headless(page.as_uri() + "#open=rustbpe", str(tmp_path / "profile"), "--dump-dom")
    shown = cells(dom)
    assert shown["rustbpe"] and all(shown["rustbpe"]) and not any(shown["tokenizers"])
    shot = tmp_path / "matrix.png"
    headless(page.as_uri() + "#open=all", str(tmp_path / "profile2"), f"--screenshot={shot}", "--window-size=1400,1000")
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
