"""Notebooks (issue 40): ``--impl notebook:PATH.ipynb`` checks a notebook's definitions, never its work.

The notebooks are written here as plain nbformat 4 JSON (no extra needed): a right one and a known-wrong one
made from the suite's own implementation files, cell by cell, with a markdown cell, magics and a training cell
that sleeps and writes a marker file between them; one with a syntax error. A notebook's verdict (levels and
failed claims of the JSON report) must equal its ``.py`` twin's. The live-kernel route is tests/test_notebook_kernel.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bpe_kata.impl import notebook_cells
from bpe_kata.impl.loader import ImplementationNotFound, load_implementation
from tests.support import REPO_ROOT, files_of_levels, run_spec_inline

IMPLEMENTATIONS = REPO_ROOT / "tests" / "implementations"


def write_notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    """An nbformat 4 notebook of ``(kind, source)`` cells; a code cell's source as a list of lines, as Jupyter saves."""
    document = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3"}}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True),
         **({"outputs": [], "execution_count": None} if kind == "code" else {})} for kind, source in cells]}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def training_cell(marker: Path) -> str:
    """What a learner's notebook does after its definitions: work that must not run when it is checked."""
    return (f"import time\nopen({str(marker)!r}, 'w').write('the training cell ran')\ntime.sleep(60)\n"
            "text = open('corpus.txt').read()\nmerges = train(text, 50_000)\nprint(len(merges))")


def notebook_of(py_file: Path, folder: Path, marker: Path) -> Path:
    """``py_file``'s top-level blocks as code cells, with what a notebook holds besides: markdown, magics, training."""
    blocks = [block for block in py_file.read_text(encoding="utf-8").split("\n\n\n") if block.strip()]
    cells = [("markdown", f"# {py_file.stem}\nMy BPE, cell by cell."), ("code", "%load_ext autoreload\n!pip list")]
    for block in blocks:
        cells += [("code", block), ("code", "%timeit sum(range(10))")]
    cells += [("code", training_cell(marker)), ("raw", "def train(: not code")]
    return write_notebook(folder / f"{py_file.stem}.ipynb", cells)


def _kept_names(source: str) -> set[str]:
    kept = notebook_cells.definitions([notebook_cells.Cell(1, "cell 1", source)], "nb.ipynb")
    names = set()
    for item in kept:
        for node in item.tree.body:
            names |= {getattr(node, "name", None)} | {t.id for t in getattr(node, "targets", []) if hasattr(t, "id")}
            names |= {(a.asname or a.name) for a in getattr(node, "names", []) if hasattr(a, "name")}
            names |= {node.target.id} if hasattr(node, "target") and hasattr(node.target, "id") else set()
    return names - {None}


def test_only_definitions_are_kept():
    source = """
import regex as re
from collections import Counter
try:
    import numpy as np
except ImportError:
    pass
PATTERN = re.compile(r"\\s+|\\w+")
VOCAB = {i: bytes([i]) for i in range(256)}
SIZE: int = 256 + 10
LOOKUP = lambda pair: pair[0]
def train(text, vocab_size):
    return {}
class Tok:
    pass
text = open("corpus.txt").read()
merges = train(text, 50_000)
sample = text[:100]
counts = Counter("abc")
print(merges)
for i in range(3):
    done = i
if __name__ == "__main__":
    main = 1
files = !ls
%time x = 1
len?
"""
    assert _kept_names(source) == {"re", "Counter", "PATTERN", "VOCAB", "SIZE", "LOOKUP", "train", "Tok"}


def test_a_cell_magic_cell_is_skipped_whole_and_line_numbers_are_kept():
    assert _kept_names("%%bash\necho hi\ndef train(): pass") == set()
    [kept] = notebook_cells.definitions([notebook_cells.Cell(1, "cell 1", "!ls\n%pwd\ndef f():\n    !ls\n")], "nb")
    assert kept.tree.body[0].lineno == 3
    continued = 'LABEL = ("%s items"\n         % 3)'  # a line starting with % inside brackets is Python, not a magic
    assert _kept_names(continued) == {"LABEL"}


