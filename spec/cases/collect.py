"""The one case collector: every worked case becomes a test of a spec module, run by the one case runner.

As in toml-test and JSON-Schema-Test-Suite, the cases are data read one way into one runner.
Each case file (``spec/cases/*.json``) declares its level once, in its ``level`` field; each of
its cases becomes one parameter (its id the case's id), marked with that level and with the
claims the case names, of a test that hands it to ``spec.cases.runner.run`` with the
implementation under test.

``CASE_TESTS`` says, for each file and operation, which spec module collects those cases and
under which test name. The names are the ones each module used to write out by hand, kept
because users' expectations files list test ids such as
``spec/test_bytes.py::test_encode_with_no_merges_case[bytes-ascii-a]``. A module's case tests
come before its own tests, or after the test their ``after`` names, so the order is theirs too.
spec/conftest.py hands the modules named here to ``CaseModule``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import FunctionType

import pytest

from spec import cases
from spec.cases import runner


@dataclass(frozen=True)
class CaseTest:
    """The cases of one file and operation, run as one parametrized test of one spec module."""

    file: str  # the case file, "bytes.json"
    operation: str  # the operation of its cases (schema.json) this test runs
    module: str  # the spec module whose test it is, "test_bytes.py"
    name: str  # the test's name there: the part of each test id before [case id]
    expects: str | None = None  # only the cases whose expected value has this key
    after: str | None = None  # collected after this test of the module; else before all its own tests


CASE_TESTS: tuple[CaseTest, ...] = (
    CaseTest("bytes.json", "encode", "test_bytes.py", "test_encode_with_no_merges_case"),
    CaseTest("pairs.json", "get_stats", "test_pairs.py", "test_get_stats_case"),
    CaseTest("merge.json", "merge", "test_merge.py", "test_merge_case"),
    CaseTest("train.json", "train", "test_train.py", "test_train_case"),
    CaseTest("decode.json", "decode", "test_decode.py", "test_decode_case"),
    CaseTest("decode.json", "build_vocab", "test_decode.py", "test_build_vocab_case"),
    CaseTest("encode.json", "encode", "test_encode.py", "test_encode_case"),
    CaseTest("encode.json", "train_encode", "test_encode.py", "test_encode_with_corpus_table_case"),
    CaseTest("surrogates.json", "encode", "test_lone_surrogates.py", "test_encode_case"),
    # after the facts about the published patterns, which test_regex.py checks first, on the oracle
    CaseTest("regex.json", "split", "test_regex.py", "test_training_to_the_end_makes_each_chunk_one_token",
             after="test_published_patterns_cover_every_character"),
    CaseTest("regex.json", "train", "test_regex.py", "test_train_with_pattern_case",
             after="test_published_patterns_cover_every_character"),
    CaseTest("regex.json", "uncovered", "test_uncovered_text.py", "test_uncovered_text_case"),
    CaseTest("special.json", "encode_special", "test_special.py", "test_encode_special_case"),
    CaseTest("special.json", "decode", "test_special.py", "test_decode_special_case"),
    CaseTest("persist.json", "load", "test_persist.py", "test_load_case"),
    CaseTest("stream.json", "stream", "test_stream.py", "test_stream_case"),
    # the train_words cases that expect a row of the merge-budget table are test_words.py's test_merge_budget_row
    CaseTest("words.json", "train_words", "test_words.py", "test_train_words_case", expects="merges"),
    CaseTest("words.json", "segment_word", "test_words.py", "test_segment_word_case"),
    CaseTest("ties.json", "train", "test_ties.py", "test_ties_case"),
)

#: The spec modules that collect case tests.
MODULES: frozenset[str] = frozenset(test.module for test in CASE_TESTS)

#: The functions this collector made (a later collection of the same module object replaces them). Kept
#: here, not as an attribute of each function, which pytest would add to the test's -k keywords.
MADE: weakref.WeakSet[Callable] = weakref.WeakSet()


def is_case_test(item: pytest.Item) -> bool:
    """Whether ``item`` is one worked case, a parameter of a test this collector made."""
    return getattr(item, "obj", None) in MADE


def cases_run_by(test: CaseTest) -> list[dict]:
    """The cases ``test`` runs, in their file's order."""
    return [case for case in cases.cases_of(test.file.removesuffix(".json"), test.operation)
            if test.expects is None or test.expects in case["expected"]]


def level_of(test: CaseTest) -> str:
    """The level of the test's cases: what their file declares."""
    return cases.load_file(cases.CASES_DIR / test.file)["level"]


def case_function(test: CaseTest, level: str, params: list) -> Callable:
    """The test function: marked with the file's level, one parameter per case (marked with its claims)."""

    def run_case(bpe, request, case):
        runner.run(case, bpe, request, test.file)

    run_case.__name__ = run_case.__qualname__ = test.name
    run_case.__doc__ = f"Each {test.operation} case of spec/cases/{test.file}, through the one case runner."
    MADE.add(run_case)
    return pytest.mark.level(level)(pytest.mark.parametrize("case", params)(run_case))


def arrange(own: list, placed: list[tuple[CaseTest, list]]) -> list:
    """The module's own nodes with each case test's items placed: after the last node of the test its
    ``after`` names, else before them all. A name the module does not have is an error."""
    waiting: dict[str | None, list] = {}
    for test, items in placed:
        waiting.setdefault(test.after, []).extend(items)
    result = waiting.pop(None, [])
    for k, node in enumerate(own):
        result.append(node)
        name = _name(node)
        if k + 1 == len(own) or _name(own[k + 1]) != name:
            result.extend(waiting.pop(name, []))
    if waiting:
        raise LookupError(f"case tests placed after {', '.join(map(repr, waiting))}: the module has no such test")
    return result


def _name(node: pytest.Item | pytest.Collector) -> str:
    return getattr(node, "originalname", node.name)


class CaseModule(pytest.Module):
    """A spec module whose tests include case tests: its own tests, and the case tests ``CASE_TESTS`` gives it."""

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        tests = [test for test in CASE_TESTS if test.module == self.path.name]
        module = self.obj
        for name, value in list(vars(module).items()):  # left by an earlier collection of this module object
            if isinstance(value, FunctionType) and value in MADE:
                delattr(module, name)
        for test in tests:
            if hasattr(module, test.name):
                raise self.CollectError(f"{self.path.name} defines {test.name} itself, and spec/cases/collect.py "
                                        f"makes a case test of that name")
        own = list(super().collect())
        placed = [(test, self._case_items(test)) for test in tests]
        try:
            return arrange(own, placed)
        except LookupError as error:
            raise self.CollectError(f"{self.path.name}: {error} (spec/cases/collect.py)") from None

    def _case_items(self, test: CaseTest) -> list:
        """The test's items, made by pytest as for a function written in the module (so it is one, by name)."""
        function = case_function(test, level_of(test), [cases.param(case) for case in cases_run_by(test)])
        setattr(self.obj, test.name, function)
        return list(self.ihook.pytest_pycollect_makeitem(collector=self, name=test.name, obj=function))
