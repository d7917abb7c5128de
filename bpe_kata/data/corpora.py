"""Find the corpora the corpus claims need, or fetch them once into a user cache.

Lookup order: ``--data-dir`` / ``$BPE_KATA_DATA``, then ``../shared/data`` beside the
repository, then the user cache, then a download from the canonical source. Every file
is checked against its published SHA-256 before use; the corpora are never committed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bpe_kata.data.unavailable import DataUnavailable

ENV_VAR = "BPE_KATA_DATA"
OFFLINE_VAR = "BPE_KATA_OFFLINE"
REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
SHARED_VAR = "BPE_KATA_SHARED_DATA"  # relocates ../shared/data (odd layouts, and the suite's own tests)


@dataclass(frozen=True)
class Corpus:
    name: str
    filename: str
    sha256: str
    size: int
    url: str
    rebuild: Callable[[bytes], bytes] = staticmethod(lambda raw: raw)


def rebuild_gutenberg_ebook(raw: bytes, number: int = 11) -> bytes:
    """Cut a Project Gutenberg plain text the way the Alice corpus of "Build a BPE Tokenizer: Why Your
    Model Can't Count the R's" was cut.

    Keeps the START and END marker lines and everything between, LF line endings, no
    byte-order mark, exactly one newline after the END line.
    """
    text = raw.decode("utf-8-sig").replace("\r\n", "\n")
    start_marker = f"*** START OF THE PROJECT GUTENBERG EBOOK {number} ***"
    end_marker = f"*** END OF THE PROJECT GUTENBERG EBOOK {number} ***"
    start, end = text.find(start_marker), text.find(end_marker)
    if start < 0 or end < start:
        raise CorpusUnavailable(
            f"the downloaded ebook #{number} lacks its START/END marker lines; the upstream file changed"
        )
    return (text[start:end + len(end_marker)] + "\n").encode("utf-8")


CORPORA: dict[str, Corpus] = {
    corpus.name: corpus
    for corpus in (
        Corpus(
            "tinyshakespeare", "tinyshakespeare.txt",
            "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed", 1_115_394,
            "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt",
        ),
        Corpus(
            "alice", "alice.txt",
            "10cffa881fe979553947b5e3c8cbe16b4b714a6fb900129e5f42686793e7cbe2", 151_191,
            "https://www.gutenberg.org/cache/epub/11/pg11.txt",
            rebuild_gutenberg_ebook,
        ),
    )
}


class CorpusUnavailable(DataUnavailable):
    """No verified copy of a corpus could be found or fetched; the message says how to fix it."""

    what = "corpus"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bpe-kata"


def write_cache_file(path: Path, text: str) -> None:
    """Write atomically; a cache file that cannot be written only makes the next run slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    except OSError:
        pass


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _download(url: str, timeout: float) -> bytes:
    import urllib.request  # here: every process of every run imports this module, few ever download

    with urllib.request.urlopen(url, timeout=timeout) as response:  # fixed https URLs
        return response.read()


