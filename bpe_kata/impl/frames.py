"""Where an implementation raised: the innermost frame of its own code, past any adapter.

Root causes are grouped by the place an exception was raised (bpe_kata/verdict/causes.py). That place
must be the implementation's own line: not the spec's, not the protocol server's, and not an
adapter's. An adapter (bpe_kata/adapters/, or any wrapper a user writes) maps call shapes onto
a library; a bug it surfaces is the library's, so the library's line is shown. A module marks
itself an adapter with a module-level ``__bpe_kata_adapter__ = True``; its frames are skipped.

Used in process by bpe_kata/verdict/judging.py and in the child by bpe_kata/child/handlers.py, which sends the frame
in its error responses (docs/PROTOCOL.md, "frame").
"""

from __future__ import annotations

import os
import re
import sysconfig
import traceback
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import FrameType

from bpe_kata.impl.shape_parts import CONSTRUCTOR

ADAPTER_MARK = "__bpe_kata_adapter__"
STDLIB_DIRS = tuple(str(Path(p).resolve()) for p in {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")})


#: At most this many callers (inside the implementation's own code) are named with a place.
MAX_CALLERS = 3


@dataclass(frozen=True)
class Place:
    """A frame as the report shows it: ``function (file:line)``, then the implementation's own callers
    up to the function the spec called, innermost first (one helper raising for two bugs is two places)."""

    function: str
    file: str
    line: int
    callers: tuple[Place, ...] = ()

    def shown(self) -> str:
        return f"{self.function} ({self.file}:{self.line})" + "".join(
            f" from {c.function} ({c.file}:{c.line})" for c in self.callers[:MAX_CALLERS])

    def as_protocol(self) -> dict:
        frame = {"file": self.file, "line": self.line, "function": self.function}
        if self.callers:
            frame["from"] = [c.as_protocol() for c in self.callers[:MAX_CALLERS]]
        return frame

    @classmethod
    def from_protocol(cls, value: object) -> Place | None:
        """The optional ``frame`` of a protocol error (with its optional ``from``), or None when absent or malformed."""
        if not isinstance(value, dict) or not isinstance(value.get("file"), str):
            return None
        line = value.get("line")
        callers = value.get("from") if isinstance(value.get("from"), list) else []
        return cls(str(value.get("function") or "?"), value["file"], line if isinstance(line, int) else 0,
                   tuple(p for p in map(cls.from_protocol, callers[:MAX_CALLERS]) if p is not None))


#: A module built over someone's code (a course shape, bpe_kata/impl/course_shapes.py) names the folder
#: of that code here, for it has no file of its own.
ROOT_MARK = "__bpe_kata_root__"


def implementation_root(module: object) -> Path | None:
    """The file, or for a package the folder, that holds the implementation's own code."""
    root = getattr(module, ROOT_MARK, None)
    if isinstance(root, str) and root:
        return Path(root).resolve()
    file = getattr(module, "__file__", None)
    if not file:
        return None
    path = Path(file).resolve()
    return path.parent if path.name == "__init__.py" else path


def is_adapter(frame: FrameType) -> bool:
    return frame.f_globals.get(ADAPTER_MARK) is True


def _frames(error: BaseException) -> list[tuple[FrameType, int]]:
    return list(traceback.walk_tb(error.__traceback__))


def _resolved(frame: FrameType) -> Path:
    name = frame.f_code.co_filename
    return _resolved_absolute(name) if os.path.isabs(name) else Path(name).resolve()


@lru_cache(maxsize=4096)
def _resolved_absolute(name: str) -> Path:
    """An absolute file name resolved once per process: a child's server reads the frames of every error
    it answers (hundreds in one run, each walking the same few files), and the name means the same file
    whatever the working folder. A relative name depends on it, so that one is resolved every time."""
    return Path(name).resolve()


@lru_cache(maxsize=4096)
def _under(path: Path, root: Path | None) -> bool:
    return root is not None and (path == root or path.is_relative_to(root))


def is_under(frame: FrameType, root: Path) -> bool:
    """Whether a frame runs the code under ``root`` (an adapter's frame counts: it is the implementation's way in)."""
    return _under(_resolved(frame), root)


def innermost_own(error: BaseException, root: Path | None, skip=lambda path: False) -> tuple[FrameType, int] | None:
    """The innermost frame of the implementation's code: under ``root`` if any (adapters' frames
    left out), else the innermost outside the standard library, else the innermost at all.
    ``skip(path)`` leaves out the caller's own files (the spec, the server)."""
    kept = [(f, n) for f, n in _frames(error) if not skip(_resolved(f)) and not is_adapter(f)]
    own = [(f, n) for f, n in kept if _under(_resolved(f), root)]
    outside = [(f, n) for f, n in kept if not str(_resolved(f)).startswith(STDLIB_DIRS)]
    for frames in (own, outside, kept):
        if frames:
            return frames[-1]
    return None


def innermost_under(error: BaseException, root: Path | None) -> tuple[FrameType, int] | None:
    """The innermost frame under ``root`` that is not an adapter's, or None."""
    own = [(f, n) for f, n in _frames(error) if _under(_resolved(f), root) and not is_adapter(f)]
    return own[-1] if own else None


def past_adapters(error: BaseException, skip=lambda path: False) -> tuple[FrameType, int] | None:
    """When the innermost frame outside ``skip`` is an adapter's, the innermost deeper frame (the
    wrapped library's); None when no adapter is involved or the adapter raised itself."""
    frames = [(f, n) for f, n in _frames(error) if not skip(_resolved(f))]
    last = max((i for i, (f, _) in enumerate(frames) if is_adapter(f)), default=None)
    if last is None or last == len(frames) - 1:
        return None
    deeper = frames[last + 1:]
    outside = [(f, n) for f, n in deeper if not str(_resolved(f)).startswith(STDLIB_DIRS)]
    return (outside or deeper)[-1]


def entry_call(error: BaseException, root: Path | None) -> str:
    """The function of the implementation the caller called (the outermost frame under ``root``): the operation."""
    for frame, _ in _frames(error):
        if _under(_resolved(frame), root):
            return frame.f_code.co_name
    return ""


def constructor_raised(error: BaseException, root: Path | None) -> str | None:
    """``"Tokenizer()"`` when the outermost frame of the implementation's code is its class's ``__init__``: the crash
    is in making the object a course shape's call makes first, not in the call (a minbpe constructor raising was five
    causes, one per call, and "make decode run at all first"). Whether it is charged to a claim is the run's evidence
    (bpe_kata/verdict/tallies.py ``made_whatever_the_input``)."""
    own = [f for f, _ in _frames(error) if _under(_resolved(f), root) and not is_adapter(f)]
    if not own or own[0].f_code.co_name != "__init__" or "self" not in own[0].f_locals:
        return None
    return f"{type(own[0].f_locals['self']).__name__}{CONSTRUCTOR}"


def place_of(frame_and_line: tuple[FrameType, int] | None, short=lambda path: path.name,
             error: BaseException | None = None, root: Path | None = None) -> Place | None:
    """The place of a frame; given the error and the implementation's root, with the implementation's own
    frames that called it (adapters' left out), innermost first."""
    if frame_and_line is None:
        return None
    frame, line = frame_and_line
    callers: list[Place] = []
    if error is not None and root is not None and _under(_resolved(frame), root):
        chain = [(f, n) for f, n in _frames(error) if _under(_resolved(f), root) and not is_adapter(f)]
        at = next((i for i, (f, _) in enumerate(chain) if f is frame), None)
        if at is not None:
            callers = [Place(f.f_code.co_name, short(Path(f.f_code.co_filename)), n) for f, n in reversed(chain[:at])]
    return Place(frame.f_code.co_name, short(Path(frame.f_code.co_filename)), line, tuple(callers))


def adapter_raised(error: BaseException, filename: str) -> bool:
    """Whether ``filename`` is the file of an adapter's frame in the error's traceback (the adapter raised itself)."""
    return any(is_adapter(f) and f.f_code.co_filename == filename for f, _ in _frames(error))


_FILE_LINE = re.compile(r"(?<![\w/.-])(/?(?:[\w.-]+/)*[\w.-]+\.(?:rs|py|js|mjs|cjs|ts|go|c|cc|cpp|cxx|h|hpp|java|kt|"
                        r"rb|cs|swift|zig|jl|hs|ml|ex|exs|scala|lua|php|pl)):(\d+)")


def place_in_message(message: str) -> str | None:
    """The first ``file.ext:line`` an error message names (a Rust panic's "panicked at src/main.rs:134"),
    as the report shows a place, or None."""
    found = _FILE_LINE.search(message)
    return f"? ({found.group(1)}:{found.group(2)})" if found else None


_REMOTE_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in (.+)$', re.MULTILINE)


def place_in_remote_traceback(error: BaseException, root: Path | None, short=lambda path: path.name) -> Place | None:
    """Where code under ``root`` raised in another process: a process pool re-raises a worker's exception with the
    worker's traceback as text on its cause (``multiprocessing.pool``'s and ``concurrent.futures``' ``tb``); the
    innermost frame of it under ``root``, with its callers there. None when there is none (eleventh round: a worker's
    assertion was placed in the progress bar's frame that iterated the pool)."""
    text = getattr(error.__cause__, "tb", None)
    if root is None or not isinstance(text, str):
        return None
    own = [(Path(file), int(line), function) for file, line, function in _REMOTE_FRAME.findall(text)
           if _under(Path(file).resolve(), root)]
    if not own:
        return None
    places = [Place(function, short(file), line) for file, line, function in reversed(own)]
    return Place(places[0].function, places[0].file, places[0].line, tuple(places[1:]))
