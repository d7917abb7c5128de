"""`bpe-kata data import FILE`: a hand-downloaded corpus is recognised, cut, checked and filed in the cache."""

from __future__ import annotations

import pytest

from bpe_kata import cli
from bpe_kata.data import corpora
from bpe_kata.data.corpora import CORPORA, sha256_of
from tests.test_corpora import END, START, user_corpus

GUTENBERG_HEADER = ("The Project Gutenberg eBook of Alice's Adventures in Wonderland\r\n\r\n"
                    "This ebook is for the use of anyone anywhere in the United States and most other parts of\r\n"
                    "the world at no cost and with almost no restrictions whatsoever.\r\n\r\n"
                    "Title: Alice's Adventures in Wonderland\r\n\r\nLanguage: English\r\n\r\n\r\n")
GUTENBERG_FOOTER = ("\r\n\r\n\r\nUpdated editions will replace the previous one\u2014the old editions will\r\n"
                    "be renamed.\r\n\r\nSTART: FULL LICENSE\r\n")


def pg11_shaped(alice: bytes) -> bytes:
    """What Project Gutenberg serves as pg11.txt: a byte-order mark, CRLF line ends, a header and a licence
    around the text that the Alice corpus keeps (from the START line to the END line)."""
    body = alice.decode("utf-8").removesuffix("\n")
    assert body.startswith(START) and body.endswith(END)
    return ("\ufeff" + GUTENBERG_HEADER + body.replace("\n", "\r\n") + GUTENBERG_FOOTER).encode("utf-8")


@pytest.fixture(scope="module")
def shakespeare(request) -> bytes:
    return user_corpus(request.config, "tinyshakespeare")


@pytest.fixture(scope="module")
def alice(request) -> bytes:
    return user_corpus(request.config, "alice")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "bpe-kata"


def test_pg11_is_cut_checked_and_filed_as_alice(tmp_path, cache, alice, capsys):
    download = tmp_path / "pg11.txt"
    download.write_bytes(pg11_shaped(alice))
    assert sha256_of(download.read_bytes()) != CORPORA["alice"].sha256
    assert cli.main(["data", "import", str(download)]) == 0
    assert (cache / "alice.txt").read_bytes() == alice
    assert "alice" in capsys.readouterr().out
    assert sorted(p.name for p in cache.iterdir()) == ["alice.txt"]  # no stray partial file


def test_tiny_shakespeare_is_filed_as_it_is(tmp_path, cache, shakespeare):
    download = tmp_path / "input.txt"  # char-rnn's name for it
    download.write_bytes(shakespeare)
    assert cli.main(["data", "import", str(download)]) == 0
    assert (cache / "tinyshakespeare.txt").read_bytes() == shakespeare


def test_the_imported_copy_is_what_the_finder_uses(tmp_path, cache, shakespeare, monkeypatch):
    monkeypatch.setenv(corpora.SHARED_VAR, str(tmp_path / "no-shared"))
    monkeypatch.delenv(corpora.ENV_VAR, raising=False)
    monkeypatch.setenv(corpora.OFFLINE_VAR, "1")
    (tmp_path / "input.txt").write_bytes(shakespeare)
    corpora.import_file(tmp_path / "input.txt")
    assert corpora.CorpusFinder().path("tinyshakespeare") == cache / "tinyshakespeare.txt"


def test_a_file_that_is_no_corpus_is_refused_with_what_is_known(tmp_path, cache, capsys):
    wrong = tmp_path / "notes.txt"
    wrong.write_text("my own notes, not a corpus\n", encoding="utf-8")
    assert cli.main(["data", "import", str(wrong)]) == 1
    message = capsys.readouterr().err
    assert "is none of the corpora" in message and "alice.txt" in message and "tinyshakespeare.txt" in message
    assert not cache.exists()


def test_another_edition_of_pg11_is_refused_as_such(tmp_path, cache, alice, capsys):
    edited = pg11_shaped(alice).replace(b"Alice", b"Alicia", 1)
    (tmp_path / "pg11.txt").write_bytes(edited.replace(b"CHAPTER I.", b"CHAPTER 1.", 1))
    assert cli.main(["data", "import", str(tmp_path / "pg11.txt")]) == 1
    message = capsys.readouterr().err
    assert "marker lines of https://www.gutenberg.org/cache/epub/11/pg11.txt" in message and "edition" in message
    assert not cache.exists()


def test_a_missing_file_and_a_missing_argument_are_clear(tmp_path, cache, capsys):
    assert cli.main(["data", "import", str(tmp_path / "absent.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        cli.main(["data", "import"])
    assert exited.value.code == 2 and "import needs the FILE" in capsys.readouterr().err
