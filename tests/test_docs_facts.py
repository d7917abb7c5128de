"""The facts the README and docs/ state, checked against the files they describe.

Prose drifts silently: the README once said Python 3.10 while pyproject.toml required 3.11, and
"three dozen" known-wrong implementations when there were 46. Each count the pages state in a
recognisable phrase ("55 known-wrong implementations", "115 checkable claims", "16 levels",
"Five well-known write-ups", "the seven core levels") is compared here with what the repository
holds; the Python version with pyproject's requires-python; every relative link with the file
(and heading) it points to; and the README's two set-up commands with what CI runs.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

README = REPO_ROOT / "README.md"
DOCS = sorted((REPO_ROOT / "docs").glob("*.md"))
#: The pages whose facts and links are checked: the front door, the docs by question, and the
#: two pages the front door sends readers to beside them.
PAGES = [README, *DOCS, REPO_ROOT / "CHANGELOG.md", REPO_ROOT / "benchmarks/README.md"]

NUMBER_WORDS = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}


#: A count as the pages write it: digits, or a number word (anything else before the noun is not a count).
N = r"(\d[\d,]*|" + "|".join(NUMBER_WORDS) + r")"


def _levels():
    """The level registry (spec/levels.py)."""
    from spec.levels import LEVELS

    return LEVELS


def _number(text: str) -> int:
    text = text.lower().replace(",", "")
    if text.isdigit():
        return int(text)
    if text in NUMBER_WORDS:
        return NUMBER_WORDS[text]
    raise AssertionError(
        f"{text!r} is not a number the facts test can read: state the count in digits or a word up to twenty"
    )


def _known_wrong() -> int:
    folder = REPO_ROOT / "tests/implementations"
    return sum(
        1
        for path in folder.glob("*.py")
        if re.search(r"^MISTAKE_CLAIMS\b[^=\n]*=", path.read_text(encoding="utf-8"), re.M)
    )


def _claims() -> dict:
    return tomllib.loads((REPO_ROOT / "spec/claims.toml").read_text(encoding="utf-8"))


#: (what, the phrase with the count as its first group, how to count it in the repository).
COUNTS = [
    ("known-wrong implementations", rf"\b{N} known-wrong implementations\b", _known_wrong),
    ("claims in spec/claims.toml", rf"\b{N} (?:checkable )?claims\b", lambda: len(_claims()["claim"])),
    ("source documents", rf"\b{N} (?:well-known )?write-ups\b", lambda: len(_claims()["documents"])),
    # Digits only: "the next five levels" is a part, "15 of 16 levels" a measured row.
    ("levels", r"(?<!\bof )\b(\d+) levels\b", lambda: len(_levels())),
    ("core levels", rf"\b{N} core levels\b", lambda: sum(1 for level in _levels() if level.core)),
]


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


@pytest.mark.parametrize("what, phrase, count", COUNTS, ids=[c[0] for c in COUNTS])
def test_every_count_the_pages_state_matches_the_repository(what, phrase, count):
    actual = count()
    stated = [(page, match) for page in PAGES for match in re.finditer(phrase, _text(page), flags=re.I)]
    assert stated, f"no page states the number of {what} any more: drop this fact from the test, or state it"
    edits = [_edit(page, match, actual) for page, match in stated if _number(match.group(1)) != actual]
    assert edits == [], f"the repository has {actual} {what}; edit:\n" + "\n".join(edits)


def _edit(page: Path, match: re.Match, actual: int) -> str:
    """The one edit that makes a stated count right: the page, its line, the words now and the words to write."""
    line = _text(page).count("\n", 0, match.start()) + 1
    number = match.group(1)
    written = str(actual) if number[0].isdigit() or actual > 20 else _as_word(actual, number)
    words = match.group(0)
    start = match.start(1) - match.start()
    return (f"{page.relative_to(REPO_ROOT).as_posix()}:{line}: {words!r} -> "
            f"{words[:start] + written + words[start + len(number):]!r}")


def _as_word(n: int, like: str) -> str:
    """``n`` as a number word, capitalised as the stated one was."""
    word = next(w for w, v in NUMBER_WORDS.items() if v == n)
    return word.capitalize() if like[0].isupper() else word


def test_the_readme_states_the_counts_a_reader_meets_first():
    readme = _text(README)
    for what, phrase, _ in COUNTS:
        assert re.search(phrase, readme, flags=re.I), f"the README no longer states the number of {what}"


def test_no_page_states_the_known_wrong_count_vaguely():
    vague = r"\b(?:dozens?|several|many|a few|some)\s+known-wrong\b"
    found = [page.name for page in [README, *DOCS] if re.search(vague, _text(page), flags=re.I)]
    assert found == [], "state the number of known-wrong implementations (it is checked), not an estimate"


def test_the_python_version_the_pages_state_is_pyprojects():
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    required = re.fullmatch(r">=\s*(3\.\d+)", pyproject["project"]["requires-python"]).group(1)
    phrases = r"Python\s*(?:≥|>=)\s*(3\.\d+)|Python (3\.\d+)(?:\+| or later| or newer)|requires Python (3\.\d+)"
    stated = {(page.relative_to(REPO_ROOT).as_posix(), next(g for g in match.groups() if g))
              for page in [README, *DOCS] for match in re.finditer(phrases, _text(page))}
    assert any(page == "README.md" for page, _ in stated), "the README no longer says which Python it needs"
    assert {(page, version) for page, version in stated if version != required} == set(), \
        f"pyproject.toml requires Python {required}"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", _text(page), flags=re.M | re.S)
    return {_slug(heading) for heading in re.findall(r"^#+\s+(.+?)\s*$", text, flags=re.M)}


def _links(page: Path):
    text = re.sub(r"^```.*?^```", "", _text(page), flags=re.M | re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: are not checked here
            yield target


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(REPO_ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target}: no heading with this anchor")
    assert broken == []


def test_the_readme_sets_up_in_the_two_commands_ci_runs():
    """CI installs the project the README's way and runs its two commands (.ci/run says so)."""
    setup = _text(README).split("## Set-up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in setup.strip().splitlines()]
    assert commands == ['pip install -e ".[test]" && bpe-kata check', "pytest"]
    ci = (REPO_ROOT / ".ci/run").read_text(encoding="utf-8")
    assert re.search(r'^pip install (?:--quiet )?-e "\.\[test\]"$', ci, flags=re.M)
    assert re.search(r"^bpe-kata check\b", ci, flags=re.M) and re.search(r"^pytest\b", ci, flags=re.M)


def test_the_readme_stays_a_front_door():
    lines = _text(README).splitlines()
    assert len(lines) <= 170, f"README.md has {len(lines)} lines: move the detail to docs/ (at most 170)"


#: Repository paths a page names in prose; placeholders (``spec/test_LEVEL.py``, ``solutions/mine``) excepted.
REPO_PATH = re.compile(
    r"\b(?:bpe_kata|spec|tests|reference|solutions|benchmarks|mutation)/[A-Za-z0-9_./-]+\.(?:py|toml|md|json|ini|mjs)"
)
PLACEHOLDERS = re.compile(r"[A-Z]{3,}|/mine/|test_x\.py")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_file_a_page_names_exists(page):
    """Moving a module must move its mentions too: a page never sends a reader to a file that is gone."""
    named = {path for path in REPO_PATH.findall(page.read_text(encoding="utf-8")) if not PLACEHOLDERS.search(path)}
    assert sorted(path for path in named if not (REPO_ROOT / path).exists()) == []


def test_every_python_one_liner_of_the_ci_script_runs():
    """CI's own `python -c` lines (the sandbox layers it prints) use the project's API: one that no longer
    fits fails CI after the long install, so it is run here first."""
    import shlex
    import subprocess
    import sys

    lines = [line for line in (REPO_ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
             if line.startswith("python -c ")]
    assert lines, ".ci/run has no `python -c` line any more: drop this test"
    for line in lines:
        program = shlex.split(line)[2]
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{line}\n{done.stderr[-2000:]}"