class CorpusFinder:
    """Looks corpora up in order and remembers what it found (or why it failed) per session."""

    def __init__(
        self,
        data_dir: str | os.PathLike | None = None,
        *,
        download: Callable[[str, float], bytes] = _download,
        cache_dir: Path | None = None,
        timeout: float = 20.0,
    ) -> None:
        self.data_dir = data_dir or os.environ.get(ENV_VAR) or None
        self.cache_dir = cache_dir or user_cache_dir()
        self._download = download
        self.timeout = timeout
        self._found: dict[str, str | CorpusUnavailable] = {}

    def candidates(self, corpus: Corpus) -> list[Path]:
        folders = [Path(self.data_dir).expanduser()] if self.data_dir else []
        folders += [Path(os.environ.get(SHARED_VAR) or SHARED_DATA), self.cache_dir]
        return [folder / corpus.filename for folder in folders]

    def path(self, name: str) -> Path:
        """A verified local copy of the corpus, downloading it into the cache if needed."""
        corpus = self._corpus(name)
        for candidate in self.candidates(corpus):
            if candidate.is_file():
                data = candidate.read_bytes()
                if sha256_of(data) != corpus.sha256:
                    raise CorpusUnavailable(
                        f"{candidate} is not the expected {corpus.filename} (SHA-256 {sha256_of(data)[:12]}…, "
                        f"expected {corpus.sha256[:12]}…). "
                        "Replace it with the right file or delete it to download again."
                    )
                return candidate
        return self._fetch(corpus)

    def text(self, name: str) -> str:
        if name not in self._found:
            try:
                self._found[name] = self.path(name).read_text(encoding="utf-8")
            except CorpusUnavailable as error:
                self._found[name] = error
        found = self._found[name]
        if isinstance(found, CorpusUnavailable):
            raise found
        return found

    def _corpus(self, name: str) -> Corpus:
        if name not in CORPORA:
            raise CorpusUnavailable(f"unknown corpus {name!r}; known: {', '.join(CORPORA)}")
        return CORPORA[name]

    def _fetch(self, corpus: Corpus) -> Path:
        searched = ", ".join(str(p.parent) for p in self.candidates(corpus))
        # Every corpus missing here is named, in the same words whichever is looked for first: a run
        # without them says so once, not once per corpus.
        missing = [c.filename for c in CORPORA.values() if not any(p.is_file() for p in self.candidates(c))]
        names = ", ".join(missing or [corpus.filename])
        fix = (f"run `bpe-kata data fetch` where the internet is reachable, `bpe-kata data import FILE` for a copy "
               f"downloaded by hand, or point ${ENV_VAR} (--data-dir) at a folder holding {names}")
        if os.environ.get(OFFLINE_VAR, "").strip().lower() not in ("", "0", "false", "no"):
            raise CorpusUnavailable(f"{names} not found in {searched}, and ${OFFLINE_VAR} forbids downloading; {fix}")
        try:
            raw = self._download(corpus.url, self.timeout)
        except Exception as error:  # any network failure means the same thing to the user
            raise CorpusUnavailable(
                f"{names} not found in {searched}, and cannot be downloaded ({_short(error)}); {fix}") from None
        data = corpus.rebuild(raw)
        if sha256_of(data) != corpus.sha256:
            raise CorpusUnavailable(
                f"downloaded {corpus.url} but it does not match the expected SHA-256 {corpus.sha256} "
                f"(got {sha256_of(data)}): the upstream text has changed. {fix}"
            )
        return store(data, self.cache_dir / corpus.filename)


def _short(error: Exception) -> str:
    """A download's failure in a few words: urllib's reason, not its nested wrappers."""
    reason = getattr(error, "reason", None) or error
    return f"{type(error).__name__}: {getattr(reason, 'strerror', None) or reason}"


def store(data: bytes, target: Path) -> Path:
    """Write a verified corpus whole or not at all: never a half-written file where the finder looks."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".part") as tmp:
        tmp.write(data)
    try:
        os.replace(tmp.name, target)
    finally:
        Path(tmp.name).unlink(missing_ok=True)
    return target


def identify(raw: bytes, source: str = "the file") -> tuple[Corpus, bytes]:
    """Which corpus a hand-downloaded file is, and its verified bytes: the file as it is (alice.txt,
    tiny Shakespeare's input.txt), or cut the way its source is cut (Project Gutenberg's pg11.txt)."""
    for corpus in CORPORA.values():
        if sha256_of(raw) == corpus.sha256:
            return corpus, raw
    hints = []
    for corpus in CORPORA.values():
        try:
            data = corpus.rebuild(raw)
        except (CorpusUnavailable, UnicodeDecodeError):
            continue
        if data == raw:
            continue  # nothing to cut: this corpus takes its file as it is
        if sha256_of(data) == corpus.sha256:
            return corpus, data
        hints.append(f"it has the marker lines of {corpus.url}, but the text between them is not the edition the "
                     f"spec uses (SHA-256 after cutting {sha256_of(data)[:12]}…, expected {corpus.sha256[:12]}…)")
    known = "; ".join(
        f"{c.filename} ({c.size:,} bytes, SHA-256 {c.sha256[:12]}…, from {c.url})" for c in CORPORA.values()
    )
    raise CorpusUnavailable(f"{source} ({len(raw):,} bytes, SHA-256 {sha256_of(raw)[:12]}…) is none of the corpora"
                            + (f": {hints[0]}" if hints else "") + f". Known: {known}")


def import_file(path: Path, cache_dir: Path | None = None) -> tuple[Corpus, Path]:
    """File a hand-downloaded corpus in the user cache, cut and checked, where the finder looks for it."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise CorpusUnavailable(f"cannot read {path}: {error.strerror or error}") from None
    corpus, data = identify(raw, str(path))
    return corpus, store(data, (cache_dir or user_cache_dir()) / corpus.filename)
