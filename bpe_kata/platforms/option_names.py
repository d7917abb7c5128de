"""The run options of the platform files, apart from their writers: the gate's supervisor takes them out of the
verdict process's options (bpe_kata/gate/run_options.py) without importing the writers at its start."""

from __future__ import annotations

POINTS_OPTION = "--points"
#: format -> the run option naming its file.
FORMAT_OPTIONS = {"gradescope": "--gradescope", "classroom": "--classroom", "junit-per-level": "--junit-per-level",
                  "exercism": "--exercism"}
OUTPUT_OPTIONS = tuple(FORMAT_OPTIONS.values())
