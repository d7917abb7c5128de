"""bpe_kata/data/corpus_tables.py: the spec's own corpus tables are trained once, then read back from the cache."""

from __future__ import annotations

import json

import pytest

from bpe_kata.data import corpus_tables
from spec import fast_train, oracle

TEXT = "the cat sat on the mat; the hat sat on the cat. " * 6


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


def test_a_table_is_the_trainers_and_is_read_back_without_training(monkeypatch):
    first = corpus_tables.table("toy", TEXT, 300)
    assert first == list(oracle.train(TEXT, 300).items())
    assert corpus_tables.cache_path("toy", TEXT, 300).is_file()
    monkeypatch.setattr(fast_train, "train", lambda *args: pytest.fail("the cached table was not used"))
    assert corpus_tables.table("toy", TEXT, 300) == first


def test_another_text_or_size_is_another_entry():
    paths = {corpus_tables.cache_path("toy", TEXT, 300), corpus_tables.cache_path("toy", TEXT + ".", 300),
             corpus_tables.cache_path("toy", TEXT, 301)}
    assert len(paths) == 3


def test_the_key_changes_with_the_trainers_source(monkeypatch):
    before = corpus_tables.cache_path("toy", TEXT, 300)
    monkeypatch.setattr(corpus_tables, "trainer_fingerprint", lambda: "0" * 12)
    assert corpus_tables.cache_path("toy", TEXT, 300) != before


@pytest.mark.parametrize("content", ["not json", "{}", "[[97, 98], [256]]", "[[97, 256]]", "[[97, true]]",
                                     json.dumps([[97, 98]] * 50)])
def test_a_file_that_is_not_a_table_is_trained_again(content):
    path = corpus_tables.cache_path("toy", TEXT, 300)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    assert corpus_tables.table("toy", TEXT, 300) == list(oracle.train(TEXT, 300).items())
    assert json.loads(path.read_text(encoding="utf-8")) == [list(pair) for pair in oracle.train(TEXT, 300)]


def test_an_unwritable_cache_only_means_training_again(tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert corpus_tables.table("toy", TEXT, 280) == list(oracle.train(TEXT, 280).items())
