"""Judging a failed spec test: which claims it breaks, or where the implementation raised.

The spec marks each of its assertions with the claims it checks (``spec.blame.checking``);
this runner side reads that mark off the failure, so the report credits the failure to those
claims alone. A test that stops on an exception other than the spec's own assertion "could not
run": its claims are neither passed nor broken, and the exception is grouped with others of the
same root cause, at the innermost place of the implementation's own code.
"""

from __future__ import annotations

import inspect
import json
import re
import sysconfig
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from bpe_kata.impl import frames, shape_parts
from bpe_kata.layout.paths import PACKAGE_DIR, SPEC_DIR
from spec import fixed_pattern
from spec.blame import blamed_claims, checked_own_training, evidence_of
from spec.shapes import UnreadableResult

#: Isolated runs: the protocol client raises what the child answered; it is not the implementation's code.
CLIENT_FILES = tuple(str(PACKAGE_DIR / name) for name in ("child/client.py", "child/process.py", "child/line_pipes.py",
                                                        "child/faults.py", "child/protocol.py", "run/recording.py"))
LIBRARY_DIRS = tuple(
    str(Path(p).resolve())
    for p in {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
)

#: pytest-timeout's message when its safety net stops a test (``timeout_func_only``/``signal`` method alike).
SAFETY_NET = re.compile(r"Timeout \(>([0-9.]+)s\) from pytest-timeout")
BROKEN = "broken"  # an assertion of the spec about the claim failed
ERROR = "error"  # the code under test raised before the spec could check anything
#: Where a malformed result was met, until the call that returned it is known (bpe_kata/verdict/failure_verdict.py).
RETURNED = "(the value it returned)"
SUITE = "suite"  # the suite's own code raised, not the implementation's: a suite error, charged to no claim

#: Frames that are neither the implementation's nor the suite's own: the oracle (an implementation may borrow
#: its helpers), the pattern wrapper and the protocol client pass calls and errors on; libraries are the same.
NEUTRAL_DIRS = tuple(str(SPEC_DIR / name) for name in ("oracle", "fixed_pattern.py"))
#: The shapes and adapters a user plugs an implementation with are the implementation as plugged; spec/shapes.py
#: reads an implementation's result (an encode that returns None fails there): evidence against the implementation.
IMPLEMENTATION_SIDE = (str(PACKAGE_DIR / "adapters"), str(SPEC_DIR / "shapes.py"))


@dataclass(frozen=True)
class Verdict:
    """Why a test failed, as plain strings (it travels from pytest-xdist workers in user_properties)."""

    kind: str  # BROKEN or ERROR
    blamed: tuple[str, ...]  # for BROKEN: the claims the failing assertion checks
    root_cause: str  # for ERROR: "Type: message", else ""
    where: str  # for ERROR: "function (file:line)" of the innermost frame of the code under test
    detail: str  # what the report shows: the assertion's expected vs actual, or the exception
    call: str = ""  # for ERROR: the implementation's function the spec called (the protocol's op)
    #: the implementation's operations the test called before it failed, in order (bpe_kata/verdict/recording.py)
    calls: tuple[str, ...] = ()
    #: for BROKEN: the failing check was on a table the implementation trained with its default tie rule
    own_training: bool = False
    #: for ERROR: the call that raised, as typed (``train('', 256)``; bpe_kata/verdict/recording.py), "" unknown
    input: str = ""
    #: for ERROR: that call's plain keyword arguments as JSON (``{"special_tokens": ["<s>"]}``), "" none or unknown
    keywords: str = ""
    #: the swaps the failed test was run again under (bpe_kata/verdict/substitution.py: "get_stats", "merge", ...)
    substituted: tuple[str, ...] = ()
    #: of those, the ones under which it passed: the evidence that a prerequisite's operation is at fault
    cleared_by: tuple[str, ...] = ()
    #: for BROKEN: the evidence a rerun gave for the claims blamed (spec/blame.py ``charge``), "" none
    evidence: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Verdict:
        data = json.loads(text)
        return cls(data["kind"], tuple(data["blamed"]), data["root_cause"], data["where"], data["detail"],
                   call=data.get("call", ""), own_training=bool(data.get("own_training", False)),
                   calls=tuple(data.get("calls", ())), input=str(data.get("input", "")),
                   keywords=str(data.get("keywords", "")),
                   substituted=tuple(data.get("substituted", ())), cleared_by=tuple(data.get("cleared_by", ())),
                   evidence=str(data.get("evidence", "")))


def leaves(error: BaseException) -> list[BaseException]:
    """Every exception inside (nested) exception groups; the error itself when it is not a group."""
    if isinstance(error, BaseExceptionGroup) and error.exceptions:
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


def only_not_implemented(error: BaseException | None) -> bool:
    """The error is NotImplementedError, or a group (Hypothesis reports distinct failures as one) holding
    nothing else: the level is not started, not failed."""
    return error is not None and all(isinstance(leaf, NotImplementedError) for leaf in leaves(error))


def _leaf(error: BaseException) -> BaseException:
    """The first exception inside exception groups (Hypothesis reports several distinct failures as one)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _is_library(filename: str) -> bool:
    path = str(Path(filename).resolve())
    return path.startswith(LIBRARY_DIRS) or path.startswith((str(SPEC_DIR), *CLIENT_FILES))


def _innermost_frame(error: BaseException, implementation_root: Path | None) -> traceback.FrameSummary | None:
    """The innermost frame of the code under test: its own files, or else any file outside the spec and libraries."""
    frames = traceback.extract_tb(error.__traceback__)
    if implementation_root is not None:
        own = [f for f in frames if Path(f.filename).resolve().is_relative_to(implementation_root)]
        if own:
            return own[-1]
    outside = [f for f in frames if not _is_library(f.filename) and not _is_runner(f.filename)
               and not Path(f.filename).name.startswith("test_")]
    return outside[-1] if outside else None


def _is_runner(filename: str) -> bool:
    """A file of the runner (bpe_kata/, its adapters aside): never the place the implementation raised (held out,
    sixth round: a pytest hook's frame, the outermost one outside the spec, was named as the implementation's)."""
    path = Path(filename).resolve()
    return path.is_relative_to(PACKAGE_DIR) and not path.is_relative_to(PACKAGE_DIR / "adapters")


def implementation_root(module) -> Path | None:
    """The file, or for a package the folder, that holds the implementation's code."""
    return frames.implementation_root(module)


def _is_spec_check(error: BaseException, frame: traceback.FrameSummary | None, root: Path | None) -> bool:
    """An assertion (or pytest.fail) raised by the spec, not by the implementation's own ``assert``.

    Only with evidence: the assertion was raised in the spec's own code (or the runner's, never its protocol
    client relaying a child's error). An ``assert`` anywhere else is code under test, even outside the folder
    the run takes for the implementation's (an adapter beside its upstream, a library it calls)."""
    if not isinstance(error, (AssertionError, pytest.fail.Exception)):
        return False
    raised_in = traceback.extract_tb(error.__traceback__)
    if not raised_in or root is None:  # nothing says whose code it is (a test's own assertion, a client)
        return True
    innermost = Path(raised_in[-1].filename).resolve()
    if innermost.is_relative_to(root):
        return False
    if isinstance(error, pytest.fail.Exception):
        return True
    return innermost.is_relative_to(SPEC_DIR) or (
        innermost.is_relative_to(PACKAGE_DIR) and str(innermost) not in CLIENT_FILES
        and not innermost.is_relative_to(PACKAGE_DIR / "adapters"))


def _short_path(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return path.name


def judge(error: BaseException, claims: tuple[str, ...], module, longrepr_text: str, max_lines: int = 24) -> Verdict:
    """The verdict on a test that failed with ``error``, given its claims and the module under test."""
    # A course shape's refusal beside a real failure (Hypothesis groups them) is not the cause: the failure is.
    kept = [leaf for leaf in leaves(error) if not shape_parts.is_refusal(leaf)]
    error = kept[0] if kept else _leaf(error)
    stopped = safety_net_seconds(error)
    if stopped is not None:  # every time limit is "too slow", the budget's and the wall-clock safety net's alike
        cause = (f"too slow: the test was still running after {stopped} s of wall time, pytest-timeout's safety net "
                 "(on a loaded machine a right implementation can reach it: run it again, or alone)")
        return Verdict(ERROR, (), cause, "? (over the safety net: no frame)", cause)
    root = implementation_root(module)
    frame = _innermost_frame(error, root)
    if _is_spec_check(error, frame, root):
        blamed = blamed_claims(error) or claims
        return Verdict(BROKEN, tuple(blamed), "", "", _assertion_detail(error, longrepr_text, max_lines),
                       own_training=checked_own_training(error), evidence=evidence_of(error))
    message = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    if isinstance(error, (shape_parts.MalformedResult, UnreadableResult)):  # a value the learner's code returned,
        # refused by a shape or unreadable by the spec: the call's that returned it (unknown until failure_verdict.py
        # names the last call, for a value the spec read)
        cause = f"malformed result: {message}"
        function, call = (error.function, error.call) if isinstance(error, shape_parts.MalformedResult) else ("", "")
        where = f"{function} {RETURNED}".strip()
        return Verdict(ERROR, (), cause, where, f"{cause}\n  raised in {where}", call=call)
    suite_frame = _suite_raised(error, root, module)
    if suite_frame is not None:
        cause = f"{type(error).__name__}: {message}" if message else type(error).__name__
        where = f"{suite_frame.f_code.co_name} ({_short_path(suite_frame.f_code.co_filename)}:{suite_frame.f_lineno})"
        return Verdict(SUITE, (), cause, where, f"{cause}\n  raised in the suite's own code, {where}")
    call, type_name, where = _origin(error, root, module)
    for prefix in (f"{call}: ", f"{type_name}: "):  # the protocol client's message repeats both
        message = message.removeprefix(prefix) if call and type_name != type(error).__name__ else message
    cause = f"{type_name}: {message}" if message else type_name
    where = where or (f"{frame.name} ({_short_path(frame.filename)}:{frame.lineno})" if frame else "?")
    return Verdict(ERROR, (), cause, where, f"{cause}\n  raised in {where}", call=call)


def safety_net_seconds(error: BaseException) -> str | None:
    """The limit in seconds when ``error`` is pytest-timeout's safety net stopping the test (its own ``pytest.fail``
    message), else None. Slowness says nothing about a value: like a test over its budget
    (bpe_kata/verdict/fault_verdicts.py), it is a root cause blamed on no claim, never a failed assertion."""
    if not isinstance(error, pytest.fail.Exception):
        return None
    found = SAFETY_NET.match(str(error).strip())
    return found.group(1) if found else None


def _suite_raised(error: BaseException, root: Path | None, module):
    """The suite's own frame that raised ``error``, or None when the error is the implementation's.

    An error is the implementation's only with evidence (issue 37, kind 3): the protocol child sent it, or the
    innermost frame that is neither a library's nor neutral (``NEUTRAL_DIRS``, the client) is the
    implementation's code: a file under its root, a function of its namespace (the oracle's helpers a file
    borrows included), an adapter or shape, spec/shapes.py reading its result, or any file outside the suite.
    An error whose innermost such frame is the spec's or the runner's (a helper decoding bytes, a fixture) is
    the suite's."""
    if getattr(error, "bpe_kata_call", None) is not None:
        return None
    codes = _namespace_codes(fixed_pattern.unwrap(module))
    for entry, _ in reversed(list(traceback.walk_tb(error.__traceback__))):
        path = str(Path(entry.f_code.co_filename).resolve())
        if entry.f_code in codes or (root is not None and Path(path).is_relative_to(root)):
            return None
        if path.startswith(LIBRARY_DIRS + NEUTRAL_DIRS + CLIENT_FILES):
            continue
        if path.startswith(IMPLEMENTATION_SIDE) or not path.startswith((str(SPEC_DIR), str(PACKAGE_DIR))):
            return None
        return entry
    return None


def _namespace_codes(module) -> set:
    """The code objects of the functions (and classes' methods) ``module`` holds, with the code nested in them."""
    codes, todo = set(), []
    for value in list(vars(module).values()) if hasattr(module, "__dict__") else []:
        if inspect.isclass(value):
            todo += [getattr(m, "__func__", m) for m in vars(value).values()]
        else:
            todo.append(getattr(value, "__func__", value))
    found = [getattr(f, "__code__", None) for f in todo]
    while found:
        code = found.pop()
        if code is not None and hasattr(code, "co_consts") and code not in codes:
            codes.add(code)
            found += [c for c in code.co_consts if hasattr(c, "co_consts")]
    return codes


#: The contract's operations, by the name the spec calls them (spec/CONTRACT.md).
OPERATIONS = ("get_stats", "merge", "train", "build_vocab", "decode", "encode", "encode_iterable", "save", "load",
              "train_words", "segment_word")


def _operation(error: BaseException, module) -> str:
    """The contract operation the spec called when ``error`` was raised, by the name the spec calls it: the
    outermost frame running the code of one of the module's operations. An implementation's own function
    names (a ``train`` that is ``_train`` inside, a helper the encode calls) are not the operation."""
    module = fixed_pattern.unwrap(module)
    codes = {}
    for name in OPERATIONS:
        function = getattr(module, name, None)
        try:
            function = inspect.unwrap(function) if callable(function) else None
        except ValueError:
            function = None
        code = getattr(getattr(function, "__func__", function), "__code__", None)
        if code is not None:
            codes.setdefault(code, name)
    for entry in traceback.walk_tb(error.__traceback__):
        name = codes.get(entry[0].f_code)
        if name:
            return name
    return ""


def _origin(error: BaseException, root: Path | None, module=None) -> tuple[str, str, str | None]:
    """The call, exception type and place (bpe_kata/impl/frames.py): from the child's error response in isolated
    runs (its optional type and frame), else past any adapter in process; None: the innermost frame."""
    remote = getattr(error, "bpe_kata_call", None)
    if remote is not None:
        place = frames.Place.from_protocol(getattr(error, "bpe_kata_frame", None))
        named = frames.place_in_message(str(error))  # a child that sends no frame may name it (a panic's file:line)
        where = place.shown() if place else named or "?"  # never the spec's own frame that called the client
        return remote, getattr(error, "bpe_kata_type", None) or type(error).__name__, where
    skip = lambda path: str(path).startswith((str(SPEC_DIR), *CLIENT_FILES))  # noqa: E731
    short = lambda path: _short_path(str(path))  # noqa: E731
    place = (frames.place_in_remote_traceback(error, root, short)  # a pool's worker: deeper than any adapter's caller
             or frames.place_of(frames.past_adapters(error, skip), short)
             or frames.place_of(frames.innermost_under(error, root), short, error, root))
    call = frames.constructor_raised(error, root) or _operation(error, module) or frames.entry_call(error, root)
    if place is None:
        frame = _innermost_frame(error, root)
        if frame is not None and frames.adapter_raised(error, frame.filename):  # the wrapped code's place is unknown
            return (
                call,
                type(error).__name__,
                f"? ({_short_path(frame.filename)}:{frame.lineno}, the adapter's own line)",
            )
    return call, type(error).__name__, place.shown() if place else None


def _assertion_detail(error: BaseException, longrepr_text: str, max_lines: int) -> str:
    """The assertion's own message (pytest's rewritten explanation or the spec's diff), cut to a readable size."""
    text = str(error).strip() or (longrepr_text.strip().splitlines() or [""])[-1]
    lines = text.splitlines()
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"... ({len(lines) - max_lines} more lines)"]
    return "\n".join(line[:300] for line in lines)
