"""``notebook.check(globals())`` and ``%bpe_kata_check`` in a live kernel (issue 40, bpe_kata/notebook.py).

The definitions come from the kernel's input history: a fake one checks which cells are kept and how they are
labelled without a kernel; the heavy tests execute real notebooks with nbclient and IPython's kernel (the
``notebook`` extra; skipped with the reason where it is absent), whose verdicts must equal their ``.py`` twins'.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bpe_kata import notebook
from tests.support import files_of_levels, run_spec_inline
from tests.test_notebook import WRONG_MERGE, _verdict

HISTORY = ["", "import regex as re\nfrom collections import Counter", "def get_stats(ids):\n    return Counter(",
           "def get_stats(ids):\n    return dict(Counter(zip(ids, ids[1:])))",
           "stats = get_stats(list(b'aaab'))\nprint(stats)", "get_ipython().run_line_magic('timeit', 'get_stats([])')"]


def test_the_kernels_history_gives_its_definitions_labelled_as_the_learner_sees_them():
    cells = notebook.kernel_cells({"_ih": HISTORY, "__name__": "__main__"})
    assert [cell.label for cell in cells] == ["In [1]", "In [3]"]  # In [2] did not parse: it defined nothing
    assert "dict(Counter(zip" in cells[1].source


def test_a_function_the_history_does_not_define_comes_from_its_source(tmp_path):
    module = tmp_path / "helpers_for_kernel.py"
    module.write_text("import math\n\ndef merge(ids, pair, idx):\n    return list(ids)\n", encoding="utf-8")
    namespace: dict = {"__name__": "helpers_for_kernel", "_ih": ["", "print(1)"]}
    exec(compile(module.read_text(encoding="utf-8"), str(module), "exec"), namespace)
    cells = notebook.kernel_cells(namespace)
    assert [cell.label for cell in cells] == ["the namespace's modules", "merge (its source)"]
    assert cells[0].source == "import math as math" and cells[1].source.startswith("def merge(ids, pair, idx):")


def _kernel_notebook(folder: Path, marker: Path, report: Path, level: str) -> Path:
    """WRONG_MERGE's blocks as cells, a training cell that must not run, then the check and the magic."""
    nbformat = pytest.importorskip("nbformat", reason="the notebook extra (pip install bpe-kata[notebook])")
    blocks = [block for block in WRONG_MERGE.split("\n\n\n") if block.strip()]
    check = textwrap.dedent(f"""\
        import json
        from bpe_kata import notebook
        result = notebook.check(globals(), level={level!r}, args=["-m", "not corpus"])
        json.dump(result.report, open({str(report)!r}, "w"))
        result""")
    magic = (f"%load_ext bpe_kata.notebook\nmagic = %bpe_kata_check --level {level} -m 'not corpus'\n"
             f"json.dump(magic.report, open({str(report) + '.magic'!r}, 'w'))")
    training = f"open({str(marker)!r}, 'w').write('ran')\nimport time\ntime.sleep(60)"
    cells = [nbformat.v4.new_markdown_cell("# my BPE"), *map(nbformat.v4.new_code_cell, blocks),
             nbformat.v4.new_code_cell("%%time\n" + training), nbformat.v4.new_code_cell(check),
             nbformat.v4.new_code_cell(magic)]
    path = folder / "kernel_twin.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


@pytest.mark.heavy
def test_a_live_kernels_check_and_magic_give_the_py_twins_verdict(tmp_path, spec_tests):
    pytest.importorskip("ipykernel", reason="the notebook extra (pip install bpe-kata[notebook])")
    nbclient = pytest.importorskip("nbclient", reason="the notebook extra (pip install bpe-kata[notebook])")
    nbformat = pytest.importorskip("nbformat", reason="the notebook extra (pip install bpe-kata[notebook])")
    marker, report = tmp_path / "MARKER", tmp_path / "kernel.json"
    path = _kernel_notebook(tmp_path, marker, report, "merge")
    executed = nbformat.read(path, as_version=4)
    # the %%time training cell is skipped: run every cell but that one, as a learner who ran the rest would
    executed.cells = [cell for cell in executed.cells if not cell.source.startswith("%%time")]
    nbclient.NotebookClient(executed, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "".join(output.get("text", "") for output in executed.cells[-2].outputs)
    assert "level" in printed and "merge" in printed  # the verdict is printed in the cell
    twin = tmp_path / "wrong_merge.py"
    twin.write_text(WRONG_MERGE, encoding="utf-8")
    expected = _verdict(run_spec_inline(tmp_path, "--impl", str(twin), "--level", "merge", "-m", "not corpus",
                                        files=files_of_levels(spec_tests, ("facts", "bytes", "pairs", "merge"))))
    assert expected[0]["merge"] == "FAILED"
    for written in (report, Path(str(report) + ".magic")):
        kernel = json.loads(written.read_text(encoding="utf-8"))
        assert _verdict(type("Run", (), {"report": kernel, "output": ""})()) == expected, written
        assert [cause["where"] for cause in kernel["root_causes"]] == ["merge (In [2]:4)"]
    assert not marker.exists()


def test_an_interrupted_check_stops_the_process_it_started(tmp_path, monkeypatch):
    """A learner who stops the cell stops the check too: nothing keeps running behind the kernel."""
    marker = tmp_path / "still-running"
    script = f"import time\nprint('started', flush=True)\ntime.sleep(1)\nopen({str(marker)!r}, 'w').write('x')"
    seen = []

    def interrupting_print(*args, **kwargs):
        seen.append(args)
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.print", interrupting_print)
    with pytest.raises(KeyboardInterrupt):
        notebook._run_printing([sys.executable, "-c", script])
    monkeypatch.undo()
    time.sleep(2)
    assert seen == [("started\n",)] and not marker.exists()
