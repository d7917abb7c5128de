"""Why tests did not run: each distinct reason once, with the levels it applies to."""

from __future__ import annotations

from spec.levels import ALL_LEVEL_NAMES
from tests.support import run_spec_inline


def test_a_missing_corpus_is_explained_once_for_all_its_levels(tmp_path, monkeypatch, capsys):
    for name, value in {"BPE_KATA_SHARED_DATA": tmp_path / "no-shared", "BPE_KATA_DATA": tmp_path / "no-data",
                        "XDG_CACHE_HOME": tmp_path / "cache"}.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.setenv("BPE_KATA_OFFLINE", "1")
    run = run_spec_inline(tmp_path, "--claim", "corpus.d1-*", "--claim", "roundtrip.examples",
                          files=["spec/test_train.py", "spec/test_encode.py", "spec/test_roundtrip.py"], capsys=capsys)
    assert run.returncode == 0
    levels = sorted((level for level, reasons in run.report["skip_reasons"].items()
                     if any("alice.txt not found" in reason for reason in reasons)), key=ALL_LEVEL_NAMES.index)
    assert len(levels) >= 3  # the same reason, reported by train, encode and roundtrip
    table = run.output[run.output.index("why tests did not run:"):]
    assert table.count("alice.txt not found") == 1
    assert f"{', '.join(levels)}: not run: corpus unavailable" in table
