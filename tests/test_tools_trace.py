"""bpe-kata trace: each merge of the implementation's table, with its pair's count just before it."""

from __future__ import annotations

import json

import pytest

from bpe_kata.cli import main
from bpe_kata.data.corpora import CorpusFinder, CorpusUnavailable
from spec import oracle

WALKTHROUGH = "aaabdaaabac"


def corpus(tmp_path, text: str = WALKTHROUGH) -> str:
    path = tmp_path / "corpus.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def traced(capsys, *args: str) -> tuple[int, list[str], str]:
    code = main(["trace", *args])
    out = capsys.readouterr()
    return code, out.out.splitlines(), out.err


def test_each_merge_carries_the_count_the_textbook_sees(tmp_path, capsys):
    code, lines, _ = traced(capsys, corpus(tmp_path), "--vocab", "259", "--json")
    assert code == 0
    steps = [json.loads(line) for line in lines]
    ids, expected = list(WALKTHROUGH.encode()), []
    for step in steps:
        stats = oracle.get_stats(ids)
        pair = tuple(step["pair"])
        expected.append((pair, stats[pair], max(stats.values())))
        ids = oracle.merge(ids, pair, step["new_id"])
    assert [(tuple(s["pair"]), s["count"]) for s in steps] == [(p, c) for p, c, _ in expected]
    assert all(count == top for _, count, top in expected)  # the reference always merged a most frequent pair
    assert steps[0]["count"] == 4 and steps[0]["token"] == "aa"  # overlapping occurrences counted
    assert steps[-1]["tokens"] == len(ids) and steps[-1]["bytes_per_token"] == round(11 / len(ids), 4)


def test_every_k_prints_every_kth_merge_and_the_last(tmp_path, capsys):
    code, lines, _ = traced(capsys, corpus(tmp_path), "--vocab", "261", "--every", "2")
    assert code == 0
    numbers = [int(line.split()[0]) for line in lines[1:]]
    assert numbers == [2, 4, 5]
    assert "'a' + 'a' -> 'aa'" not in "\n".join(lines)  # merge 1 left out
    assert "count" in lines[1] and "bytes/token" in lines[1]


def test_pairs_are_escaped(tmp_path, capsys):
    code, lines, _ = traced(capsys, corpus(tmp_path, "a\na\na\n"), "--vocab", "257")
    assert code == 0 and "'a' + '\\n' -> 'a\\n' = 256   count 3" in lines[1]


def test_a_wrong_trainer_shows_its_mistake(tmp_path, capsys):
    """Counting without overlaps, 'aaaa' has (a, a) twice; the trace counts it as get_stats must: three times."""
    code, lines, _ = traced(capsys, corpus(tmp_path, "aaaab"), "--vocab", "257", "--json",
                            "--impl", "tests/implementations/wrong_pairs_no_overlap.py")
    assert code == 0 and json.loads(lines[0])["count"] == 3


def test_the_starter_says_train_is_not_started(tmp_path, capsys):
    code, _, err = traced(capsys, corpus(tmp_path), "--vocab", "259", "--impl", "solutions.starter")
    assert code == 1 and "train is not started" in err


@pytest.mark.corpus("tinyshakespeare")
@pytest.mark.heavy
def test_tiny_shakespeare_starts_with_the_documents_list(capsys):
    try:
        CorpusFinder().path("tinyshakespeare")
    except CorpusUnavailable as error:
        pytest.skip(f"not run: corpus unavailable: {error}")
    code, lines, _ = traced(capsys, "tinyshakespeare", "--vocab", "258")
    assert code == 0
    # the document's first merge and its count (claims train.shakespeare-20, train.shakespeare-top-count)
    assert lines[1].split()[:12] == ["1", "'e'", "+", "'", "'", "->", "'e", "'", "=", "256", "count", "27,643"]


FORGETS_ITS_FIRST_MERGE = '''
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge
from spec.oracle.core import train as _train


def train(text, vocab_size):
    table = _train(text, vocab_size)
    del table[next(iter(table))]  # the merges left are made of an id no merge makes
    return table
'''


def test_trace_survives_a_broken_table_and_says_so(tmp_path, capsys):
    """Issue 37, kind 8 (d): a table whose merge uses an id nothing made is traced, and named broken."""
    impl = tmp_path / "forgets.py"
    impl.write_text(FORGETS_ITS_FIRST_MERGE, encoding="utf-8")
    code, lines, err = traced(capsys, corpus(tmp_path), "--vocab", "259", "--plain", "--impl", str(impl))
    assert code == 1, err
    assert sum(" -> " in line for line in lines) == 2, lines  # both merges the table holds are traced
    assert "broken" in err and "256" in err, err
