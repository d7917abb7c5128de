"""The spec tests a run collects, as the run reads them: each one's level and claims (its markers), which of
them ``--level`` and ``--claim`` keep, the pytest-xdist group each runs in, and the ``--bpe-list-tests`` listing.

``KataRun``'s collection hooks (bpe_kata/run/kata_run.py) call these; the fixtures read a test's level here too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bpe_kata.verdict.selection import matches
from spec.blame import as_checked
from spec.cases.collect import is_case_test
from spec.levels import BY_NAME, levels_up_to

#: pytest-xdist groups (``--dist loadgroup``) of tests that share an expensive session fixture
#: (a level's own group is its ``xdist_group`` in spec/levels.py).
CORPORA_GROUP = "corpora"


def level_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("level")
    return marker.args[0] if marker else None


def claims_of(item: pytest.Item) -> tuple[str, ...]:
    """The test's claims; those holding only under the default tie rule are the declared rule's claim when one
    is in force (a course's own rule, ``DEFAULT_TIE_RULE``: the oracle then ties by it, spec/oracle/split.py),
    except in a worked case, which runs only where its stated value holds (``spec.blame.as_stated``)."""
    return as_checked(tuple(claim for marker in item.iter_markers("claim") for claim in marker.args),
                      stated=is_case_test(item))


def _claim_selected(claims: tuple[str, ...], patterns: list[str]) -> bool:
    return any(matches(pattern, claim) for claim in claims for pattern in patterns)


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the tests of ``--level`` and ``--claim`` (the others are deselected)."""
    wanted, patterns = config.getoption("--level"), config.getoption("--claim")
    allowed = set(levels_up_to(wanted)) if wanted else None
    kept, dropped = [], []
    for item in items:
        level, claims = level_of(item), claims_of(item)
        keep = (allowed is None or level is None or level in allowed) and (
            not patterns or (level is None and not claims) or _claim_selected(claims, patterns))
        (kept if keep else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def group(items: list[pytest.Item]) -> None:
    """Group the tests sharing an expensive fixture.

    With pytest-xdist's ``--dist loadgroup``, tests with the same ``xdist_group`` run on one
    worker, so a corpus training or a published table is built once; each corpus is a group of
    its own, so two corpora can train on two workers at once.
    """
    for item in items:
        level = BY_NAME.get(level_of(item) or "")
        if level and level.xdist_group:
            item.add_marker(pytest.mark.xdist_group(level.xdist_group))
        elif item.get_closest_marker("corpus"):
            name = item.get_closest_marker("corpus").args[0]
            item.add_marker(pytest.mark.xdist_group(f"{CORPORA_GROUP}-{name}"))


def write_listing(listing: str, items: list[pytest.Item], listed_ids: dict[pytest.Item, str]) -> None:
    """``--bpe-list-tests FILE``: every selected test with its level, claims and corpus need."""
    rows = {listed_ids.get(item, item.nodeid): {
                "level": level_of(item), "claims": list(claims_of(item)),
                "corpus": item.get_closest_marker("corpus") is not None}
            for item in items}
    # Every xdist worker writes the same rows: each writes whole, none half.
    partial = Path(f"{listing}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    os.replace(partial, listing)
