"""grade's copy detection sees everything a submission ships (issue 36, kind 10; kind 11's non-UTF-8 names).

The rules under test: every file is read by its content (archives unpacked within limits, notebooks'
code cells, source kept as data), bytecode and whatever cannot be read are flagged, never ignored;
every import outside the standard library, the submission's own modules and a few helpers is named;
the flags sit beside the verdict. The heavy test runs the red team's grade attacks under a real
``bpe-kata grade``.
"""

from __future__ import annotations

import ast
import csv
import glob
import importlib.util
import io
import json
import os
import py_compile
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bpe_kata.layout.paths import reference_dir
from bpe_kata.tools import grade, shipped, similarity
from tests.support import REPO_ROOT

RED_TEAM = REPO_ROOT / "tests" / "red_team"
STARTER = REPO_ROOT / "solutions" / "starter"


def _flags(path: Path, allowed=()) -> list[str]:
    return similarity.flags(path, reference_dir(), STARTER, allowed_libraries=allowed)[0]


def _reference_zip(target: Path, package: str = "vendored_bpe") -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for module in sorted(reference_dir().glob("*.py")):
            archive.writestr(f"{package}/{module.name}", module.read_text(encoding="utf-8"))


def test_the_reference_inside_a_zip_of_any_name_is_compared(tmp_path):
    (tmp_path / "__init__.py").write_text((RED_TEAM / "attack_grade_vendor_zip.py").read_text("utf-8"), "utf-8")
    _reference_zip(tmp_path / "data.bin")  # zipimport takes any file name
    assert any(flag.endswith("of its code is the reference's") for flag in _flags(tmp_path))


def test_archives_nested_and_compressed_are_unpacked(tmp_path):
    inner = io.BytesIO()
    _reference_zip(inner)  # type: ignore[arg-type]
    import tarfile

    with tarfile.open(tmp_path / "vendor.tar.gz", "w:gz") as archive:
        info = tarfile.TarInfo("wheel.whl")
        info.size = len(inner.getvalue())
        archive.addfile(info, io.BytesIO(inner.getvalue()))
    found = shipped.collect(tmp_path)
    assert "vendor.tar.gz/vendor.tar/wheel.whl/vendored_bpe/core.py" in {unit.name for unit in found.units}
    assert any(flag.endswith("of its code is the reference's") for flag in _flags(tmp_path))


def test_a_zip_bomb_is_refused_not_expanded(tmp_path):
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.py", b"\0" * (shipped.MAX_BYTES + 10))
    assert (tmp_path / "bomb.zip").stat().st_size < 2**20
    problems = shipped.collect(tmp_path).problems
    assert problems and "bomb.zip/zeros.py" in problems[0] and "more than" in problems[0]


def test_archives_nested_too_deep_are_named(tmp_path):
    data = b"import tiktoken\n"
    for depth in range(shipped.MAX_DEPTH + 1):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(f"level{depth}.zip" if depth else "x.py", data)
        data = buffer.getvalue()
    (tmp_path / "deep.zip").write_bytes(data)
    assert any("nested more than" in problem for problem in shipped.collect(tmp_path).problems)


def test_a_notebooks_code_and_source_kept_as_data_are_read(tmp_path):
    copy = (reference_dir() / "training.py").read_text(encoding="utf-8")
    cells = [{"cell_type": "markdown", "source": ["# my work"]}, {"cell_type": "code", "source": copy.splitlines(True)}]
    (tmp_path / "work.ipynb").write_text(json.dumps({"cells": cells}), encoding="utf-8")
    (tmp_path / "blob.txt").write_text((reference_dir() / "core.py").read_text("utf-8"), encoding="utf-8")
    (tmp_path / "merges.txt").write_text("97 98 256\n", encoding="utf-8")  # data: not source
    names = {unit.name for unit in shipped.collect(tmp_path).units}
    assert names == {"work.ipynb", "blob.txt"}
    assert any(flag.endswith("of its code is the reference's") for flag in _flags(tmp_path))


def test_bytecode_is_flagged_unless_python_would_ignore_it(tmp_path):
    (tmp_path / "mine.py").write_text("X = 1\n", encoding="utf-8")
    py_compile.compile(str(tmp_path / "mine.py"), cfile=str(tmp_path / "loose.pyc"))
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    py_compile.compile(str(tmp_path / "mine.py"), cfile=str(cache / f"mine.{sys.implementation.cache_tag}.pyc"))
    (cache / "mine.cpython-27.pyc").write_bytes(b"junk")  # another interpreter's: Python ignores it
    (cache / f"gone.{sys.implementation.cache_tag}.pyc").write_bytes(b"junk")  # no source beside it
    problems = shipped.collect(tmp_path).problems
    assert {p.split(" ")[2] for p in problems} == {f"__pycache__/mine.{sys.implementation.cache_tag}.pyc", "loose.pyc"}
    os.utime(tmp_path / "mine.py", (1, 1))  # stale now: Python would compile the source again
    assert [p.split(" ")[2] for p in shipped.collect(tmp_path).problems] == ["loose.pyc"]


