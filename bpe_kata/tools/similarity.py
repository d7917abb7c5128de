"""How much of a submission is the suite's reference: ``bpe-kata grade`` flags near-copies.

A sandboxed child cannot import the reference (it is hidden), so a submission that wants its
answers must carry a copy. Course plagiarism checkers compare token sequences rather than
text, so renaming and reformatting do not hide a copy; this does the same, simply: each
source becomes its Python tokens (comments and docstrings dropped, every name kept as the
kind ``NAME``), cut into overlapping shingles of ``SHINGLE`` tokens, and the figure is the
share of the submission's shingles that also occur in the reference (containment: a
submission that copied one module of several is still a copy), or of the reference's found in the
submission when that is higher (``figure``). Shingles of the code every learner is given or writes
the same way count for neither side (``given``: the starter's signatures, and the spec's oracle core, which is
the textbook by design: minbpe's ``get_stats``/``merge`` loops, ``max(stats, key=...)``, the rank loop of
``encode``). Without that, a from-scratch minbpe-style solution of 60 lines was "54% the suite's oracle":
half of any short BPE file is those idioms. Calibrated on 26 implementations written outside the
project (docs/TEACHERS.md, "How copy detection was calibrated"): the highest is 19%. The submission's code is
every file it ships (bpe_kata/tools/shipped.py: archives, notebooks, source kept as data); what it imports is
bpe_kata/tools/delegation.py's.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence
from pathlib import Path

SHINGLE = 12
#: At or above this share the grade table flags the submission (the project's own independent
#: implementations score well under it: benchmarks/README.md lists the figures).
FLAG_AT = 0.5


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


#: A unit smaller than this many shingles is judged only as part of the whole (a few lines match by chance).
UNIT_MIN_SHINGLES = 50


def figure(units: Sequence[str], reference: str, given: str = "") -> float:
    """How much of the submission is the reference: the highest of its whole code's containment, each
    sizeable unit's own (junk added in other files does not dilute a copied one), and the share of the
    reference it holds (junk added anywhere does not dilute a whole copy)."""
    left_out, theirs = shingles(given), shingles(reference)
    mine = [shingles(unit) - left_out for unit in units]
    whole = set().union(*mine) if mine else set()
    figures = [len(whole & theirs) / len(whole) if whole else 0.0]
    figures += [len(m & theirs) / len(m) for m in mine if len(m) >= UNIT_MIN_SHINGLES]
    figures.append(len(whole & theirs) / len(theirs - left_out) if theirs - left_out else 0.0)
    return max(figures)


def flags(submission: Path, reference: Path | None, given: Path | Sequence[Path] | None = None,
          others: Sequence[Path] = (), allowed_libraries: Sequence[str] | None = (),
          compare: bool = True) -> tuple[list[str], float | None]:
    """Why a submission looks like the suite's reference (or another complete implementation the suite
    ships, ``others``: the oracle, the project's right implementations) or delegates to a library, read
    (``given``: the code every learner has, left out of both sides),
    from every file it ships (bpe_kata/tools/shipped.py), and its highest similarity figure
    (``compare=False``: the figure only, never a similarity flag, for the suite's own controls)."""
    from bpe_kata.tools import delegation, shipped

    if not Path(submission).exists():
        return [], None
    found_files = shipped.collect(submission)
    found = delegation.flags(found_files, allowed_libraries) + found_files.problems
    units = [unit.text for unit in found_files.units]
    common = "\n".join(sources(p) for p in ([] if given is None else [given] if isinstance(given, (str, Path))
                                             else given) if Path(p).exists())
    figures = {source: figure(units, sources(source), common)
               for source in ([reference] if reference is not None else []) + list(others) if Path(source).exists()}
    if not figures:
        return found, None
    closest = max(figures, key=lambda source: figures[source])
    value = figures[closest]
    if value >= FLAG_AT and compare:
        found.append(f"{value:.0%} of its code is the reference's" if closest == reference
                     else f"{value:.0%} of its code is the suite's {closest.name}")
    return found, value
