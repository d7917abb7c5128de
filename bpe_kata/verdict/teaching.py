"""Likely mistakes behind a run's broken claims, each confirmed on the implementation's behaviour.

A row of teaching.toml names the claims whose failure makes a mistake worth looking for
(``when``) and a probe (spec/mistakes.py) that runs the implementation on a small input and
says whether its output shows that mistake's own signature. A line is printed only when its
probe confirms it: a set of broken claims alone is never enough, since one bug breaks many
claims and many bugs break the same one. ``unless`` names other mistakes whose confirmation
makes this one redundant; an unconfirmed mistake never silences a confirmed one. Confirmed
lines are ranked (an exact replay before a mere symptom, then table order) before the cap.

Probes call the implementation through whatever stands for it in the run (the module, or
the protocol client of an isolated run), one at a time, each with a time limit; whatever a
probe raises means "cannot tell", never a crash of the report.
"""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import spec
from spec import mistakes as probes

TABLE_PATH = Path(spec.__file__).with_name("teaching.toml")  # claim-keyed: the spec's table
MAX_SHOWN = 3
PROBE_SECONDS = 5.0


@dataclass(frozen=True)
class Mistake:
    name: str
    when: tuple[str, ...]
    probe: str
    unless: tuple[str, ...]
    message: str

    def suspected(self, broken: set[str]) -> bool:
        return all(c in broken for c in self.when)


@dataclass(frozen=True)
class Diagnosis:
    """A mistake its probe confirmed: the sentence, and what the probe saw."""

    mistake: Mistake
    seen: probes.Seen

    @property
    def message(self) -> str:
        return self.mistake.message


@cache
def load_mistakes(path: Path = TABLE_PATH) -> tuple[Mistake, ...]:
    with path.open("rb") as handle:
        rows = tomllib.load(handle)["mistake"]
    return tuple(Mistake(r["name"], tuple(r["when"]), r["probe"], tuple(r.get("unless", ())), r["message"])
                 for r in rows)


def run_probe(name: str, implementation, seconds: float = PROBE_SECONDS) -> probes.Seen | None | bool:
    """The probe's answer; None when it cannot tell or raised; False when it ran out of time."""
    return run_callable(lambda: probes.PROBES[name](implementation), name, seconds)


def run_callable(question, name: str, seconds: float = PROBE_SECONDS):
    """``question()``'s answer, asked in a thread with a time limit: None when it raised, False when it ran out
    of time (the split-pattern probe, bpe_kata/verdict/pattern_probe.py, is asked the same way)."""
    answer: list = []

    def target() -> None:
        try:
            answer.append(question())
        except BaseException:  # a probe never breaks the report; the client's faults are BaseException
            answer.append(None)

    worker = threading.Thread(target=target, name=f"bpe-kata probe {name}", daemon=True)
    worker.start()
    worker.join(seconds)
    return answer[0] if answer else False


def diagnose(broken_claims: Iterable[str], implementation, limit: int = MAX_SHOWN,
             seconds: float = PROBE_SECONDS) -> list[Diagnosis]:
    """The mistakes the broken claims point to that the implementation's behaviour confirms, best first."""
    broken = set(broken_claims)
    suspects = [m for m in load_mistakes() if m.suspected(broken)]
    if not suspects or implementation is None:
        return []
    connect = getattr(implementation, "connect", None)
    if callable(connect):  # the isolated client starts its child on first use
        try:
            connect()
        except BaseException:
            return []
    confirmed: dict[str, Diagnosis] = {}
    for mistake in suspects:
        seen = run_probe(mistake.probe, implementation, seconds)
        if seen is False:
            break  # a probe still running would share the implementation with the next one
        if seen is not None:
            confirmed[mistake.name] = Diagnosis(mistake, seen)
    order = {m.name: i for i, m in enumerate(load_mistakes())}
    kept = [d for d in confirmed.values() if not any(u in confirmed for u in d.mistake.unless)]
    kept.sort(key=lambda d: (-d.seen.strength, order[d.mistake.name]))
    return kept[:limit]


def render(diagnoses: list[Diagnosis]) -> list[str]:
    if not diagnoses:
        return []
    lines = ["likely mistake" + ("s" if len(diagnoses) > 1 else "") + ":"]
    for diagnosis in diagnoses:
        lines += [f"  - {diagnosis.message}", f"    seen: {diagnosis.seen.seen}"]
    return lines


def as_json(diagnoses: list[Diagnosis]) -> list[dict]:
    return [{"name": d.mistake.name, "message": d.message, "seen": d.seen.seen, "strength": d.seen.strength}
            for d in diagnoses]