def test_what_cannot_be_read_is_named(tmp_path):
    (tmp_path / "native.so").write_bytes(b"\x7fELF" + bytes(100))
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)))
    os.mkfifo(tmp_path / "pipe")  # never opened: reading it would hang
    problems = shipped.collect(tmp_path).problems
    assert problems == ["unreadable: blob.bin (binary data)", "unreadable: native.so (native code)",
                        "unreadable: pipe (not a regular file)"]


@pytest.mark.parametrize(("source", "expected"), [
    ("import tiktoken\n", "delegates to the BPE library tiktoken"),
    ("from tokenizers import Tokenizer\n", "delegates to the BPE library tokenizers"),
    ("import importlib\nm = importlib.import_module('sentencepiece')\n", "delegates to the BPE library sentencepiece"),
    ("m = __import__('tik' + 'token')\n", "runs code it does not show: __import__ of a name built at run time"),
    ("exec(open('x').read())\n", "runs code it does not show: exec"),
    ("import marshal\n", "runs code it does not show: the module marshal"),
    ("f = getattr(__builtins__, 'exec')\n", "runs code it does not show: getattr of exec"),
    ("import puretiktoken\n", "delegates to the BPE library puretiktoken"),
    ("import jsonschema\n", "imports jsonschema, not the standard library"),  # installed, not a helper
])
def test_imports_outside_the_allow_list_are_named(tmp_path, source, expected):
    (tmp_path / "sub.py").write_text(source, encoding="utf-8")
    flags = _flags(tmp_path / "sub.py")
    assert any(flag.startswith(expected) for flag in flags), flags


def test_allowed_libraries_and_own_modules_are_not_flagged(tmp_path):
    (tmp_path / "sub.py").write_text("import tiktoken\nimport regex\nimport helpers\nimport re, collections\n",
                                     encoding="utf-8")
    (tmp_path / "helpers.py").write_text("X = 1\n", encoding="utf-8")
    assert _flags(tmp_path, allowed=None) == []
    assert _flags(tmp_path, allowed=["tiktoken"]) == []
    assert _flags(tmp_path) == ["delegates to the BPE library tiktoken (in sub.py)"]
    (tmp_path / "tiktoken").mkdir()  # a vendored copy is delegation all the same
    (tmp_path / "tiktoken" / "__init__.py").write_text("X = 1\n", encoding="utf-8")
    assert _flags(tmp_path) == ["delegates to the BPE library tiktoken (in sub.py)"]


def _suite_implementations() -> list[str]:
    found = [*glob.glob(str(REPO_ROOT / "tests" / "implementations" / "*.py")),
             *glob.glob(str(REPO_ROOT / "tests" / "pattern_fixed" / "*.py")),
             *glob.glob(str(REPO_ROOT / "tests" / "course_shapes" / "*_*")), str(STARTER)]
    return sorted(p for p in found if not p.endswith("__init__.py"))


def test_no_new_flag_fires_on_the_suites_own_implementations():
    """Calibration: the project's right and known-wrong implementations import the suite (they are its
    own), but none delegates, ships bytecode or unreadable files, or is over the figure against the reference."""
    figures = {}
    for path in _suite_implementations():
        flags, figure = similarity.flags(Path(path), reference_dir(), STARTER)
        figures[Path(path).name] = figure
        assert [f for f in flags if not f.startswith("imports the suite's")] == [], path
    assert max(figures.values()) < similarity.FLAG_AT, figures


def test_a_file_named_in_no_encoding_is_named_readably(tmp_path):
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text("import tiktoken\n", encoding="utf-8")
    flags = _flags(tmp_path)
    assert flags == ["delegates to the BPE library tiktoken (in caf\\xe9.py)"]
    flags[0].encode("utf-8")


def test_grade_refuses_a_submission_named_in_no_encoding(tmp_path, capsys):
    from bpe_kata.cli import main

    odd = tmp_path / os.fsdecode(b"caf\xe9.py")
    shutil.copy(REPO_ROOT / "tests" / "implementations" / "right_counter.py", odd)
    assert main(["grade", str(odd), "--plain"]) == 2
    err = capsys.readouterr().err
    assert "caf\\xe9.py" in err and "not valid UTF-8" in err and len(err.strip().splitlines()) == 1


def test_a_flag_is_shown_beside_the_verdict_and_the_grade_exits_1():
    from bpe_kata.tools import grade_table

    row = grade.Graded("x.py", "x", levels={"pairs": {"status": "green", "failed": 0}},
                       flags=["delegates to the BPE library tiktoken (in x.py)"])
    assert row.verdict == "green" and not row.accepted
    header, body = grade_table.rows([row])
    assert body[0][header.index("result")] == "green"
    assert body[0][header.index("flags")].startswith("delegates to the BPE library tiktoken")


# --- the red team, under a real bpe-kata grade ------------------------------------------------------------------

