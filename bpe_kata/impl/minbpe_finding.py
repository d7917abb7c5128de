"""Finding a minbpe-style solution's parts: the module ``minbpe:PATH`` names, its tokenizer class, the helpers under
the names people give them, and the split pattern a class always uses when its constructor takes none.

Apart from course_minbpe.py, which builds the contract's functions over what is found here: this runs once, when
the shape is loaded, and reads the learner's code; those translate every call the spec makes.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import types
from collections.abc import Mapping
from pathlib import Path

from bpe_kata.impl import shape_parts

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

NOT_PACKAGES = ("tests", "test", "docs", "examples", "scripts")


#: The names people give the keywords the shape passes, by the name minbpe gives them (held out: a class whose
#: constructor takes ``split_pattern`` and whose encode takes ``allowed_special_tokens`` was taken for a class with
#: a fixed split and no special tokens, and 101 tests never started).
KEYWORD_NAMES: dict[str, tuple[str, ...]] = {
    "pattern": ("pattern", "split_pattern", "regex_pattern", "pattern_str", "pat_str"),
    "allowed_special": ("allowed_special", "allowed_special_tokens"),
}


def keyword_for(function, role: str) -> str | None:
    """The keyword ``function`` takes for ``role`` (a key of ``KEYWORD_NAMES``), under the first of the names people
    use that it has (``role`` itself when it takes any keyword); None when it takes none of them."""
    if function is object.__init__:
        return None
    try:
        parameters = {p.name: p for p in inspect.signature(function).parameters.values()}
    except (TypeError, ValueError):
        return None
    found = next((name for name in KEYWORD_NAMES.get(role, (role,)) if name in parameters), None)
    if found is None and role == "pattern":  # a name of the learner's own: one parameter named for a pattern
        named = [name for name in parameters if _PATTERN_NAME.search(name.lower())]
        found = named[0] if len(named) == 1 else None
    if found is None and any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return role
    return found


#: A parameter named for a split pattern, whatever the learner called it: re_pat, pat, split_regex, token_pattern
#: (ninth round, development: ``RegexTokenizer(re_pat=None)`` was built without its pattern, and every call
#: crashed); not path, compat.
_PATTERN_NAME = re.compile(r"(?:^|_)(?:re_?)?pat(?:tern)?(?:_|$)|regex|(?:^|_)pattern")


def takes(function, name: str) -> bool:
    """Whether ``function`` accepts the keyword ``name`` (or any keyword). A class with no ``__init__`` of its own has
    ``object.__init__``, whose ``**kwargs`` takes nothing (held out: a minbpe class without ``__init__`` was built
    as ``cls(pattern=...)`` and every test stopped on its TypeError)."""
    if function is object.__init__:
        return False
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in parameters)


def import_solution(path: Path, value: str) -> tuple[types.ModuleType, Path]:
    """The module ``path`` names (a .py file, a package folder, or a repository holding one package),
    and the folder that holds the learner's code."""

    def package(folder: Path) -> types.ModuleType:
        dotted = shape_parts.dotted_name_under_sys_path(folder)
        return importlib.import_module(dotted) if dotted else shape_parts.import_package(folder)

    if path.is_file():
        if path.suffix != ".py":
            raise shape_parts.ShapeError(f"--impl {value}: {path} is not a .py file")
        if (path.parent / "__init__.py").is_file():  # a module of a package: its relative imports need it
            try:
                parent = package(path.parent)
            except ImportError:  # an __init__ importing what this module does not need (a solver, torch)
                parent = shape_parts.bare_package(path.parent)
            return (parent if path.name == "__init__.py" else
                    importlib.import_module(f"{parent.__name__}.{path.stem}")), path.parent
        if path.parent.name.isidentifier() and _imports_relatively(path):
            # a module of a namespace package (a folder without __init__.py): its relative imports need the folder
            # as its package, as `from folder.module import Class` gives it (eighth round: minbpe/regex_.py)
            parent = shape_parts.bare_package(path.parent)
            return importlib.import_module(f"{parent.__name__}.{path.stem}"), path.parent
        dotted = shape_parts.dotted_name_under_sys_path(path)
        if dotted:
            return importlib.import_module(dotted), path.parent
        if str(path.parent) not in sys.path:
            sys.path.append(str(path.parent))
        return shape_parts.import_package_file(path), path.parent
    if (path / "__init__.py").is_file():
        return package(path), path
    found = [folder for folder in sorted(path.iterdir()) if (folder / "__init__.py").is_file()
             and folder.name.isidentifier() and folder.name not in NOT_PACKAGES]
    if len(found) != 1:
        listed = ", ".join(f.name for f in found) or "none"
        raise shape_parts.ShapeError(
            f"--impl {value}: {path} holds {len(found)} Python packages ({listed}); name the package folder or "
            "the module file: minbpe:PATH/PACKAGE[:CLASS]")
    if str(path) not in sys.path:
        sys.path.append(str(path))
    return package(found[0]), path


