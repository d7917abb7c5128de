"""The likely-mistake lines: suspected from the broken claims, printed only when a probe on the
implementation's behaviour confirms them (spec/teaching.toml, spec/mistakes.py)."""

from __future__ import annotations

import shutil
import time
from types import SimpleNamespace

import pytest

from bpe_kata.child.client import IsolatedImplementation, python_path_env, server_command
from bpe_kata.impl.loader import load_implementation
from bpe_kata.verdict.teaching import diagnose, load_mistakes, render
from spec import mistakes, oracle
from spec.ledger import load_claims
from tests.support import REPO_ROOT, files_of_claims, files_of_levels, run_spec_inline

#: known-wrong file -> the mistake the report must name first
EXPECTED = {
    "wrong_pairs_no_overlap": "overlapping pairs not counted",
    "wrong_pairs_sorted": "pairs not in first-seen order",
    "wrong_merge_right_to_left": "right-to-left merge",
    "wrong_encode_merges_from_right": "right-to-left merge",
    "wrong_merge_end_guard": "last pair not merged",
    "wrong_merge_mutates": "merge changes its input",
    "wrong_ids_from_257": "ids not from 256",
    "wrong_merges_sorted": "ids not from 256",
    "wrong_raise_when_exhausted": "no guard when no pair is left",
    "wrong_train_max_on_empty": "no guard when no pair is left",
    "wrong_stop_at_count_one": "early stop at count one",
    "wrong_stats_once": "pairs counted once",
    "wrong_encode_by_frequency": "encode by frequency",
    "wrong_encode_longest_match": "encode by longest match",
    "wrong_encode_mutates_merges": "encode changes the table",
    "wrong_decode_per_token": "decode per token",
    "wrong_decode_strict": "strict decoding",
    "wrong_tie_last_counted": "ties to another pair",
    # issue 37, kinds 6 and 9: natural mistakes the probes did not recognise before
    "wrong_train_one_merge_fewer": "one merge fewer than asked",
    "wrong_train_merges_at_count_zero": "merge learned at count 0",
    "wrong_encode_first_fit": "encode by first fit at each position",
}
#: known-wrong files whose mistake no row describes (a lowest-pair tie is a documented rule, only not the
#: default; a deep TypeError is no textbook mistake): no line at all, rather than a wrong one
NO_LINE = ("wrong_tie_lowest_pair", "wrong_train_deep_type_error", "wrong_train_heap_sift_down_only",
           "wrong_encode_nul_digits_as_id", "wrong_text_mode_newlines", "wrong_surrogates_strict",
           "wrong_build_vocab_hash_order")
EVERY_CLAIM = tuple(load_claims())


def message(name: str) -> str:
    return next(m.message for m in load_mistakes() if m.name == name)


def named(diagnoses) -> list[str]:
    return [d.mistake.name for d in diagnoses]


def test_every_rule_names_ledger_claims_a_probe_and_other_rules_and_says_one_sentence():
    ledger, names = load_claims(), {m.name for m in load_mistakes()}
    for mistake in load_mistakes():
        assert mistake.when and set(mistake.when) <= set(ledger), mistake.name
        assert mistake.probe in mistakes.PROBES, mistake.name
        assert set(mistake.unless) <= names - {mistake.name}, mistake.name
        assert mistake.message.endswith(".") and mistake.message.count(". ") == 0, mistake.name
    assert len(names) == len(load_mistakes())


@pytest.mark.parametrize("stem", [*EXPECTED, *NO_LINE])
def test_each_probe_confirms_the_known_mistake_and_nothing_else(stem):
    """Every claim broken, so every row is suspected: only the probes decide."""
    found = named(diagnose(EVERY_CLAIM, load_implementation(f"tests/implementations/{stem}.py"), limit=99))
    assert found == ([EXPECTED[stem]] if stem in EXPECTED else []), found


@pytest.mark.parametrize("impl", ["spec.oracle", "reference"])
def test_right_implementations_confirm_no_mistake(impl):
    assert diagnose(EVERY_CLAIM, load_implementation(impl), limit=99) == []


@pytest.mark.parametrize("stem", ["right_counter", "right_rank_loop", "right_default_lowest_pair",
                                  "right_default_bytes_greatest"])
def test_right_files_confirm_no_mistake(stem):
    assert diagnose(EVERY_CLAIM, load_implementation(f"tests/implementations/{stem}.py"), limit=99) == []


