"""The spec's one collection hook: the test modules that run worked cases collect them (spec/cases/collect.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.cases import collect


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """A module named in ``collect.CASE_TESTS`` collects its case tests beside its own; any other, as pytest does."""
    if module_path.name in collect.MODULES:
        return collect.CaseModule.from_parent(parent, path=module_path)
    return None
