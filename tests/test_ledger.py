"""The ledger carries every claim, and every contract/fact claim of the suite's levels has a test."""

from __future__ import annotations

import re

import pytest

from spec.ledger import DOCUMENT_KEYS, DOCUMENTS, KINDS, load_claims
from spec.levels import ALL_LEVEL_NAMES
from tests.support import SHARED

CLAIMS = load_claims()


def shared_claim_ids() -> list[str]:
    path = SHARED / "CLAIMS.md"
    return re.findall(r"^\| ([a-z0-9]+\.[a-z0-9-]+) \|", path.read_text(encoding="utf-8"), flags=re.M)


@pytest.mark.beside("shared/CLAIMS.md")
def test_every_inventory_claim_is_in_the_ledger():
    ids = shared_claim_ids()
    assert len(ids) > 80
    assert sorted(set(ids) - set(CLAIMS)) == []


def test_ledger_entries_are_well_formed():
    for claim in CLAIMS.values():
        assert claim.kind in KINDS, claim.id
        assert claim.level in ALL_LEVEL_NAMES, claim.id
        assert claim.statement.strip(), claim.id
        assert set(claim.sources) <= set(DOCUMENTS), claim.id
        assert claim.sources or claim.added, f"{claim.id} cites no document"
        assert claim.depends_on_tie_rule in ("", "first-counted"), claim.id
        if claim.kind == "informative":
            assert claim.reason.strip(), f"{claim.id} is informative but says not why"


def test_every_asserted_claim_has_a_test(spec_tests):
    tested = {claim for row in spec_tests.values() for claim in row["claims"]}
    untested = [c.id for c in CLAIMS.values() if c.asserted and c.id not in tested]
    assert untested == []


def claim_level_from_tests(test_levels) -> str:
    """The ledger's rule: the lowest level of a claim's tests, "facts" only when nothing else checks it."""
    own = [level for level in test_levels if level != "facts"] or list(test_levels)
    return min(own, key=ALL_LEVEL_NAMES.index)


def test_every_claim_level_is_the_first_level_whose_tests_check_it(spec_tests):
    """A claim's level, its tests' level marks and `bpe-kata claims --level` tell the same story."""
    levels_of: dict[str, set[str]] = {}
    for row in spec_tests.values():
        for claim in row["claims"]:
            levels_of.setdefault(claim, set()).add(row["level"])
    wrong = {cid: (CLAIMS[cid].level, claim_level_from_tests(levels)) for cid, levels in levels_of.items()
             if CLAIMS[cid].level != claim_level_from_tests(levels)}
    assert wrong == {}, "claim: (ledger level, level its tests give)"


def test_the_ledger_refuses_unknown_fields_and_unknown_documents(tmp_path):
    ledger = tmp_path / "claims.toml"
    entry = '[[claim]]\nid = "a.b"\nlevel = "bytes"\nkind = "contract"\nstatement = "s"\n'
    ledger.write_text('[documents]\nd0 = "A title"\n' + entry + 'sources = ["d0"]\n', encoding="utf-8")
    assert load_claims(ledger)["a.b"].sources == ("A title",)
    for extra in ('sources = ["d9"]\n', 'also_fact = true\n'):
        ledger.write_text('[documents]\nd0 = "A title"\n' + entry + extra, encoding="utf-8")
        load_claims.cache_clear()
        with pytest.raises(ValueError):
            load_claims(ledger)
    load_claims.cache_clear()


def test_statements_name_documents_by_title_not_by_short_key():
    """A reader of the report meets no "D1's corpus": documents are named by their titles."""
    keyed = [c.id for c in CLAIMS.values() if re.search(r"\bD[0-4]\b", f"{c.statement} {c.reason}")]
    assert keyed == []


def test_every_document_key_of_a_claim_id_stands_for_a_document():
    keys = {
        part.split("-")[0] for cid in CLAIMS for part in cid.split(".")[1:] if re.fullmatch(r"d\d+", part.split("-")[0])
    }
    assert keys and keys <= set(DOCUMENT_KEYS)


def test_every_level_of_the_ledger_is_a_level_of_the_suite():
    assert {c.level for c in CLAIMS.values()} <= set(ALL_LEVEL_NAMES)


def test_every_spec_test_names_a_level_and_known_claims(spec_tests):
    assert len(spec_tests) > 100
    for nodeid, row in spec_tests.items():
        assert row["level"] in ALL_LEVEL_NAMES, f"{nodeid} has no known level mark"
        assert row["claims"], f"{nodeid} names no claim"
        unknown = [c for c in row["claims"] if c not in CLAIMS]
        assert unknown == [], f"{nodeid} marks unknown claims {unknown}"


