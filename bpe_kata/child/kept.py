"""Results the child keeps (docs/PROTOCOL.md, "Kept results"), so they are not sent back to it.

A vocabulary from ``build_vocab`` usually goes straight back to ``decode`` or a ``StreamDecoder``,
and a table from ``train`` to ``encode`` and ``build_vocab``: without this, the suite would send the
child, as JSON, what the child had just sent the suite. A child whose hello says ``"keep": true``
holds each such result under a name the suite gives with the request, and the suite then sends
``{"ref": NAME}`` in place of an argument that is that result:

- a short table only when its JSON is byte for byte the JSON of the answer (the same entries in the
  same order), so the child's value is exactly what it would have read from the line, whatever the
  suite did to its dict in between;
- a table as long as the suite defines (``protocol.DEFINE_AT``: a published vocabulary) when it is
  the same object with the same length, the rule for defined tables (client ``_defined``).

Names are reused after ``SLOTS`` results, so a child holds at most that many. A new child (after a
fault) holds none: nothing kept by an earlier one is ever named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bpe_kata.child import protocol
from bpe_kata.child.process import Child

#: Results a child holds at once; the oldest name is given to the next.
SLOTS = 32
#: The longest JSON of a short result that is remembered by its JSON: a child that answers with huge
#: tokens is not named (its results go back as themselves), so it cannot make this process hold
#: ``SLOTS`` copies of its largest lines.
KEY_LIMIT = 1 << 20


class KeptResults:
    """The names one child holds and what each stands for (the client's side of ``keep``)."""

    def __init__(self, child: Child) -> None:
        self.child = child
        self.offered = False  # the child's hello says "keep": true
        self.by_json: dict[bytes, str] = {}  # a short result's JSON -> its name
        self.by_object: dict[int, tuple[Mapping, str, int]] = {}  # id(long result) -> (it, its name, its length)
        self.slots: dict[str, tuple[bytes | None, int | None]] = {}  # name -> its key in by_json or by_object
        self.count = 0
        self.starts = child.starts  # the child these names were given to (Child.starts counts launches)

    def next_name(self, op: str) -> str | None:
        """The name to send with an ``op`` request as ``keep``, its slot emptied; None when not kept."""
        if not self.offered or op not in protocol.KEEPS:
            return None
        self._forget_if_restarted()
        name = f"kept-{self.count % SLOTS}"
        self.count += 1
        json_key, object_key = self.slots.pop(name, (None, None))
        self.by_json.pop(json_key, None)
        self.by_object.pop(object_key, None)
        return name

    def remember(self, op: str, name: str, answered: Any, value: Mapping) -> None:
        """The child answered the request that carried ``name``: ``answered`` (its JSON value) is ``value``."""
        self._forget_if_restarted()
        if len(value) >= protocol.DEFINE_AT[protocol.KEEPS[op]]:
            self.by_object[id(value)] = (value, name, len(value))
            self.slots[name] = (None, id(value))
        else:
            key = protocol.plain_bytes(answered)
            if len(key) <= KEY_LIMIT:
                self.by_json[key] = name
                self.slots[name] = (key, None)

    def name_of_object(self, value: Mapping) -> str | None:
        """The name of a long result the child holds, if ``value`` is it, unchanged in length."""
        known = self.by_object.get(id(value))
        if known is None or known[0] is not value or known[2] != len(value) or not self._held():
            return None
        return known[1]

    def name_of_json(self, dumped: Any) -> str | None:
        """The name of a short result the child holds whose JSON is ``dumped``'s."""
        if not self.by_json or not self._held():
            return None
        return self.by_json.get(protocol.plain_bytes(dumped))

    def _held(self) -> bool:
        """The child that was given the names is still the one running."""
        if self.child.process is None or self.child.starts != self.starts:
            self._forget_if_restarted()
            return False
        return True

    def _forget_if_restarted(self) -> None:
        if self.child.process is None or self.child.starts != self.starts:
            self.by_json.clear()
            self.by_object.clear()
            self.slots.clear()
            self.starts = self.child.starts
