"""Why a graded submission has no verdict of its own: it could not be loaded, or one of its calls hung.

A submission that cannot be imported (a missing path, a folder without ``__init__.py``, a prefix that names no
course shape, a shell glob that matched nothing, an ImportError, a SyntaxError) used to become a row "failed"
on every level, its likely mistakes and broken claims blamed on the spec's claims. Its row is now
"could not load: CAUSE" with no level cells and no claim blamed. Values that name nothing on disk are told
before anything runs (``before_run``: the filesystem only, never the submission's code); the others from the
child's report, whose root cause is the child's first call, ``hello`` (``not_loaded``).

A call that hangs fails its test when its time limit runs out (``--call-timeout``, which grade sets per call,
bpe_kata/tools/grade.py); the report's root causes name the call, and ``hung_calls`` turns them into
"hung in train".
"""

from __future__ import annotations

import re
from pathlib import Path

from bpe_kata.impl import course_shapes

#: The longest cause a row shows (the whole message is in the submission's report).
CAUSE_WIDTH = 300
#: The row's result when the submission never loaded.
NOT_LOADED = "could not load"
#: A value with one of these characters that names nothing was a shell glob that matched nothing.
GLOB_CHARACTERS = "*?["
#: The child's first call, made once it has imported the submission (bpe_kata/child/process.py).
LOAD_CALL = "hello"
#: How the failure of a load that crashed or ran out of time begins ("crashed: hello: ...", "over budget: hello: ...").
LOAD_FAULT = re.compile(rf"^(crashed|timed out|over budget|too slow): {LOAD_CALL}: (.*)")
#: How a hung call's failure begins in the report: "timed out: train: no answer within 10 s ...", "too slow:
#: train(text='...') was still running ..." (bpe_kata/child/line_pipes.py, process.py, deadlines.py).
HUNG = re.compile(r"^(timed out|too slow): (\w+)\b(?!: the run's time budget)")


def before_run(submission: str) -> str | None:
    """Why ``submission`` cannot be loaded, told from its value and the filesystem alone; None when it may load.

    A dotted module name (``solutions.mine``) and ``cmd:COMMAND`` are left to the run."""
    if submission.startswith("cmd:"):
        return None if submission[4:].strip() else "cmd: names no command"
    prefix, colon, rest = submission.partition(":")
    if colon and prefix.isidentifier() and len(prefix) > 1 and not Path(submission).exists():
        if prefix not in course_shapes.SHAPES:
            known = ", ".join([*course_shapes.SHAPES, "cmd"])
            return f"unknown prefix {prefix!r} (known: {known}); a plain path needs none"
        try:
            shape = course_shapes.parse(submission)
        except course_shapes.ShapeError as error:
            return str(error)
        path = Path(shape.path).expanduser()
        return None if path.exists() else f"{path} does not exist"
    path = Path(submission).expanduser()
    looks_like_path = "/" in submission or submission.endswith(".py") or submission.startswith(".")
    if not path.exists():
        if any(c in submission for c in GLOB_CHARACTERS):
            return f"{submission}: a shell pattern that matched no file"
        return f"{submission} does not exist" if looks_like_path else None
    if path.is_dir() and not (path / "__init__.py").is_file():
        found = sorted(p.name for p in path.glob("*.py"))[:3]
        return (f"{path.name}/ has no __init__.py, so it is not a package"
                + (f"; grade one of its files ({', '.join(found)}) or add __init__.py" if found else ""))
    if path.is_file() and path.suffix != ".py":
        return f"{path.name} is not a .py file"
    return None


def not_loaded(report: dict) -> str | None:
    """The cause, in one line, when the report says the submission never loaded: no claim saw a call answered, and
    its root cause is the load call, or the load call ran out of time (an import that hangs)."""
    if any((claim.get("calls") or 0) > 0 for claim in (report.get("claims") or {}).values()):
        return None
    loading = [c for c in report.get("root_causes") or [] if c.get("call") == LOAD_CALL]
    if loading:
        return one_line(loading[0].get("exception", ""))
    for text in (report.get("failures") or {}).values():
        fault = LOAD_FAULT.match(str(text))
        if fault and fault.group(1) == "crashed":
            return f"importing it ended its process: {fault.group(2)}"
        if fault:
            return "importing it did not finish within the time limit: it hangs, or does heavy work, on import"
    return None


def one_line(exception: str) -> str:
    """An ``ImplementationError: hello: --impl VALUE: cause`` as its cause's first line."""
    text = exception.strip().splitlines()[0] if exception.strip() else "no cause given"
    text = re.sub(r"^\w+(Error|Exception): ", "", text)
    text = re.sub(rf"^{LOAD_CALL}: ", "", text)
    text = re.sub(r"^--impl \S+: ", "", text)
    return text if len(text) <= CAUSE_WIDTH else text[:CAUSE_WIDTH].rsplit(" ", 1)[0] + " …"


def hung_calls(report: dict) -> list[str]:
    """The calls that hung (ran out of their time), most hung first, from the report's failures."""
    counts: dict[str, int] = {}
    for text in (report.get("failures") or {}).values():
        found = HUNG.match(str(text))
        if found and found.group(2) != LOAD_CALL:
            counts[found.group(2)] = counts.get(found.group(2), 0) + 1
    return sorted(counts, key=lambda call: -counts[call])