def _imports_relatively(path: Path) -> bool:
    """The file has a relative import (``from .base import Tokenizer``): it needs a package around it."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return False  # its own import reports what is wrong with it
    return any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))


#: The names people give minbpe's training method, in the order they are looked for (tenth round, development: a
#: class training with ``fit`` was refused at loading and its seven defects went unseen).
TRAIN_NAMES = ("train", "fit", "learn", "train_bpe")


def train_method(cls: type) -> str | None:
    """The name of ``cls``'s training method: the first of ``TRAIN_NAMES`` it has, or None."""
    return next((name for name in TRAIN_NAMES if callable(getattr(cls, name, None))), None)


def _is_tokenizer(thing: object) -> bool:
    return inspect.isclass(thing) and train_method(thing) is not None and all(
        callable(getattr(thing, op, None)) for op in ("encode", "decode"))


def find_class(module: types.ModuleType, name: str | None, value: str) -> type:
    if name:
        where, _, attribute = name.rpartition(".")
        owner = importlib.import_module(f"{module.__name__}.{where}") if where else module
        found = getattr(owner, attribute, None)
        if not _is_tokenizer(found):
            raise shape_parts.ShapeError(
                f"--impl {value}: {owner.__name__} has no class {attribute!r} with encode, decode and a training "
                f"method ({', '.join(TRAIN_NAMES)})")
        return found
    candidates = [thing for thing in vars(module).values() if _is_tokenizer(thing)]
    best = [c for c in candidates if keyword_for(c.__init__, "pattern")] or candidates
    if len(best) != 1:
        names = ", ".join(sorted(c.__name__ for c in best)) or "none"
        raise shape_parts.ShapeError(f"--impl {value}: cannot tell which tokenizer class to use (found: {names}); "
                                       "name it: minbpe:PATH:CLASS")
    return best[0]


#: The names people give minbpe's two helpers, in the order they are looked for: beside the class in its
#: module, in the module given, then on the class itself (a static method).
HELPER_NAMES: dict[str, tuple[str, ...]] = {
    "get_stats": ("get_stats", "get_pair_stats", "get_pair_counts", "count_pairs", "pair_counts", "_get_stats"),
    "merge": ("merge", "merge_pair", "merge_ids", "apply_merge", "replace_pair", "_merge"),
}


def find_helper(names: tuple[str, ...], *owners: object):
    for owner in owners:
        for name in names:
            found = inspect.getattr_static(owner, name, None) if inspect.isclass(owner) else getattr(owner, name, None)
            if isinstance(found, staticmethod):
                found = found.__func__
            elif inspect.isclass(owner):
                continue  # an instance method needs a tokenizer: not the contract's free function
            if callable(found):
                return found
    return None


def fixed_pattern(cls: type) -> str | None:
    """The regex a class whose constructor takes no pattern always splits with (its instance's ``pattern``,
    or its compiled pattern's), or None: such a class is pattern-fixed (spec/fixed_pattern.py)."""
    if keyword_for(cls.__init__, "pattern"):
        return None
    try:
        tok = cls()
    except Exception:  # noqa: BLE001 - a constructor that needs more says nothing about its split
        return None
    pattern = getattr(tok, "pattern", None)
    if not isinstance(pattern, str):
        pattern = getattr(getattr(tok, "compiled_pattern", None), "pattern", None)
    if isinstance(pattern, str) and pattern:
        return pattern
    return _module_pattern(cls)


#: A text every split pattern covers whole: a string constant whose matches rebuild it is a split pattern.
_SPLIT_SAMPLE = "Hello, world's 123 times!\n\n  x = 1\t"


