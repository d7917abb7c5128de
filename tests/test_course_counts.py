"""docs/COURSES.md, "What each shape cannot express, claim by claim", measured (issue 38).

Each shape's right solution runs the whole spec with every corpus; the claims it leaves unjudged must be
exactly the ones the page's table for that shape lists, and the count of judged claims the one it states.
Without the corpora the run would leave their claims unjudged for another reason: the test is then skipped.
"""

from __future__ import annotations

import re

import pytest

from bpe_kata.data import corpora
from spec.ledger import load_claims
from tests.support import REPO_ROOT, run_spec_inline

PAGE = REPO_ROOT / "docs" / "COURSES.md"
#: The page's table heading -> the solution it is measured on.
SHAPES = {
    "cs336": "cs336:tests/course_shapes/cs336_right",
    "minbpe": "minbpe:tests/course_shapes/minbpe_right",
    "minbpe-fixed": "minbpe:tests/course_shapes/minbpe_fixed_right",
}
JUDGED = ("passed", "failed", "not judged")


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## What each shape cannot express, claim by claim")
    return text[start:text.index("\n## ", start + 1)]


def _stated(shape: str) -> tuple[int, int, set[str]]:
    """The count the page states for ``shape`` and the claims its table lists."""
    section = _section()
    folder = SHAPES[shape].split(":", 1)[1]
    count = re.search(rf"\(`{re.escape(folder)}`\): \*\*(\d+) of (\d+)\*\*", section)
    assert count, f"docs/COURSES.md states no count for {folder}"
    table = section[section.index(f"### {shape}\n"):]
    table = table[:table.index("\n### ", 1)] if "\n### " in table[1:] else table
    listed = {claim for row in table.splitlines() if row.startswith("| `")
              for claim in re.findall(r"`([a-z0-9]+\.[a-z0-9-]+)`", row.split(" | ")[0])}
    return int(count[1]), int(count[2]), listed


def test_the_page_states_a_count_and_a_table_for_every_shape():
    ledger = load_claims()
    for shape in SHAPES:
        judged, total, listed = _stated(shape)
        assert total == len(ledger) and listed <= set(ledger), shape
        assert judged == total - len(listed), f"{shape}: {judged} judged but {len(listed)} of {total} listed"


@pytest.mark.heavy
@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_claims_a_shape_leaves_unjudged_are_the_ones_the_page_lists(tmp_path, shape):
    finder = corpora.CorpusFinder()
    missing = [name for name in corpora.CORPORA
               if not any(path.is_file() for path in finder.candidates(corpora.CORPORA[name]))]
    if missing:
        pytest.skip(f"not run: the corpora {', '.join(missing)} are absent (set $BPE_KATA_DATA)")
    run = run_spec_inline(tmp_path, "--impl", SHAPES[shape])
    assert run.report is not None, run.output[-3000:]
    ledger = load_claims()
    unjudged = {claim for claim in ledger if run.report["claims"].get(claim, {}).get("status") not in JUDGED}
    judged, _, listed = _stated(shape)
    assert unjudged == listed, f"unjudged but not listed: {sorted(unjudged - listed)}; " \
                               f"listed but judged: {sorted(listed - unjudged)}"
    assert len(ledger) - len(unjudged) == judged
