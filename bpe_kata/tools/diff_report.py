"""What ``bpe-kata diff`` says about a divergence: the contract's answer, the claim it touches, its class.

The contract's answer is the oracle's (spec/oracle/, the whole contract written the textbook way);
a side whose answer differs from it is off the contract. The claim comes from the ledger
(spec/claims.toml) by the observable that differs: a training that is still valid greedy BPE
but not first-counted is a tie rule, documented (spec/tie_rules.py) or not; any other invalid
training is the claim spec/cases/expect.py's ``training_claim`` names; an encoding whose tokens
do not spell the text breaks the round trip, one that does breaks the lowest-rank rule (or, with a
split pattern, the chunks); a decoding that differs breaks join-then-decode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bpe_kata.tools.diff_search import Divergence, SideOutcome, vocab_of
from bpe_kata.tools.tables import Table
from spec import oracle
from spec.tie_rules import DEFAULT_TIE_RULE, TIE_RULES

ALTERNATIVE, UNDOCUMENTED, REAL = "documented alternative", "undocumented tie rule", "real difference"


@dataclass
class DiffFinding:
    expected: Any  # the contract's answer (the oracle's)
    off: list[str] = field(default_factory=list)  # "a", "b": the sides whose answer is not the contract's
    claims: list[str] = field(default_factory=list)
    kind: str = REAL
    note: str = ""


def contract_answer(divergence: Divergence, table: Table | None) -> SideOutcome:
    from bpe_kata.tools.diff_search import outcome
    from spec.shapes import merges_of

    given = divergence.given
    if divergence.operation == "train":
        return outcome(lambda: merges_of(oracle.train(given["text"], given["vocab_size"])))
    if divergence.operation == "encode":
        return outcome(lambda: oracle.encode(given["text"], dict(table.merges), **_keywords(table)))
    return outcome(lambda: oracle.decode(list(given["ids"]), vocab_of(table)))


def _keywords(table: Table) -> dict:
    from bpe_kata.tools.diff_sides import keywords

    return keywords(table)


def classify(divergence: Divergence, table: Table | None, *, same_table: bool = True) -> DiffFinding:
    """The contract's answer, the sides off it, and the claim and class of the first side off it. Two sides
    with tables of their own (two published tokenizers) differ by their tables, which no claim is about."""
    if not same_table:
        return DiffFinding(None, kind="different tables", note="two tokenizers with tables of their own")
    expected = contract_answer(divergence, table)
    verdict = DiffFinding(expected.value if expected.raised is None else {"raised": expected.raised})
    for name, answer in (("a", divergence.a), ("b", divergence.b)):
        if not answer.same_as(expected):
            verdict.off.append(name)
    if not verdict.off:
        return verdict
    answer = divergence.a if verdict.off[0] == "a" else divergence.b
    claim, kind, note = _claim(divergence, answer, table)
    verdict.claims, verdict.kind, verdict.note = [claim], kind, note
    return verdict


def _claim(divergence: Divergence, answer: SideOutcome, table: Table | None) -> tuple[str, str, str]:
    given = divergence.given
    if answer.raised is not None:
        what = {"train": "train.min-vocab", "encode": "roundtrip.no-unk", "decode": "decode.unknown-id"}
        return what[divergence.operation], REAL, f"raised {answer.raised}"
    if divergence.operation == "train":
        return _training_claim(given["text"], given["vocab_size"], answer.value)
    if divergence.operation == "encode":
        vocab = vocab_of(table)
        spelled = b"".join(vocab.get(i, b"") for i in answer.value)
        if any(i not in vocab for i in answer.value) or spelled != given["text"].encode("utf-8", "surrogatepass"):
            return "roundtrip.any-text", REAL, "the tokens do not spell the text"
        if table.pattern is not None and table.special_tokens and any(s in given["text"] for s in table.special_tokens):
            return "special.atomic", REAL, "the text holds a special token"
        if table.pattern is not None:
            chunked = oracle.chunks.encode_chunks(given["text"], dict(table.merges), table.pattern)
            if chunked != answer.value and not table.special_tokens:
                return "regex.no-cross-chunk", REAL, "the tokens are not those of the text's chunks"
        return "encode.lowest-rank", REAL, "the same bytes, cut into other tokens"
    return "decode.join-then-decode", REAL, "the same ids decode to another text"


def _training_claim(text: str, vocab_size: int, merges: list) -> tuple[str, str, str]:
    from spec.cases.expect import training_claim
    from spec.oracle import ties, valid_training

    if valid_training.violation(text, merges, vocab_size) is not None:
        return training_claim(text, merges, vocab_size), REAL, "not a greedy training of the text"
    default = TIE_RULES[DEFAULT_TIE_RULE].claim
    for rule in TIE_RULES:
        if rule != DEFAULT_TIE_RULE and list(ties.train(text, vocab_size, tie_rule=rule).items()) == merges:
            return default, ALTERNATIVE, f"ties broken by the documented rule {rule} ({TIE_RULES[rule].claim})"
    return default, UNDOCUMENTED, "a valid greedy training whose ties follow none of the documented rules"


# --- Showing a divergence side by side ---

def _show(piece: bytes) -> str:
    """A token's bytes: as text when they are printable UTF-8, else as hex (``e0 a0``)."""
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError:
        return piece.hex(" ")
    return text.replace(" ", "␣") if text.isprintable() else repr(text)[1:-1]


