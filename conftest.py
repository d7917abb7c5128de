"""Registers the bpe-kata pytest plugin for every run started in this repository, and the suite's
heavy group: tests marked ``heavy`` run only when asked for (``-m heavy``, or ``--heavy`` for everything)."""

from __future__ import annotations

import pytest

pytest_plugins = ["bpe_kata.plugin"]

HEAVY_MARKER = ("heavy: the suite's exhaustive sweeps and long-budget runs (every implementation on every level, "
                "builds, browsers, time limits): left out of a plain `pytest`, run by `pytest -m heavy` and by CI")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--heavy", action="store_true", default=False,
                     help="also run the suite's heavy group (tests marked heavy); `-m heavy` runs only that group")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", HEAVY_MARKER)
