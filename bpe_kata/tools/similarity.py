"""How much of a submission is the suite's reference: ``bpe-kata grade`` flags near-copies.

A sandboxed child cannot import the reference (it is hidden), so a submission that wants its
answers must carry a copy. Course plagiarism checkers compare token sequences rather than
text, so renaming and reformatting do not hide a copy; this does the same, simply: each
source becomes its Python tokens (comments and docstrings dropped, every name kept as the
kind ``NAME``), cut into overlapping shingles of ``SHINGLE`` tokens, and the figure is the
share of the submission's shingles that also occur in the reference (containment: a
submission that copied one module of several is still a copy). Shingles of the starter
(solutions/starter, the signatures every student is given) count for neither side.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from pathlib import Path

SHINGLE = 12
#: At or above this share the grade table flags the submission (the project's own independent
#: implementations score well under it: benchmarks/README.md lists the figures).
FLAG_AT = 0.5
#: A static import of the suite's packages, or one by name (``importlib.import_module("reference")``).
#: A name built at run time escapes this; the sandbox still hides the reference from the child.
IMPORTS_SUITE = re.compile(r"^\s*(from|import)\s+(reference|spec)(\.|\s|$)"
                           r"|(import_module|__import__)\(\s*['\"](reference|spec)(\.|['\"])", re.MULTILINE)


def tokens(source: str) -> list[str]:
    out: list[str] = []
    previous = tokenize.NEWLINE
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING):
                continue
            if token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                previous = token.type
                continue  # a docstring or a bare string statement
            previous = token.type
            out.append("NAME" if token.type == tokenize.NAME and not _keyword(token.string) else token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def _keyword(word: str) -> bool:
    import keyword

    return keyword.iskeyword(word)


def shingles(source: str) -> set[tuple[str, ...]]:
    seq = tokens(source)
    return {tuple(seq[k:k + SHINGLE]) for k in range(max(len(seq) - SHINGLE + 1, 0))}


def sources(path: Path) -> str:
    path = Path(path)
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files if f.is_file())


def containment(submission: str, reference: str, given: str = "") -> float:
    """The share of the submission's shingles found in the reference, the ``given`` code's left out
    (0 for an empty submission)."""
    mine = shingles(submission) - shingles(given)
    return len(mine & shingles(reference)) / len(mine) if mine else 0.0


def flags(submission: Path, reference: Path | None, starter: Path | None = None,
          others: Sequence[Path] = ()) -> tuple[list[str], float | None]:
    """Why a Python submission looks like the suite's reference (or another complete implementation
    the suite ships, ``others``: the oracle, the project's right implementations), and its highest
    similarity figure."""
    if not Path(submission).exists():
        return [], None
    text = sources(submission)
    found = []
    if IMPORTS_SUITE.search(text):
        found.append("imports the suite's reference or spec")
    given = sources(starter) if starter is not None and Path(starter).exists() else ""
    figures = {source: containment(text, sources(source), given)
               for source in ([reference] if reference is not None else []) + list(others) if Path(source).exists()}
    if not figures:
        return found, None
    closest = max(figures, key=lambda source: figures[source])
    figure = figures[closest]
    if figure >= FLAG_AT:
        found.append(f"{figure:.0%} of its code is the reference's" if closest == reference
                     else f"{figure:.0%} of its code is the suite's {closest.name}")
    return found, figure
