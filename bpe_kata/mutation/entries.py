"""Ledger entries written out: one survivor as TOML, drafts for the survivors the ledger lacks, and
the ledger rewritten (``bpe-kata mutate --draft`` and ``--prune``; mutation/migrate_keys.py)."""

from __future__ import annotations

import json
from pathlib import Path

from bpe_kata.mutation.ledger import CATEGORIES, Accepted


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def render_entry(entry: Accepted, comment: str = "") -> str:
    lines = ([f"# {comment}"] if comment else []) + [
        "[[accepted]]",
        f"module = {toml_string(entry.module)}",
        f"function = {toml_string(entry.function)}",
        f"hash = {toml_string(entry.hash)}",
        f"line = {entry.line}",
        f"original = {toml_string(entry.original)}",
        f"mutated = {toml_string(entry.mutated)}",
        f"category = {toml_string(entry.category)}",
        f"why = {toml_string(entry.why)}",
    ]
    if entry.check:
        lines.append(f"check = {toml_string(entry.check)}")
    if entry.contract:
        lines.append(f"contract = {toml_string(entry.contract)}")
    return "\n".join(lines)


def render_draft(survivors: list) -> str:
    """Ledger entries for ``survivors``, category, reason and backing left for a person to decide.

    ``load_ledger`` refuses them until they are filled in, so a draft cannot pass the gate unread.
    """
    blocks = []
    for mutant in survivors:
        entry = Accepted(mutant.module, mutant.function, mutant.function_hash, mutant.line, mutant.original,
                         mutant.mutated, "?", "")
        blocks.append(render_entry(entry, f"{mutant.name} ({mutant.status})").replace(
            'category = "?"', f'category = "?"  # {" | ".join(CATEGORIES)}, or kill it with a test instead') +
            '\n# check = "encode"  # equivalent, performance-only: a probe of bpe_kata/mutation/checks.py'
            '\n# contract = "..."  # not-pinned: the sentence of spec/CONTRACT.md that leaves it free')
    return "\n\n".join(blocks) + "\n"


def write_ledger(path: Path, entries: list[Accepted]) -> None:
    """Rewrite the ledger with ``entries``, keeping its header comments and [gate] table as they are."""
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("[[accepted]]")] if "[[accepted]]" in text else text
    path.write_text(head.rstrip("\n") + "\n\n" + "\n\n".join(render_entry(e) for e in entries) + "\n",
                    encoding="utf-8")
