"""``bpe-kata words-budget``: the word-level merge-budget table, printed for an implementation."""

from __future__ import annotations

from bpe_kata import cli


def test_words_budget_prints_the_table_of_the_reference(capsys):
    assert cli.main(["words-budget"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[3:]]
    assert [row[:4] for row in rows] == [
        ["0", "12", "85", "3.70"], ["4", "16", "52", "2.26"], ["8", "20", "39", "1.70"],
        ["16", "28", "26", "1.13"], ["32", "31", "23", "1.00"], ["64", "31", "23", "1.00"]]
    assert [" ".join(row[4:]) for row in rows][-2:] == ["(no pair left after 19 merges)"] * 2


def test_words_budget_of_an_implementation_without_words_says_why(capsys):
    assert cli.main(["words-budget", "solutions.starter"]) == 1
    assert "needs train_words and segment_word" in capsys.readouterr().err


def test_words_budget_takes_one_implementation_at_most(capsys):
    assert cli.main(["words-budget", "reference", "extra"]) == 2
    assert "usage" in capsys.readouterr().err
