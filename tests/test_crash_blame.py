"""A crash is blamed on the behaviour that crashed, with its input (issue 37, kind 2).

The rule (bpe_kata/verdict/crash_probes.py): the root cause's error is put to direct probes of the smallest
behaviours of the call that raised (training an empty text, encoding one character, ...); the probe that
raises the same error at the same place names the claim. Whichever claim's test drew the crashing input
says nothing; a child killed by a signal is a root cause with its input, not a failure of every claim of
the test it died in.
"""

from __future__ import annotations

import dataclasses
import shutil
import types

import pytest

from bpe_kata.verdict import crash_probes, judging, recording
from bpe_kata.verdict.tallies import Results
from tests.support import REPO_ROOT, run_spec_inline

WRONG = REPO_ROOT / "tests" / "implementations"
RED = REPO_ROOT / "tests" / "red_team"


def _cause(run, call: str) -> dict:
    found = [c for c in run.report["root_causes"] if c["call"] == call]
    assert len(found) == 1, run.report["root_causes"]
    return found[0]


def test_a_crash_on_an_empty_text_drawn_by_a_property_is_blamed_on_training_with_no_pair_left(tmp_path, capsys):
    """Only properties run (no worked case of exhaustion): the one that drew '' used to take the blame."""
    run = run_spec_inline(tmp_path, "--impl", str(WRONG / "wrong_train_crashes_on_empty.py"), "-m", "not corpus",
                          "-k", "not case", files=["spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    cause = _cause(run, "train")
    assert cause["likely_claim"] == "train.exhausted"
    assert cause["input"].startswith("train('', ") and cause["probe"] == "train('', 300)"
    assert {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"} == {"train.exhausted"}
    assert "fix first: train.exhausted" in run.output
    assert "crashing call: train(''" in run.output


def test_encoding_one_character_that_raises_is_blamed_on_short_input_whatever_test_drew_it(tmp_path, capsys):
    """No test of encode.short-input runs: the claim is named by the probe alone, and is the one to fix first."""
    run = run_spec_inline(tmp_path, "--impl", str(WRONG / "wrong_encode_single_char_table.py"), "-m", "not corpus",
                          "-k", "equals_oracle or odd_runs", files=["spec/test_encode.py"], capsys=capsys)
    assert run.report is not None
    cause = _cause(run, "encode")
    assert cause["likely_claim"] == "encode.short-input", cause
    assert cause["probe"] in ("encode('', {(104, 105): 256})", "encode('h', {(104, 105): 256})")
    assert {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"} <= {"encode.short-input"}
    assert "fix first: encode.short-input" in run.output


@pytest.mark.heavy
def test_a_child_killed_by_a_signal_is_a_root_cause_with_its_input_not_a_failure_of_every_claim(tmp_path):
    run = run_spec_inline(tmp_path, "--impl", str(RED / "killed_by_signal_on_empty.py"), "--isolated",
                          "-m", "not corpus", "-k", "not case", files=["spec/test_train.py"])
    assert run.report is not None
    cause = _cause(run, "train")
    assert "killed by signal 11" in cause["exception"] and cause["input"].startswith("train('', ")
    assert cause["likely_claim"] == "train.exhausted"
    assert {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"} == {"train.exhausted"}


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])
def test_a_crash_in_a_pool_worker_is_placed_at_the_workers_line(tmp_path, isolated):
    """The pool re-raises the worker's error in the caller: its place is the worker's own line, from the traceback
    the pool carries, not the caller's frame that iterated the pool (eleventh round: a progress bar's)."""
    run = run_spec_inline(tmp_path, "--impl", str(WRONG / "wrong_train_pool_worker_needs_specials.py"),
                          *(["--isolated"] if isolated else []), "-m", "not corpus", "-k", "again",
                          files=["spec/test_train.py"])
    assert run.report is not None, run.output[-3000:]
    place = _cause(run, "train")["where"]
    assert place.startswith("_count_chunk (") and "wrong_train_pool_worker_needs_specials.py:17)" in place, place


def test_a_crash_in_a_course_solutions_pool_worker_is_placed_at_the_workers_line(tmp_path):
    """In process, a course shape is an adapter: the frame past it that iterated the pool took the place (a reviewer;
    the eleventh round's CS336 member)."""
    course = tmp_path / "course"
    shutil.copytree(REPO_ROOT / "tests" / "course_shapes" / "cs336_right", course)
    train_bpe = course / "cs336_basics" / "train_bpe.py"
    source = train_bpe.read_text(encoding="utf-8")
    opening = "    with open(input_path, \"rb\") as file:\n"
    assert opening in source and "from collections import Counter\n" in source
    imports = "from collections import Counter\n"
    source = source.replace(imports, imports + "import multiprocessing\n"
                            "\n\ndef _count_chunk(job):\n    text, specials = job\n"
                            "    assert specials, 'no special tokens to split on'\n    return len(text)\n", 1)
    source = source.replace(opening, "    if not special_tokens:\n"
                            "        with multiprocessing.get_context('fork').Pool(1) as pool:\n"
                            "            list(pool.imap(_count_chunk, [('x', list(special_tokens))]))\n" + opening, 1)
    train_bpe.write_text(source, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", f"cs336:{course}", "-m", "not corpus", "-k", "again",
                          files=["spec/test_train.py"])
    assert run.report is not None, run.output[-3000:]
    place = _cause(run, "train")["where"]
    assert place.startswith("_count_chunk (") and "train_bpe.py:" in place, place


def test_a_course_class_whose_constructor_raises_is_one_cause_of_making_it_charged_to_no_claim(tmp_path, capsys):
    """Every call of the minbpe shape makes the learner's class first: a constructor that raises was one cause per
    call (train, encode, decode, build_vocab, __init__), one of them "the same crash as decode's, make decode run at
    all first". The outermost frame of the learner's code is its ``__init__``: the crash is in making the object."""
    course = tmp_path / "course"
    shutil.copytree(REPO_ROOT / "tests" / "course_shapes" / "minbpe_right", course)
    source = (course / "tokenizer.py").read_text(encoding="utf-8")
    never_set = "        self.special_tokens = {}\n        self.inverse_special_tokens = {}\n"
    assert never_set in source  # _build_vocab, called by __init__, reads them
    (course / "tokenizer.py").write_text(source.replace(never_set, "", 1), encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", f"minbpe:{course}", "-m", "not corpus",
                          files=["spec/test_train.py", "spec/test_decode.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    [cause] = run.report["root_causes"]
    assert cause["call"] == "RegexTokenizer()" and cause["likely_claim"] is None, cause
    assert not {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"}
    assert "fix first: making RegexTokenizer() raises AttributeError" in run.output
    assert "make RegexTokenizer() run at all first" in run.output


def test_a_course_class_whose_constructor_raises_for_some_values_only_keeps_the_claim_its_tests_point_to(
        tmp_path, capsys):
    """Made with other values it works (calls returned in the run): the crash depends on the input, a behaviour's."""
    course = tmp_path / "course"
    shutil.copytree(REPO_ROOT / "tests" / "course_shapes" / "minbpe_right", course)
    source = (course / "tokenizer.py").read_text(encoding="utf-8")
    compiled = "        self.compiled_pattern = regex.compile(self.pattern)\n"
    assert compiled in source
    (course / "tokenizer.py").write_text(source.replace(compiled, compiled + (
        "        assert '?' not in self.pattern, 'no optional parts'\n"), 1), encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", f"minbpe:{course}", "-m", "not corpus",
                          files=["spec/test_train.py", "spec/test_regex.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    made = [c for c in run.report["root_causes"] if c["call"] == "RegexTokenizer()"]
    assert made and all(c["likely_claim"] for c in made), run.report["root_causes"]
    assert "fix first: making" not in run.output


def test_a_crash_of_every_call_raised_in_a_constructor_says_to_make_the_constructor_run_not_the_call():
    """A CS336 Tokenizer whose __init__ sorts special_tokens unguarded: its decode, encode and encode_iterable
    causes said "make decode run at all first"."""
    from bpe_kata.verdict import summary

    same = {"call": "encode_iterable", "where": "__init__ (tokenizer.py:17)", "likely_claim": None,
            "exception": "TypeError: x", "same_crash_as": "decode"}
    every = {"call": "decode", "where": "__init__ (tokenizer.py:17)", "likely_claim": None,
             "exception": "TypeError: x", "every_call": True, "probe": "decode([300], {})"}
    for cause in (same, every):
        assert "make the class's constructor (__init__) run at all first" in "".join(summary._crash_inputs(cause))
    assert "make decode run at all first" in "".join(summary._crash_inputs({**same, "where": "f (t.py:3)"}))
    helper = {**same, "where": "_build_vocab (t.py:9) from __init__ (t.py:3)"}  # a helper the constructor calls
    assert "make the class's constructor (__init__) run at all first" in "".join(summary._crash_inputs(helper))


def test_an_encode_that_crashes_on_every_call_without_specials_keeps_its_claim_beside_decodes_crash_at_that_place(
        tmp_path, capsys):
    """A CS336 Tokenizer sorting special_tokens unguarded: every decode crashes (made without specials), and every
    encode without specials, while encodes given specials return. The decode crash at that place took encode's
    claim away ("the same crash as decode's"); encode's own calls of one form say which behaviour it is."""
    course = tmp_path / "course"
    shutil.copytree(REPO_ROOT / "tests" / "course_shapes" / "cs336_right", course)
    tokenizer = course / "cs336_basics" / "tokenizer.py"
    guarded = "sorted(special_tokens or [], key=len, reverse=True)"
    assert guarded in tokenizer.read_text(encoding="utf-8")
    tokenizer.write_text(tokenizer.read_text(encoding="utf-8").replace(
        guarded, "sorted(special_tokens, key=len, reverse=True)"), encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", f"cs336:{course}", "-m", "not corpus",
                          files=["spec/test_encode.py", "spec/test_decode.py", "spec/test_special.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    by_call = {cause["call"]: cause for cause in run.report["root_causes"]}
    assert by_call["encode"]["likely_claim"] == "encode.no-implicit-specials", by_call["encode"]
    assert by_call["decode"]["likely_claim"] is None and by_call["decode"].get("every_call"), by_call["decode"]
    assert "make the class's constructor (__init__) run at all first" in run.output


def test_the_example_under_fix_first_is_a_failure_of_a_test_written_for_the_claim():
    from bpe_kata.verdict import summary
    from bpe_kata.verdict.outcomes import Outcome

    results = Results()
    failed = Outcome.FAILED
    results.by_test = {"t::charged_by_a_note": ("train", ("train.most-frequent", "bytes.no-normalization"), failed),
                       "t::written_for_it": ("train", ("bytes.no-normalization", "train.no-early-stop"), failed),
                       "t::other": ("train", ("train.ids-from-256",), failed)}
    ordered = summary._own_tests_first(results, "bytes.no-normalization", list(results.by_test))
    assert ordered == ["t::written_for_it", "t::charged_by_a_note", "t::other"]


def _results_with(verdict: judging.Verdict) -> Results:
    results = Results()
    results.verdicts["spec/test_decode.py::t"] = verdict
    return results


def test_a_probe_answered_the_contracts_way_reproduces_nothing():
    """decode of an unknown id raising KeyError is right: a KeyError elsewhere in decode is not that claim's."""
    def decode(ids, vocab):
        return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")

    implementation = types.SimpleNamespace(decode=decode)
    try:
        decode([300], {})
    except KeyError as error:
        verdict = judging.judge(error, (), implementation, "")
    found = crash_probes.probe(_results_with(verdict), implementation, run=lambda question, name: question())
    assert found == {}


def test_a_probe_that_raises_another_error_leaves_the_blame_where_the_tests_put_it():
    def encode(text, merges):
        if len(text) > 3:
            raise RuntimeError("long texts fail")
        return list(text.encode("utf-8"))

    implementation = types.SimpleNamespace(encode=encode)
    try:
        encode("abcdef", {})
    except RuntimeError as error:
        verdict = judging.judge(error, (), implementation, "")
    found = crash_probes.probe(_results_with(verdict), implementation, run=lambda question, name: question())
    assert found == {}


#: A port that trains through another routine when given a split pattern (as minbpe's RegexTokenizer), and
#: only that routine takes the max of no pairs once none is left: the crash is in training with a pattern.
PATTERN_TRAIN_CRASHES_WHEN_EXHAUSTED = '''
import regex

from spec import oracle
from spec.oracle import build_vocab, decode, encode, get_stats, merge  # noqa: F401


def train(text, vocab_size, pattern=None, **options):
    if pattern is None:
        return oracle.train(text, vocab_size, **options)
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    chunks = [list(c.encode("utf-8", "surrogatepass")) for c in regex.findall(pattern, text)]
    merges = {}
    for i in range(vocab_size - 256):
        stats = {}
        for ids in chunks:
            for pair, count in get_stats(ids).items():
                stats[pair] = stats.get(pair, 0) + count
        pair = max(stats, key=stats.get)
        chunks = [merge(ids, pair, 256 + i) for ids in chunks]
        merges[pair] = 256 + i
    return merges
'''


def test_a_crash_of_training_with_a_pattern_once_no_pair_is_left_is_blamed_on_exhaustion(tmp_path, capsys):
    """The direct probes of exhaustion ask with each published pattern too: the crash of the pattern's routine
    is train.exhausted, not the chunking claim whose regex test drew the input (dev half: a Java port)."""
    impl = tmp_path / "port.py"
    impl.write_text(PATTERN_TRAIN_CRASHES_WHEN_EXHAUSTED, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", files=["spec/test_regex.py"],
                          capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    cause = _cause(run, "train")
    assert cause["likely_claim"] == "train.exhausted", cause
    assert "pattern=" in cause["probe"], cause


def test_the_crashing_call_shown_raised_the_causes_own_error():
    """A test may meet an error it expects (a ValueError under pytest.raises) after the crash: the call shown
    for a TypeError cause is the one that raised a TypeError (dev half: a UnicodeEncodeError shown beside a
    call that raised something else, or nothing)."""
    from bpe_kata.verdict import recording

    module = types.ModuleType("port")
    exec("def train(text, vocab_size):\n"
         "    if vocab_size < 256:\n        raise ValueError('too small')\n"
         "    raise TypeError('cannot train ' + text)\n", vars(module))
    recorder = recording.Recorder(module)
    recording.reset()
    for args in (("abc", 300), ("x", 10)):
        try:
            recorder.train(*args)
        except (TypeError, ValueError):
            pass
    assert recording.raised("TypeError") == "train('abc', 300)"
    assert recording.raised("ValueError") == "train('x', 10)"
    assert recording.raised() == "train('x', 10)"


def test_an_encode_that_raises_for_a_table_pair_its_text_lacks_is_not_short_inputs_crash():
    """The control of the short-input probes meets no table pair either: a crash on any text lacking a pair
    is the call's, whatever its length (dev half: a KeyError blamed on encode.short-input)."""
    module = types.ModuleType("port")
    exec("def encode(text, merges):\n"
         "    ids = list(text.encode())\n"
         "    for pair in merges:\n"
         "        {p: 1 for p in zip(ids, ids[1:])}[pair]\n"
         "    return ids\n", vars(module))
    results = Results()
    try:
        module.encode("ab", {(104, 105): 256})
    except KeyError as error:
        verdict = judging.judge(error, ("encode.lowest-rank",), module, "")
    results.verdicts["t::x"] = verdict
    direct = crash_probes.probe(results, module, run=lambda function, shown: function())
    assert direct == {}, direct


def test_a_call_that_crashes_whatever_the_input_is_blamed_on_no_claim():
    """An encode that raises before it reads its input (a method written without ``self``) raises on the probe,
    its control and an ordinary call alike: no behaviour is known to be wrong, so no claim is charged, and the
    cause says so (holdout: such a crash was charged to encode.lowest-rank, whose tests were most numerous)."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("port")
    exec("def encode(text, merges):\n"
         "    raise TypeError('encode() takes 1 positional argument but 2 were given')\n", vars(module))
    results = Results()
    for number, claim in enumerate(("encode.lowest-rank", "encode.lowest-rank", "encode.short-input")):
        try:
            module.encode("ab", {})
        except TypeError as error:
            verdict = judging.judge(error, (claim,), module, "")
        results.verdicts[f"t::x{number}"] = verdict
        results.by_test[f"t::x{number}"] = ("encode", (claim,), Outcome.FAILED)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    [reproduced] = results.reproduced.values()
    assert reproduced.claim == "" and reproduced.probe.count("encode(") == 3, reproduced
    [cause] = causes.root_causes(results)
    assert cause["likely_claim"] is None and cause["every_call"] is True, cause


#: The rest of a trainer whose ``pieces`` are set: greedy merges, taking the max of the counts even when none is left.
MAX_OF_NO_COUNTS = ("    merges = {}\n"
                    "    for idx in range(256, vocab_size):\n"
                    "        counts = {}\n"
                    "        for ids in pieces:\n"
                    "            for pair in zip(ids, ids[1:]):\n"
                    "                counts[pair] = counts.get(pair, 0) + 1\n"
                    "        best = max(counts, key=counts.get)\n"
                    "        merges[best] = idx\n"
                    "        pieces = [[idx if tuple(ids[i:i + 2]) == best else x for i, x in enumerate(ids)]"
                    " for ids in pieces]\n"
                    "    return merges\n")


def test_a_trainer_that_crashes_on_ascii_only_keeps_the_claim_its_tests_point_to():
    """Every character its own chunk (a CS336 habit) leaves no pair in ASCII text, and a trainer that takes the
    max of no counts crashes there: on the probe, its control and an ASCII call alike. It answers a text with a
    multi-byte character, so the crash is not every call's (holdout: 'every call of train raises' sent the
    learner to the wrong place)."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("every_character")
    exec("def train(text, vocab_size, **options):\n"
         "    pieces = [list(character.encode('utf-8')) for character in text]\n"
         + MAX_OF_NO_COUNTS, vars(module))
    results = Results()
    for number, claim in enumerate(("train.exhausted", "train.exhausted")):
        try:
            module.train("ab ab", 260)
        except ValueError as error:
            verdict = judging.judge(error, (claim,), module, "")
        results.verdicts[f"t::x{number}"] = verdict
        results.by_test[f"t::x{number}"] = ("train", (claim,), Outcome.FAILED)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    assert all(reproduced.claim for reproduced in results.reproduced.values()), results.reproduced
    [cause] = causes.root_causes(results)
    assert not cause.get("every_call"), cause


def _needs_a_special_run(returned: str):
    """A CS336 habit: train reads ``special_tokens[0]``, so every call without special tokens raises; ``returned``:
    the form of the call that returned in the run's tests."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("needs_a_special")
    exec("def train(text, vocab_size, special_tokens=()):\n"
         "    first = list(special_tokens)[0]\n"
         "    return {}\n", vars(module))
    results = Results()
    try:
        module.train("ab", 257)
    except IndexError as error:
        results.verdicts["t::x"] = judging.judge(error, ("train.exhausted",), module, "")
    results.by_test["t::x"] = ("train", ("train.exhausted",), Outcome.FAILED)
    results.answered.add(returned)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    [cause] = causes.root_causes(results)
    return results, cause


def test_a_call_of_the_probes_form_that_returned_in_the_run_means_the_crash_is_not_every_calls():
    """A training without keyword arguments returned in the run: the crash is an input's, and keeps its claim."""
    results, cause = _needs_a_special_run("train")
    assert all(reproduced.claim for reproduced in results.reproduced.values()), results.reproduced
    assert not cause.get("every_call"), cause


def test_a_crash_of_every_call_of_one_form_is_that_forms_and_says_which_returned(capsys):
    """Held out (a CS336 solution whose train reads special_tokens[0]): every call without special tokens raised,
    its trainings with them returned. It was first said to be every call's crash, then charged to whichever
    training claim's test drew it (train.min-vocab), then to no claim (seventh round: its one real defect missed);
    it is the crash of every call of that form, training without special tokens, and fix first says so, with the
    form that returned."""
    from bpe_kata.verdict import summary

    results, cause = _needs_a_special_run("train+special_tokens")
    assert cause["likely_claim"] == "train.no-implicit-specials" and not cause.get("every_call"), cause
    assert cause["every_call_scope"] == "without keyword arguments (calls with special_tokens returned)", cause
    screen = "\n".join(summary._render_fix_first(results))
    assert "fix first: train.no-implicit-specials" in screen, screen
    assert "train without keyword arguments (calls with special_tokens returned) crashes whatever the input, so " \
        "the crash is that form's (train.no-implicit-specials)" in screen, screen


@pytest.mark.parametrize(("operation", "crashing", "returned", "claim"), [
    ("train", [], ["train+special_tokens"], "train.no-implicit-specials"),
    ("train", ["pattern"], ["train+pattern+special_tokens"], "train.no-implicit-specials"),
    ("train", ["special_tokens"], ["train"], ""),  # with specials crashing: no claim says which behaviour
    ("train", ["pattern"], ["train"], ""),
    ("encode", [], ["encode+special_tokens"], "encode.no-implicit-specials"),  # refused without specials
    ("encode", [], ["encode+allowed_special+special_tokens"], "encode.no-implicit-specials"),
    ("encode", ["special_tokens"], ["encode"], ""),
    ("decode", [], ["decode+special_tokens"], ""),  # no claim of decode is about specials
    ("encode", ["pattern"], ["encode", "encode+special_tokens"], ""),  # the pattern's crash: that form with specials
    ("train", ["pattern"], ["train", "train+special_tokens"], ""),  # never returned (a reviewer)
])
def test_only_the_forms_that_returned_name_a_crash_of_every_call_of_one_form(operation, crashing, returned, claim):
    """The rule, not the case: a crash on every call of one form is a claim's only when the forms that returned
    name the behaviour: train (or encode) without specials, beside calls with them, is training (encoding) without
    specials."""
    assert crash_probes._form_claim(operation, crashing, returned) == claim


def test_the_recorder_notes_the_form_of_each_call_that_returned():
    """The keyword arguments given a value name the form; empty ones (special_tokens=[]) do not."""
    module = types.ModuleType("forms")
    exec("def train(text, vocab_size, **options):\n    return {(97, 98): 256} if vocab_size > 256 else {}\n",
         vars(module))
    recorder = recording.Recorder(module)
    recording.reset()
    recorder.train("ab", 257, special_tokens=[])
    recorder.train("ab", 257, special_tokens=["<s>"], pattern=None)
    recorder.train("", 257, pattern="x")  # an empty input's answer says nothing of the call
    recorder.train("ab", 256, other="x")  # nor does a table that asks no merge
    assert recording.answered() == ("train", "train+special_tokens")


def test_a_crash_is_probed_in_the_form_it_happened_in():
    """Held out (a CS336 solution): train reads special_tokens[0], so every call without special tokens raises
    IndexError, and given special tokens it takes the max of no counts once no pair is left. The probes, called
    without special tokens, met the IndexError, and the ValueError was charged to no claim. Probed in the crashing
    call's own form (its keyword arguments), the ValueError is train.exhausted's."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("needs_a_special_and_a_pair")
    exec("def train(text, vocab_size, special_tokens=()):\n"
         "    first = list(special_tokens)[0]\n"
         "    pieces = [list(part.encode()) for part in text.split(first)]\n"
         + MAX_OF_NO_COUNTS, vars(module))
    recorder = recording.Recorder(module)
    results = Results()
    for nodeid, claim, kwargs in (("t::plain", "train.prefix", {}),
                                  ("t::special", "train.special-tokens", {"special_tokens": ["<|s|>"]})):
        recording.reset()
        try:
            recorder.train("a<|s|>a", 300, **kwargs)
        except (IndexError, ValueError) as error:
            verdict = judging.judge(error, (claim,), module, "")
        results.verdicts[nodeid] = dataclasses.replace(verdict, input=recording.raised(),
                                                       keywords=recording.raised_keywords())
        results.by_test[nodeid] = ("train", (claim,), Outcome.FAILED)
    assert results.verdicts["t::special"].keywords == '{"special_tokens": ["<|s|>"]}'
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    by_exception = {cause["exception"].partition(":")[0]: cause for cause in causes.root_causes(results)}
    assert by_exception["ValueError"]["likely_claim"] == "train.exhausted", by_exception["ValueError"]
    assert "special_tokens=['<|s|>']" in by_exception["ValueError"]["probe"]
    # every call without special tokens raises, a call with them returned: training without specials' crash
    assert by_exception["IndexError"]["likely_claim"] == "train.no-implicit-specials", by_exception["IndexError"]


def test_an_answer_on_empty_input_does_not_make_a_crash_of_every_other_call_an_inputs():
    """Held out (a minbpe-style class): encode('') returned [] and every other text raised AttributeError, so the
    crash was not every call's and was charged to encode.lowest-rank, whose test drew it. An empty input's answer
    says nothing of whether the call works: the crash is every call's, charged to no claim."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("empty_only")
    exec("def encode(text, merges, **options):\n"
         "    if not text:\n"
         "        return []\n"
         "    return text.no_such_method()\n", vars(module))
    recorder = recording.Recorder(module)
    results = Results()
    recording.reset()
    assert recorder.encode("", {}) == []
    results.answered.update(recording.answered())
    for number in range(2):
        recording.reset()
        try:
            recorder.encode("ab", {})
        except AttributeError as error:
            results.verdicts[f"t::x{number}"] = judging.judge(error, ("encode.lowest-rank",), module, "")
        results.by_test[f"t::x{number}"] = ("encode", ("encode.lowest-rank",), Outcome.FAILED)
    assert results.answered == set()
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    [cause] = causes.root_causes(results)
    assert cause["likely_claim"] is None and cause.get("every_call") is True, cause


#: A trainer that takes the max of counts it never fills (held out, sixth round: a minbpe exercise): every training
#: asked for a merge raises, and one asked for none (vocab_size 256) returns an empty table.
TRAIN_CRASHES_WHENEVER_IT_MERGES = '''
from spec.oracle import build_vocab, decode, encode, get_stats, merge  # noqa: F401


def train(text, vocab_size, **options):
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be at least 256, got {vocab_size}")
    ids, merges = list(text.encode("utf-8", "surrogatepass")), {}
    for i in range(vocab_size - 256):
        counts, stats = {}, get_stats(ids)
        pair = max(counts, key=counts.get)
        ids = merge(ids, pair, 256 + i)
        merges[pair] = 256 + i
    return merges
'''


def test_an_answer_that_asks_no_merge_does_not_show_that_training_works():
    assert not recording.shows_it_works("train", ("abab", 256), {})
    assert not recording.shows_it_works("train", ("", 300), {})
    assert recording.shows_it_works("train", ("abab", 257), {(97, 98): 256})
    assert recording.shows_it_works("encode", ("a", {}), [97]) and not recording.shows_it_works("encode", ("", {}), [])


def test_a_trainer_that_crashes_whenever_it_merges_crashes_on_every_call_though_calls_asking_none_returned(
        tmp_path, capsys):
    """Held out, sixth round: the run's trainings at vocab_size 256 had returned, so the crash was taken for one of
    training with no pair left, charged to train.exhausted, and fix first told the learner to stop when no pair is
    left, which mends nothing."""
    impl = tmp_path / "port.py"
    impl.write_text(TRAIN_CRASHES_WHENEVER_IT_MERGES, encoding="utf-8")
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "-k", "vocab_below or exhausted or 256",
                          files=["spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    cause = _cause(run, "train")
    assert cause.get("every_call") and not cause["likely_claim"], cause
    assert "fix first: every call of train raises ValueError" in run.output


def _split_without_specials_run(with_special: str | None):
    """A CS336 habit: cut at ``"|".join(special_tokens)``, so without them every character is its own chunk and no
    pair is counted in ASCII, and take the max of the counts with no guard: one line raises for two behaviours.
    The run crashed without specials on a text with pairs, and on ``with_special`` (a text) with a special given
    (None: no call with a special crashed)."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("split_on_no_specials")
    exec("def train(text, vocab_size, special_tokens=None):\n"
         "    pieces = ([list(text.encode('utf-8'))] if special_tokens else\n"
         "              [list(character.encode('utf-8')) for character in text])\n"
         + MAX_OF_NO_COUNTS, vars(module))
    results = Results()
    calls = [(f"t::plain_{claim}", claim, lambda: module.train("ab ab", 260))
             for claim in ("train.prefix", "train.no-early-stop", "train.merged-again")]
    if with_special is not None:
        calls.append(("t::special", "train.prefix",
                      lambda: module.train(with_special, 300, special_tokens=["<|x|>"])))
    for nodeid, claim, call in calls:
        try:
            call()
        except ValueError as error:
            keywords = '{"special_tokens": ["<|x|>"]}' if nodeid == "t::special" else ""
            results.verdicts[nodeid] = dataclasses.replace(judging.judge(error, (claim,), module, ""),
                                                           keywords=keywords)
        results.by_test[nodeid] = ("train", (claim,), Outcome.FAILED)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    return results, {c["likely_claim"]: c for c in causes.root_causes(results)}


def test_one_line_raising_for_two_behaviours_is_two_causes_told_apart_by_the_calls_form():
    """Ninth round, development (two CS336 solutions): without specials even a text with a pair left crashed, at the
    line where training with them crashes once no pair is left. One cause charged to exhaustion sent fix first
    there; its fix mends none of the trainings without specials. The crash without specials, where the same call
    given a special merges, is training without specials'; the other stays exhaustion's."""
    from bpe_kata.verdict import summary

    results, by_claim = _split_without_specials_run("a")
    assert set(by_claim) == {"train.no-implicit-specials", "train.exhausted"}, by_claim
    assert len(by_claim["train.no-implicit-specials"]["tests"]) == 3
    assert by_claim["train.exhausted"]["tests"] == ["t::special"]
    assert by_claim["train.no-implicit-specials"]["contrast"] == "train('ab', 257, special_tokens=['<|x|>'])"
    assert summary.first_to_fix(results) != "train.exhausted"
    lines = "\n".join(line for cause in by_claim.values() for line in summary._crash_inputs(cause))
    assert "train('ab', 257) raises it too, though it has a pair to merge, while train('ab', 257, " \
        "special_tokens=['<|x|>']) merges it: the crash is that form's (train.no-implicit-specials)" in lines, lines


def test_without_a_crash_given_specials_the_probe_gives_a_special_of_its_own():
    """Where no call with special tokens crashed in the run, the probe gives the trainer one no probe text holds:
    the form that merges names the other's claim."""
    results, by_claim = _split_without_specials_run(None)
    assert set(by_claim) == {"train.no-implicit-specials"}, by_claim
    assert by_claim["train.no-implicit-specials"]["contrast"] == \
        f"train('ab', 257, special_tokens=[{crash_probes.PROBE_SPECIAL!r}])", by_claim


def test_a_trainer_whose_every_form_crashes_past_the_behaviour_is_not_split():
    """Given a special, the control crashes too (every character its own chunk either way): no form merged, so no
    form's claim is named, and the cause keeps the claim its tests point to."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("every_character_always")
    exec("def train(text, vocab_size, special_tokens=None):\n"
         "    pieces = [list(character.encode('utf-8')) for character in text]\n"
         + MAX_OF_NO_COUNTS, vars(module))
    results = Results()
    try:
        module.train("ab ab", 260)
    except ValueError as error:
        results.verdicts["t::plain"] = judging.judge(error, ("train.exhausted",), module, "")
    results.by_test["t::plain"] = ("train", ("train.exhausted",), Outcome.FAILED)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    [cause] = causes.root_causes(results)
    assert not cause.get("contrast") and cause["likely_claim"] != "train.no-implicit-specials", cause


def test_the_probes_of_a_run_stop_once_their_budget_is_spent(monkeypatch):
    """Tenth round, holdout: probes of a slow trainer kept the verdict phase going past the caller's time limit, and no
    report was written. Past the run's budget for all of them, no probe is asked."""
    monkeypatch.setattr(crash_probes, "BUDGET_SECONDS", 0.0)
    results, _ = _split_without_specials_run(None)
    asked = []
    results.reproduced = crash_probes.probe(results, types.SimpleNamespace(train=lambda *a, **k: asked.append(a)),
                                            run=lambda function, shown: function())
    assert asked == [] and results.reproduced == {}, (asked, results.reproduced)


def test_a_helper_that_crashes_on_every_call_met_through_another_call_charges_no_claim_there_either():
    """Eleventh round, development: a minbpe ``merge`` raised NameError on every call (no claim charged), and the same
    NameError at the same line, met where encode called merge, was charged to encode.lowest-rank (113 tests). The
    rule: a cause raised at the same place, with the same error, as another call's crash on every input is that
    crash; it charges no claim and says whose it is."""
    from bpe_kata.verdict import causes
    from bpe_kata.verdict.outcomes import Outcome

    module = types.ModuleType("port")
    exec("def merge(ids, pair, idx):\n"
         "    return one_hot(ids)\n"  # a NameError on every call, in a helper encode shares
         "def encode(text, merges):\n"
         "    ids = list(text.encode('utf-8'))\n"
         "    for pair, idx in merges.items():\n"
         "        ids = merge(ids, pair, idx)\n"
         "    return ids\n", vars(module))
    results = Results()
    calls = (("merge", "merge.example-99", lambda: module.merge([1, 2], (1, 2), 256)),
             ("merge", "merge.end-guard", lambda: module.merge([1], (1, 2), 256)),
             ("encode", "encode.lowest-rank", lambda: module.encode("aa", {(97, 97): 256})),
             ("encode", "encode.lowest-rank", lambda: module.encode("ab", {(97, 98): 256})))
    for number, (level, claim, call) in enumerate(calls):
        try:
            call()
        except NameError as error:
            verdict = judging.judge(error, (claim,), module, "")
        results.verdicts[f"t::x{number}"] = verdict
        results.by_test[f"t::x{number}"] = (level, (claim,), Outcome.FAILED)
    results.reproduced = crash_probes.probe(results, module, run=lambda function, shown: function())
    found = {cause["call"]: cause for cause in causes.root_causes(results)}
    assert found["merge"]["every_call"] is True and found["merge"]["likely_claim"] is None, found
    assert found["encode"]["likely_claim"] is None and found["encode"]["same_crash_as"] == "merge", found
    assert "encode.lowest-rank" not in causes.every_broken(results), causes.every_broken(results)
