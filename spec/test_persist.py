"""Level persist: save and load a tokenizer as plain text; corrupt files fail loudly, saves are atomic."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import oracle, strategies
from spec.blame import checking
from spec.cases.expect import assert_load_fails_at
from spec.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
from spec.shapes import ids_of, merges_of

pytestmark = pytest.mark.level("persist")

#: Patterns with spaces, newlines, quotes, backslashes and non-ASCII, each a usable split pattern.
PATTERNS = (None, GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, r" ?\S+|\s+", "[^\n]+|\n", "(?:é|你|🌍)+|[^é你🌍]+",
            '"[^"]*"|\\\\|.|\n', "[^\u2028\x85]+|[\u2028\x85]")

SPECIAL_BASE = 1000


def write_text(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))  # no newline translation, whatever the platform
    return path


# The worked cases of spec/cases/persist.json run here too, one test each, as
# test_load_case[<case id>] (made by spec/cases/collect.py).


tokenizers = st.tuples(strategies.chunky_texts, strategies.vocab_sizes, st.sampled_from(PATTERNS),
                       st.lists(strategies.special_strings, max_size=4, unique=True))


@pytest.mark.claim("persist.frozen")
@given(tokenizers, strategies.mixed_texts)
def test_loaded_tokenizer_encodes_and_decodes_as_before(bpe, tokenizer, probe):
    text, vocab_size, pattern, special_list = tokenizer
    merges = bpe.train(text, vocab_size, pattern=pattern)
    specials = {s: SPECIAL_BASE + k for k, s in enumerate(special_list)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tokenizer.bpe"
        bpe.save(path, merges, pattern=pattern, special_tokens=specials)
        loaded, loaded_pattern, loaded_specials = bpe.load(path)
    assert merges_of(loaded) == merges_of(merges), "the merges, their ids and their order come back as saved"
    assert (loaded_pattern, dict(loaded_specials)) == (pattern, specials)
    probe = "".join(s + probe[k::2] for k, s in enumerate(special_list)) or probe
    policy = dict(allowed_special="all") if specials else {}
    before = ids_of(bpe.encode(probe, merges, pattern=pattern, special_tokens=specials, **policy))
    after = ids_of(bpe.encode(probe, loaded, pattern=loaded_pattern, special_tokens=loaded_specials, **policy))
    assert after == before
    vocab, loaded_vocab = (
        bpe.build_vocab(merges, special_tokens=specials),
        bpe.build_vocab(loaded, special_tokens=loaded_specials),
    )
    assert bpe.decode(after, loaded_vocab) == bpe.decode(before, vocab) == probe


@pytest.mark.claim("persist.format")
@given(tokenizers)
def test_saved_file_is_the_documented_text_format(bpe, tokenizer):
    text, vocab_size, pattern, special_list = tokenizer
    merges = bpe.train(text, vocab_size)
    specials = {s: SPECIAL_BASE + k for k, s in enumerate(special_list)}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tokenizer.bpe"
        bpe.save(path, merges, pattern=pattern, special_tokens=specials)
        data = path.read_bytes()
    try:  # text, not pickle: strict UTF-8 must work (an assertion, never the suite's own UnicodeDecodeError)
        content = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise AssertionError(f"the saved file is not UTF-8 text, as the format says it is: {error}") from None
    assert content.startswith("bpe-kata v1\n")
    table, read_pattern, read_specials = oracle.persist.loads(content)
    assert (list(table.items()), read_pattern, read_specials) == (merges_of(merges), pattern, specials)


@pytest.mark.claim("persist.format", "persist.frozen")
@given(tokenizer=tokenizers)
def test_load_reads_a_file_written_by_another_implementation(bpe, tmp_path, tokenizer):
    text, vocab_size, pattern, special_list = tokenizer
    merges = oracle.train(text, vocab_size)
    specials = {s: SPECIAL_BASE + k for k, s in enumerate(special_list)}
    path = write_text(tmp_path / "other.bpe", oracle.persist.dumps(merges, pattern, specials))
    loaded, loaded_pattern, loaded_specials = bpe.load(path)
    with checking("persist.format"):
        assert (dict(merges_of(loaded)), loaded_pattern, dict(loaded_specials)) == (merges, pattern, specials)
    with checking("persist.frozen"):  # the order the file gives is the table's
        assert merges_of(loaded) == list(merges.items())


def _saved(bpe, folder: Path) -> Path:
    merges = bpe.train("the cat sat on the mat; the rat ate the hat " * 3, 290, pattern=GPT2_SPLIT_PATTERN)
    path = folder / "saved.bpe"
    bpe.save(path, merges, pattern=GPT2_SPLIT_PATTERN, special_tokens={"<|endoftext|>": 500, "two\nlines 終": 501})
    return path


def _saved_text(bpe, folder: Path) -> str:
    """The saved file as text: a file that is not UTF-8 breaks the format (an assertion, never the suite's
    own UnicodeDecodeError: issue 37, kind 3)."""
    data = _saved(bpe, folder).read_bytes()
    with checking("persist.format"):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise AssertionError(f"the saved file is not UTF-8 text, as the format says it is: {error}") from None


def _expected_error_line(content: str) -> int:
    with pytest.raises(oracle.persist.FormatError) as expected:
        oracle.persist.loads(content)
    return expected.value.line


@pytest.mark.claim("persist.corrupt-file-errors")
def test_truncated_file_fails_at_the_cut(bpe, tmp_path):
    """Cut at every line end, in the middle of each line, and inside a multi-byte character."""
    content = _saved_text(bpe, tmp_path)
    line_ends = [k for k, char in enumerate(content) if char == "\n"]
    cuts = sorted({0, *line_ends, *(k + 1 for k in line_ends[:-1]), *(k - 2 for k in line_ends if k > 2)})
    for cut in cuts:
        truncated = content[:cut]
        assert_load_fails_at(bpe, write_text(tmp_path / "cut.bpe", truncated), _expected_error_line(truncated))
    data = content.encode("utf-8")
    lead = next((k for k, byte in enumerate(data) if byte >= 0xC0), None)  # absent if save escapes all non-ASCII
    if lead is not None:
        path = tmp_path / "cut-in-a-character.bpe"
        path.write_bytes(data[: lead + 1])
        assert_load_fails_at(bpe, path, data.count(b"\n", 0, lead) + 1)


@pytest.mark.claim("persist.corrupt-file-errors")
def test_reordered_merge_lines_fail(bpe, tmp_path):
    """Swap neighbouring merges, and move merges far from their place."""
    lines = _saved_text(bpe, tmp_path).split("\n")
    first = 1 + next(k for k, line in enumerate(lines) if line.startswith("merges "))
    last = len(lines) - 2  # lines[-1] is the empty string after the final newline
    swaps = [(i, i + 1) for i in range(first, last)] + [(first, last), (first + 1, last - 3), (first + 4, last)]
    for i, j in swaps:
        swapped = lines.copy()
        swapped[i], swapped[j] = swapped[j], swapped[i]
        content = "\n".join(swapped)
        assert_load_fails_at(bpe, write_text(tmp_path / "swapped.bpe", content), _expected_error_line(content))


@pytest.mark.claim("persist.corrupt-file-errors")
@pytest.mark.parametrize("garbage, line", [
    (b"\x80\x04\x95\x1a\x00\x00\x00\x00\x00\x00\x00}\x94.", 1),
    (b"\xff\xfe\x00b\x00p\x00", 1),
    (b"bpe-kata v1\npattern null\nspecials 0\nmerges 1\n97 98 \xff\n", 5),
    (b"bpe-kata v1\npattern \"\xe4\xbd\"\nspecials 0\nmerges 0\n", 2),
    (b"bpe-kata v1\npattern null\nspecials 2\n300 \"<|a|>\"\n301 \"<|\xc3|>\"\nmerges 0\n", 5),
    # The first problem comes before the byte that is not UTF-8: that line is named.
    (b"\nbpe-kata v1\xff\npattern null\n", 1),
    (b"bpe-kata v2\npattern null\n\xff\n", 1),
    (b"bpe-kata v1\npattern nul\nspecials 0\nmerges 1\n97 98 \xff\n", 2),
], ids=["pickle", "utf-16", "bad-utf-8-in-a-merge", "half-a-character-in-the-pattern", "bad-utf-8-in-a-special",
        "empty-first-line-then-bad-utf-8", "other-version-then-bad-utf-8", "bad-pattern-then-bad-utf-8"])
def test_binary_garbage_fails_with_its_line(bpe, tmp_path, garbage, line):
    path = tmp_path / "garbage.bpe"
    path.write_bytes(garbage)
    assert_load_fails_at(bpe, path, line)


@pytest.mark.claim("persist.format")
def test_a_save_is_utf8_with_newlines_whatever_the_locale(bpe, tmp_path, spawn_implementation):
    """The format is UTF-8 text: a save made under an ASCII-only locale (LC_ALL=C, UTF-8 mode off)
    writes the same tokenizer, and its lines end in \\n."""
    path = tmp_path / "c-locale.bpe"
    merges, pattern, specials = {(0xC3, 0xA9): 256, (256, 0xE4): 257}, " ?\u00e9+|\u4f60|\\s+", {"<|\u7ec8|>": 300}
    child = spawn_implementation(
        env_changes={"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    )
    with checking("persist.format"):
        child.save(path, merges, pattern=pattern, special_tokens=specials)
    data = path.read_bytes()
    assert b"\r" not in data and data.decode("utf-8", "replace").endswith("\n")
    loaded, loaded_pattern, loaded_specials = bpe.load(path)
    assert (merges_of(loaded), loaded_pattern, dict(loaded_specials)) == (list(merges.items()), pattern, specials)
    here = tmp_path / "this-locale.bpe"  # and the same save made here: this process's save is what mutmut sees
    bpe.save(here, merges, pattern=pattern, special_tokens=specials)
    assert here.read_bytes() == data, "the same save gives other bytes under LC_ALL=C than here"


class FailingMapping(Mapping):
    """A table whose iteration fails part-way, like a disk that fills up during a save."""

    def __init__(self, items: dict, fail_after: int) -> None:
        self.items_, self.fail_after = items, fail_after

    def __getitem__(self, key):
        return self.items_[key]

    def __len__(self) -> int:
        return len(self.items_)

    def __iter__(self) -> Iterator:
        for k, key in enumerate(self.items_):
            if k == self.fail_after:
                raise OSError("no space left on device (simulated)")
            yield key


@pytest.mark.claim("persist.atomic-save")
@pytest.mark.parametrize("failing", ["merges", "special_tokens"])
def test_a_failed_save_leaves_the_old_file_and_nothing_else(bpe, tmp_path, failing):
    path = _saved(bpe, tmp_path)
    before = path.read_bytes()
    merges = bpe.train("a new text for a new table " * 4, 280)
    specials = {"<|a|>": 600, "<|b|>": 601, "<|c|>": 602}
    arguments = {"merges": dict(merges), "special_tokens": specials}
    arguments[failing] = FailingMapping(arguments[failing], len(arguments[failing]) // 2)
    with pytest.raises(Exception):  # noqa: B017  (the contract names no error type for a failed save)
        bpe.save(path, arguments["merges"], special_tokens=arguments["special_tokens"])
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.bpe"]


@pytest.mark.claim("persist.atomic-save")
def test_a_save_leaves_exactly_one_file(bpe, tmp_path):
    path = _saved(bpe, tmp_path)
    bpe.save(path, {(97, 98): 256})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.bpe"]
    assert merges_of(bpe.load(path)[0]) == [((97, 98), 256)]


#: Long enough that its file is several kilobytes: a write cut at half of it is cut mid-way.
LONG_TEXT = "the cat sat on the mat; the rat ate the hat. 天气很好, naïve café " * 40


@pytest.mark.claim("persist.atomic-save")
def test_a_save_the_disk_cuts_short_leaves_the_old_file(bpe, tmp_path, spawn_implementation):
    """The write itself fails: the save runs in a child whose file-size limit is half the new
    file (RLIMIT_FSIZE, SIGXFSZ ignored, so the write fails with EFBIG). The old file stays
    whole, no stray file is left, and a reader holding the old file through a hard link
    sees the old bytes or the new ones, never a mix or nothing."""
    folder = tmp_path / "tokenizer"
    folder.mkdir()
    path = _saved(bpe, folder)
    before = path.read_bytes()
    held = tmp_path / "held.bpe"
    os.link(path, held)
    merges = bpe.train(LONG_TEXT, 600)
    elsewhere = tmp_path / "elsewhere.bpe"
    bpe.save(elsewhere, merges)
    new = elsewhere.read_bytes()
    assert len(new) > 2 * len(before), "the new table's file should be much longer than the old one"
    limited = spawn_implementation(file_size_limit=len(new) // 2)
    with pytest.raises(Exception):  # noqa: B017  (any error will do; saying nothing will not)
        limited.save(path, merges)
    assert path.read_bytes() == before, "a save that failed while writing changed the old file"
    assert sorted(p.name for p in folder.iterdir()) == ["saved.bpe"], "a failed save left a stray file"
    assert held.read_bytes() in (before, new), "a reader of the old file saw a mix"
    bpe.save(path, merges)
    assert path.read_bytes() == new and held.read_bytes() in (before, new)


@pytest.mark.claim("persist.corrupt-file-errors")
def test_a_number_of_4000_digits_loads_and_one_of_4001_does_not(bpe, tmp_path):
    """The contract refuses numbers of *more than* 4000 digits; 4000 digits loads exactly, or is
    refused at its line by an implementation whose ids cannot hold it (never another value)."""
    big = "1" + "0" * 3999
    file = "bpe-kata v1\npattern null\nspecials 0\nmerges 1\n97 98 {}\n"
    path = write_text(tmp_path / "long.bpe", file.format(big))
    try:
        merges, _, _ = bpe.load(path)
    except ValueError:
        assert_load_fails_at(bpe, path, 5)
    else:
        assert [((a, b), idx) for (a, b), idx in merges.items()] == [((97, 98), int(big))]
    assert_load_fails_at(bpe, write_text(tmp_path / "longer.bpe", file.format(big + "0")), 5)
