"""The installed suite, as a gate run vouches for it: which files it is, one SHA-256 over them, and
what a gate's report must say about it to be trusted (``bpe-kata verify-report``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bpe_kata.layout.paths import SUITE_ROOT, suite_files


def suite_sha256(files: list[Path] | None = None) -> str:
    """One SHA-256 over every suite file's path (relative to the suite root) and contents."""
    digest = hashlib.sha256()
    for path in files if files is not None else suite_files():
        name = path.relative_to(SUITE_ROOT) if path.is_relative_to(SUITE_ROOT) else path
        digest.update(str(name).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<missing>")
        digest.update(b"\0")
    return digest.hexdigest()


def verify_report(path: str, pinned: str | None = None, allow_unsandboxed: bool = False, *,
                  expect: str | None = None, report_sha256: str | None = None, partial: bool = False,
                  allow_visible: bool = False, no_expected: bool = False) -> list[str]:
    """What is wrong with a gate report, checked against the suite installed here (empty: nothing): its
    digest (``report_sha256``, the one the gate printed), the suite's, the sandbox, the verdict derived
    again from its per-test records (bpe_kata/verdict/rederive.py, with ``expect``, the run's expectations
    file), the whole spec judged (unless ``partial``), and green."""
    try:
        text = Path(path).read_bytes()
        data = json.loads(text.decode("utf-8"))
    except (OSError, ValueError) as error:
        return [f"{path}: cannot read the report: {error}"]
    if report_sha256 is not None and hashlib.sha256(text).hexdigest() != report_sha256.lower():
        return [f"{path}: its sha256 is {hashlib.sha256(text).hexdigest()}, not the pinned --sha256 {report_sha256}"]
    if not isinstance(data, dict):
        return [f"{path}: not a gate report (a JSON object)"]
    record = data.get("sandbox")
    if not isinstance(record, dict):
        return [f"{path}: no supervisor record (not written by bpe-kata gate's supervisor)"]
    problems, installed = [], suite_sha256()
    start, end = record.get("suite_sha256_start"), record.get("suite_sha256_end")
    if start != end:
        problems.append("the suite changed during the run")
    if start != installed:
        problems.append(f"the run's suite ({start}) is not the suite installed here ({installed})")
    if pinned is not None and start != pinned:
        problems.append(f"the run's suite ({start}) is not the pinned --suite-sha256 {pinned}")
    if record.get("not_sandboxed") and not allow_unsandboxed:
        problems.append("the run was NOT SANDBOXED")
    if record.get("failure"):
        problems.append(f"the supervisor failed the run: {record['failure']}")
    if record.get("visible_to_child") and not allow_visible:  # gate reference, --expose-suite: the suite's own runs
        shown = ", ".join(record["visible_to_child"])
        problems.append(f"the child could read the suite's own implementations ({shown}): no verdict on an "
                        "implementation of its own (--allow-visible for the suite's self-tests)")
    expected = (data.get("expectations") or {}).get("expected_failures") or {}
    if expected and no_expected:
        problems.append(f"{len(expected)} failures were excused by the expectations file (--no-expected)")
    from bpe_kata.verdict import rederive, selection

    if not partial:
        problems += selection.problems(data)
    problems += [f"the verdict does not follow from the report's records: {problem}"
                 for problem in rederive.problems(data, expect)]
    if data.get("complete") is not True or data.get("exit_status") != 0:
        problems.append(
            f"the run is not green (complete={data.get('complete')}, exit_status={data.get('exit_status')})"
        )
    return problems
