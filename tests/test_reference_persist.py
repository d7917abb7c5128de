"""The reference's save and load under bad conditions: odd names, permissions, links, corrupted files.

The format rules themselves are the spec's (spec/test_persist.py, spec/cases/persist.json);
here are the reference's own choices (spec/CONTRACT.md, "What the format protects") and a
corrupted-file fuzz: a fixed seed, a few hundred corruptions, each one refused with the file
and the line, or read back as the very same tokenizer, and always refused by a SHA-256 check.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import stat
from pathlib import Path

import pytest

import reference
from reference import persist
from spec import oracle
from spec.patterns import GPT2_SPLIT_PATTERN

SPECIALS = {"<|endoftext|>": 400, "two\nlines \"終\"\\": 401, "🌍": 402}


@pytest.fixture(scope="module")
def tokenizer():
    merges = reference.train(
        "the cat sat on the mat; the rat ate the hat. 終わり 终 " * 4, 330, pattern=GPT2_SPLIT_PATTERN
    )
    return merges, GPT2_SPLIT_PATTERN, SPECIALS


def save(path: Path, tokenizer) -> Path:
    merges, pattern, specials = tokenizer
    reference.save(path, merges, pattern=pattern, special_tokens=specials)
    return path


# --- saving -----------------------------------------------------------------------------

def test_a_save_to_a_long_legal_name_works(tmp_path, tokenizer):
    """The temporary name must not grow with the target's: 255 bytes is the usual limit."""
    path = save(tmp_path / ("t" * 251 + ".bpe"), tokenizer)
    assert reference.load(path) == tokenizer
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="permission bits are POSIX")
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444])
def test_a_save_keeps_the_permissions_of_the_file_it_replaces(tmp_path, tokenizer, mode):
    path = save(tmp_path / "t.bpe", tokenizer)
    path.chmod(mode)
    save(path, tokenizer)
    assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="permission bits are POSIX")
@pytest.mark.parametrize("umask", [0o027, 0o022, 0o002, 0o077, 0o000])
def test_a_new_file_gets_the_umask_default(tmp_path, tokenizer, umask):
    """0o666 less the umask, under several umasks: one umask alone hides a wrong base mode
    (0o645 and 0o666 agree under 0o027)."""
    previous = os.umask(umask)
    try:
        path = save(tmp_path / "t.bpe", tokenizer)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_save_through_a_symlink_replaces_the_file_it_points_to(tmp_path, tokenizer):
    (tmp_path / "real").mkdir()
    target = save(tmp_path / "real" / "t.bpe", tokenizer)
    link = tmp_path / "link.bpe"
    link.symlink_to(target)
    reference.save(link, {(97, 98): 256})
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert reference.load(target) == ({(97, 98): 256}, None, {})
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["link.bpe", "real", "t.bpe"]


