"""Under a fixed split, the split is fixed first (bpe_kata/verdict/composition.py; issue 37, held-out kind 5).

Code that splits every text composes its split into every train and encode call: a wrong split breaks training
claims too, and the ledger's graph, which has the regex claims rest on training, named a training claim first.
The rule is tested on its own: any broken claim whose failed checks called train or encode, any split claim.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from bpe_kata.verdict import composition, fix_first, judging
from bpe_kata.verdict.outcomes import Outcome
from bpe_kata.verdict.tallies import Results
from spec.ledger import load_claims

SPLIT = "regex.gpt2-chunks"


def _results(failed: dict[str, tuple[str, tuple[str, ...]]], fixed_split: str | None) -> Results:
    """A run whose tests named by ``failed`` failed: test id -> (claim, the operations it called)."""
    results = Results(fixed_split=fixed_split)
    for nodeid, (claim, calls) in failed.items():
        level = load_claims()[claim].level
        results.by_test[nodeid] = (level, (claim,), Outcome.FAILED)
        results.verdicts[nodeid] = judging.Verdict(judging.BROKEN, (claim,), "", "", "differs", calls=calls)
    return results


def _order(results: Results) -> list[str]:
    return fix_first.order(results.broken_claims(), (), composition.run_prerequisites(results))


TRAINING_CLAIMS = [cid for cid, claim in load_claims().items()
                   if claim.kind == "contract" and claim.level in ("train", "encode", "ties", "special")
                   and cid not in composition.SPLIT_CLAIMS]


@pytest.mark.parametrize("split_claim", sorted(composition.SPLIT_CLAIMS - {"regex.covers-text"}))
@pytest.mark.parametrize("claim", TRAINING_CLAIMS[::3])
def test_under_a_fixed_split_a_broken_split_claim_comes_before_any_claim_whose_checks_trained_or_encoded(
        claim, split_claim):
    failed = {"t::split": (split_claim, ("train",)), "t::other": (claim, ("train", "encode"))}
    assert _order(_results(failed, "GPT2"))[0] == split_claim


def test_without_a_fixed_split_the_ledgers_order_stands():
    """A contract train splits only when given a pattern: its training claims do not rest on the split."""
    failed = {"t::split": (SPLIT, ("train",)), "t::other": ("train.no-early-stop", ("train",))}
    assert _order(_results(failed, None))[0] == "train.no-early-stop"
    assert composition.run_prerequisites(_results(failed, None)) == {}


def test_a_claim_a_crash_in_train_most_likely_breaks_rests_on_the_split_too():
    """Held out: a split that cut every character apart left most trainings no pair, and a trainer that takes the max
    of no counts crashed in 56 tests; fix first named the crash's claim, train.exhausted, not the split."""
    from bpe_kata.verdict import causes

    results = _results({"t::split": (SPLIT, ("train",))}, "GPT2")
    for number in range(3):
        nodeid = f"t::crash{number}"
        results.by_test[nodeid] = ("train", ("train.exhausted",), Outcome.FAILED)
        results.verdicts[nodeid] = judging.Verdict(judging.ERROR, (), "ValueError: max() arg is an empty sequence",
                                                   "train (impl.py:9)", "ValueError", call="train", calls=("train",))
    assert "train.exhausted" in results.broken_claims()
    assert [c["likely_claim"] for c in causes.root_causes(results)] == ["train.exhausted"]
    assert _order(results)[0] == SPLIT


def test_a_claim_whose_failed_checks_called_neither_train_nor_encode_keeps_its_place():
    """A decode failure says nothing of the split: decode.replace-128 (a lower level) still comes first."""
    failed = {"t::split": (SPLIT, ("train",)), "t::decode": ("decode.replace-128", ("decode",))}
    assert _order(_results(failed, "GPT2"))[0] == "decode.replace-128"


@pytest.mark.parametrize("fixed_split", [None, "GPT2"])
@pytest.mark.parametrize("claim", [c for c in TRAINING_CLAIMS[::3] if load_claims()[c].level in ("train", "ties")])
def test_broken_training_without_specials_comes_before_any_claim_whose_checks_trained(claim, fixed_split):
    """Held out: a no-specials path that learned nothing was charged to its own claim in 49 tests and to the early
    stop in two, and fix first named the early stop; training without specials is composed into every such call."""
    failed = {"t::form": (composition.WITHOUT_SPECIALS, ("train",)), "t::other": (claim, ("train",))}
    assert _order(_results(failed, fixed_split))[0] == composition.WITHOUT_SPECIALS
    failed["t::merge"] = ("merge.end-guard", ("merge",))  # a lower level's defect, which training says nothing of
    assert _order(_results(failed, fixed_split))[0] == "merge.end-guard"