def first_difference(left: Any, right: Any) -> int | None:
    if not (isinstance(left, list) and isinstance(right, list)) and not (isinstance(left, str)
                                                                        and isinstance(right, str)):
        return None
    for k, (x, y) in enumerate(zip(left, right)):
        if x != y:
            return k
    return min(len(left), len(right)) if len(left) != len(right) else None


def rendered(value: Any, operation: str, table: Table | None) -> list[str]:
    """A side's answer, one item a line: ids with their bytes, merges with their tokens' bytes, text."""
    if isinstance(value, dict) and "raised" in value:
        return [f"raised {value['raised']}"]
    if operation == "decode":
        return [repr(value)]
    if operation == "train":
        vocab = {i: bytes([i]) for i in range(256)}
        lines = []
        for (left, right), idx in value:
            vocab[idx] = vocab.get(left, b"?") + vocab.get(right, b"?")
            lines.append(f"{idx} = {left} + {right}  [{_show(vocab.get(left, b'?'))}|{_show(vocab.get(right, b'?'))}]")
        return lines or ["(no merges)"]
    if value and isinstance(value[0], bytes):  # two fixed tables: the tokens' bytes
        return [f"[{_show(piece)}]" for piece in value]
    vocab = vocab_of(table)
    return [f"{i} [{_show(vocab[i]) if i in vocab else '?'}]" for i in value]


def side_by_side(names: tuple[str, str], left: list[str], right: list[str], part: int | None) -> list[str]:
    width = max([len(names[0]), *map(len, left[:60])]) + 2
    lines = [f"    {names[0].ljust(width)}{names[1]}"]
    for k in range(min(max(len(left), len(right)), 60)):
        mark = ">>" if part is not None and k == part else "  "
        x, y = (left[k] if k < len(left) else ""), (right[k] if k < len(right) else "")
        lines.append(f"{mark}  {x.ljust(width)}{y}")
    return lines


def describe_input(divergence: Divergence) -> str:
    given = divergence.given
    if divergence.operation == "decode":
        return f"ids {given['ids']}"
    text = given["text"]
    size = len(text.encode("utf-8", "surrogatepass"))
    extra = f", vocab_size {given['vocab_size']}" if "vocab_size" in given else ""
    return f"text {text!r} ({size} bytes){extra}"


def input_bytes(divergence: Divergence) -> int:
    given = divergence.given
    if "text" in given:
        return len(given["text"].encode("utf-8", "surrogatepass"))
    return len(given["ids"])
