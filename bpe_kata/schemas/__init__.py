"""The JSON Schemas (draft 2020-12) of what bpe-kata writes and reads: the JSON report, the stdio
protocol's messages, the expectations file and the grade table (docs/SCHEMAS.md).

They ship in the package so a tool that reads a report can check it against the schema of the
version that wrote it; the suite's own tests validate every report and message against them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent
#: The schema files by short name (report, protocol, expectations, grade; the platform files of bpe_kata/platforms).
NAMES = ("report", "protocol", "expectations", "grade", "gradescope", "classroom", "exercism")


def path(name: str) -> Path:
    if name not in NAMES:
        raise KeyError(f"no schema named {name!r}; the schemas are {', '.join(NAMES)}")
    return SCHEMA_DIR / f"{name}.schema.json"


@cache
def load(name: str) -> dict:
    """One schema as a dict (read once per process)."""
    return json.loads(path(name).read_text(encoding="utf-8"))