@pytest.mark.parametrize("claim", [c for c in TRAINING_CLAIMS[::3] if load_claims()[c].level in ("train", "ties")])
def test_a_claim_whose_every_training_check_failed_with_a_special_given_too_does_not_rest_on_training_without(claim):
    """Eighth round, holdout: a hard-coded <|endoftext|> (two tests) was named before corrupted pair counts (thirteen),
    though each of the thirteen failed again once given an absent special: the path with specials fails them too."""
    from spec.blame import FAILED_IN_EQUIVALENT_FORM

    failed = {"t::form": (composition.WITHOUT_SPECIALS, ("train",)), "t::a": (claim, ("train",)),
              "t::b": (claim, ("train",))}
    results = _results(failed, None)
    for nodeid in ("t::a", "t::b"):
        results.verdicts[nodeid] = dataclasses.replace(results.verdicts[nodeid], evidence=FAILED_IN_EQUIVALENT_FORM)
    assert composition.WITHOUT_SPECIALS not in composition.run_prerequisites(results).get(claim, ())
    if composition.WITHOUT_SPECIALS not in fix_first.ledger_prerequisites(claim):  # two roots: the usual keys decide
        assert claim not in composition.run_prerequisites(results)[composition.WITHOUT_SPECIALS]
        assert fix_first.order([claim, composition.WITHOUT_SPECIALS], (), composition.run_prerequisites(results)) \
            == fix_first.order([claim, composition.WITHOUT_SPECIALS])
    # one check of the claim that was not run again (no evidence either way): the edge stands, as before
    results.verdicts["t::b"] = dataclasses.replace(results.verdicts["t::b"], evidence="")
    assert composition.WITHOUT_SPECIALS in composition.run_prerequisites(results)[claim]
    assert _order(results)[0] == composition.WITHOUT_SPECIALS


#: A fixed-split implementation with two defects: every character its own chunk, and no ValueError below 256.
EVERY_CHARACTER_FIXED = '''
from spec import oracle
from spec.oracle import StreamDecoder, build_vocab, decode, get_stats, merge, segment_word, train_words  # noqa: F401
from spec.patterns import GPT2_SPLIT_PATTERN

FIXED_PATTERN = "gpt2"


def train(text, vocab_size):
    if vocab_size < 256:
        return {}  # WRONG: no ValueError
    return oracle.train(text, vocab_size, pattern=r"(?s).")  # WRONG: every character its own chunk


def encode(text, merges, **options):
    return oracle.encode(text, merges, pattern=GPT2_SPLIT_PATTERN, **options)
'''


