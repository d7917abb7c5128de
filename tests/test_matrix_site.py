"""``bpe-kata matrix --site DIR``: the matrix as a static site, every row, claim and difference on it, read in a
real headless browser when one is installed (as tests/test_html_report.py reads the run's page).

Drawn from a matrix JSON written here (``--from``), so no library runs.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bpe_kata.cli import main
from bpe_kata.tools import matrix_site
from bpe_kata.tools.matrix import ALTERNATIVE, NOT_JUDGED, REAL, rows_from_json
from bpe_kata.verdict.outcomes import LevelStatus
from tests.test_html_report import browser, headless

GREEN, FAILED, NOT_STARTED = LevelStatus.GREEN, LevelStatus.FAILED, LevelStatus.NOT_STARTED


def level(status: str, failed: int = 0) -> dict:
    return {"status": status, "failed": failed, "passed": 3}


def library(name: str, version: str, adapter: str, ties: str, claims: dict, differences: dict,
            levels: dict) -> dict:
    return {"library": name, "version": version, "name": f"{name} {version}", "adapter": adapter,
            "tie_rule": {"rule": ties, "verdict": ties, "matches": {ties: 7, "first-counted": 1}},
            "ended": "finished", "seconds": 12.0, "levels": levels, "detail": "",
            "claims": {cid: status for cid, (status, _) in claims.items()},
            "claim_levels": {cid: lv for cid, (_, lv) in claims.items()}, "differences": differences}


def matrix_json(measured: str = "2026-12-02", fixed: bool = False) -> dict:
    rows = [
        library("alpha", "1.0", "bpe_kata.adapters.with_alpha", "lowest-pair",
                {"train.tie-first-counted": ("failed", "train"), "train.min-vocab": ("passed" if fixed else "failed",
                                                                                      "train"),
                 "train.wikipedia-walkthrough": ("not judged", "train"), "bytes.examples": ("passed", "bytes")},
                {"train.tie-first-counted": {"class": ALTERNATIVE, "level": "train", "note": "",
                                             "first_failure": "expected [(97, 98)] got [(98, 99)]"},
                 "train.wikipedia-walkthrough": {"class": NOT_JUDGED, "level": "train",
                                                 "note": "rests on train.tie-first-counted, which is broken",
                                                 "first_failure": ""},
                 **({} if fixed else {"train.min-vocab": {"class": REAL, "level": "train",
                                                          "note": "panics <b>in Rust</b>",
                                                          "first_failure": "child died"}})},
                {"bytes": level(GREEN), "train": level(FAILED, 2 if fixed else 3)}),
        library("beta<script>", "0.2", "bpe_kata.adapters.with_beta", "no trainer",
                {"bytes.examples": ("passed", "bytes")}, {},
                {"bytes": level(GREEN), "train": level(NOT_STARTED)}),
    ]
    return {"kind": "matrix", "measured": measured, "python": "3.11", "levels": ["bytes", "train"], "rows": rows}


class Rows(HTMLParser):
    """Rows tagged with data-library / data-claim, and every href and src."""

    def __init__(self) -> None:
        super().__init__()
        self.libraries: list[str] = []
        self.claims: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-library" in attrs:
            self.libraries.append(attrs["data-library"])
        if tag == "tr" and "data-claim" in attrs:
            self.claims.append(attrs["data-claim"])
        self.links += [attrs[name] for name in ("href", "src") if attrs.get(name)]


def parse(html: str) -> Rows:
    parser = Rows()
    parser.feed(html)
    return parser


@pytest.fixture
def site(tmp_path) -> Path:
    earlier, now = tmp_path / "earlier.json", tmp_path / "now.json"
    earlier.write_text(json.dumps(matrix_json("2026-11-01")), encoding="utf-8")
    now.write_text(json.dumps(matrix_json(fixed=True)), encoding="utf-8")
    assert main(["matrix", "--from", str(now), "--site", str(tmp_path / "site"), "--history", str(earlier)]) == 0
    return tmp_path / "site"


def test_the_site_has_every_row_claim_and_difference_and_nothing_outside(site):
    data = json.loads((site / "matrix.json").read_text(encoding="utf-8"))
    rows = rows_from_json(data)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert parse(index).libraries == [r["library"] for r in data["rows"]]
    for row in rows:
        page = (site / matrix_site.slug(row)).read_text(encoding="utf-8")
        assert f'href="{matrix_site.slug(row)}"' in index
        assert sorted(parse(page).claims) == sorted(row.outcome.report["claims"])  # every claim judged
        assert row.ties["verdict"] in page
        for cid, difference in row.differences.items():
            assert re.search(rf'data-claim="{re.escape(cid)}">.*?<td>{difference["class"]}</td>', page)
    differences = (site / "differences.html").read_text(encoding="utf-8")
    assert parse(differences).libraries == ["alpha", "alpha"] and ALTERNATIVE in differences
    for name in ["index.html", "differences.html", "history.html", *(matrix_site.slug(r) for r in rows)]:
        html = (site / name).read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), name  # no network, no external assets
        assert all((site / link.partition("#")[0]).is_file() for link in parse(html).links), name
        assert "<script>x" not in html and "beta<script>" not in html.replace("beta&lt;script&gt;", "")
        assert "<b>in Rust</b>" not in html


def test_the_history_shows_what_changed_between_runs(site):
    history = (site / "history.html").read_text(encoding="utf-8")
    assert parse(history).libraries == ["alpha 1.0", "beta<script> 0.2"]
    assert "2026-11-01" in history and "2026-12-02" in history
    assert "+train.min-vocab" in history  # fixed since the earlier run
    assert "2 failed" in history and "1 failed" in history


def test_history_without_a_site_is_refused(tmp_path, capsys):
    now = tmp_path / "now.json"
    now.write_text(json.dumps(matrix_json()), encoding="utf-8")
    assert main(["matrix", "--from", str(now), "--history", str(now)]) == 2
    assert "give --site DIR too" in capsys.readouterr().err


@pytest.mark.skipif(browser() is None, reason="no headless browser installed (apt-get install -y chromium)")
@pytest.mark.heavy
def test_a_browser_opens_the_site_with_every_row(site, tmp_path):
    data = json.loads((site / "matrix.json").read_text(encoding="utf-8"))
    dom = headless((site / "index.html").as_uri() + "#open=all", str(tmp_path / "profile"), "--dump-dom")
    assert parse(dom).libraries == [r["library"] for r in data["rows"]]
    assert dom.count("<details open") >= 2  # the page's script ran: every cell with claims opened
    row = rows_from_json(data)[0]
    page = headless((site / matrix_site.slug(row)).as_uri(), str(tmp_path / "profile2"), "--dump-dom")
    assert sorted(parse(page).claims) == sorted(row.outcome.report["claims"])
    shot = tmp_path / "history.png"
    headless((site / "history.html").as_uri(), str(tmp_path / "profile3"), f"--screenshot={shot}",
             "--window-size=1000,700")
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5_000