def test_the_training_cell_never_runs_and_the_definitions_load(tmp_path):
    marker = tmp_path / "MARKER"
    notebook = notebook_of(IMPLEMENTATIONS / "right_counter.py", tmp_path, marker)
    started = time.monotonic()
    module = load_implementation(f"notebook:{notebook}")
    assert time.monotonic() - started < 20 and not marker.exists()
    assert module.train("aaabdaaabac", 259) == {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    assert module.decode(module.encode("aaabdaaabac", module.train("aaabdaaabac", 259)),
                         module.build_vocab(module.train("aaabdaaabac", 259))) == "aaabdaaabac"


def test_a_syntax_error_is_one_line_naming_the_cell_and_the_line(tmp_path, capsys):
    notebook = write_notebook(tmp_path / "broken.ipynb", [
        ("markdown", "# broken"), ("code", "import regex"),
        ("code", "def get_stats(ids):\n    return {\n\ndef merge(:")])
    with pytest.raises(ImplementationNotFound) as raised:
        load_implementation(f"notebook:{notebook}")
    message = str(raised.value)
    assert "\n" not in message and "could not load: broken.ipynb, cell 3, line " in message, message
    run = run_spec_inline(tmp_path, "--impl", f"notebook:{notebook}", "--level", "pairs", files=["spec/test_pairs.py"],
                          capsys=capsys)
    assert run.report is None and run.returncode != 0  # no claim is judged
    assert [line for line in run.output.splitlines() if "could not load" in line] == [f"ERROR: {message}"]
    twin = tmp_path / "broken.py"
    twin.write_text("import regex\ndef get_stats(ids):\n    return {\n\ndef merge(:", encoding="utf-8")
    twin_run = run_spec_inline(tmp_path, "--impl", str(twin), "--level", "pairs", files=["spec/test_pairs.py"])
    assert (twin_run.report, twin_run.returncode) == (None, run.returncode)  # the .py twin: no verdict either


@pytest.mark.parametrize("bad, why", [
    ("{not json", "is not a readable notebook"),
    ('{"nbformat": 3, "worksheets": []}', "only nbformat 4 notebooks"),
])
def test_a_file_that_is_no_notebook_is_one_line(tmp_path, bad, why):
    (tmp_path / "x.ipynb").write_text(bad, encoding="utf-8")
    with pytest.raises(ImplementationNotFound, match=why):
        load_implementation(f"notebook:{tmp_path / 'x.ipynb'}")


def test_a_missing_notebook_or_a_py_file_named_as_one_says_what_to_give(tmp_path):
    with pytest.raises(ImplementationNotFound, match=r"does not exist\. Give notebook:PATH\.ipynb"):
        load_implementation(f"notebook:{tmp_path / 'absent.ipynb'}")
    (tmp_path / "mine.py").write_text("def train(text, vocab_size):\n    return {}\n", encoding="utf-8")
    with pytest.raises(ImplementationNotFound, match=r"mine\.py is not a \.ipynb file"):
        load_implementation(f"notebook:{tmp_path / 'mine.py'}")


def _verdict(run) -> tuple[dict, dict]:
    assert run.report is not None, run.output[-3000:]
    levels = {name: level["status"] for name, level in run.report["levels"].items()}
    failed = {cid: claim["status"] for cid, claim in run.report["claims"].items() if claim["status"] != "passed"}
    return levels, failed


WRONG_MERGE = '''"""A merge whose bounds check reads past the end: IndexError where a list ends in the pair's left."""

from spec.oracle.core import build_vocab, decode, encode, get_stats, train  # noqa: F401


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
'''


def test_a_wrong_notebook_has_its_py_twins_verdict_with_the_cause_in_its_cell(tmp_path, spec_tests):
    twin = tmp_path / "wrong_merge.py"
    twin.write_text(WRONG_MERGE, encoding="utf-8")
    marker = tmp_path / "MARKER"
    notebook = notebook_of(twin, tmp_path, marker)
    files = files_of_levels(spec_tests, ("pairs", "merge"))
    runs = [run_spec_inline(tmp_path, "--impl", value, "--level", "merge", "-m", "not corpus", files=files)
            for value in (str(twin), f"notebook:{notebook}")]
    assert _verdict(runs[1]) == _verdict(runs[0]) and _verdict(runs[0])[0]["merge"] == "FAILED"
    assert not marker.exists()
    [cause] = runs[1].report["root_causes"]
    # cells: 1 markdown, 2 magics, 3 the docstring and imports, 4 %timeit, 5 merge, whose 4th line reads past the end
    assert cause["where"] == "merge (cell 5:4)", cause


@pytest.mark.heavy
@pytest.mark.parametrize("py_file", ["right_counter.py", "wrong_ids_from_257.py"])
@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "protocol"])
def test_a_notebook_has_its_py_twins_verdict_up_to_train(tmp_path, spec_tests, py_file, isolated):
    marker = tmp_path / "MARKER"
    notebook = notebook_of(IMPLEMENTATIONS / py_file, tmp_path, marker)
    files = files_of_levels(spec_tests, ("bytes", "pairs", "merge", "train"))
    runs = [run_spec_inline(tmp_path, "--impl", value, "--level", "train", "-m", "not corpus",
                            *(["--isolated"] if isolated else []), files=files)
            for value in (str(IMPLEMENTATIONS / py_file), f"notebook:{notebook}")]
    assert _verdict(runs[1]) == _verdict(runs[0])
    assert (_verdict(runs[0])[0]["train"] == "green") == py_file.startswith("right"), _verdict(runs[0])
    assert not marker.exists()


def test_a_notebook_holding_a_minbpe_class_is_read_through_the_minbpe_shape(tmp_path):
    tokenizer = REPO_ROOT / "tests" / "course_shapes" / "minbpe_right" / "tokenizer.py"
    notebook = notebook_of(tokenizer, tmp_path, tmp_path / "MARKER")
    module = load_implementation(f"notebook:{notebook}")
    assert module.COURSE_SHAPE == "minbpe" and module.TOKENIZER_CLASS.endswith(".RegexTokenizer")
    table = module.train("aaabdaaabac", 259)
    assert table == {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    assert module.encode("aaabdaaabac", table) == [258, 100, 258, 97, 99] and not (tmp_path / "MARKER").exists()


def test_a_kept_cell_that_raises_while_defining_is_could_not_load_with_its_cell_and_line(tmp_path):
    notebook = write_notebook(tmp_path / "imports.ipynb", [
        ("code", "def train(text, vocab_size):\n    return {}"), ("code", "import math\nimport no_such_module_here")])
    with pytest.raises(ImplementationNotFound) as raised:
        load_implementation(f"notebook:{notebook}")
    assert str(raised.value).endswith("could not load: imports.ipynb, cell 2, line 2: ModuleNotFoundError: "
                                      "No module named 'no_such_module_here'"), raised.value