@pytest.mark.skipif(not hasattr(os, "O_DIRECTORY"), reason="folders cannot be opened here")
def test_a_save_flushes_the_file_and_then_its_folder(tmp_path, tokenizer, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real_fsync(descriptor)

    monkeypatch.setattr(persist.os, "fsync", fsync)
    save(tmp_path / "t.bpe", tokenizer)
    assert synced == ["file", "folder"]


@pytest.mark.parametrize("pattern, specials", [("(", {}), ("a\ud800", {}), (None, {"<|\udc00|>": 300})])
def test_save_refuses_what_load_would_refuse_and_writes_nothing(tmp_path, pattern, specials):
    with pytest.raises(ValueError):
        reference.save(tmp_path / "t.bpe", {(97, 98): 256}, pattern=pattern, special_tokens=specials)
    assert list(tmp_path.iterdir()) == []



def test_the_temporary_file_has_the_short_name_of_its_own(tmp_path, tokenizer, monkeypatch):
    """CONTRACT.md, "How the reference saves": the temporary is `.bpe-XXXXXXXX.tmp`, beside the target."""
    renamed: list[Path] = []
    real_replace = os.replace

    def replace(source, target) -> None:
        renamed.append(Path(source))
        real_replace(source, target)

    monkeypatch.setattr(persist.os, "replace", replace)
    save(tmp_path / "t.bpe", tokenizer)
    assert [path.parent for path in renamed] == [tmp_path]
    assert re.fullmatch(r"\.bpe-[0-9a-f]{8}\.tmp", renamed[0].name), renamed[0].name



def test_a_save_writes_newline_line_ends_even_where_text_mode_would_write_crlf(tmp_path, tokenizer, monkeypatch):
    """The format's lines end in "\\n" on every platform: the save turns off text mode's newline
    translation, so on Windows (simulated: text mode left to the platform writes "\\r\\n") the
    file is still one that load reads."""
    def windows_open(file, mode="r", *args, newline=None, **kwargs):
        if "w" in mode and "b" not in mode and newline is None:
            newline = "\r\n"
        return open(file, mode, *args, newline=newline, **kwargs)

    monkeypatch.setattr(persist, "open", windows_open, raising=False)
    path = save(tmp_path / "t.bpe", tokenizer)
    assert b"\r" not in path.read_bytes()
    assert reference.load(path) == tokenizer

class _Interrupted(BaseException):
    """What a Ctrl-C landing just after the rename looks like to save."""


def test_an_interruption_just_after_the_rename_is_what_the_save_raises(tmp_path, tokenizer, monkeypatch):
    """The clean-up of a failed save must not hide why it failed: once the temporary is
    renamed into place there is nothing left to delete, and the interruption comes through."""
    real_replace = os.replace

    def replace(source, target) -> None:
        real_replace(source, target)
        raise _Interrupted

    monkeypatch.setattr(persist.os, "replace", replace)
    with pytest.raises(_Interrupted):
        save(tmp_path / "t.bpe", tokenizer)
    assert [path.name for path in tmp_path.iterdir()] == ["t.bpe"]
    assert reference.load(tmp_path / "t.bpe") == tokenizer

# --- loading ----------------------------------------------------------------------------

def test_load_with_the_right_sha256_reads_the_file(tmp_path, tokenizer):
    path = save(tmp_path / "t.bpe", tokenizer)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert reference.load(path, expected_sha256=digest) == tokenizer
    assert reference.load(path, expected_sha256=digest.upper()) == tokenizer


def test_load_with_another_sha256_names_the_file_and_both_hashes(tmp_path, tokenizer):
    path = save(tmp_path / "t.bpe", tokenizer)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    wrong = "0" * 64
    with pytest.raises(ValueError) as raised:
        reference.load(path, expected_sha256=wrong)
    assert all(part in str(raised.value) for part in (str(path), digest, wrong))


def test_a_number_beyond_pythons_digit_limit_names_the_file_and_line(tmp_path):
    path = tmp_path / "huge.bpe"
    path.write_text("bpe-kata v1\npattern null\nspecials 0\nmerges 1\n97 98 " + "7" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}, line 5"):
        reference.load(path)


# --- the corrupted-file fuzz ------------------------------------------------------------

SEED, COUNT = 13, 400
INSERTED = b'0123456789 \n"\\u{}[]-+.e\xff\xc3'


def corrupt(data: bytes, rng: random.Random) -> bytes:
    """One random corruption: a bit flipped, a byte lost or added, a line lost, doubled or moved, a cut."""
    kind = rng.randrange(7)
    at = rng.randrange(len(data))
    if kind == 0:
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    if kind == 1:
        return data[:at] + data[at + 1:]
    if kind == 2:
        return data[:at] + bytes([rng.choice(INSERTED)]) + data[at:]
    if kind == 6:
        return data[:at]
    lines = data.split(b"\n")[:-1]
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if kind == 3:
        del lines[i]
    elif kind == 4:
        lines.insert(i, lines[j])
    else:
        lines.insert(j, lines.pop(i))
    return b"".join(line + b"\n" for line in lines)


def oracle_verdict(data: bytes):
    """The spec reader's verdict: the tokenizer, or the line of the first problem."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return data.count(b"\n", 0, error.start) + 1
    try:
        return oracle.persist.loads(text)
    except oracle.persist.FormatError as error:
        return error.line


def test_every_corruption_is_refused_with_its_line_or_reads_the_same(tmp_path, tokenizer):
    original = save(tmp_path / "original.bpe", tokenizer).read_bytes()
    digest = hashlib.sha256(original).hexdigest()
    rng = random.Random(SEED)
    path = tmp_path / "corrupted.bpe"
    outcomes = {"refused": 0, "same": 0, "different": 0}
    for _ in range(COUNT):
        data = corrupt(original, rng)
        path.write_bytes(data)
        expected = oracle_verdict(data)
        try:
            loaded = reference.load(path)
        except ValueError as error:
            outcomes["refused"] += 1
            assert str(path) in str(error), error
            assert f"line {expected}:" in str(error), (data, error)
        else:
            assert loaded == expected, "the reference and the spec's reader disagree"
            outcomes["same" if loaded == tokenizer else "different"] += 1
        if data != original:
            with pytest.raises(ValueError, match=digest):
                reference.load(path, expected_sha256=digest)
    assert outcomes["refused"] > COUNT // 2, outcomes  # the fuzz really reaches the checks


def test_the_reference_loads_a_number_of_exactly_4000_digits_and_refuses_4001(tmp_path):
    """The contract refuses more than 4000 digits and lets a shorter one be refused too; the
    reference draws the line exactly at 4000 (the spec accepts either, so it is pinned here)."""
    for digits, loads in ((4000, True), (4001, False)):
        path = tmp_path / f"d{digits}.bpe"
        path.write_bytes(f"bpe-kata v1\npattern null\nspecials 0\nmerges 1\n97 98 {'1' * digits}\n".encode())
        if loads:
            assert persist.load(path)[0] == {(97, 98): int("1" * digits)}
        else:
            with pytest.raises(ValueError, match="line 5"):
                persist.load(path)


@pytest.mark.parametrize("data, line, words", [
    (b"bpe-kata v1\npattern null\nspecials 0\nmerges 1\n97 98 \xff\n", 5, "not UTF-8"),
    (b"\xff\xfe\x00b\x00p\x00", 1, "not UTF-8"),
    (b"bpe-kata v1\npattern \"\xe4\xbd\"\nspecials 0\nmerges 0\n", 2, "not UTF-8"),
    (b"bpe-kata v1\npattern null\nspecials 0\nmerges 0\n\xff\n", 5, "not UTF-8"),  # after a whole tokenizer
    (b"bpe-kata v1\npattern null\nspecials 0\nmerges 0\nx\xff\n", 5, "not UTF-8"),
    (b"\nbpe-kata v1\xff\n", 1, "not a bpe-kata file"),  # the first problem comes first
    (b"bpe-kata v2\npattern null\n\xff\n", 1, "unsupported version"),
    (b"bpe-kata v1\npattern nul\nspecials 0\nmerges 1\n97 98 \xff\n", 2, "not a JSON value"),
])
def test_a_file_that_is_not_utf8_is_refused_at_its_first_problem_in_the_references_words(tmp_path, data, line,
                                                                                          words):
    """The spec pins the line (spec/test_persist.py, through the implementation's process); here
    the reference's own words, in this process, where mutation testing sees the call."""
    path = tmp_path / "t.bpe"
    path.write_bytes(data)
    with pytest.raises(ValueError) as refused:
        reference.load(path)
    assert str(refused.value).startswith(f"{path}, line {line}: ") and words in str(refused.value)