def _renamed_padded_copy(folder: Path) -> None:
    """The reference, identifiers renamed, reformatted by ast.unparse, each module padded with generated code."""
    folder.mkdir()
    for module in sorted(reference_dir().glob("*.py")):
        text = module.read_text(encoding="utf-8")
        for old, new in (("ids", "toks"), ("counts", "tally"), ("best", "top")):
            text = text.replace(old, new)
        padding = "\n".join(f"_pad_{k} = {k} * {k + 7} + {k * 3} - {k + 11}" for k in range(3000))
        (folder / module.name).write_text(ast.unparse(ast.parse(text)) + "\n\n" + padding + "\n", encoding="utf-8")


def _bytecode_only(folder: Path) -> None:
    folder.mkdir()
    (folder / "__init__.py").write_text((RED_TEAM / "attack_grade_bytecode_only.py").read_text("utf-8"), "utf-8")
    compiled = folder / "compiled"
    compiled.mkdir()
    for module in sorted(reference_dir().glob("*.py")):
        py_compile.compile(str(module), cfile=str(compiled / f"{module.stem}.pyc"), doraise=True)


def _vendor_zip(folder: Path) -> None:
    folder.mkdir()
    (folder / "__init__.py").write_text((RED_TEAM / "attack_grade_vendor_zip.py").read_text("utf-8"), "utf-8")
    _reference_zip(folder / "vendor.zip")


@pytest.mark.heavy
def test_the_grade_attacks_are_flagged_and_honest_ones_are_not(tmp_path):
    """Each attack is its own row of one class: flagged, with its verdict beside the flag; the grade exits 1.
    The project's honest implementations in the same class get no flag."""
    _vendor_zip(tmp_path / "vendor_zip")
    _bytecode_only(tmp_path / "bytecode_only")
    _renamed_padded_copy(tmp_path / "renamed_padded")
    # Copied under names without "attack_": tests/test_red_team.py, maybe running beside this test, kills any
    # process whose command line says attack_ (its check that no attack outlived its run).
    shutil.copy(RED_TEAM / "attack_grade_tiktoken.py", tmp_path / "tiktoken_delegated.py")
    attacks = {"vendor_zip": "of its code is the reference's", "bytecode_only": "ships bytecode: compiled/",
               "renamed_padded": "of its code is the reference's",
               "tiktoken_delegated": "delegates to the BPE library tiktoken"}
    submissions = [str(tmp_path / name) for name in attacks]
    submissions[-1] += ".py"
    honest = [str(REPO_ROOT / "tests" / "implementations" / "right_counter.py"),
              "minbpe:" + str(REPO_ROOT / "tests" / "course_shapes" / "minbpe_right")]
    done, rows = _grade(tmp_path, *submissions, *honest)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    for name, flag in attacks.items():
        assert flag in rows[name]["flags"], (name, rows[name])
        assert rows[name]["result"].split(" ")[0] in ("green", "failed", "incomplete"), rows[name]  # its verdict
    assert rows["vendor_zip"]["result"] == "green"  # the copy works: only the flag tells
    assert rows["right_counter"]["flags"] == "" and rows["right_counter"]["result"] == "green"  # CSV: empty, not "—"
    assert rows["minbpe_right (minbpe)"]["flags"] == "", rows["minbpe_right (minbpe)"]
    assert float(rows["minbpe_right (minbpe)"]["similarity"]) >= 0  # a course-shaped folder is read too
    table = json.loads((tmp_path / "class.json").read_text("utf-8"))
    assert [r["accepted"] for r in table["submissions"]][:len(attacks) + 1] == [False] * len(attacks) + [True]


def _grade(tmp_path: Path, *submissions: str) -> tuple[subprocess.CompletedProcess, dict[str, dict]]:
    bpe_kata = shutil.which("bpe-kata") or str(Path(sys.executable).with_name("bpe-kata"))
    command = [bpe_kata, "grade", *submissions, "--timeout", "240", "--jobs", "2", "--plain",
               "--csv", str(tmp_path / "class.csv"), "--json", str(tmp_path / "class.json"),
               "--", "--level", "pairs", "-m", "not corpus", "--hypothesis-profile", "fast"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    with open(tmp_path / "class.csv", encoding="utf-8") as handle:
        return done, {row["submission"]: row for row in csv.DictReader(handle)}


@pytest.mark.heavy
@pytest.mark.skipif(importlib.util.find_spec("tokenizers") is None,
                    reason="tokenizers is not installed in the suite's environment: a submission cannot delegate to it")
def test_training_delegated_to_tokenizers_is_flagged(tmp_path):
    shutil.copy(RED_TEAM / "attack_grade_tokenizers.py", tmp_path / "tokenizers_delegated.py")
    done, rows = _grade(tmp_path, str(tmp_path / "tokenizers_delegated.py"))
    assert done.returncode == 1
    assert "delegates to the BPE library tokenizers" in rows["tokenizers_delegated"]["flags"], rows
