"""What part of the spec a run judged: a verdict on part of the spec is not a verdict on the whole.

A gate narrowed with ``--level``, ``--claim``, ``-k``, ``-m`` or a path inside the spec can be green while
the implementation fails everything it left out. The report names what narrowed it (``narrowed_by``), and
``bpe-kata verify-report`` refuses a narrowed report, or one whose records leave out a test function of the
installed spec, unless it is told ``--partial``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bpe_kata.verdict import spec_tests

if TYPE_CHECKING:
    import pytest


def matches(pattern: str, value: str) -> bool:
    """``--claim`` and expectations' patterns: the value itself, or a prefix of it before a trailing ``*``."""
    return value == pattern or (pattern.endswith("*") and value.startswith(pattern[:-1]))


def narrowed_by(config: pytest.Config) -> list[str]:
    """The options that made the run judge part of the spec, as the user wrote them."""
    found = [f"--level {config.getoption('--level')}"] if config.getoption("--level") else []
    found += [f"--claim {pattern}" for pattern in config.getoption("--claim")]
    found += [f"{flag} {value}" for flag, value in (("-k", config.option.keyword), ("-m", config.option.markexpr))
              if value]
    found += [arg for arg in config.args if Path(arg).resolve() != spec_tests.SPEC_DIR]
    return found


def problems(data: dict) -> list[str]:
    """Why the report is not a verdict on the whole installed spec (empty: it is)."""
    narrowed = data.get("narrowed_by")
    if not isinstance(narrowed, list):
        return ["the report does not say what part of the spec it judged ('narrowed_by')"]
    found = [f"the run judged part of the spec (narrowed by {', '.join(map(str, narrowed))})"] if narrowed else []
    judged = {spec_tests.function_of(nodeid) for nodeid in data.get("tests") or {}}
    every = set().union(*spec_tests.functions().values())
    left_out = sorted(every - judged)
    if left_out:
        found.append(f"the report has no record of {len(left_out)} of the spec's {len(every)} test functions "
                     f"(first: {left_out[0]})")
    return found