def test_the_js_solution_confirms_no_mistake_through_the_protocol():
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    impl = IsolatedImplementation(["node", str(REPO_ROOT / "solutions" / "js" / "bpe.mjs")])
    try:
        assert diagnose(EVERY_CLAIM, impl, limit=99) == []
    finally:
        impl.close()


def test_a_broken_claim_alone_prints_nothing():
    """The set of broken claims only says which probes to run; the oracle confirms none of them."""
    assert diagnose({"merge.left-to-right", "train.no-early-stop", "encode.lowest-rank"}, oracle) == []
    assert diagnose(set(), load_implementation("tests/implementations/wrong_decode_strict.py")) == []


def _oracle_with(**functions) -> SimpleNamespace:
    base = {name: getattr(oracle, name) for name in ("get_stats", "merge", "train", "build_vocab", "decode", "encode")}
    return SimpleNamespace(**{**base, **functions})


def _merge_raising_on_absent(ids, pair, idx):
    if pair not in zip(ids, ids[1:]):
        raise KeyError(pair)
    return oracle.merge(ids, pair, idx)


def _encode_fewest_tokens(text, merges):
    """An encode that is not BPE: the tokenization with the fewest tokens of the vocabulary (a dynamic
    program, as one public minbpe port does)."""
    vocab = {token: idx for idx, token in oracle.build_vocab(merges).items()}
    data = text.encode("utf-8")
    best: list[list[int] | None] = [[]] + [None] * len(data)
    for end in range(1, len(data) + 1):
        for start in range(end):
            piece = data[start:end]
            if best[start] is not None and piece in vocab and (
                    best[end] is None or len(best[start]) + 1 < len(best[end])):
                best[end] = best[start] + [vocab[piece]]
    return best[len(data)]


def _merge_duplicating(ids, pair, idx):
    out = oracle.merge(ids, pair, idx)
    return [x for i in out for x in ((i, i) if i == idx else (i,))]


def _train_with_its_own_special(text, vocab_size, special_tokens=()):
    return oracle.train(text, vocab_size - (0 if special_tokens else 1), special_tokens=list(special_tokens))


def _train_one_short_always(text, vocab_size, special_tokens=()):
    return oracle.train(text, vocab_size - 1, special_tokens=list(special_tokens))


@pytest.mark.parametrize("impl, broken, shown", [
    # outside code that the claim table alone misnamed
    (_oracle_with(decode=lambda ids, vocab: b"".join(vocab[i] for i in ids).decode("utf-8", "ignore")),
     {"decode.replace-128"}, ["decoding drops bytes"]),
    (_oracle_with(merge=_merge_raising_on_absent), {"merge.end-guard"}, []),
    (_oracle_with(get_stats=lambda ids: dict(sorted(oracle.get_stats(ids).items(), key=lambda kv: -kv[1]))),
     {"pairs.adjacent-overlapping", "pairs.first-seen-order"}, ["pairs not in first-seen order"]),
    (_oracle_with(encode=mistakes.encode_first_fit_by_position), {"encode.lowest-rank", "merge.left-to-right"},
     ["encode by first fit at each position"]),
    (_oracle_with(merge=_merge_duplicating), {"encode.lowest-rank", "merge.left-to-right"}, []),
    # takes aaa as [97, 256] and matches longest match on short probes, but neither merges from the right
    # nor takes the longest token: no line rather than a wrong one
    (_oracle_with(encode=_encode_fewest_tokens), {"encode.lowest-rank", "encode.priority-not-longest"}, []),
    (_oracle_with(train=lambda text, vocab_size: oracle.train(text, vocab_size, tie_rule="bytes-greatest")),
     {"train.tie-first-counted"}, []),
    (_oracle_with(train=lambda text, vocab_size: dict(list(oracle.train(text, 300).items())[:vocab_size - 256])
                  if len(text) > 2 else {(97, 98): 256, (256, 256): 257}), {"train.exhausted"},
     ["merges after no pair is left"]),
    # held out (seventh round): <|endoftext|> written into a CS336 trainer takes a slot when none is asked; given
    # one, every merge asked is made: not a range one short
    (_oracle_with(train=_train_with_its_own_special), {"train.no-early-stop"}, []),
    (_oracle_with(train=_train_one_short_always), {"train.no-early-stop"}, ["one merge fewer than asked"]),
])
def test_outside_shapes_get_the_line_their_behaviour_shows(impl, broken, shown):
    assert named(diagnose(broken, impl)) == shown


