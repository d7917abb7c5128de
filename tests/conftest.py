"""The suite's own fixtures and hooks; the helpers its tests import are in tests/support.py."""

from __future__ import annotations

import json

import pytest

from tests.support import BESIDE_FILES, beside_root, nested_pytest


def _missing_beside(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("beside")
    if marker is None:
        return None
    return None if (beside_root() / marker.args[0]).exists() else marker.args[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Checks of files that travel beside the repository (the claims inventory, the source documents)
    are left out where those files are absent: a fresh clone has nothing to skip."""
    kept, dropped = [], []
    for item in items:
        (dropped if _missing_beside(item) else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> list[str]:
    missing = [path for path in BESIDE_FILES if not (beside_root() / path).exists()]
    if not missing:
        return []
    return [f"note: {', '.join('../' + p for p in missing)} absent beside the repository: "
            "the checks against them are not collected (they run where the files travel with the clone, as in CI)"]


@pytest.fixture(scope="session")
def spec_tests(tmp_path_factory) -> dict[str, dict]:
    """Every collected spec test with its level and claims (collected once per session)."""
    listing = tmp_path_factory.mktemp("listing") / "tests.json"
    assert nested_pytest(["spec"], "--collect-only", "--bpe-list-tests", str(listing)) == 0
    return json.loads(listing.read_text(encoding="utf-8"))


