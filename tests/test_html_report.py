"""--bpe-html: a standalone page of the run, read in a real headless browser when one is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from bpe_kata.verdict import html_report
from tests.support import run_spec_inline

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
WRONG = "tests/implementations/wrong_merge_right_to_left.py"


def browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


@pytest.fixture(scope="module")
def wrong_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    page = tmp / "report.html"
    run = run_spec_inline(
        tmp,
        "--impl",
        WRONG,
        "--level",
        "merge",
        "-m",
        "not corpus",
        "--one-failure-per-claim",
        "--bpe-html",
        str(page),
        files=["spec/test_pairs.py", "spec/test_merge.py", "spec/test_bytes.py"],
    )
    return run, page


class Sections(HTMLParser):
    """The level-tagged parts of a page (level-table rows, claim sections): level, and hidden or not."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-level" in attrs:
            self.found.append((attrs["data-level"], "hidden" in attrs))


def sections(html: str) -> list[tuple[str, bool]]:
    parser = Sections()
    parser.feed(html)
    return parser.found


def test_the_page_holds_the_failing_claims_with_expected_and_actual(wrong_run):
    run, page = wrong_run
    html = page.read_text(encoding="utf-8")
    failed = [cid for cid, c in run.report["claims"].items() if c["status"] == "failed"]
    assert "merge.left-to-right" in failed
    for cid in failed:
        assert f"<h3>{cid} " in html
    assert "expected" in html and "actual" in html and "source: " in html
    assert "merging replaces from the right" in html  # the likely mistake, first
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # no external assets


def test_everything_from_the_implementation_is_escaped():
    report = {"implementation": "<script>x</script>", "levels": {}, "likely_mistakes": [],
              "claims": {"a.b": {"status": "failed", "level": "merge", "statement": "s", "sources": [],
                                 "first_failure": "expected [1] got '<img src=x onerror=alert(1)>'"}}}
    html = html_report.render(report)
    assert "<img" not in html and "<script>x" not in html and "&lt;img src=x" in html


def headless(url: str, *extra: str) -> str:
    command = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--no-first-run", "--user-data-dir=" + extra[0], *extra[1:], url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(browser() is None, reason="no headless browser installed (apt-get install -y chromium)")
@pytest.mark.heavy
def test_a_browser_filters_by_level(wrong_run, tmp_path):
    _, page = wrong_run
    before = sections(page.read_text(encoding="utf-8"))
    assert {"bytes", "pairs", "merge"} <= {level for level, _ in before} and not any(hidden for _, hidden in before)
    dom = headless(page.as_uri() + "#level=merge", str(tmp_path / "profile"), "--dump-dom")
    shown = sections(dom)
    assert shown and {level for level, hidden in shown if not hidden} == {"merge"}
    assert all(hidden for level, hidden in shown if level != "merge")
    assert 'id="levels"' in dom


@pytest.mark.skipif(browser() is None, reason="no headless browser installed (apt-get install -y chromium)")
@pytest.mark.heavy
def test_a_browser_draws_the_page(wrong_run, tmp_path):
    _, page = wrong_run
    shot = tmp_path / "report.png"
    headless(page.as_uri(), str(tmp_path / "profile"), f"--screenshot={shot}", "--window-size=1000,1200")
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