def test_a_confirmed_line_is_never_hidden_by_an_unconfirmed_one_or_the_cap():
    """Four suspects, of which the probes confirm two: both are shown, exact replays first."""
    def decode(ids, vocab):
        raise RuntimeError("no")

    impl = _oracle_with(merge=mistakes.merge_from_the_right, decode=decode)
    broken = {"pairs.first-seen-order", "train.tie-first-counted", "merge.left-to-right", "decode.replace-128",
              "train.no-early-stop"}
    assert named(diagnose(broken, impl)) == ["right-to-left merge", "strict decoding"]


def test_a_probe_that_hangs_or_crashes_costs_its_line_and_never_the_report():
    def hang(*args):
        time.sleep(30)

    def crash(*args):
        raise SystemError("boom")

    started = time.monotonic()
    assert diagnose({"merge.pure", "decode.replace-128"}, _oracle_with(merge=hang), seconds=0.5) == []
    assert time.monotonic() - started < 5
    assert diagnose({"merge.end-guard"}, _oracle_with(merge=crash)) == []
    assert diagnose({"merge.end-guard"}, SimpleNamespace()) == []


@pytest.mark.parametrize("stem", ["wrong_merge_mutates", "wrong_decode_strict"])
def test_probes_run_through_the_protocol_client_of_an_isolated_run(stem):
    impl = IsolatedImplementation(server_command(f"tests/implementations/{stem}.py"), env=python_path_env())
    try:
        assert named(diagnose(EVERY_CLAIM, impl, limit=99)) == [EXPECTED[stem]]
    finally:
        impl.close()


def test_render_shows_each_line_with_what_was_seen():
    lines = render(
        diagnose({"decode.replace-128"}, load_implementation("tests/implementations/wrong_decode_strict.py"))
    )
    assert lines[:2] == ["likely mistake:", f"  - {message('strict decoding')}"]
    assert lines[2].startswith("    seen: decode of the bytes 61 80 raised")
    assert render([]) == []


@pytest.mark.heavy
@pytest.mark.parametrize("stem", ["wrong_pairs_no_overlap", "wrong_tie_last_counted", "wrong_encode_by_frequency",
                                  "oracle"])
def test_known_wrong_implementations_get_their_mistake_named_first_in_a_run(tmp_path, spec_tests, stem):
    """A whole run: the claims its tests break choose the probes; the oracle has no mistake."""
    claims = sorted({c for m in load_mistakes() for c in m.when})
    impl = "spec.oracle" if stem == "oracle" else f"tests/implementations/{stem}.py"
    run = run_spec_inline(tmp_path, "--impl", impl, "--level", "roundtrip",
                          "-m", "not corpus", "--one-failure-per-claim", *(a for c in claims for a in ("--claim", c)),
                          files=files_of_claims(spec_tests, claims))
    assert run.report is not None
    mistakes_shown = run.report["likely_mistakes"]
    if stem == "oracle":
        assert mistakes_shown == []
    else:
        assert mistakes_shown and mistakes_shown[0] == message(EXPECTED[stem]), (
            mistakes_shown,
            run.report["claims"].keys(),
        )
        assert run.report["likely_mistakes_seen"][0]["seen"]


def test_the_table_prints_them_before_the_level_table(tmp_path, spec_tests, capsys):
    run = run_spec_inline(tmp_path, "--impl", "tests/implementations/wrong_decode_per_token.py", "--level", "decode",
                          "-m", "not corpus", "--one-failure-per-claim", files=files_of_levels(spec_tests, ("decode",)),
                          capsys=capsys)
    lines = run.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bpe-kata ") and "implementation" in line)
    assert lines[start + 1:start + 3] == ["likely mistake:", f"  - {message('decode per token')}"]
    assert lines[start + 3].startswith("    seen: ")
    assert lines[start + 4].startswith("level ")


def test_an_encode_by_frequency_with_greatest_pair_ties_is_not_called_longest_match():
    """Issue 21 (A9): on "abc" such an encode also gives the whole token; the second probe tells them apart."""
    from types import SimpleNamespace

    from spec import mistakes
    from spec.oracle.core import get_stats, merge, utf8

    def encode(text, merges):
        ids = list(utf8(text))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = max(stats, key=lambda p: (stats[p], p))
            if pair not in merges:
                break
            ids = merge(ids, pair, merges[pair])
        return ids

    assert mistakes.encodes_longest_match(SimpleNamespace(encode=encode)) is None
    assert mistakes.encodes_longest_match(SimpleNamespace(encode=mistakes.encode_longest_match)) is not None
