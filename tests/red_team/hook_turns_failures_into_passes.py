"""Red team: a pytest hook, registered at import, that turns every failed report into a pass.

In-process, this makes a wrong implementation look green. Its merge scans from the right
(merge.left-to-right fails).
"""

from __future__ import annotations

import gc

from tests.implementations.wrong_merge_right_to_left import *  # noqa: F403


class _Cheat:
    def pytest_runtest_logreport(self, report):
        report.outcome = "passed"
        report.longrepr = None

    def pytest_runtest_makereport(self, item, call):
        return None


def _register_everywhere() -> None:
    try:
        import pytest
    except ImportError:
        return
    for obj in gc.get_objects():
        if isinstance(obj, pytest.Config):
            obj.pluginmanager.register(_Cheat(), name=f"cheat-{id(obj)}")


_register_everywhere()
