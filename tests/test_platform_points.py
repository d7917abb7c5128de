"""Points a teacher sets (bpe_kata/platforms/points.py, issue 40): the defaults a teacher who writes nothing
gets, partial credit, levels a run never reported, and errors that name the bad key or value."""

from __future__ import annotations

import pytest

from bpe_kata.platforms import points
from bpe_kata.platforms.points import PointsError


def _counts(passed: int, failed: int = 0, not_started: int = 0, not_run: int = 0, status: str | None = None) -> dict:
    if status is None:
        status = "FAILED" if failed else "not started" if not_started else "green"
    return {"passed": passed, "failed": failed, "not started": not_started, "not run": not_run, "status": status}


def _report(levels: dict, claims: dict | None = None, narrowed: list[str] | None = None) -> dict:
    return {"levels": levels, "claims": claims or {}, "narrowed_by": narrowed or [], "complete": True}


def test_a_teacher_who_writes_nothing_gets_ten_points_a_core_level_and_none_for_facts():
    report = _report({"facts": _counts(38), "bytes": _counts(14), "pairs": _counts(5, failed=4)},
                     {"pairs.adjacent-overlapping": {"level": "pairs", "status": "failed"}}, ["--level pairs"])
    scores = {s.level: s for s in points.level_scores(report)}
    assert list(scores) == ["bytes", "pairs"]  # facts needs no implementation: 0 points, left out
    assert (scores["bytes"].points, scores["bytes"].max_points, scores["bytes"].status) == (10, 10, "green")
    assert scores["pairs"].points == pytest.approx(10 * 5 / 9, abs=0.01)
    assert (scores["pairs"].passed, scores["pairs"].total) == (5, 9)
    assert scores["pairs"].failed_claims == ("pairs.adjacent-overlapping",)
    assert "pairs.adjacent-overlapping" in scores["pairs"].message and "--level pairs" in scores["pairs"].message
    assert points.total(list(scores.values())) == (pytest.approx(15.56), 20)


def test_not_run_tests_count_on_neither_side_and_not_started_ones_count_against():
    report = _report({"bytes": _counts(10, not_run=4, status="partly run"),
                      "pairs": _counts(0, not_started=9)}, narrowed=["--level pairs"])
    bytes_, pairs = points.level_scores(report)
    assert (bytes_.points, bytes_.total) == (10, 10)
    assert (pairs.points, pairs.status) == (0, "not started")
    assert "CONTRACT.md" in pairs.message


def test_a_core_level_the_run_never_reported_scores_zero_not_full_marks():
    """A run the wall limit stopped leaves a report without levels: every core level is 0, none is dropped."""
    scores = points.level_scores({"complete": False, "levels": {}, "claims": {}})
    assert [s.level for s in scores] == list(points.CORE_LEVELS)
    assert all(s.points == 0 and s.max_points == 10 and s.status == "no result" for s in scores)


def test_all_or_nothing_levels_and_level_and_claim_points_from_a_file(tmp_path):
    file = tmp_path / "points.toml"
    file.write_text('default = 5\npartial = false\n[levels]\npairs = 20\nbytes = 0\n'
                    '[claims]\n"pairs.adjacent-overlapping" = 3\n', encoding="utf-8")
    chosen = points.load(file)
    report = _report({"bytes": _counts(14), "pairs": _counts(8, failed=1), "merge": _counts(14)},
                     {"pairs.adjacent-overlapping": {"level": "pairs", "status": "passed"}}, ["--level merge"])
    scores = {s.level: s for s in points.level_scores(report, chosen)}
    assert list(scores) == ["pairs", "merge"]  # bytes = 0: not graded
    assert (scores["pairs"].points, scores["pairs"].max_points) == (3, 23)  # failed: no level points, the claim's 3
    assert (scores["merge"].points, scores["merge"].max_points) == (5, 5)


@pytest.mark.parametrize(("text", "named"), [
    ("defualt = 3\n", "'defualt'"),
    ("[levels]\npair = 3\n", "'pair'"),
    ("[levels]\npairs = -1\n", "[levels] pairs = -1"),
    ('[levels]\npairs = "ten"\n', "[levels] pairs = 'ten'"),
    ("partial = 1\n", "partial = 1"),
    ('[claims]\n"pairs.nope" = 1\n', "'pairs.nope'"),
    ("levels = 3\n", "levels must be a table"),
    ("default = [\n", "not valid TOML"),
])
def test_a_wrong_file_is_refused_naming_the_key_or_value(tmp_path, text, named):
    file = tmp_path / "points.toml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(PointsError) as error:
        points.load(file)
    assert named in str(error.value) and str(file) in str(error.value)


def test_a_missing_points_file_is_said_with_its_name(tmp_path):
    with pytest.raises(PointsError, match="cannot read it"):
        points.load(tmp_path / "absent.toml")


def test_a_level_stopped_by_an_error_says_the_error():
    """A submission that cannot be imported breaks no claim: its levels' lines name the error instead."""
    cause = {"exception": "ImplementationError: importing it raised SyntaxError: '[' was never closed (bpe.py, line 2)",
             "count": 23, "levels": ["bytes", "pairs"]}
    report = {**_report({"bytes": _counts(0, failed=14), "pairs": _counts(0, failed=9)}, narrowed=["--level pairs"]),
              "root_causes": [cause]}
    assert all("SyntaxError: '[' was never closed" in s.message for s in points.level_scores(report))


def test_what_a_course_shape_cannot_express_is_not_held_against_it():
    """CS336's shape has no get_stats: its pairs level is not graded; a call the shape cannot make counts on
    neither side (a "feature not started"), while the same level's real failures still count."""
    levels = {"bytes": _counts(14), "pairs": _counts(0, not_started=9),
              "special": {**_counts(40, failed=2, not_started=19), "of which a feature not started": 19}}
    reasons = {"pairs": ["not started: get_stats raises NotImplementedError (the CS336 shape has no get_stats: ...)"],
               "special": ["not started: the course shape cannot express this call: ..."]}
    report = {**_report(levels, narrowed=["--level special"]), "skip_reasons": reasons}
    shaped = {s.level: s for s in points.level_scores({**report, "implementation": "cs336:work/repo"})}
    assert "pairs" not in shaped and (shaped["special"].passed, shaped["special"].total) == (40, 42)
    plain = {s.level: s for s in points.level_scores({**report, "implementation": "work/bpe.py"})}
    assert plain["pairs"].points == 0 and plain["pairs"].max_points == 10  # a plain module must write get_stats
