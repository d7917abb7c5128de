"""Which claim an implementation breaks by changing the arguments the spec handed it.

The contract says an operation never changes its inputs (spec/CONTRACT.md): ``merge``'s input
list is claim merge.pure; any table passed to an operation is claim encode.frozen. The runner
detects the change (over the protocol, the child reports it) and credits it here.
"""

from __future__ import annotations

#: (operation, argument) -> the claim a change to that argument breaks.
CHANGED_INPUT_CLAIMS = {("merge", "ids"): "merge.pure"}
#: Any other changed argument (a table) breaks this claim.
DEFAULT_CHANGED_INPUT_CLAIM = "encode.frozen"


def changed_input_claims(op: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The claims broken by changing these arguments of ``op`` (no names: a table)."""
    return tuple(dict.fromkeys(CHANGED_INPUT_CLAIMS.get((op, name), DEFAULT_CHANGED_INPUT_CLAIM)
                               for name in names or ("table",)))