def _module_pattern(cls: type) -> str | None:
    """The split pattern a class's methods read from their module (a ``GPT4_SPLIT_PATTERN`` constant, or a compiled
    regex, used in ``train`` directly or through a module function), when there is exactly one: the class splits
    with it though no instance holds it (seen on a minbpe exercise judged unsplit while it split every text)."""
    home = sys.modules.get(cls.__module__)
    if home is None:
        return None
    found: set[str] = set()
    seen: set[str] = set()
    codes = [value.__code__ for value in vars(cls).values() if isinstance(value, types.FunctionType)]
    while codes:
        code = codes.pop()
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
        for name in code.co_names:
            if name in seen:
                continue
            seen.add(name)
            value = vars(home).get(name)
            if isinstance(value, types.FunctionType) and value.__module__ == home.__name__:
                codes.append(value.__code__)  # a module helper the methods call (chunks(text), ...)
            text = value if isinstance(value, str) else getattr(value, "pattern", None)
            if isinstance(text, str) and _is_split_pattern(text):
                found.add(text)
    return found.pop() if len(found) == 1 else None


def _is_split_pattern(text: str) -> bool:
    try:
        import regex

        pieces = regex.findall(text, _SPLIT_SAMPLE)
    except Exception:  # noqa: BLE001 - not a regex at all
        return False
    return len(pieces) > 1 and all(isinstance(piece, str) for piece in pieces) and "".join(pieces) == _SPLIT_SAMPLE


#: The attribute names people keep minbpe's learned table under, in the order they are looked for.
TABLE_NAMES = ("merges", "merge", "merges_dict", "merge_table", "bpe_merges", "_merges")


def table_attribute(tok: object) -> str:
    """The attribute a fresh tokenizer keeps its table in: the first of ``TABLE_NAMES`` it holds as a dict or a list
    (a method named ``merge`` is not a table), else the one dict or list attribute named for merges however spelled
    (tenth round, development: ``bigram_merge_table``), else ``merges`` (ninth round, holdout: a class that keeps it
    in ``merge`` had its table read from, and set as, ``merges``: four suite errors and every table of the spec's
    ignored)."""
    for name in TABLE_NAMES:
        if isinstance(getattr(tok, name, None), (dict, list)):
            return name
    named = [name for name, value in vars(tok).items() if "merge" in name.lower() and isinstance(value, (dict, list))]
    return named[0] if len(named) == 1 else "merges"


#: The forms a learned table is kept in: a dict {(a, b): id}, a list of pairs in training order (ids from 256), or a
#: list of ((a, b), id) items (tenth round, development: read as pairs, every table unreadable).
DICT, PAIRS, ITEMS = "dict", "pairs", "items"


def table_form(table: object) -> str | None:
    """Which of the forms ``table`` is in (None: empty, so it says nothing, or none of them)."""
    if isinstance(table, Mapping):
        return DICT
    if not isinstance(table, (list, tuple)) or not table:
        return None
    first = table[0]
    if isinstance(first, (list, tuple)) and len(first) == 2 and isinstance(first[0], (list, tuple)):
        return ITEMS
    return PAIRS if isinstance(first, (list, tuple)) and len(first) == 2 else None


def table_read(table: object) -> dict:
    """The contract's {(a, b): id} from a table in any of the forms (a dict is returned as it is)."""
    form = table_form(table)
    if form == DICT or form is None:
        return table if isinstance(table, Mapping) else {}
    if form == ITEMS:
        return {tuple(pair): idx for pair, idx in table}
    return {tuple(pair): idx for idx, pair in enumerate(table, start=256)}


def table_in_form(merges: Mapping, form: str | None) -> object:
    """The contract's table in the class's own form: the very dict when the class keeps a dict (or the form is not
    known), so a tokenizer that changes it is caught; a list otherwise, in training order."""
    if form in (DICT, None):
        return merges
    ordered = sorted(merges.items(), key=lambda item: item[1])
    return [pair for pair, _ in ordered] if form == PAIRS else [(pair, idx) for pair, idx in ordered]


#: A method named for registering special tokens, however spelled (``register_special_tokens``, ninth round's
#: ``regst_special_tokens``, ``add_special_tokens``, ``set_special_tokens``, ``register_specials``).
_SPECIALS_METHOD = re.compile(r"^(?:reg(?:i?st(?:er)?)?|add|set)_?specials?(?:_tokens?)?$|^_?specials?_regist(?:er)?$")


def specials_method(cls: type) -> str | None:
    """The method ``cls`` registers special tokens with: ``register_special_tokens``, else the one method named for
    it (ninth round, development: a class spelling it ``regst_special_tokens`` had its special level "not started"
    and two defects unseen); None when there is none, or more than one to choose from."""
    if callable(getattr(cls, "register_special_tokens", None)):
        return "register_special_tokens"
    named = [name for name in dir(cls) if _SPECIALS_METHOD.search(name.lower()) and callable(getattr(cls, name, None))]
    return named[0] if len(named) == 1 else None
