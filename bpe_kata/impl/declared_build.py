"""The contract's module over code a ``bpe-kata.toml`` describes (``--impl map:PATH``, bpe_kata/impl/declared_shape.py).

Names and types only, as the course shapes translate: each function the file names is called as written, with the
contract's table turned into the code's (a dict, or an ordered list of pairs) and back, and train's size counted as the
code counts it; a class is renamed into minbpe's shape (its methods and attributes under minbpe's names) and then
driven exactly as a minbpe class is (bpe_kata/impl/course_minbpe.py). What the file does not name is absent, so its
levels are "not started" with the function they need. The split and tie rule it declares are the module's
``FIXED_PATTERN`` and ``DEFAULT_TIE_RULE`` (spec/CONTRACT.md).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Mapping
from pathlib import Path

from bpe_kata.impl import course_minbpe, declared_shape, minbpe_finding, shape_parts
from bpe_kata.impl.declared_shape import Declared

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

#: A minbpe class's names for the parts a ``[class]`` table may rename.
MINBPE_NAMES = {"train": "train", "encode": "encode", "decode": "decode", "build_vocab": "_build_vocab",
                "register_special_tokens": "register_special_tokens", "merges": "merges", "vocab": "vocab"}


def build(path: Path, value: str) -> types.ModuleType:
    """The module the spec runs for ``map:PATH``. Raises ShapeError."""
    declared = declared_shape.read(path)
    try:
        module, root = minbpe_finding.import_solution(declared.module, value)
    except shape_parts.ShapeError:
        raise
    except Exception as error:
        raise shape_parts.ShapeError(
            f"--impl {value}: importing {declared.module} raised {type(error).__name__}: {error}") from error
    functions: dict[str, object] = {}
    main: object = module
    pattern = declared.pattern
    if declared.cls:
        cls = _renamed(_own(module, declared.cls["name"], declared, "[class] name", inspect.isclass), declared)
        if pattern is not None and minbpe_finding.keyword_for(cls.__init__, "pattern"):
            raise shape_parts.ShapeError(f"{declared.file}: [split] pattern: {cls.__name__}(pattern=...) takes its "
                                         "split, so it is not fixed; leave [split] pattern out")
        pattern = pattern or minbpe_finding.fixed_pattern(cls)
        functions.update(course_minbpe.functions_over(cls))
        for helper in ("get_stats", "merge"):  # the module's own, under the names people use, unless named below
            found = minbpe_finding.find_helper(minbpe_finding.HELPER_NAMES[helper], module, cls)
            functions[helper] = found if found is not None else functions[helper]
        main = cls
    for name, own_name in declared.functions.items():
        own = _own(module, own_name, declared, f"[functions] {name}", callable)
        functions[name] = _TRANSLATIONS.get(name, _as_is)(own, declared)
        main = own if main is module else main
    attributes: dict[str, object] = {"COURSE_SHAPE": "map"}
    if pattern is not None:
        attributes["FIXED_PATTERN"] = pattern
    if declared.tie_rule is not None:
        attributes["DEFAULT_TIE_RULE"] = declared.tie_rule
    where = Path(inspect.getfile(inspect.unwrap(main) if callable(main) else main))
    return shape_parts.contract_module(value, root, where, __doc__, functions, **attributes)


def _own(module: types.ModuleType, name: str, declared: Declared, key: str, kind: Callable) -> object:
    """The learner's object the file names (``a.b`` reaches into a submodule or class)."""
    thing: object = module
    for part in name.split("."):
        thing = getattr(thing, part, None)
    if thing is None or not kind(thing):
        raise shape_parts.ShapeError(f"{declared.file}: {key} = {name!r}: {module.__name__} "
                                     f"({declared.module}) has no {'class' if kind is inspect.isclass else 'function'} "
                                     f"{name!r}")
    return thing


def contract_table(merges: object) -> dict:
    """The code's table as the contract's ``{(a, b): id}``: a mapping as it is, a list of pairs numbered from 256."""
    if isinstance(merges, Mapping):
        return dict(merges)
    return {tuple(pair): idx for idx, pair in enumerate(merges, start=256)}


