"""A malformed value an implementation returns fails the claim that states its shape; the suite's own code never
crashes on it.

The rule. Where the suite reads a value the implementation returned, a value of the wrong form fails the claim that
states the form, in whatever test drew it; where the suite translates a value (a course shape), it translates it
as it is, or refuses it with a clear error naming what is wrong, never a KeyError of its own. A crash of the
suite's code on such a value used to be charged to the claim of whichever test met it (seen on a public CS336
solution: a pair learned twice gave a table with a hole in its ids, ``{(97, 98): 258, (97, 256): 257}``, and the
KeyError of the shape's ``token_bytes`` and of the swapped oracle's ``build_vocab`` was charged to decode.vocab-order,
roundtrip.any-text and special.decode).

Inventory: where the suite consumes an implementation's result, and what it does with a malformed one.

- ``train``'s table, fed on to ``build_vocab``, ``encode``, ``encode_iterable`` or ``save`` (the implementation's own,
  or the oracle's under a swap, bpe_kata/verdict/substitution.py): its ids must be 256, 257, ... one per merge, each
  part a byte or an earlier merge's id (spec/trained_vocab.py ``form_wrong``). A table that is not is noted when
  ``train`` returns (``note_trained``, from the recorder and the session's trained tables) and fails
  ``train.ids-from-256`` when a test hands it to another operation (``refuse_fed``), before anything reads it.
  A table that cannot even be read as pairs and ids fails ``train.ids-from-256`` as ``train`` returns it.
  The tests of ``train`` itself read the table as it is: their classifier (spec/cases/expect.py
  ``training_claim``, spec/oracle/valid_training.py ``ids_wrong``) names the claim, train.exhausted included.
- The course shapes' translations (bpe_kata/impl/course_cs336.py, course_minbpe.py): the course's merges list
  becomes the contract's table as a dict assignment makes it (a pair learned twice keeps its place and takes its
  last id: the hole is the table's, judged as above, and is the repeat's mark: its claim is the one the repeat
  breaks, spec/table_ids.py); ``shape_parts.token_bytes`` refuses a table whose part
  names no byte and no earlier merge with a ValueError saying so (the spec never hands it one it trained).
- ``spec/shapes.py`` (``merges_of``, ``pairs_of``, ``ids_of``): read a result as plain values; a train result they
  cannot read is refused as above. A malformed ``get_stats`` or ``load`` result still raises there, inside the test
  of that operation's own claim (left: no claim states those forms apart from the behaviour).
- ``encode``'s and ``merge``'s ids, fed on to ``decode`` or another ``merge`` by the spec as they are: one that cannot
  even be iterated (None) is refused as the call returns it (``refuse_unreadable_ids``), the failure of that call,
  as the course shapes refuse it (``shape_parts.ids_returned``): ``decode(None)`` raising inside decode was charged
  as decode's crash.
- ``spec/trained_vocab.py`` ``vocab_of_trained``: checks the form under ``train.ids-from-256`` before it reads.
- The session's trained tables (bpe_kata/run/data_fixtures.py ``trained``): noted like the recorder's.
- spec/early_stop.py ``check_trained`` and the teaching probes (spec/mistakes.py, spec/mistake_probes.py): they
  read a table only inside a guard (an unreadable one is no evidence, and is left to the claims above).
- Worked training cases (spec/cases/ops_core.py): a table whose ids repeat or fall below 256 cannot be renumbered
  into its pairs (spec/trained_vocab.py ``ids_ambiguous``), so only ``train.ids-from-256`` is judged on it.
- Through the protocol (``cmd:``, the gate): bpe_kata/child/answers.py checks each result's JSON shape first, a
  mismatch being the child breaking the protocol; a table of the right JSON shape with wrong ids is a table like
  any other, noted and refused here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: Operations that take a merge table: a malformed table ``train`` returned is refused before any of them reads it.
FED = frozenset({"build_vocab", "encode", "encode_iterable", "save"})
#: At most this many malformed tables are remembered (a property trains many; a refusal needs the last few).
KEPT = 32

#: the claim a wrong form fails unless the text trained on shows it is another's mark
IDS_CLAIM = "train.ids-from-256"
#: (the table, its items when readable, what is wrong, the claim that states it)
_noted: list[tuple[object, tuple | None, str, str]] = []


def reset() -> None:
    """A run starts (bpe_kata/run/kata_run.py): another implementation's tables are forgotten (the suite's own
    tests run the spec many times in one process). Not per test: the session's trained tables outlive a test."""
    _noted.clear()


def _items(table: object) -> tuple | None:
    try:
        return tuple((tuple(pair), idx) for pair, idx in table.items())  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a table that cannot be read is compared by identity only
        return None


#: Operations whose result is a sequence of ids the spec may hand on as it is.
RETURN_IDS = frozenset({"encode", "merge"})


def refuse_unreadable_ids(operation: str, result: object) -> None:
    """``MalformedResult`` when ``operation`` returns ids that cannot even be iterated, as a course shape's reader
    says it (never consumed here: an iterator stays as it is). Called as the call returns, in a test or a probe."""
    if operation not in RETURN_IDS:
        return
    try:
        iter(result)  # type: ignore[call-overload]
    except TypeError:
        from bpe_kata.impl.shape_parts import not_of_the_form

        raise not_of_the_form(result, function=operation, call=operation) from None


def note_trained(table: object, blame: Callable[[], str | None] | None = None) -> None:
    """``table`` is what ``train`` just returned: remembered when its form is wrong (``refuse_fed`` then refuses
    it); failed at once under ``train.ids-from-256`` when it cannot be read as pairs and ids at all. ``blame``
    names another claim the wrong form is the mark of, where the text trained on says so (a pair learned twice:
    spec/table_ids.py ``pair_learned_again``)."""
    from spec.blame import checking
    from spec.trained_vocab import form_wrong, unreadable

    cannot = unreadable(table)
    if cannot is not None:
        with checking("train.ids-from-256"):
            raise AssertionError(f"train returned a table the contract cannot read: {cannot}")
    problem = form_wrong(table)
    if problem is not None:
        claim = None
        if blame is not None:
            try:
                claim = blame()
            except Exception:  # noqa: BLE001 - no answer is no evidence: the form's own claim
                claim = None
        if claim:
            problem += f" (a pair learned twice: a dict keeps its first place and its last id; the repeat is {claim}'s)"
        _noted.append((table, _items(table), problem, claim or IDS_CLAIM))
        del _noted[:-KEPT]


def refuse_fed(operation: str, args: tuple, kwargs: dict) -> None:
    """Fail ``train.ids-from-256`` when one of the arguments is (a copy of) a malformed table ``train`` returned:
    nothing the operation does with it says anything about the operation."""
    if not _noted:
        return
    for value in (*args, *kwargs.values()):
        if not isinstance(value, Mapping):
            continue
        found = _problem_of(value)
        if found is not None:
            from spec.blame import checking

            problem, claim = found
            with checking(claim):
                raise AssertionError(f"{operation} was given a table train returned, which is not a table of the "
                                     f"contract: {problem}")


def _problem_of(value: Mapping) -> tuple[str, str] | None:
    """(what is wrong, its claim) when ``value`` is (a copy of) a malformed table train returned."""
    for table, _, problem, claim in _noted:
        if table is value:
            return problem, claim
    sizes = {len(items) for _, items, _, _ in _noted if items is not None}
    if len(value) not in sizes:
        return None
    items = _items(value)
    return next(((problem, claim) for _, kept, problem, claim in _noted if kept is not None and kept == items), None)
