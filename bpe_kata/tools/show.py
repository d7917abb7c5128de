"""``bpe-kata show``: text cut into its tokens, each token's id and bytes beneath.

Token bytes come from the merge table itself (each merge is its two parts joined), not from
the implementation's ``build_vocab``: the picture shows what ``encode`` chose, measured by
the spec. Bytes that are only part of a character are shown as hex (``\\xe2\\x80``), spaces
as ``␣`` and line breaks as ``\\n``, so every token is visible and one column wide per cell.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from bpe_kata.tools.tables import Table

Pair = tuple[int, int]
COLOURS = ("black on bright_cyan", "black on bright_yellow")
DIFF_STYLE = "bold white on red"


@dataclass(frozen=True)
class Token:
    id: int
    data: bytes
    start: int  # byte offset in the text's UTF-8

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.start + len(self.data)


def token_bytes(merges: Mapping[Pair, int], special_tokens: Mapping[str, int] | None = None,
                broken: list[str] | None = None) -> dict[int, bytes]:
    """Every id's bytes, built from the table in id order (parts before the merge that joins them).

    A learner's table can be broken (a merge made of an id nothing made, a rank that is not an id): the tools
    exist to look at such tables, so nothing here raises. A missing part is drawn ``?``, an entry that is not a
    pair of ids with an id is left out, and each problem is appended to ``broken`` in one line."""
    problems = [] if broken is None else broken
    vocab = {i: bytes([i]) for i in range(256)}
    entries = []
    for pair, idx in merges.items():
        if isinstance(idx, int) and not isinstance(idx, bool) and isinstance(pair, tuple) and len(pair) == 2:
            entries.append((pair, idx))
        else:
            problems.append(f"{pair!r} -> {idx!r} is not a pair of ids with an id: left out")
    for (left, right), idx in sorted(entries, key=lambda item: item[1]):
        missing = [part for part in (left, right) if part not in vocab]
        if missing:
            problems.append(f"merge ({left}, {right}) -> {idx} uses id {missing[0]}, which no merge before it makes "
                            "(drawn '?')")
        vocab[idx] = vocab.get(left, b"?") + vocab.get(right, b"?")
    for text, idx in (special_tokens or {}).items():
        vocab[idx] = text.encode("utf-8")
    return vocab


def encode_with(impl, table: Table, text: str) -> list[int]:
    """The implementation's tokens for ``text`` under ``table`` (pattern and specials passed only when set)."""
    options: dict = {}
    if table.pattern is not None:
        options["pattern"] = table.pattern
    if table.special_tokens:
        options.update(special_tokens=table.special_tokens, allowed_special="all")
    return list(impl.encode(text, table.merges, **options))


def tokens_of(ids: list[int], vocab: Mapping[int, bytes]) -> list[Token]:
    tokens, start = [], 0
    for idx in ids:
        data = vocab.get(idx, b"")
        tokens.append(Token(idx, data, start))
        start += len(data)
    return tokens


def label(data: bytes) -> str:
    """A token as a learner reads it: characters as themselves, partial characters as hex."""
    text = data.decode("utf-8", errors="backslashreplace")
    return text.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r").replace(" ", "␣")


def cells(text: str) -> int:
    """Terminal columns ``text`` takes (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
               for ch in text)


def pad(text: str, width: int) -> str:
    return text + " " * (width - cells(text))


@dataclass
class Row:
    """One tokenization to draw: a title, its tokens, and which of them the other tokenization lacks."""

    title: str
    tokens: list[Token]
    differs: list[bool]
    #: what went wrong on the way, one line each (a table the encode changed, a broken table)
    notes: list[str] = field(default_factory=list)


def compare_rows(first: Row, second: Row) -> None:
    """Mark the tokens whose byte span the other tokenization does not have."""
    spans = [{t.span for t in row.tokens} for row in (first, second)]
    first.differs = [t.span not in spans[1] for t in first.tokens]
    second.differs = [t.span not in spans[0] for t in second.tokens]


def _chunks(row: Row, width: int) -> list[list[int]]:
    """Token indices per output line, so no line is wider than ``width``."""
    lines, current, used = [], [], 0
    for i, token in enumerate(row.tokens):
        w = max(cells(label(token.data)), len(str(token.id))) + 1
        if current and used + w > width:
            lines.append(current)
            current, used = [], 0
        current.append(i)
        used += w
    return lines + [current] if current else lines


def render_plain(rows: list[Row], width: int = 100) -> list[str]:
    """Pipes, CI logs: ``|`` between tokens, ids beneath, ``^`` under tokens that differ."""
    out: list[str] = []
    for row in rows:
        out.append(f"{row.title}")
        for line in _chunks(row, width):
            labels = [label(row.tokens[i].data) for i in line]
            widths = [max(cells(lab), len(str(row.tokens[i].id))) for lab, i in zip(labels, line)]
            out.append("|" + "|".join(pad(lab, w) for lab, w in zip(labels, widths)) + "|")
            out.append((" " + " ".join(pad(str(row.tokens[i].id), w) for i, w in zip(line, widths))).rstrip())
            if any(row.differs[i] for i in line):
                out.append(
                    (" " + " ".join(("^" if row.differs[i] else " ") * w for i, w in zip(line, widths))).rstrip()
                )
        out.append(summary(row.tokens))
        out.extend(f"note: {note}" for note in row.notes)
    return out


def render_rich(rows: list[Row], console) -> None:
    """A terminal: tokens on alternating colours, ids dim beneath, differing tokens in red."""
    from rich.text import Text

    for row in rows:
        console.print(Text(row.title, style="bold"))
        for line in _chunks(row, console.width):
            top, bottom = Text(), Text()
            for i in line:
                token = row.tokens[i]
                lab = label(token.data)
                w = max(cells(lab), len(str(token.id)))
                style = DIFF_STYLE if row.differs[i] else COLOURS[i % 2]
                top.append(pad(lab, w), style=style)
                top.append(" ")
                bottom.append(pad(str(token.id), w) + " ", style="red" if row.differs[i] else "dim")
            console.print(top, no_wrap=True, overflow="ignore")
            console.print(bottom, no_wrap=True, overflow="ignore")
        console.print(Text(summary(row.tokens), style="italic"))
        for note in row.notes:
            console.print(Text(f"note: {note}", style="bold red"))


def summary(tokens: list[Token]) -> str:
    size = sum(len(t.data) for t in tokens)
    ratio = f", {size / len(tokens):.2f} bytes per token" if tokens else ""
    return f"{len(tokens)} tokens for {size} bytes{ratio}"


def build_row(impl, impl_name: str, table: Table, text: str) -> Row:
    """The implementation's tokens, drawn with the table as it was before the call: encode gets a copy, and a copy
    it changed is named (claim encode.frozen), never trusted for the picture."""
    handed = dict(table.merges)
    ids = encode_with(impl, replace(table, merges=handed), text)
    notes: list[str] = []
    if list(handed.items()) != list(table.merges.items()):
        notes.append(f"{impl_name}'s encode changed the table it was given ({len(table.merges)} merges before, "
                     f"{len(handed)} after): claim encode.frozen is broken; drawn with the table as it was")
    vocab = token_bytes(table.merges, table.special_tokens, notes)
    return Row(f"{impl_name} with table {table.name}:", tokens_of(ids, vocab), [False] * len(ids), notes)
