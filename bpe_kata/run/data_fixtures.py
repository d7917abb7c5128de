"""The fixtures that hand a spec test its data: corpora, the tables trained from them once per session (the
implementation's own and the spec's), corpora encoded with them, and published tables.

Each is the runner's answer to a need the spec names (spec/cases/runner.py and the test modules ask for them by
name). A corpus or table that cannot be had makes the test 'not run' (bpe_kata/verdict/missing_data.py).
"""

from __future__ import annotations

import contextlib

import pytest

from bpe_kata.child import client as isolated_client
from bpe_kata.data import corpora, corpus_tables, pretrained, tiktoken_tables
from bpe_kata.run import mutmut_calls, progress_line
from bpe_kata.verdict import equivalent_forms, malformed, recording, substitution
from spec import fast_chunk_train, oracle, replay, shapes
from spec import pieces as spec_pieces


@pytest.fixture(scope="session")
def corpus_finder(request: pytest.FixtureRequest) -> corpora.CorpusFinder:
    return corpora.CorpusFinder(data_dir=request.config.getoption("--data-dir"))


@pytest.fixture(scope="session")
def corpus(request: pytest.FixtureRequest, corpus_finder):
    """``corpus(name)`` gives a corpus's text; a missing one makes the test 'not run' with the fix
    (bpe_kata/verdict/missing_data.py), never failed."""
    return corpus_finder.text


#: The largest table of an implementation's own training that the spec reads per corpus:
#: the first 20 merges of tiny Shakespeare, the first 12 of the Alice text. Each corpus is
#: trained once, at that size, and smaller tables are its prefixes (training is greedy:
#: claim train.prefix, tested on its own). Larger corpus tables are the spec's own
#: (bpe_kata/data/corpus_tables.py), through which the implementation's encode is checked.
LEARNER_TABLE_SIZES = {"tinyshakespeare": 276, "alice": 268}


@pytest.fixture(scope="session")
def progress(request: pytest.FixtureRequest):
    """``with progress("training alice ...") as step:`` says on the terminal what runs long
    (bpe_kata/run/progress_line.py)."""
    write = progress_line.stderr_writer(request.config.pluginmanager.getplugin("capturemanager"))
    after = progress_line.delay_from_environment()
    return lambda what: progress_line.Progress(write, what, after=after)


@pytest.fixture(scope="session")
def trained(implementation, progress):
    """``trained(key, text, vocab_size)``: the implementation's merges, trained once per session."""
    cache: dict[tuple[str, int], object] = {}
    calls = mutmut_calls.SharedCalls()  # under mutmut, every test reusing a table depends on train

    def train(key: str, text: str, vocab_size: int):
        # A corpus's table is the implementation's own, usable whatever the split (a round trip holds for any
        # table); the values a test states for it are restated under the split (spec/corpus_values.py). A worked case's
        # text holds as it is when the split and tie rule in force learn what it states.
        if key not in corpora.CORPORA:
            oracle.split.holds_as_stated(f"the table train learns from {key}", lambda: oracle.train(text, vocab_size))
        size = max(vocab_size, LEARNER_TABLE_SIZES.get(key, vocab_size))
        entry = (key, size, *substitution.active(), *equivalent_forms.active())  # a swapped train's is another
        if entry not in cache:
            what = f"training {key} to vocab_size {size} with the implementation's train"
            with calls.computing(entry):
                try:
                    with progress(what if key in corpora.CORPORA else "training a case text"):
                        learned = equivalent_forms.call(implementation, "train", text, size)
                        malformed.note_trained(learned)  # a table it cannot read fails its claim, not this line
                        cache[entry] = list(learned.items())
                except Exception as error:  # remember failures: a slow wrong train runs once
                    cache[entry] = error
        calls.reused(entry)
        recording.note("train")  # the test uses the implementation's own table
        result = cache[entry]
        if isinstance(result, Exception):
            raise result
        table = dict(result[: vocab_size - 256])
        # trained without special tokens (bpe_kata/verdict/equivalent_forms.py)
        recording.answered_form("train", recording.shows_it_works("train", (text, vocab_size), table))
        # a table that stopped short is one claim's failure in any test that reads it (spec/early_stop.py)
        recording.check_trained_call((text, vocab_size), {}, table, implementation.train)
        return table

    return train


@pytest.fixture(scope="session")
def spec_table(corpus, progress):
    """``spec_table(corpus_name, vocab_size)``: the spec's own table (bpe_kata/data/corpus_tables.py), trained once
    (with a split in force, the oracle's under it: the corpus values are restated with it, spec/corpus_values.py)."""
    tables: dict[tuple, list] = {}

    def table(name: str, vocab_size: int) -> dict:
        size = max(vocab_size, corpus_tables.SPEC_TABLE_SIZES.get(name, vocab_size))
        key = (name, oracle.split.resolve(None), oracle.split.tie_rule(None))
        if key not in tables or len(tables[key]) < size - 256:
            how = "" if key[1] is None else " inside the chunks of the implementation's split"
            with progress(f"training {name} to vocab_size {size} with the spec's own trainer{how} (cached on disk)"):
                tables[key] = corpus_tables.table(name, corpus(name), size)
        return dict(tables[key][: vocab_size - 256])

    return table


