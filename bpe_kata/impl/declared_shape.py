"""``--impl map:PATH``: an implementation described by a small TOML file instead of Python glue (issue 38).

Code that is neither the contract's module nor a course's shape (a plain class with its own method names,
functions named otherwise, a merges list instead of a dict) is checked by writing which of its names is which
part of the contract, and what it always does (its split, its tie rule), in ``bpe-kata.toml``. This module
reads and checks that file; bpe_kata/impl/declared_build.py builds the contract's module over the code it names.
Every mistake in the file is one message naming the key, what was wrong and what to write instead.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.impl.shape_parts import ShapeError

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

#: The file ``map:FOLDER`` reads.
FILE_NAME = "bpe-kata.toml"
#: The contract's free functions a ``[functions]`` table may name (spec/CONTRACT.md).
FUNCTIONS = ("train", "encode", "decode", "build_vocab", "get_stats", "merge")
#: What a ``[class]`` table may name: the class, its methods and the attributes holding its tables.
CLASS_KEYS = ("name", "train", "encode", "decode", "build_vocab", "register_special_tokens", "merges", "vocab")
#: ``[split]``: the split the code always uses and the tie rule it trains with.
SPLIT_KEYS = ("pattern", "tie_rule")
#: ``[types]``: how the code's values differ from the contract's, with the allowed values (the first: the default).
TYPE_KEYS: dict[str, tuple[str, ...]] = {
    "merges": ("dict", "pairs"),  # {(a, b): id}, or an ordered list of (a, b) whose ids run 256, 257, ...
    "train_size": ("vocab_size", "merges"),  # what train's second argument counts
    "train_returns": ("merges", "merges-and-vocab"),  # train returns the table, or (table, vocab)
}
TIE_RULES = ("first-counted", "lowest-pair", "bytes-greatest")


@dataclass(frozen=True)
class Declared:
    """What a ``bpe-kata.toml`` says: the code's file, its names for the contract, its split and types."""

    file: Path
    module: Path
    functions: dict[str, str] = field(default_factory=dict)
    cls: dict[str, str] = field(default_factory=dict)
    pattern: str | None = None
    tie_rule: str | None = None
    types: dict[str, str] = field(default_factory=dict)

    def type_of(self, key: str) -> str:
        return self.types.get(key, TYPE_KEYS[key][0])


def mapping_file(path: Path) -> Path:
    """The TOML ``map:PATH`` names: the file itself, or ``bpe-kata.toml`` in the folder."""
    if path.is_dir():
        path = path / FILE_NAME
        if not path.is_file():
            raise ShapeError(f"{path.parent} has no {FILE_NAME}: write one (`bpe-kata new NAME --shape map` "
                             "writes an example) or give the mapping file's path: map:PATH/FILE.toml")
    return path


def read(path: Path) -> Declared:
    """The mapping at ``path`` (a file, or a folder holding ``bpe-kata.toml``), checked. Raises ShapeError."""
    file = mapping_file(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ShapeError(f"{file}: cannot read it: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ShapeError(f"{file}: not valid TOML: {error}") from None
    where = f"{file}:"
    _only(data, ("module", "functions", "class", "split", "types"), where, "top-level keys")
    module = data.get("module")
    if not isinstance(module, str) or not module:
        raise ShapeError(f"{where} `module` is missing: name your code's .py file or package folder, relative to "
                         f"this file (module = \"tokenizer.py\")")
    code = (file.parent / module).resolve()
    if not code.is_relative_to(file.parent.resolve()):
        raise ShapeError(f"{where} module = {module!r} is outside {file.parent}: keep {FILE_NAME} in the folder that "
                         "holds your code (an isolated run sees that folder only)")
    if not code.exists():
        raise ShapeError(f"{where} module = {module!r}: {code} does not exist")
    functions = _names(data.get("functions", {}), FUNCTIONS, f"{where} [functions]")
    cls = _names(data.get("class", {}), CLASS_KEYS, f"{where} [class]")
    if cls and "name" not in cls:
        raise ShapeError(f"{where} [class] needs `name`, the class to use (name = \"MyTokenizer\")")
    overlap = sorted(set(functions) & set(cls) - {"get_stats", "merge"})
    if overlap:
        raise ShapeError(f"{where} {', '.join(overlap)} named both in [functions] and [class]: keep one")
    if not functions and not cls:
        raise ShapeError(f"{where} name your code's parts in [functions] (train = \"my_train\", ...) or [class] "
                         "(name = \"MyTokenizer\", ...)")
    split = _names(data.get("split", {}), SPLIT_KEYS, f"{where} [split]")
    if split.get("tie_rule") is not None and split["tie_rule"] not in TIE_RULES:
        raise ShapeError(f"{where} [split] tie_rule = {split['tie_rule']!r}: the rules are {', '.join(TIE_RULES)}")
    if "tie_rule" in split and "pattern" not in split and split["tie_rule"] != TIE_RULES[0]:
        raise ShapeError(f"{where} [split] tie_rule without pattern: a tie rule other than first-counted is judged "
                         "for code that always splits with one pattern; give pattern too (gpt2, gpt4 or a regex)")
    types = _names(data.get("types", {}), tuple(TYPE_KEYS), f"{where} [types]")
    for key, value in types.items():
        if value not in TYPE_KEYS[key]:
            raise ShapeError(f"{where} [types] {key} = {value!r}: write one of {', '.join(TYPE_KEYS[key])}")
    return Declared(file, code, functions, cls, split.get("pattern"), split.get("tie_rule"), types)


def _names(table: object, allowed: tuple[str, ...], where: str) -> dict[str, str]:
    """A table of string values whose keys are all ``allowed``."""
    if not isinstance(table, dict):
        raise ShapeError(f"{where} must be a table ([section] with key = \"value\" lines)")
    _only(table, allowed, where, "keys")
    for key, value in table.items():
        if not isinstance(value, str) or not value:
            raise ShapeError(f"{where} {key} = {value!r}: write a name in quotes")
    return dict(table)


def _only(table: dict, allowed: tuple[str, ...], where: str, what: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise ShapeError(f"{where} unknown {what} {', '.join(unknown)}: the {what} are {', '.join(allowed)}")
