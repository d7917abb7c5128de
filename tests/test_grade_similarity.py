"""Copy detection in ``bpe-kata grade`` (bpe_kata/tools/similarity.py): an independently written textbook solution is
not flagged, a renamed and reformatted copy of the reference or the oracle still is."""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
from pathlib import Path

import pytest

from bpe_kata.layout.paths import SPEC_DIR, reference_dir
from bpe_kata.tools import grade, similarity

HERE = Path(__file__).resolve().parent
MINBPE_STYLE = HERE / "grade_class" / "minbpe_style.py"

#: One-line variants a learner writes: another loop, another tie spelling, another guard.
VARIANTS = [
    ("for pair in zip(ids, ids[1:]):", "for a, b in zip(ids[:-1], ids[1:]):\n        pair = (a, b)"),
    ("pair = max(stats, key=stats.get)", "pair = max(stats, key=lambda p: stats[p])"),
    ("if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:",
     "if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:"),
    ('text_bytes = b"".join(vocab[idx] for idx in ids)', 'text_bytes = bytes().join(vocab[idx] for idx in ids)'),
    ("while len(ids) >= 2:", "while len(ids) > 1:"),
]


def renamed_and_reformatted(source: str) -> str:
    """``source`` with every identifier renamed (consistently), comments gone and the layout rewritten."""
    names: dict[str, str] = {}
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = token.string
        if token.type == tokenize.NAME and not keyword.iskeyword(text) and text not in dir(__builtins__):
            text = names.setdefault(text, f"v{len(names)}_{text[::-1]}")
        out.append((token.type, text))
    return ast.unparse(ast.parse(tokenize.untokenize(out)))


def figure_of(path: Path) -> tuple[list[str], float | None]:
    return grade._suite_flags(str(path), None)


def test_a_from_scratch_minbpe_style_solution_is_not_flagged():
    found, figure = figure_of(MINBPE_STYLE)
    assert figure is not None and figure < similarity.FLAG_AT / 2, figure
    assert not any("%" in flag for flag in found)


@pytest.mark.parametrize("old,new", VARIANTS)
def test_its_one_line_variants_are_not_flagged(tmp_path, old, new):
    source = MINBPE_STYLE.read_text(encoding="utf-8")
    assert old in source
    (tmp_path / "variant.py").write_text(source.replace(old, new), encoding="utf-8")
    found, figure = figure_of(tmp_path / "variant.py")
    assert figure < similarity.FLAG_AT / 2 and not any("%" in flag for flag in found)


def test_the_oracle_core_alone_is_common_code_but_its_other_modules_are_not():
    """Leaving the textbook out must not blind the measure to the rest of the oracle."""
    assert SPEC_DIR / "oracle" / "core.py" in grade.common_code()
    assert len(similarity.shingles((SPEC_DIR / "oracle" / "persist.py").read_text(encoding="utf-8"))) > 200


@pytest.mark.parametrize("copied", ["reference", "reference_module", "oracle_module"])
def test_a_renamed_reformatted_copy_is_still_flagged(tmp_path, copied):
    if copied == "reference":
        files = sorted(reference_dir().glob("*.py"))
    elif copied == "reference_module":
        files = [reference_dir() / "training.py"]
    else:
        files = [SPEC_DIR / "oracle" / "persist.py"]
    folder = tmp_path / "student"
    folder.mkdir()
    for k, source in enumerate(files):
        (folder / f"part{k}.py").write_text(renamed_and_reformatted(source.read_text(encoding="utf-8")),
                                            encoding="utf-8")
    (folder / "__init__.py").write_text(MINBPE_STYLE.read_text(encoding="utf-8"), encoding="utf-8")  # own code too
    found, figure = figure_of(folder)
    assert figure >= similarity.FLAG_AT, figure
    assert any(flag.endswith(("reference's", "oracle")) for flag in found), found
