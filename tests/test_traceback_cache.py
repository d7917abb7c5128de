"""bpe_kata/verdict/traceback_cache.py: a failure's traceback reads as pytest writes it, each file parsed once."""

from __future__ import annotations

import ast
import importlib.util
import textwrap

import pytest
from _pytest._code import code as pytest_code
from _pytest._code import source as pytest_source

from bpe_kata.verdict import traceback_cache

SAMPLE = textwrap.dedent('''
    import os

    @decorator(
        1)
    def f(x):
        try:
            y = (x +
                 1)
        except ValueError:
            pass
        else:
            z = 2
        finally:
            w = 3
        return [
            x, y]

    class C:
        def g(self):
            if True:
                a = (1,
                     2)
            else:
                assert a == (
                    b)
''')


@pytest.fixture
def pytests_own(monkeypatch):
    """pytest's helpers as they were before the plugin installed the cache (this session has it installed)."""
    assert traceback_cache.install(), "pytest's traceback helpers changed shape: the cache is not installed"
    originals = traceback_cache.ORIGINALS
    return originals["getstatementrange_ast"], originals["get_statement_startend2"]


def test_the_statement_ranges_are_pytests_for_every_line(pytests_own):
    """Every line of a file with decorators, handlers, else and finally parts: the same start and end."""
    _, startend = pytests_own
    node = ast.parse(SAMPLE)
    for lineno in range(len(SAMPLE.splitlines()) + 2):
        assert traceback_cache.statement_startend(lineno, node) == startend(lineno, node), lineno


FAILING = '''
def helper(x):
    assert x == (
        2)


def outer():
    y = [1,
         2]
    helper(y)
'''


def test_a_failure_reads_the_same_with_and_without_the_cache(tmp_path, monkeypatch, pytests_own):
    """A failure through two frames, each statement spanning lines: the long report is the same text."""
    path = tmp_path / "failing_sample.py"
    path.write_text(FAILING, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("failing_sample", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(AssertionError) as excinfo:
        module.outer()

    def report() -> str:
        return str(excinfo.getrepr(style="long"))

    cached = report(), report()  # the second from the cache
    rangefinder, startend = pytests_own
    monkeypatch.setattr(pytest_code, "getstatementrange_ast", rangefinder)
    monkeypatch.setattr(pytest_source, "getstatementrange_ast", rangefinder)
    monkeypatch.setattr(pytest_source, "get_statement_startend2", startend)
    plain = report()
    assert "y = [1,\n             2]" in plain.replace(">", " ")  # the statement spans its two lines
    assert cached == (plain, plain)
