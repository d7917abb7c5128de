"""Short failure tracebacks: the test's line, the implementation's own frames, the failing line.

A learner reads a failure to find the line of *their* code to change. pytest's tracebacks walk
through the spec's helpers (the case runner, the comparison, the oracle) and the runner's
plumbing first; with ``--tb=short`` (``bpe-kata check`` and ``gate`` default to it) those
middle frames are dropped and only these are kept: the spec's line that checked, every frame
in a file outside the suite, the runner and the libraries (the implementation's), and the last
(where the error was raised), unless that is one of the spec's helpers (``expect_equal``'s raise).
``--tb=long`` (or ``--fulltrace``) shows everything, as pytest does.

The spec's line that checked is the innermost frame of a spec test module (``spec/test_*.py``) or of a
worked case's operation (``spec/cases/ops_*.py``): the ``assert`` or ``expect_equal`` a learner reads.
The outermost frame is not: for a property it is the ``@given`` decorator line, for a worked case the
collector's ``runner.run(case, ...)``, and neither says what was checked (issue 37, kind 8).
"""

from __future__ import annotations

import functools
import sysconfig
import types
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from _pytest._code import ExceptionInfo, Traceback

import bpe_kata
import spec
from bpe_kata.layout.paths import SPEC_DIR

#: Folders whose frames are the suite's or a library's, not the implementation's.
SUITE_DIRS: tuple[Path, ...] = tuple(Path(p).resolve() for p in (
    Path(spec.__file__).parent, Path(bpe_kata.__file__).parent, Path(pytest.__file__).parent.parent / "_pytest",
    sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], sysconfig.get_paths()["stdlib"]))

#: The traceback style the filter applies to (``bpe-kata check`` and ``gate`` default to it).
_SHORT = "short"


def is_suite_frame(path: Path | str, suite_dirs: Iterable[Path] = SUITE_DIRS) -> bool:
    """True for a frame in the spec, the runner, pytest, the standard library or an installed package."""
    try:
        resolved = Path(path).resolve()
    except (OSError, ValueError):
        return True  # "<string>" and the like: nobody's line to change
    return any(resolved.is_relative_to(folder) for folder in suite_dirs)


CASE_OPERATIONS = SPEC_DIR / "cases"


def is_spec_check(path: Path | str) -> bool:
    """A spec test module's frame, or a worked case operation's: where the spec states what it checks."""
    try:
        resolved = Path(path).resolve()
    except (OSError, ValueError):
        return False
    return ((resolved.parent == SPEC_DIR and resolved.name.startswith("test_"))
            or (resolved.parent == CASE_OPERATIONS and resolved.name.startswith("ops_")))


def keep_implementation_frames(traceback: Traceback, suite_dirs: Iterable[Path] = SUITE_DIRS) -> Traceback:
    """The spec's line that checked (else the first entry), every entry after it that is not the suite's,
    and the last unless it is a suite helper past the checking line."""
    entries = list(traceback)
    if len(entries) <= 2:
        return traceback
    suite_dirs = tuple(suite_dirs)
    checks = [i for i, entry in enumerate(entries) if is_spec_check(entry.path)]
    anchor = checks[-1] if checks else 0
    last = len(entries) - 1
    kept = [anchor, *(i for i in range(anchor + 1, last) if not is_suite_frame(entries[i].path, suite_dirs))]
    if last != anchor and not (checks and _is_suite_code(entries[last].path)):
        kept.append(last)
    return Traceback([entries[i] for i in kept])


def _is_suite_code(path: Path | str) -> bool:
    """The spec's or the runner's own file (not a library's, not the standard library's)."""
    try:
        resolved = Path(path).resolve()
    except (OSError, ValueError):
        return False
    return resolved.is_relative_to(SPEC_DIR) or resolved.is_relative_to(Path(bpe_kata.__file__).resolve().parent)


def _filtered(original: Callable[[ExceptionInfo[BaseException]], Traceback],
              excinfo: ExceptionInfo[BaseException]) -> Traceback:
    return keep_implementation_frames(original(excinfo))


def install(config: pytest.Config, items: Iterable[pytest.Item]) -> None:
    """With ``--tb=short``, give each spec test the filter above (pytest applies it to every failure it shows)."""
    if config.getoption("tbstyle", "auto") != _SHORT or config.getoption("fulltrace", False):
        return
    for item in items:
        original = getattr(item, "_traceback_filter", None)
        if callable(original):
            item._traceback_filter = functools.partial(_filtered, original)  # type: ignore[method-assign]


def without_lineless_frames(excinfo: ExceptionInfo[BaseException]) -> ExceptionInfo[BaseException]:
    """The same failure with every traceback entry that has no line number left out (in the exception and those
    it chains to). A frame of code without line information (generated code, or a frame a signal interrupted)
    has ``tb_lineno`` None, and pytest crashes formatting it (``None - 1``): an INTERNALERROR that ended a run
    with no table (issue 37, kind 7: a run always ends with its table). Unchanged when every entry has one."""
    seen: set[int] = set()
    error: BaseException | None = excinfo.value
    changed = False
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        kept = _lined(error.__traceback__)
        if kept is not error.__traceback__:
            error.__traceback__, changed = kept, True
        error = error.__cause__ or error.__context__
    if not changed:
        return excinfo
    value = excinfo.value
    return ExceptionInfo.from_exc_info((type(value), value, value.__traceback__))


def _lined(traceback: types.TracebackType | None) -> types.TracebackType | None:
    entries, entry = [], traceback
    while entry is not None:
        entries.append(entry)
        entry = entry.tb_next
    if all(e.tb_lineno is not None for e in entries):
        return traceback
    rebuilt = None
    for e in reversed([e for e in entries if e.tb_lineno is not None]):
        rebuilt = types.TracebackType(rebuilt, e.tb_frame, e.tb_lasti, e.tb_lineno)
    return rebuilt


def hint(config: pytest.Config) -> str:
    """The last line of a run with failures: how to see what the short form left out."""
    if config.getoption("tbstyle", "auto") == _SHORT and not config.getoption("fulltrace", False):
        return ("failures above are shown short (the test's line, your code's frames, the failing line); "
                "--tb=long shows every frame")
    return ""
