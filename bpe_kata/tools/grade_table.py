"""The class table of ``bpe-kata grade``: the graded rows (bpe_kata/tools/grade.py) as text, on a terminal,
as CSV, as JSON (bpe_kata/schemas/grade.schema.json) and as one standalone HTML page.

Every form is drawn from the same text cells (``rows``), so the terminal, the CSV and the page never
disagree about a submission; fitting them to a width is bpe_kata/tools/grade_layout.py's job."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from urllib.parse import quote

from bpe_kata.tools import grade_layout
from bpe_kata.tools.grade import Graded
from bpe_kata.tools.shipped import shown
from bpe_kata.verdict.outcomes import TO_DO, LevelStatus
from spec.levels import ALL_LEVEL_NAMES


def level_columns(outcomes: list[Graded]) -> list[str]:
    seen = {level for o in outcomes for level in o.levels}
    return [level for level in ALL_LEVEL_NAMES if level in seen]


def rows(outcomes: list[Graded]) -> tuple[list[str], list[list[str]]]:
    """The class table as text cells: one row per submission, one column per level, then its verdict and,
    beside it, what copy detection flagged (never instead of it)."""
    levels = level_columns(outcomes)
    header = ["submission", *levels, "result", "flags", "similarity", "seconds"]
    body = [[o.name, *(o.cell(level) for level in levels), o.result,
             "; ".join(o.flags) or "—", "—" if o.similarity is None else f"{o.similarity:.0%}", f"{o.seconds:.1f}"]
            for o in outcomes]
    return header, body


def render_plain(outcomes: list[Graded], width: int | None = None) -> list[str]:
    """The class table as text, fitted to ``width`` (default: the terminal's) by bpe_kata/tools/grade_layout.py."""
    header, body = rows(outcomes)
    return grade_layout.fit(header, body, level_columns(outcomes), width)


CELL_STYLE = {LevelStatus.GREEN: "green", LevelStatus.NOT_STARTED: "yellow", "—": "dim"}


def render_rich(outcomes: list[Graded], console) -> None:
    """The class table on a terminal; in the short form with its legend when the full one would not fit."""
    from rich.table import Table

    header, body = rows(outcomes)
    levels, caption = level_columns(outcomes), None
    styles = [[_style(cell) for cell in cells] for cells in body]
    short = grade_layout.too_wide(header, body, console.width)
    if short:
        header, body = grade_layout.fold_flags(header, body)
        styles = [[_style(cell) for cell in cells] for cells in body]  # from the full cells, as below
        header, body = grade_layout.shortened(header, body, levels)
        header = [grade_layout.SHORT_HEADINGS.get(name, name) for name in header]
        caption = "\n".join(grade_layout.legend(levels, console.width))
    # The short form: no borders and one space between columns, so sixteen levels fit 100 columns.
    table = Table(title="bpe-kata: class results", caption=caption, caption_justify="left",
                  **({"box": None, "padding": (0, 1), "collapse_padding": True, "pad_edge": False} if short else {}))
    for i, name in enumerate(header):
        table.add_column(name, justify="right" if name in ("seconds", "secs") else "left",
                         no_wrap=name not in ("result", "flags"), overflow="ellipsis",
                         max_width=grade_layout.NAME_WIDTH if short and i == 0 else None,
                         min_width=grade_layout.RESULT_WIDTH if short and name == "result" else None)
    for cells, style in zip(body, styles):
        table.add_row(*(f"[{s}]{escape_markup(c)}[/]" for c, s in zip(cells[:-1], style)), cells[-1])
    console.print(table)


def _style(cell: str) -> str:
    return CELL_STYLE.get(cell, "red" if cell.startswith(BAD_STARTS)
                          else "default")


#: How every flag begins (bpe_kata/tools/delegation.py, shipped.py, similarity.py): shown in red.
FLAG_STARTS = ("imports", "delegates", "runs code", "ships", "unreadable", *(f"{n}%" for n in range(101)))


#: How a cell that is bad news begins: shown in red.
BAD_STARTS = ("failed", "timed", "crashed", "no report", "could not", *FLAG_STARTS)


def escape_markup(text: str) -> str:
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def write_csv(path: Path, outcomes: list[Graded], extra=()) -> None:
    """The class as CSV for a gradebook (bpe_kata/tools/grade_csv.py; ``extra``: columns such as points)."""
    from bpe_kata.tools import grade_csv

    grade_csv.write(path, outcomes, level_columns(outcomes), extra)


def as_json(outcomes: list[Graded]) -> dict:
    """The class table for tools (``grade --json``): each row's cells as the text table shows them, and the
    values they are drawn from (bpe_kata/schemas/grade.schema.json)."""
    import spec

    levels = level_columns(outcomes)
    return {"suite": "bpe-kata", "suite_version": spec.__version__, "levels": levels, "submissions": [
        {"submission": o.submission, "name": o.name, "verdict": o.verdict, "detail": o.detail, "ended": o.ended,
         "exit_code": o.exit_code, "complete": o.complete, "seconds": round(o.seconds, 3),
         "similarity": o.similarity, "flags": list(o.flags), "accepted": o.accepted,
         "cells": {level: o.cell(level) for level in levels},
         "failed_claims": list(o.failed_claims), "likely_mistakes": list(o.mistakes),
         "report_page": None if o.page is None else shown(o.page)}
        for o in outcomes]}


def class_page(outcomes: list[Graded], where: Path | None = None) -> str:
    """The class table as one standalone HTML page, each row's likely mistakes and broken claims beneath it;
    with ``where`` (the page's folder), each kept report is linked by a path relative to it."""
    header, body = rows(outcomes)
    levels = level_columns(outcomes)
    short_header, short_body = grade_layout.shortened(header, body, levels)  # the page fits a 1280 px screen
    colour = lambda c: ("ok" if c == "green" else "none" if c == "—" else "todo" if c in TO_DO or c == "incomplete"  # noqa: E731
                        else "bad" if c.startswith(BAD_STARTS) else "")
    head = "".join(f'<th title="{escape(h)}">{escape(grade_layout.SHORT_HEADINGS.get(s, s))}</th>'
                   for h, s in zip(header, short_header))

    def first_cell(o: Graded, name: str) -> str:
        if o.page is None or where is None:
            return escape(name)
        link = quote(os.fsencode(Path(os.path.relpath(o.page, where)).as_posix()))  # a non-UTF-8 byte as %XX
        return f'<a href="{escape(link)}">{escape(name)}</a>'

    trs = "".join("<tr>" + f'<td>{first_cell(o, cells[0])}</td>'
                  + "".join(f'<td class="{colour(c)}" title="{escape(c)}">{escape(s)}</td>'
                            for c, s in zip(cells[1:], short[1:])) + "</tr>"
                  for o, cells, short in zip(outcomes, body, short_body))
    legend = "".join(f"<p class=\"legend\">{escape(line)}</p>" for line in grade_layout.legend(levels, 10_000))
    details = []
    for o in outcomes:
        if o.mistakes or o.failed_claims:
            items = "".join(f"<li>{escape(m)}</li>" for m in o.mistakes)
            claims = ", ".join(escape(c) for c in o.failed_claims)
            details.append(f"<details open><summary>{escape(o.name)}</summary><ul>{items}</ul>"
                           f"<p>claims broken: <code>{claims}</code></p></details>")
    style = ("body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:1200px}table{border-collapse:collapse}"
             "td,th{padding:.25rem .4rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}"
             "td:last-child{text-align:right}td:nth-last-child(3),td:nth-last-child(4){white-space:normal;min-width:8rem;max-width:14rem;overflow-wrap:anywhere}"
             "td:first-child{white-space:normal;max-width:14rem;overflow-wrap:anywhere}.none{color:#999}"
             "summary{font-weight:600;cursor:pointer}.legend{color:#555;font-size:.9rem;max-width:60rem}"
             "details p,details li{overflow-wrap:anywhere}"
             ".ok{color:#116b2e;font-weight:600}.bad{color:#b3261e;font-weight:600}.todo{color:#7a6400}")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bpe-kata: class results</title>'
        f'<style>{style}</style></head><body><h1>bpe-kata: class results</h1><table id="class"><thead><tr>{head}'
        f"</tr></thead><tbody>{trs}</tbody></table>{legend}<h2>Likely mistakes</h2>{''.join(details) or '<p>None.</p>'}"
        "</body></html>\n"
    )
