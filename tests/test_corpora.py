"""bpe_kata.data.corpora: corpora are found in order, verified, fetched once into the cache, or explained."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bpe_kata.data import corpora
from bpe_kata.data.corpora import CORPORA, CorpusFinder, CorpusUnavailable, rebuild_gutenberg_ebook, sha256_of

SHARED = corpora.SHARED_DATA  # captured before any test points it elsewhere
USER_DATA_DIR = os.environ.get(corpora.ENV_VAR)  # captured before _no_user_environment hides them
USER_CACHE = corpora.user_cache_dir()
START = "*** START OF THE PROJECT GUTENBERG EBOOK 11 ***"
END = "*** END OF THE PROJECT GUTENBERG EBOOK 11 ***"


def local_copy(name: str, folders: list[Path | None]) -> bytes | None:
    """The first verified copy of a corpus in these folders (never a download)."""
    corpus = CORPORA[name]
    for folder in folders:
        path = Path(folder).expanduser() / corpus.filename if folder else None
        if path is not None and path.is_file() and sha256_of(data := path.read_bytes()) == corpus.sha256:
            return data
    return None


def user_corpus(config: pytest.Config, name: str) -> bytes:
    """A corpus from where the spec finds it: --data-dir or $BPE_KATA_DATA, ../shared/data, the user cache."""
    folders = [config.getoption("--data-dir") or USER_DATA_DIR, SHARED, USER_CACHE]
    data = local_copy(name, folders)
    if data is None:
        pytest.skip(f"not run: no verified {CORPORA[name].filename} in {', '.join(str(f) for f in folders if f)} "
                    "(set $BPE_KATA_DATA or --data-dir, or run `bpe-kata data fetch`)")
    return data


@pytest.fixture(scope="module")
def shakespeare(request) -> bytes:
    return user_corpus(request.config, "tinyshakespeare")


@pytest.fixture(scope="module")
def alice(request) -> bytes:
    return user_corpus(request.config, "alice")


def test_the_suites_own_corpus_lookup_honours_the_data_dir(tmp_path, shakespeare):
    """The data a user points the spec at serves these tests too, so a run with data skips nothing."""
    data = tmp_path / "my-data"
    data.mkdir()
    (data / "tinyshakespeare.txt").write_bytes(shakespeare)
    assert local_copy("tinyshakespeare", [data, tmp_path / "absent", None]) == shakespeare
    (data / "tinyshakespeare.txt").write_bytes(shakespeare[:-1])
    assert local_copy("tinyshakespeare", [data]) is None


class FakeDownload:
    """Stands in for the network: returns ``payload`` (or raises ``error``) and counts its calls."""

    def __init__(self, payload: bytes | None = None, error: Exception | None = None) -> None:
        self.payload, self.error, self.calls = payload, error, []

    def __call__(self, url: str, timeout: float) -> bytes:
        self.calls.append((url, timeout))
        if self.error is not None:
            raise self.error
        assert self.payload is not None
        return self.payload


def never_download(url: str, timeout: float) -> bytes:
    raise AssertionError(f"no download expected, but {url} was requested")


@pytest.fixture(autouse=True)
def _no_user_environment(tmp_path, monkeypatch):
    """No test reads the user's $BPE_KATA_DATA, $BPE_KATA_OFFLINE or real cache."""
    monkeypatch.delenv(corpora.ENV_VAR, raising=False)
    monkeypatch.delenv(corpora.OFFLINE_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture
def no_shared(tmp_path, monkeypatch) -> Path:
    """The shared data folder is unavailable."""
    missing = tmp_path / "no-shared-data"
    monkeypatch.setattr(corpora, "SHARED_DATA", missing)
    return missing


@pytest.fixture
def cache(tmp_path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir()
    return folder


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# --- rebuilding a Project Gutenberg text ----------------------------------------------------------


def gutenberg(body: str, *, header: str = "The Project Gutenberg eBook of a test\n\nRelease date: never\n",
              footer: str = "Updated editions will replace the previous one.\nSTART: FULL LICENSE\n",
              bom: bool = True, crlf: bool = True) -> bytes:
    text = f"{header}{START}\n{body}{END}\n{footer}"
    if crlf:
        text = text.replace("\n", "\r\n")
    return (("\ufeff" if bom else "") + text).encode("utf-8")


def test_rebuild_keeps_markers_and_body_only():
    body = "\n[Illustration]\n\nAlice’s Adventures in Wonderland\n\nTHE END\n\n"
    rebuilt = rebuild_gutenberg_ebook(gutenberg(body))
    assert rebuilt == f"{START}\n{body}{END}\n".encode()


def test_rebuild_strips_the_bom_and_crlf():
    rebuilt = rebuild_gutenberg_ebook(gutenberg("one\ntwo\n"))
    assert not rebuilt.startswith(b"\xef\xbb\xbf")
    assert b"\r" not in rebuilt
    assert rebuilt.startswith(START.encode())


@pytest.mark.parametrize("after_end", ["", "\n", "\r\n", "\r\n\r\n\r\n", "\nfooter\nmore footer\n", " trailing"])
def test_rebuild_ends_with_exactly_one_newline_after_the_end_line(after_end):
    raw = f"header\r\n{START}\r\nbody\r\n{END}{after_end}".encode()
    rebuilt = rebuild_gutenberg_ebook(raw)
    assert rebuilt.endswith(f"\n{END}\n".encode())
    assert rebuilt == f"{START}\nbody\n{END}\n".encode()


def test_rebuild_without_bom_or_crlf_is_the_same():
    body = "café\n"
    assert rebuild_gutenberg_ebook(gutenberg(body, bom=False, crlf=False)) == rebuild_gutenberg_ebook(gutenberg(body))


def test_rebuild_uses_the_ebook_number():
    raw = b"x\n*** START OF THE PROJECT GUTENBERG EBOOK 84 ***\nbody\n*** END OF THE PROJECT GUTENBERG EBOOK 84 ***\n"
    assert rebuild_gutenberg_ebook(raw, number=84) == raw[2:]
    with pytest.raises(CorpusUnavailable):
        rebuild_gutenberg_ebook(raw)  # ebook 11's markers are not there


@pytest.mark.parametrize("raw", [
    f"header\n{START}\nbody\nfooter\n",  # no END
    f"header\nbody\n{END}\nfooter\n",  # no START
    "just some text\n",  # neither
    f"{END}\nbody\n{START}\n",  # END before START
    "",
], ids=["no-end", "no-start", "no-markers", "end-before-start", "empty"])
def test_rebuild_without_its_markers_is_unavailable(raw):
    with pytest.raises(CorpusUnavailable, match="START/END marker"):
        rebuild_gutenberg_ebook(raw.encode("utf-8"))


# --- finding a local copy ----------------------------------------------------------------------


def test_finder_finds_a_correct_file_in_data_dir(tmp_path, cache, shakespeare):
    data = tmp_path / "data"
    data.mkdir()
    (data / "tinyshakespeare.txt").write_bytes(shakespeare)
    finder = CorpusFinder(data_dir=data, download=never_download, cache_dir=cache)
    assert finder.path("tinyshakespeare") == data / "tinyshakespeare.txt"
    assert finder.text("tinyshakespeare") == shakespeare.decode("utf-8")
    assert leftovers(cache) == []


def test_finder_reads_data_dir_from_the_environment(tmp_path, cache, monkeypatch, shakespeare):
    data = tmp_path / "from-env"
    data.mkdir()
    (data / "tinyshakespeare.txt").write_bytes(shakespeare)
    monkeypatch.setenv(corpora.ENV_VAR, str(data))
    assert (
        CorpusFinder(download=never_download, cache_dir=cache).path("tinyshakespeare") == data / "tinyshakespeare.txt"
    )


def test_a_wrong_file_with_the_right_name_is_refused_with_the_fix(tmp_path, cache):
    data = tmp_path / "data"
    data.mkdir()
    wrong = data / "tinyshakespeare.txt"
    wrong.write_text("First Citizen:\nThis is not the corpus.\n", encoding="utf-8")
    finder = CorpusFinder(data_dir=data, download=never_download, cache_dir=cache)
    with pytest.raises(CorpusUnavailable) as excinfo:
        finder.path("tinyshakespeare")
    message = str(excinfo.value)
    assert str(wrong) in message
    assert "Replace it" in message and "delete it" in message
    assert wrong.read_text(encoding="utf-8").startswith("First Citizen")  # left for the user to decide


def test_unknown_corpus_names_the_known_ones(cache):
    with pytest.raises(CorpusUnavailable, match="tinyshakespeare, alice"):
        CorpusFinder(download=never_download, cache_dir=cache).path("moby-dick")


# --- downloading into the cache ----------------------------------------------------------------


def test_download_fills_the_cache_atomically_once(no_shared, cache, shakespeare):
    corpus = CORPORA["tinyshakespeare"]
    download = FakeDownload(shakespeare)
    path = CorpusFinder(download=download, cache_dir=cache, timeout=7.5).path("tinyshakespeare")
    assert download.calls == [(corpus.url, 7.5)]
    assert path == cache / corpus.filename
    assert sha256_of(path.read_bytes()) == corpus.sha256
    assert leftovers(cache) == [corpus.filename]  # no *.part left behind

    again = FakeDownload(shakespeare)
    assert CorpusFinder(download=again, cache_dir=cache).path("tinyshakespeare") == path
    assert again.calls == []


def test_download_creates_a_missing_cache_folder(no_shared, tmp_path, shakespeare):
    cache = tmp_path / "deep" / "cache"
    path = CorpusFinder(download=FakeDownload(shakespeare), cache_dir=cache).path("tinyshakespeare")
    assert path.parent == cache and path.is_file()


def test_failing_download_explains_where_it_looked_and_how_to_fix_it(no_shared, cache):
    download = FakeDownload(error=OSError("network is unreachable"))
    with pytest.raises(CorpusUnavailable) as excinfo:
        CorpusFinder(download=download, cache_dir=cache).path("tinyshakespeare")
    message = str(excinfo.value)
    assert str(no_shared) in message and str(cache) in message  # the folders searched
    assert "network is unreachable" in message
    assert "BPE_KATA_DATA" in message
    assert "bpe-kata data fetch" in message
    assert len(download.calls) == 1
    assert leftovers(cache) == []


def test_failing_download_lists_data_dir_first(no_shared, cache, tmp_path):
    data = tmp_path / "empty-data"
    data.mkdir()
    with pytest.raises(CorpusUnavailable) as excinfo:
        CorpusFinder(data_dir=data, download=FakeDownload(error=TimeoutError("slow")), cache_dir=cache).path("alice")
    message = str(excinfo.value)
    assert message.index(str(data)) < message.index(str(no_shared)) < message.index(str(cache))


def test_download_with_the_wrong_content_says_upstream_changed(no_shared, cache):
    download = FakeDownload(b"First Citizen:\nsomething else entirely\n")
    with pytest.raises(CorpusUnavailable) as excinfo:
        CorpusFinder(download=download, cache_dir=cache).path("tinyshakespeare")
    message = str(excinfo.value)
    assert "the upstream text has changed" in message
    assert CORPORA["tinyshakespeare"].sha256 in message
    assert leftovers(cache) == []  # nothing unverified is cached


def test_offline_means_no_download_and_a_clear_message(no_shared, cache, monkeypatch):
    monkeypatch.setenv(corpora.OFFLINE_VAR, "1")
    download = FakeDownload(b"should never be asked for")
    with pytest.raises(CorpusUnavailable) as excinfo:
        CorpusFinder(download=download, cache_dir=cache).path("tinyshakespeare")
    assert download.calls == []
    message = str(excinfo.value)
    assert "tinyshakespeare.txt" in message and "not found in" in message
    assert "BPE_KATA_OFFLINE" in message and "forbids downloading" in message
    assert "bpe-kata data fetch" in message


def test_offline_still_uses_a_local_copy(no_shared, cache, monkeypatch, shakespeare):
    monkeypatch.setenv(corpora.OFFLINE_VAR, "1")
    (cache / "tinyshakespeare.txt").write_bytes(shakespeare)
    assert (
        CorpusFinder(download=never_download, cache_dir=cache).path("tinyshakespeare") == cache / "tinyshakespeare.txt"
    )


def test_text_remembers_a_failure(no_shared, cache):
    download = FakeDownload(error=ConnectionError("refused"))
    finder = CorpusFinder(download=download, cache_dir=cache)
    for _ in range(2):
        with pytest.raises(CorpusUnavailable, match="refused"):
            finder.text("tinyshakespeare")
    assert len(download.calls) == 1


def test_text_remembers_a_success(no_shared, cache, shakespeare):
    download = FakeDownload(shakespeare)
    finder = CorpusFinder(download=download, cache_dir=cache)
    assert finder.text("tinyshakespeare") == finder.text("tinyshakespeare") == shakespeare.decode("utf-8")
    assert len(download.calls) == 1


# --- alice: the Gutenberg file is rebuilt to the verified corpus ------------------------------------


def gutenberg_release_of(alice: bytes) -> bytes:
    """What gutenberg.org serves: a BOM, CRLF line endings, a header before START and a licence after END."""
    text = alice.decode("utf-8")
    assert text.startswith(START) and text.endswith(END + "\n")
    header = "The Project Gutenberg eBook of Alice's Adventures in Wonderland\n\nAuthor: Lewis Carroll\n\n"
    footer = "\n\nUpdated editions will replace the previous one--the old editions will be renamed.\n"
    return ("\ufeff" + header + text + footer).replace("\n", "\r\n").encode("utf-8")


def test_alice_download_is_rebuilt_to_the_verified_file(no_shared, cache, alice):
    corpus = CORPORA["alice"]
    raw = gutenberg_release_of(alice)
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw and sha256_of(raw) != corpus.sha256
    assert rebuild_gutenberg_ebook(raw) == alice

    download = FakeDownload(raw)
    path = CorpusFinder(download=download, cache_dir=cache).path("alice")
    assert download.calls[0][0] == corpus.url
    assert path.read_bytes() == alice
    assert sha256_of(path.read_bytes()) == corpus.sha256 and len(alice) == corpus.size
    assert leftovers(cache) == [corpus.filename]


def test_shared_files_match_the_published_sizes(shakespeare, alice):
    for name, data in (("tinyshakespeare", shakespeare), ("alice", alice)):
        assert len(data) == CORPORA[name].size
        assert sha256_of(data) == CORPORA[name].sha256


def test_the_shared_folder_is_used_when_present(cache, shakespeare, tmp_path, monkeypatch):
    shared = tmp_path / "shared" / "data"  # a stand-in for ../shared/data, filled from wherever the corpus was found
    shared.mkdir(parents=True)
    (shared / "tinyshakespeare.txt").write_bytes(shakespeare)
    monkeypatch.delenv(corpora.SHARED_VAR, raising=False)
    monkeypatch.setattr(corpora, "SHARED_DATA", shared)
    assert (
        CorpusFinder(download=never_download, cache_dir=cache).path("tinyshakespeare") == shared / "tinyshakespeare.txt"
    )