@pytest.mark.heavy
def test_the_command_fixes_the_split_first_for_code_that_declares_one(tmp_path):
    """End to end, as a learner runs it (the command, its worker processes): the split the implementation declares
    must reach the process that orders the claims (held out: it did not, and fix first named train.min-vocab)."""
    impl = tmp_path / "every_character_fixed.py"
    impl.write_text(EVERY_CHARACTER_FIXED, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bpe_kata.cli", "check", str(impl), "--claim", SPLIT, "--claim",
                           "train.min-vocab", "-m", "not corpus", "-p", "no:cacheprovider"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert "claims broken (2)" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"fix first: {SPLIT}:" in done.stdout, done.stdout[-3000:]


def _crashed(results: Results, claims: tuple[str, ...], call: str = "train") -> None:
    """One test per claim that crashed in ``call`` with one error (a trainer that takes the max of no pairs)."""
    for claim in claims:
        nodeid = f"t::crash-{claim}"
        results.by_test[nodeid] = (load_claims()[claim].level, (claim,), Outcome.FAILED)
        results.verdicts[nodeid] = judging.Verdict(judging.ERROR, (), "ValueError: max() arg is an empty sequence",
                                                   "train (impl.py:9)", "ValueError", call=call, calls=(call,))


def _order_held(results: Results) -> list[str]:
    return fix_first.order(results.broken_claims(), (), composition.run_prerequisites(results),
                           composition.held_behind_crashes(results))


HELD = ("train.exhausted", "train.prefix", "train.most-frequent", "encode.lowest-rank", "roundtrip.any-text")


def test_a_root_holding_up_claims_behind_a_crash_comes_before_a_lower_levels_claim_holding_up_none():
    """Sixth round (trungdt880, shuyangli): a split that cut every character apart left training no pair and crashed in
    the tests of 23 claims, and fix first named decode.unknown-id, a lower level whose fix mends nothing else."""
    results = _results({"t::split": (SPLIT, ("train",)), "t::decode": ("decode.unknown-id", ("decode",))}, "GPT2")
    _crashed(results, HELD)
    assert _order_held(results)[0] == SPLIT
    # the same run without the crashes: nothing is held up, and the level order stands
    assert _order_held(_results({"t::split": (SPLIT, ("train",)), "t::decode": ("decode.unknown-id", ("decode",))},
                                "GPT2"))[0] == "decode.unknown-id"


def test_a_crash_shows_at_the_lowest_level_of_the_claims_it_holds_up():
    """The kata is climbed level by level: a root is placed at the lowest level it shows at, its own or that of a
    claim it holds up. A bytes claim holding up nothing still comes before a training crash holding up claims of the
    train level and above; a crash holding up a claim of the bytes level comes before a training claim."""
    results = _results({"t::bytes": ("bytes.examples", ("encode",))}, None)
    _crashed(results, HELD)
    [likely] = [c["likely_claim"] for c in results.root_causes()]
    assert likely in HELD and _order_held(results)[0] == "bytes.examples"
    results = _results({"t::min": ("train.min-vocab", ("train",))}, None)
    _crashed(results, ("surrogates.repaired", "pretrained.reproduce"), call="encode")
    assert _order_held(results)[0] == "train.min-vocab"  # seventh round: held up a pretrained claim only
    results = _results({"t::min": ("train.min-vocab", ("train",))}, None)
    _crashed(results, ("encode.short-input", "bytes.examples", "roundtrip.no-unk"), call="encode")
    assert _order_held(results)[0] != "train.min-vocab"  # holds up the bytes level


def test_a_check_that_passed_in_the_equivalent_form_does_not_rest_on_the_split():
    """Sixth round (iddahmlauzi): a no-specials path that cut every byte apart and a split wrong on non-ASCII letters
    were two defects; the checks charged to training without specials had passed once given an absent special, with
    the same split, yet the split was named first."""
    from spec.blame import PASSED_IN_EQUIVALENT_FORM

    failed = {"t::split": (SPLIT, ("train",)), "t::plain": (composition.WITHOUT_SPECIALS, ("train",)),
              "t::other": ("train.most-frequent", ("train",))}
    results = _results(failed, "GPT2")
    assert _order(results)[0] == SPLIT  # no evidence: the split may explain all three
    results.verdicts["t::plain"] = dataclasses.replace(results.verdicts["t::plain"],
                                                       evidence=PASSED_IN_EQUIVALENT_FORM)
    assert _order(results)[0] == composition.WITHOUT_SPECIALS
    assert SPLIT not in composition.run_prerequisites(results)[composition.WITHOUT_SPECIALS]


def test_a_crash_a_direct_probe_reproduced_does_not_rest_on_the_split():
    """Seventh round, development: an encode that raised on '' (encode.short-input, reproduced by the direct probe) was
    put behind a broken split claim, and fix first named the split. No split cuts one character."""
    from bpe_kata.verdict import causes, crash_probes

    results = _results({"t::split": ("regex.no-cross-chunk", ("encode",))}, "GPT2")
    _crashed(results, ("encode.short-input", "bytes.examples", "roundtrip.no-unk"), call="encode")
    key = next(iter({causes.cause_key(v) for v in results.verdicts.values() if v.kind == judging.ERROR}))
    assert _order_held(results)[0] == "regex.no-cross-chunk"  # no probe: the split may have led it there
    results.reproduced[key] = crash_probes.Reproduced("encode.short-input", "encode('', {})")
    assert "regex.no-cross-chunk" not in composition.run_prerequisites(results).get("encode.short-input", ())
    assert _order_held(results)[0] == "encode.short-input"

