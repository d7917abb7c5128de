"""bpe-kata show: tokens drawn from what the implementation's encode returns, on small tables."""

from __future__ import annotations

import pytest

from bpe_kata.cli import main

WALKTHROUGH = "aaabdaaabac"


def table_file(tmp_path, text: str = WALKTHROUGH) -> str:
    path = tmp_path / "corpus.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def shown(capsys, *args: str) -> tuple[int, list[str], str]:
    code = main(["show", *args])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def token_rows(lines: list[str]) -> list[tuple[list[str], list[int]]]:
    """(labels, ids) of each drawn line pair: a '|'-framed line of labels, then the ids beneath."""
    rows = []
    for i, line in enumerate(lines[:-1]):
        if line.startswith("|") and line.endswith("|"):
            rows.append(([label.rstrip() for label in line[1:-1].split("|")], [int(x) for x in lines[i + 1].split()]))
    return rows


def test_plain_output_cuts_the_text_into_the_implementations_tokens(tmp_path, capsys):
    import reference

    corpus = table_file(tmp_path)
    code, lines, _ = shown(capsys, "aaabac", "--table", f"{corpus}:259")
    assert code == 0
    [(labels, ids)] = token_rows(lines)
    assert ids == reference.encode("aaabac", reference.train(WALKTHROUGH, 259))
    assert "".join(labels) == "aaabac"  # every byte drawn once, in order
    assert lines[-1] == f"{len(ids)} tokens for 6 bytes, {6 / len(ids):.2f} bytes per token"


def test_bytes_that_are_part_of_a_character_are_shown_as_hex(tmp_path, capsys):
    code, lines, _ = shown(capsys, "é ", "--train", f"{table_file(tmp_path, 'xyz')}:256")
    assert code == 0
    [(labels, ids)] = token_rows(lines)
    assert labels == ["\\xc3", "\\xa9", "␣"] and ids == [0xC3, 0xA9, 32]


def test_compare_marks_the_tokens_that_differ(tmp_path, capsys):
    """Encoding by frequency, not rank, cuts 'aaab' differently with the walkthrough's table."""
    corpus = table_file(tmp_path, "abcd" * 3 + "bc" * 6 + "cd" * 5)
    wrong = "tests/implementations/wrong_encode_by_frequency.py"
    code, lines, _ = shown(capsys, "abcdcd", "--table", f"{corpus}:259", "--compare", wrong)
    assert code == 0
    first, second = token_rows(lines)
    assert first != second
    assert any(line.strip() and set(line.strip()) <= {"^", " "} for line in lines)  # a marker row
    assert lines[-1].startswith("^ marks tokens")


def test_compare_with_a_right_implementation_finds_no_difference(tmp_path, capsys):
    code, lines, _ = shown(capsys, WALKTHROUGH, "--table", f"{table_file(tmp_path)}:262",
                           "--compare", "tests.implementations.right_counter")
    assert code == 0
    assert lines[-1] == "the two tokenizations are the same"
    assert not any(line.strip() and set(line.strip()) <= {"^", " "} for line in lines)


def test_two_tables_are_drawn_one_above_the_other(tmp_path, capsys):
    corpus = table_file(tmp_path)
    code, lines, _ = shown(capsys, "aaab", "--table", f"{corpus}:256", "--table", f"{corpus}:259")
    assert code == 0
    (bytes_only, raw_ids), (merged, _) = token_rows(lines)
    assert raw_ids == [97, 97, 97, 98] and len(merged) < len(bytes_only)


def test_a_saved_table_is_read_with_the_implementations_load(tmp_path, capsys):
    import reference

    path = tmp_path / "t.bpe"
    reference.save(str(path), reference.train(WALKTHROUGH, 259))
    code, lines, _ = shown(capsys, "aaabac", "--table", str(path))
    assert code == 0 and token_rows(lines)[0][1] == reference.encode("aaabac", reference.load(str(path))[0])


def test_the_starter_says_what_is_not_started(tmp_path, capsys):
    code, _, err = shown(capsys, "hi", "--impl", "solutions.starter", "--table", f"{table_file(tmp_path)}:258")
    assert code == 1 and "train is not started" in err


def test_a_missing_table_is_a_clear_error(capsys):
    code, _, err = shown(capsys, "hi", "--table", "no-such-file.bpe")
    assert code == 2 and "no-such-file.bpe" in err


def test_a_terminal_gets_colours(tmp_path):
    rich = pytest.importorskip("rich.console")
    import reference
    from bpe_kata.tools.show import Row, render_rich, token_bytes, tokens_of

    merges = reference.train(WALKTHROUGH, 259)
    ids = reference.encode("aaabac", merges)
    console = rich.Console(record=True, width=60, force_terminal=True, color_system="truecolor")
    render_rich([Row("t", tokens_of(ids, token_bytes(merges)), [False] * len(ids))], console)
    assert "\x1b[" in console.export_text(styles=True, clear=False)  # coloured
    assert " ".join(str(i) for i in ids) in " ".join(console.export_text().split())


def test_a_cmd_implementation_is_drawn_through_the_protocol(tmp_path, capsys):
    """``--impl cmd:...`` runs the implementation in a child, as the spec's isolated runs do."""
    import shlex
    import sys

    import reference

    corpus = table_file(tmp_path)
    command = f"cmd:{shlex.quote(sys.executable)} -m bpe_kata.child.server reference"
    code, lines, err = shown(capsys, "aaabac", "--impl", command, "--table", f"{corpus}:259")
    assert code == 0, err
    [(labels, ids)] = token_rows(lines)
    assert ids == reference.encode("aaabac", reference.train(WALKTHROUGH, 259))


def test_a_cmd_that_is_no_implementation_is_a_clear_error(capsys):
    code, _, err = shown(capsys, "abc", "--impl", "cmd:/nonexistent/bpe-binary")
    assert code == 2 and "cmd:/nonexistent/bpe-binary" in err


EMPTIES_THE_TABLE = '''
from spec.oracle.core import build_vocab, decode, get_stats, merge, train
from spec.oracle.core import encode as _encode


def encode(text, merges):
    ids = _encode(text, merges)
    for pair in list(merges)[:2]:  # the first merges go: the ones left are made of ids no merge makes now
        del merges[pair]
    return ids
'''


def test_show_survives_an_encode_that_empties_the_table_and_says_so(tmp_path, capsys):
    """Issue 37, kind 8 (d): the picture is drawn from the table as it was given, and the change is named."""
    import reference

    impl = tmp_path / "empties.py"
    impl.write_text(EMPTIES_THE_TABLE, encoding="utf-8")
    corpus = table_file(tmp_path)
    code, lines, err = shown(capsys, "aaabac", "--table", f"{corpus}:259", "--impl", str(impl))
    assert code == 0, err
    [(labels, ids)] = token_rows(lines)
    assert ids == reference.encode("aaabac", reference.train(WALKTHROUGH, 259))
    assert "".join(labels) == "aaabac"
    assert any("changed the table" in line and "encode.frozen" in line for line in lines), lines
