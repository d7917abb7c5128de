"""The class table fitted to the screen: full cells when they fit, else short codes and a legend.

Sixteen level columns of "not started" and "failed 12" make a table about 235 columns wide: a
terminal cuts every cell ("gr…") and the HTML page is twice a laptop screen. When the full table
is wider than the terminal (``shutil.get_terminal_size``, 120 columns when there is none), the
result column is cut first (to ``RESULT_FULL_WIDTH`` at least); if that is not enough, the level
columns are headed by three letters and their cells are codes, explained by a legend printed under
the table, and the result column gets what is left. The HTML page always uses
the short form (each code and heading keeps its full text as a tooltip). The CSV keeps full cells.
"""

from __future__ import annotations

import shutil
import textwrap

from bpe_kata.verdict.outcomes import LevelStatus

#: Terminal width when standard output is not a terminal (a CI log, a pipe).
DEFAULT_WIDTH = 120

#: A level cell's code in the short form (a failed level: F and its failed tests, e.g. F3).
CODES: dict[str, str] = {LevelStatus.GREEN: "ok", LevelStatus.NOT_STARTED: "--", LevelStatus.PARTLY_STARTED: "ps",
                         LevelStatus.PARTLY_RUN: "pr", LevelStatus.NOT_RUN: "nr", "—": "·"}
LEGEND_CELLS = (
    "ok green, F<n> failed (n tests), -- not started, ps partly started, pr partly run, nr not run, · not in the run"
)


def terminal_width() -> int:
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def short_cell(cell: str) -> str:
    if cell.startswith("failed "):
        return "F" + cell.removeprefix("failed ")
    return CODES.get(cell, cell)


def short_heading(level: str, levels: list[str]) -> str:
    """The shortest prefix of at least three letters that no other level shares."""
    for size in range(3, len(level) + 1):
        if not any(other != level and other.startswith(level[:size]) for other in levels):
            return level[:size]
    return level


def legend(levels: list[str], width: int) -> list[str]:
    names = ", ".join(f"{short_heading(level, levels)} {level}" for level in levels)
    return (textwrap.wrap(f"levels: {names}", width) + textwrap.wrap(f"cells: {LEGEND_CELLS}", width)
            + textwrap.wrap(LEGEND_FLAGS, width))


def _line(cells: list[str], widths: list[int]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip()


def _widths(header: list[str], body: list[list[str]]) -> list[int]:
    return [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]


#: In the full form, the result column may be cut down to this width before the levels are shortened.
RESULT_FULL_WIDTH = 30


#: The columns of free text, cut to fit (the row's whole text is in the CSV and the JSON).
CUT_COLUMNS = ("result", "flags")


def too_wide(header: list[str], body: list[list[str]], width: int) -> bool:
    """The full table, columns two spaces apart and the result and flags columns at most
    ``RESULT_FULL_WIDTH``, is wider than ``width``."""
    widths = _widths(header, body)
    for column in (header.index(name) for name in CUT_COLUMNS if name in header):
        widths[column] = min(widths[column], RESULT_FULL_WIDTH)
    return sum(widths) + 2 * (len(header) - 1) > width


FLAG_MARK = "!"
LEGEND_FLAGS = f"{FLAG_MARK}name: flagged by copy detection (the flags are in the full table, the CSV and the JSON)"


def fold_flags(header: list[str], body: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The short form has no room for a flags column: a flagged row's name is marked instead."""
    if "flags" not in header:
        return header, body
    at = header.index("flags")
    return ([h for i, h in enumerate(header) if i != at],
            [[(FLAG_MARK if row[at] != "—" else "") + row[0], *(c for i, c in enumerate(row) if i not in (0, at))]
             for row in body])


def shortened(header: list[str], body: list[list[str]], levels: list[str]) -> tuple[list[str], list[list[str]]]:
    """Level headings and cells in the short form (the columns after ``levels`` unchanged)."""
    end = 1 + len(levels)
    return ([header[0], *(short_heading(level, levels) for level in levels), *header[end:]],
            [[row[0], *map(short_cell, row[1:end]), *row[end:]] for row in body])


#: The short form: at least this many characters of a submission's name before the result column is cut (more when
#: the result cells leave room; the full name is in the CSV),
#: at least this many for the result column, and the last two columns' shorter headings.
NAME_WIDTH, RESULT_WIDTH = 22, 11
SHORT_HEADINGS = {"similarity": "sim", "seconds": "secs"}


def fit(header: list[str], body: list[list[str]], levels: list[str], width: int | None = None) -> list[str]:
    """The plain table within ``width`` columns. ``header``: submission, the levels, then result and more
    columns (bpe_kata.tools.grade_table.rows)."""
    width = width or terminal_width()
    widths = _widths(header, body)
    if not too_wide(header, body, width):
        cut = [header.index(name) for name in CUT_COLUMNS if name in header]
        for column in cut[1:]:  # the flags first, then the result gets what is left
            widths[column] = min(widths[column], max(len(header[column]), RESULT_FULL_WIDTH))
        result = cut[0]
        widths[result] = max(len(header[result]), min(widths[result], width - (sum(widths) - widths[result])
                                                         - 2 * (len(header) - 1)))
        body = [[_shorten(cell, widths[i]) if i in cut else cell for i, cell in enumerate(row)] for row in body]
        full = [_line(header, widths), *(_line(row, widths) for row in body)]
        return [full[0], "-" * len(full[0]), *full[1:]]
    header, body = shortened(*fold_flags(header, body), levels)
    header = [SHORT_HEADINGS.get(h, h) for h in header]
    end = 1 + len(levels)
    widths = _widths(header, body)
    level_span = sum(widths[1:end]) + len(levels) - 1  # level columns one space apart
    tail = sum(widths[end + 1:]) + 2 * len(widths[end + 1:])
    result = max(RESULT_WIDTH, width - (min(widths[0], NAME_WIDTH) + 2 + level_span + 2 + tail))
    result = min(result, max(RESULT_WIDTH, widths[end]))  # what the result cells leave, the names may take
    name = max(len(header[0]), min(widths[0], width - (2 + level_span + 2 + result + tail)))

    def line(row: list[str]) -> str:
        levels_text = " ".join(cell.ljust(w) for cell, w in zip(row[1:end], widths[1:end]))
        rest = [
            _shorten(row[end], result).ljust(result),
            *(c.ljust(w) for c, w in zip(row[end + 1 :], widths[end + 1 :])),
        ]
        return "  ".join([_shorten(row[0], name).ljust(name), levels_text, *rest]).rstrip()

    lines = [line(header), *map(line, body)]
    return [lines[0], "-" * len(lines[0]), *lines[1:], "", *legend(levels, width)]


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"