def _word_runs(text: str, length: int) -> set[tuple[str, ...]]:
    """Runs of ``length`` words that read as prose: literal values (hex, toy corpora) are short words."""
    words = re.findall(r"[a-z']+", text.lower())
    runs = (tuple(words[i:i + length]) for i in range(len(words) - length + 1))
    return {run for run in runs if sum(len(word) >= 4 for word in run) >= 4}


def _without_titles(text: str) -> str:
    """A statement minus the documents' titles it cites (citing a title is required, not copying)."""
    for title in DOCUMENTS:
        text = text.replace(title, " ")
    return text


@pytest.mark.beside("shared/seeds")
def test_statements_are_in_our_own_words():
    """No statement repeats ten words in a row of a source document."""
    seeds = sorted((SHARED / "seeds").glob("*.txt"))
    assert seeds, "the source documents' folder holds no document"
    document_runs = set().union(*(_word_runs(p.read_text(encoding="utf-8"), 10) for p in seeds))
    copied = [c.id for c in CLAIMS.values() if _word_runs(_without_titles(c.statement), 10) & document_runs]
    assert copied == []


def test_checks_of_files_beside_the_repository_are_left_out_where_they_are_absent(tmp_path, monkeypatch, capsys):
    """A fresh clone without ../shared: those checks are not collected (no skip), and the header says why."""
    from tests.support import BESIDE_VAR, nested_pytest

    monkeypatch.setenv(BESIDE_VAR, str(tmp_path))
    code = nested_pytest(["tests/test_ledger.py"], "--collect-only", "-v")
    output = capsys.readouterr().out
    assert code == 0, output
    assert (
        "test_every_inventory_claim_is_in_the_ledger" not in output
        and "test_statements_are_in_our_own_words" not in output
    )
    assert "test_ledger_entries_are_well_formed" in output and "2 deselected" in output
    assert "note: ../shared/CLAIMS.md, ../shared/seeds absent beside the repository" in output


def test_prerequisites_name_only_known_claims_and_form_no_cycle():
    """``rests_on``: each entry names a claim or a pattern matching some; following them never comes back."""
    from spec.ledger import prerequisite_cycle, prerequisites, unknown_prerequisites

    assert unknown_prerequisites() == {}
    assert prerequisite_cycle(prerequisites()) is None
    assert prerequisites()["train.tie-first-counted"], "the training claims rest on pairs and merge"
    assert "merge.left-to-right" in prerequisites()["train.tie-recorded"]


def test_the_cycle_check_finds_a_cycle_and_unknown_names(tmp_path):
    from spec.ledger import load_claims, prerequisite_cycle, prerequisites, unknown_prerequisites

    assert prerequisite_cycle({"a": ("b",), "b": ("c",), "c": ("a",)}) == ["a", "b", "c", "a"]
    assert prerequisite_cycle({"a": ("b",), "b": ()}) is None
    ledger = tmp_path / "claims.toml"
    ledger.write_text(
        '[documents]\nd9 = "A document"\n'
        '[[claim]]\nid = "x.one"\nlevel = "bytes"\nkind = "contract"\nstatement = "s"\nrests_on = ["x.*", "y.gone"]\n'
        '[[claim]]\nid = "x.two"\nlevel = "bytes"\nkind = "contract"\nstatement = "s"\nrests_on = ["x.one"]\n',
        encoding="utf-8",
    )
    assert set(load_claims(ledger)) == {"x.one", "x.two"}
    assert unknown_prerequisites(ledger) == {"x.one": ["y.gone"]}
    assert prerequisites(ledger)["x.one"] == ("x.two",)  # a pattern never makes a claim rest on itself
    assert prerequisite_cycle(prerequisites(ledger)) == ["x.one", "x.two", "x.one"]


def test_a_claim_resting_on_a_broken_one_is_not_judged_and_the_root_stays_broken():
    from spec.ledger import not_judged

    graph = {"m": (), "t": ("m",), "r": ("t",), "e": ()}
    assert not_judged({"m", "t", "r", "e"}, graph) == {"t": ("m",), "r": ("m",)}
    assert not_judged({"r"}, graph) == {}  # nothing below it broke: it is judged
    assert not_judged({"t", "r"}, graph) == {"r": ("t",)}
