"""Points a teacher sets, and a run's report turned into a score per level (issue 40).

A points file is a small TOML; every key is optional, so a teacher who writes nothing still gets a fair score::

    default = 10        # points of each level the file does not name (facts is 0: it needs no implementation)
    partial = true      # a level earns points * passed / judged tests; false: all its points or none
    [levels]            # points per level; 0 leaves a level out of the score
    pairs = 20
    pretrained = 0
    [claims]            # extra points per claim, earned when the claim passed, added to its level
    "merge.left-to-right" = 5

The graded levels are those the file names with points above 0, every core level (spec/levels.py; up to
``--level`` in a run narrowed by it) and every other level the run reported: a core level missing from the report
(a run that died) scores 0, never full marks.
A judged test is one that passed, failed or found its level not started; a test "not run" (a corpus missing) is
not the learner's, and a feature the implementation declares it leaves out (a fixed split, one tie rule of
several, what its course shape cannot express) is not a failure: both count on neither side. A level a course
shape cannot be judged on at all (CS336 has no get_stats) is not graded.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from spec.levels import LEVELS

#: The keys of a points file, and what each holds (the error for a wrong file names them).
KEYS = {"default": "points of each level not named in [levels] (a number >= 0)",
        "partial": "true: points * passed / judged tests; false: all of a level's points or none",
        "levels": "a table: level name = points", "claims": "a table: claim id = extra points"}
DEFAULT_POINTS = 10.0
#: Levels whose tests check the suite's own facts, not the implementation: no points unless the file gives some.
UNGRADED_BY_DEFAULT = frozenset({"facts"})
LEVEL_NAMES = tuple(level.name for level in LEVELS)
CORE_LEVELS = tuple(level.name for level in LEVELS if level.core)


class PointsError(ValueError):
    """A points file that cannot be used: the message names the file, the key and what it must be."""


@dataclass(frozen=True)
class Points:
    """What a teacher set (or the defaults)."""

    default: float = DEFAULT_POINTS
    partial: bool = True
    levels: dict[str, float] = field(default_factory=dict)
    claims: dict[str, float] = field(default_factory=dict)

    def of_level(self, level: str) -> float:
        if level in self.levels:
            return self.levels[level]
        return 0.0 if level in UNGRADED_BY_DEFAULT else self.default


@dataclass(frozen=True)
class LevelScore:
    """One level's line of a gradebook: its status word, its counts, its points and what to do next."""

    level: str
    status: str  # the report's level status in lower case ("green", "failed", "not started", ...), or "no result"
    passed: int
    total: int  # judged tests: passed, failed or not started
    points: float
    max_points: float
    failed_claims: tuple[str, ...]
    message: str

    @property
    def full_marks(self) -> bool:
        return self.points >= self.max_points