@pytest.fixture(scope="session")
def corpus_table(trained, spec_table, corpus):
    """``corpus_table(corpus_name, vocab_size)``: the table the corpus cases read at that size.

    Up to ``LEARNER_TABLE_SIZES`` it is the implementation's own training; beyond, the spec's own.
    """
    def table(name: str, vocab_size: int) -> dict:
        if vocab_size <= LEARNER_TABLE_SIZES.get(name, 0):
            return dict(shapes.merges_of(trained(name, corpus(name), vocab_size)))
        return spec_table(name, vocab_size)

    return table


@pytest.fixture(scope="session")
def encoded(implementation, corpus_table, corpus, progress):
    """``encoded(corpus_name, vocab_size, text=None)``: ids of ``text`` under a corpus's table.

    Up to ``LEARNER_TABLE_SIZES`` the table is the implementation's own training; with no
    ``text`` the result is then the corpus itself, i.e. the sequence training ended with,
    read off by replaying the merges (spec/replay.py): the claims measured there are about
    training, and encode's own claims are tested on their own.

    Beyond those sizes the table is the spec's own and the ids are the implementation's
    encode. With no ``text`` that is the whole corpus, encoded in token-aligned pieces
    (spec/pieces.py), each checked against the spec's replay of the table: an
    AssertionError names the first piece that differs.

    With a split in force (spec/oracle/split.py), replays are made inside its chunks, the spec's table is
    the oracle's under the split, and the pieces are the corpus's own chunks (the implementation splits
    each piece again).
    """
    cache: dict[tuple[str, int, str | None], list[int]] = {}
    replayers: dict[tuple, replay.Replayer] = {}

    def replayed(name: str, whose: str, merges: dict) -> list[int]:
        key = (name, whose, oracle.split.resolve(None))  # inside the chunks of the split in force, if any
        if key not in replayers:
            replayers[key] = replay.Replayer(corpus(name))
        replayer = replayers[key]
        return replayer.after(shapes.merges_of(merges))

    calls = mutmut_calls.SharedCalls()

    def encode(name: str, vocab_size: int, text: str | None = None) -> list[int]:
        key = (name, vocab_size, text, *substitution.active(), *equivalent_forms.active())
        if key not in cache:
            with calls.computing(key):
                merges = corpus_table(name, vocab_size)
                if text is not None:
                    cache[key] = shapes.ids_of(equivalent_forms.call(implementation, "encode", text, merges))
                elif vocab_size <= LEARNER_TABLE_SIZES.get(name, 0):
                    cache[key] = replayed(name, "implementation", merges)
                else:
                    cache[key] = encode_in_pieces(name, vocab_size, merges)
        calls.reused(key)
        recording.note("encode")  # the test uses the implementation's own encoding
        return cache[key]

    def encode_in_pieces(name: str, vocab_size: int, merges: dict) -> list[int]:
        # the spec's own table and replay, the same every run: kept on disk (bpe_kata/data/corpus_tables.py)
        expected = corpus_tables.replayed(name, corpus(name), shapes.merges_of(merges),
                                          lambda: replayed(name, "spec", merges))
        pattern = oracle.split.resolve(None)
        if pattern is None:
            pieces = spec_pieces.token_aligned_pieces(corpus(name), expected, oracle.build_vocab(merges))
        else:  # the implementation splits every piece again: cut at the corpus's own chunks
            chunks, _, order = fast_chunk_train.distinct_chunks(corpus(name), pattern)
            pieces = spec_pieces.chunk_aligned_pieces(corpus(name), expected, oracle.build_vocab(merges),
                                                      (chunks[index] for index in order),
                                                      lambda text: oracle.encode(text, merges))
        distinct = len({text for text, _ in pieces})
        with progress(f"encoding {name} at vocab_size {vocab_size} with the implementation's encode, "
                      f"in {distinct:,} distinct pieces") as step:
            def tick(count: int, total: int) -> None:
                if count % 500 == 0:
                    step.update(f"{count:,} of {total:,} pieces")

            each = None
            if isinstance(implementation, isolated_client.IsolatedImplementation):  # one child, calls pipelined
                def each(texts: list[str]):
                    with contextlib.closing(implementation.encode_each(texts, merges)) as answers:
                        for ids in answers:
                            yield shapes.ids_of(ids)

            def encoded(text: str) -> list[int]:
                return shapes.ids_of(equivalent_forms.call(implementation, "encode", text, merges))

            return spec_pieces.encode_checked(encoded, pieces,
                                              f"a piece of {name}, at vocab_size {vocab_size}", merges, tick, each)

    return encode


@pytest.fixture(scope="session")
def published(request: pytest.FixtureRequest):
    """``published(name)``: the (contract table, tiktoken Encoding) pair; a missing table makes the test
    'not run' with the fix (bpe_kata/verdict/missing_data.py), never failed."""
    def get(name: str):
        return pretrained.load(name), tiktoken_tables.remembered(name)

    return get
