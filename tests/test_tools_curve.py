"""bpe-kata curve: bytes per token against vocabulary size, beside the document's Alice figures."""

from __future__ import annotations

import json

import pytest

from bpe_kata.cli import main
from bpe_kata.tools.curve import measure, parse_sizes, reference_points

TEXT = "the cat sat on the mat; the dog sat on the log. " * 8


def corpus(tmp_path) -> str:
    path = tmp_path / "corpus.txt"
    path.write_text(TEXT, encoding="utf-8")
    return str(path)


def test_sizes_double_from_low_to_high_or_are_listed():
    assert parse_sizes("256..4096") == [256, 512, 1024, 2048, 4096]
    assert parse_sizes("300..1000") == [300, 600, 1000]
    assert parse_sizes("512,300") == [300, 512]
    with pytest.raises(ValueError):
        parse_sizes("100..512")


def test_each_point_counts_the_tokens_of_that_many_merges():
    import reference

    merges = reference.train(TEXT, 300)
    points = measure(TEXT, merges, [256, 270, 300])
    size = len(TEXT.encode())
    assert points[0].tokens == size and points[0].bytes_per_token == 1.0
    for point in points[1:]:
        prefix = dict(list(merges.items())[:point.vocab_size - 256])
        assert point.tokens == len(reference.encode(TEXT, prefix))
    assert [p.bytes_per_token for p in points] == sorted(p.bytes_per_token for p in points)


def test_the_reference_series_is_the_documents_alice_curve():
    points = reference_points()
    assert [p.vocab_size for p in points] == [512, 1024, 2048, 4096]
    assert [round(p.bytes_per_token, 2) for p in points] == [2.22, 3.0, 3.85, 4.92]  # corpus.d1-curve's figures


def test_the_terminal_chart_and_json(tmp_path, capsys):
    assert main(["curve", corpus(tmp_path), "--vocab", "256..512"]) == 0
    out = capsys.readouterr().out
    assert "(Alice as published: 2.22)" in out and "█" in out
    assert main(["curve", corpus(tmp_path), "--vocab", "256,300", "--json"]) == 0
    points = json.loads(capsys.readouterr().out)
    assert [p["vocab_size"] for p in points] == [256, 300] and points[1]["bytes_per_token"] > 1


@pytest.mark.heavy
def test_the_plot_is_written_as_png_and_svg(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    for name, magic in (("c.png", b"\x89PNG"), ("c.svg", b"<?xml")):
        assert main(["curve", corpus(tmp_path), "--vocab", "256..512", "--out", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_bytes().startswith(magic)


@pytest.mark.heavy
def test_the_users_points_stay_visible_on_the_published_ones():
    """A right implementation's points fall exactly on the published ones: those are drawn behind and hollow."""
    pytest.importorskip("matplotlib")
    from matplotlib import pyplot

    from bpe_kata.tools.curve import draw

    published = reference_points()
    figure = draw(published, published, "mine")
    try:
        axes = figure.axes[0]
        mine = next(line for line in axes.lines if line.get_label() == "mine")
        theirs = next(line for line in axes.lines if line.get_label() != "mine")
        assert mine.get_zorder() > theirs.get_zorder()
        assert theirs.get_markerfacecolor() == "none" and theirs.get_markersize() > mine.get_markersize()
        assert [text.get_text() for text in axes.get_legend().get_texts()][0] == "mine"
    finally:
        pyplot.close(figure)


def test_without_the_extra_the_message_names_it(monkeypatch):
    import sys

    from bpe_kata.tools.extras import MissingExtra, require

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now fails as if not installed
    with pytest.raises(MissingExtra, match=r"\.\[tools\]"):
        require("matplotlib", "curve")


def test_the_starter_says_train_is_not_started(tmp_path, capsys):
    assert main(["curve", corpus(tmp_path), "--impl", "solutions.starter"]) == 1
    assert "train is not started" in capsys.readouterr().err


def test_a_trainer_that_stops_at_count_one_draws_a_flat_curve(tmp_path, capsys):
    """Every pair of 'abcdefgh' occurs once: the reference merges it to one token, the mistake never starts."""
    path = tmp_path / "once.txt"
    path.write_text("abcdefgh", encoding="utf-8")
    curves = {}
    for impl in ("reference", "tests/implementations/wrong_stop_at_count_one.py"):
        assert main(["curve", str(path), "--vocab", "256,263", "--json", "--impl", impl]) == 0
        curves[impl] = [p["bytes_per_token"] for p in json.loads(capsys.readouterr().out)]
    assert curves["reference"] == [1.0, 8.0]
    assert curves["tests/implementations/wrong_stop_at_count_one.py"] == [1.0, 1.0]