def _number(value: object, where: str, shown: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise PointsError(f"{shown}: {where} = {value!r}: points must be a number >= 0")
    return float(value)


def load(path: str | Path | None) -> Points:
    """The points in ``path`` (None: the defaults). Raises PointsError naming the bad key or value."""
    if path is None:
        return Points()
    shown = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise PointsError(f"--points {shown}: cannot read it: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PointsError(f"--points {shown}: not valid TOML: {error}") from None
    return parse(data, shown)


def parse(data: dict, shown: str = "points") -> Points:
    """The points a parsed TOML document sets (see the module's docstring for its keys)."""
    from spec.ledger import load_claims

    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise PointsError(f"{shown}: unknown key {unknown[0]!r}; the keys are: "
                          + "; ".join(f"{k} ({v})" for k, v in KEYS.items()))
    partial = data.get("partial", True)
    if not isinstance(partial, bool):
        raise PointsError(f"{shown}: partial = {partial!r}: must be true or false")
    tables: dict[str, dict[str, float]] = {}
    known = {"levels": set(LEVEL_NAMES), "claims": set(load_claims())}
    for key, what in (("levels", "level"), ("claims", "claim")):
        table = data.get(key, {})
        if not isinstance(table, dict):
            raise PointsError(f"{shown}: {key} must be a table ([{key}]), not {table!r}")
        for name in table:
            if name not in known[key]:
                hint = ", ".join(LEVEL_NAMES) if key == "levels" else "`bpe-kata claims` lists them"
                raise PointsError(f"{shown}: [{key}] {name!r} is no {what} of the spec ({hint})")
        tables[key] = {name: _number(value, f"[{key}] {name}", shown) for name, value in table.items()}
    return Points(default=_number(data.get("default", DEFAULT_POINTS), "default", shown), partial=partial,
                  levels=tables["levels"], claims=tables["claims"])


def graded_levels(report: dict, points: Points) -> list[str]:
    """The levels a score counts, in the kata's order: see the module's docstring."""
    present = set(report.get("levels") or {}) - beyond_the_shape(report)
    expected = set(expected_levels(report)) - beyond_the_shape(report)
    chosen = {name for name in LEVEL_NAMES
              if points.of_level(name) > 0 and (name in present or name in expected or name in points.levels)}
    chosen |= {claim_level for claim_level in _claim_levels(points) if claim_level}
    return [name for name in LEVEL_NAMES if name in chosen]


def beyond_the_shape(report: dict) -> set[str]:
    """Levels a course-shaped solution (``cs336:``, ``minbpe:``) cannot be judged on: nothing passed or failed
    there, and every reason its tests give is the shape's (CS336 has no get_stats, no merge, ...)."""
    from bpe_kata.impl.course_shapes import PREFIXES

    if not str(report.get("implementation") or "").startswith(PREFIXES):
        return set()
    found = set()
    for name, counts in (report.get("levels") or {}).items():
        reasons = (report.get("skip_reasons") or {}).get(name) or []
        if (reasons and not counts.get("passed") and not counts.get("failed")
                and all("shape has no" in why or "shape cannot" in why for why in reasons)):
            found.add(name)
    return found


def expected_levels(report: dict) -> tuple[str, ...]:
    """The core levels a run should have reported: all of them, or those up to ``--level`` when the run was
    narrowed by it; none when it was narrowed otherwise (``--claim``, ``-k``, ``-m``: the levels it reported)."""
    narrowed = report.get("narrowed_by") or []
    if not narrowed:
        return CORE_LEVELS
    level = next((item.split(" ", 1)[1] for item in narrowed if str(item).startswith("--level ")), None)
    if level not in LEVEL_NAMES or len(narrowed) > 1:
        return ()
    return tuple(name for name in CORE_LEVELS if LEVEL_NAMES.index(name) <= LEVEL_NAMES.index(level))


def _claim_levels(points: Points) -> set[str]:
    from spec.ledger import load_claims

    ledger = load_claims()
    return {ledger[cid].level for cid in points.claims if points.claims[cid] > 0}


def level_scores(report: dict, points: Points | None = None) -> list[LevelScore]:
    """The run's report (``--bpe-report``, bpe_kata/verdict/report.py) as one score per graded level."""
    points = points or Points()
    levels, claims = report.get("levels") or {}, report.get("claims") or {}
    scores = []
    for name in graded_levels(report, points):
        counts = levels.get(name)
        failed = tuple(sorted(cid for cid, claim in claims.items()
                              if claim.get("level") == name and claim.get("status") == "failed"))
        level_max = points.of_level(name)
        extra = {cid: value for cid, value in points.claims.items() if _level_of(cid) == name}
        earned_extra = sum(value for cid, value in extra.items() if (claims.get(cid) or {}).get("status") == "passed")
        if counts is None:
            scores.append(LevelScore(name, "no result", 0, 0, round(earned_extra, 2),
                                     round(level_max + sum(extra.values()), 2), failed,
                                     _message(name, None, 0, 0, failed)))
            continue
        passed = int(counts.get("passed", 0))
        # a feature the implementation says it leaves out (a fixed split, one tie rule, its course shape's
        # limits) is no test it failed: such tests count on neither side
        feature = int(counts.get("of which a feature not started", 0))
        total = passed + int(counts.get("failed", 0)) + int(counts.get("not started", 0)) - feature
        status = str(counts.get("status", "")).lower()
        if points.partial:
            earned = level_max * passed / total if total else 0.0
        else:
            earned = level_max if status == "green" else 0.0
        cause = next((c for c in report.get("root_causes") or [] if name in (c.get("levels") or [])), None)
        message = _message(name, status, passed, total, failed)
        if cause and status == "failed":
            message += f"; an error stopped {cause.get('count', 'some')} tests: {_short(cause.get('exception', ''))}"
        scores.append(LevelScore(name, status, passed, total, round(earned + earned_extra, 2),
                                 round(level_max + sum(extra.values()), 2), failed, message))
    return scores


def _level_of(cid: str) -> str | None:
    from spec.ledger import load_claims

    claim = load_claims().get(cid)
    return claim.level if claim else None


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text[:limit] + (" …" if len(text) > limit else "")


def _message(level: str, status: str | None, passed: int, total: int, failed: tuple[str, ...]) -> str:
    """One line a learner can act on."""
    again = f"`bpe-kata check YOUR_CODE --level {level}`"
    if status is None:
        return f"{level}: no result (the run ended before this level reported; see the run's output)"
    if status == "green":
        return f"{level}: green, {passed}/{total} tests passed"
    if status == "failed":
        named = ", ".join(failed[:5]) + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
        return (f"{level}: failed, {passed}/{total} tests passed" + (f"; broken claims: {named}" if failed else "")
                + f"; run {again} to see why")
    if status in ("not started", "partly started"):
        return f"{level}: {status}, {passed}/{total} tests passed; write what it needs (spec/CONTRACT.md), then {again}"
    return f"{level}: {status}, {passed}/{total} tests passed (some tests were not run: a corpus or table missing)"


def total(scores: list[LevelScore]) -> tuple[float, float]:
    """(points earned, points possible) over ``scores``."""
    return round(sum(s.points for s in scores), 2), round(sum(s.max_points for s in scores), 2)