def own_table(merges: Mapping, declared: Declared) -> object:
    """The contract's table as the code takes it (``[types] merges``)."""
    if declared.type_of("merges") == "dict":
        return merges
    ordered = sorted(merges.items(), key=lambda item: item[1])
    if [idx for _, idx in ordered] != list(range(256, 256 + len(ordered))):
        raise shape_parts.inexpressible("a list of merges numbers them 256, 257, ...; this table's ids do not run so")
    return [pair for pair, _ in ordered]


def own_size(vocab_size: int, declared: Declared) -> int:
    return vocab_size - 256 if declared.type_of("train_size") == "merges" else vocab_size


def _forwarding(own: Callable, call: Callable) -> Callable:
    """``call`` with ``own``'s signature, so the spec reads which keywords the learner's code takes."""
    call.__signature__ = inspect.signature(own)  # type: ignore[attr-defined]
    call.__name__ = call.__qualname__ = getattr(own, "__name__", "function")
    return call


def _train(own: Callable, declared: Declared) -> Callable:
    def train(text, vocab_size, *args, **kwargs):
        result = own(text, own_size(vocab_size, declared), *args, **kwargs)
        if declared.type_of("train_returns") == "merges-and-vocab":
            result = result[0]
        return contract_table(result)
    return _forwarding(own, train)


def _with_table(own: Callable, declared: Declared, position: int, name: str) -> Callable:
    """A function taking the table as argument ``position``, given it in the code's type; its ids as a list."""
    def call(*args, **kwargs):
        args = list(args)
        if len(args) > position:
            args[position] = own_table(args[position], declared)
        result = own(*args, **kwargs)
        if isinstance(result, Mapping):
            return dict(result)
        what = "a list of ids" if name == "encode" else "a vocab {id: bytes}"
        return shape_parts.ids_returned(result, function=getattr(own, "__qualname__", name), call=name, what=what)
    return _forwarding(own, call)


def _as_is(own: Callable, declared: Declared) -> Callable:
    return own  # the learner's function called as it is: decode, get_stats, merge


_TRANSLATIONS: dict[str, Callable[[Callable, Declared], Callable]] = {
    "train": _train,
    "encode": lambda own, declared: _with_table(own, declared, 1, "encode"),
    "build_vocab": lambda own, declared: _with_table(own, declared, 0, "build_vocab"),
}


def _renamed(cls: type, declared: Declared) -> type:
    """``cls`` under minbpe's names: a subclass whose minbpe-named methods and attributes reach the learner's."""
    namespace: dict[str, object] = {"__module__": cls.__module__, "__doc__": cls.__doc__}
    for part, own_name in declared.cls.items():
        target = MINBPE_NAMES.get(part)
        if target is None:
            continue
        if part in ("merges", "vocab"):
            if own_name != target or (part == "merges" and declared.type_of("merges") == "pairs"):
                namespace[target] = _attribute(own_name, target, declared if part == "merges" else None)
        elif own_name != target or (part == "train" and declared.type_of("train_size") == "merges"):
            namespace[target] = _method(cls, own_name, declared, part)
    return type(cls.__name__, (cls,), namespace)


def _method(cls: type, own_name: str, declared: Declared, part: str) -> Callable:
    own = getattr(cls, own_name, None)
    if not callable(own):
        raise shape_parts.ShapeError(f"{declared.file}: [class] {part} = {own_name!r}: {cls.__name__} has no method "
                                     f"{own_name!r}")

    def method(self, *args, **kwargs):
        if part == "train" and len(args) > 1:
            args = (args[0], own_size(args[1], declared), *args[2:])
        return own(self, *args, **kwargs)  # the class's own function: this subclass may shadow its name
    return _forwarding(own, method)


def _attribute(own_name: str, target: str, declared: Declared | None) -> property:
    """minbpe's attribute ``target`` kept in the learner's ``own_name`` (a merges list converted when set)."""
    same = own_name == target

    def get(self):
        return vars(self).get(own_name) if same else getattr(self, own_name)

    def put(self, value):
        if declared is not None and isinstance(value, Mapping):
            value = own_table(value, declared)
        if same:
            vars(self)[own_name] = value
        else:
            setattr(self, own_name, value)
    return property(get, put)
