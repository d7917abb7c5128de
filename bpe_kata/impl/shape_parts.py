"""What the course shapes share: the module object the spec sees, with ``__bpe_kata_root__`` naming the
learner's folder (so root causes are placed in the learner's files, bpe_kata/impl/frames.py), importing the
learner's package, the refusal of a call a shape cannot express, and the translation of the contract's
special-token policy, which neither shape can express whole."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

#: Opens the message of a call the shape cannot express. For a course-shaped ``--impl`` (and only there)
#: the plugin reports a test stopped by it "not started" with the message, in process and isolated alike
#: (bpe_kata/run/kata_run.py): the level is partly started, not failed.
INEXPRESSIBLE = "the course shape cannot express this call"
#: In a malformed result's message when the whole result is not of the interface's form (three values for two): no
#: behaviour of BPE is shown wrong by it, so its root cause is charged to no claim (bpe_kata/verdict/causes.py).
NOT_THE_INTERFACE = "not the interface's form"
#: What a call ends with when the learner's constructor raised in it (bpe_kata/impl/frames.py ``constructor_raised``):
#: the object every call of the shape makes first cannot be made, so no behaviour of BPE is charged either.
CONSTRUCTOR = "()"


def inexpressible(detail: str) -> NotImplementedError:
    """The error for a call the shape has no counterpart for (``detail`` says why)."""
    return NotImplementedError(f"{INEXPRESSIBLE}: {detail}")


def is_refusal(error: BaseException) -> bool:
    """``error`` is an adapter's refusal of a call its shape cannot express."""
    return isinstance(error, NotImplementedError) and INEXPRESSIBLE in str(error)


class MalformedResult(Exception):
    """A value the learner's code returned that the shape's translation cannot read (a merge of ``b''``, a result
    that is no ``(vocab, merges)``): the failure of the call that returned it, never the suite's (held out, sixth
    round: such a refusal was raised in the shape's frame and reported as a suite error, and the 24 claims behind
    it read "could not run" with no cause listed). ``function`` is the learner's, ``call`` the contract's. Not a
    ValueError, nor any error a check expects the implementation to raise: the suite's refusal to read a value never
    passes such a check (ninth round, development: a run_train_bpe returning three values passed train.min-vocab's
    seven ``pytest.raises(ValueError)`` checks, though it refuses no vocab_size)."""

    def __init__(self, message: str, *, function: str, call: str) -> None:
        super().__init__(message)
        self.function, self.call = function, call


def ids_returned(result: object, *, function: str, call: str, what: str = "a list of ids") -> list:
    """An encode's result as a list, or ``MalformedResult`` naming the learner's ``function`` when it is no
    iterable (a loop that falls through returns None: eleventh round, development, the shape's own ``list()``
    raised a TypeError reported as raised in no file). Every shape reads what its learner's encode returns here."""
    if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
        raise not_of_the_form(result, function=function, call=call, what=what)
    return list(result)


def not_of_the_form(result: object, *, function: str, call: str, what: str = "a list of ids") -> MalformedResult:
    """The refusal of a value ``function`` returned that is not ``what``, as every reader of the suite words it."""
    return MalformedResult(f"{function} returned {type(result).__name__}, not {what}", function=function, call=call)


class ShapeError(ValueError):
    """The value names a course shape the adapter cannot load; the message says how to fix it."""


def contract_module(value: str, root: Path, main_file: Path, doc: str, functions: Mapping[str, object],
                    **attributes: object) -> types.ModuleType:
    """The module the spec sees: the contract's names, the learner's folder as its root."""
    module = types.ModuleType(f"bpe_kata_course_{''.join(c if c.isalnum() else '_' for c in value)[:80]}", doc)
    module.__file__ = str(main_file)
    module.__bpe_kata_root__ = str(root)
    for name, thing in {**functions, **attributes}.items():
        setattr(module, name, thing)
    return module


def not_expressible(name: str, reason: str) -> Callable:
    """A contract function the shape has no counterpart for: the probe reads its reason ("not started")."""
    def refuse(*args, **kwargs):
        raise NotImplementedError(reason)
    refuse.__name__ = refuse.__qualname__ = name
    return refuse


def import_package(folder: Path, name: str | None = None) -> types.ModuleType:
    """Import the package in ``folder`` from that folder, under its own name unless one is given.

    A package of that name imported from elsewhere is dropped first, so two learners' ``cs336_basics``
    loaded one after the other in one process are each their own."""
    name = name or folder.name
    held = sys.modules.get(name)
    if held is not None and Path(getattr(held, "__file__", None) or "/").resolve().parent != folder.resolve():
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
    elif held is not None:
        return held
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    return _execute(spec, name, f"{folder}: Python cannot load this package")


def import_package_file(path: Path) -> types.ModuleType:
    """A lone module file (no package around it), under a private name so that it hides no other module."""
    name = "bpe_kata_course_" + "".join(c if c.isalnum() else "_" for c in path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    return _execute(spec, name, f"{path}: Python cannot load this file")


def _execute(spec, name: str, cannot: str) -> types.ModuleType:
    """Run a module from its spec under ``name``, leaving no half-imported module behind if it raises."""
    if spec is None or spec.loader is None:
        raise ShapeError(cannot)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def bare_package(folder: Path, name: str | None = None) -> types.ModuleType:
    """The package in ``folder`` without running its ``__init__`` (its submodules import as usual).

    For a course package whose ``__init__`` needs what the tokenizer does not: CS336's reads its own
    installed version (``pip install -e .``) or imports the model code (torch)."""
    name = name or folder.name
    module = types.ModuleType(name)
    module.__path__ = [str(folder)]
    module.__file__ = str(folder / "__init__.py")
    module.__package__ = name
    sys.modules[name] = module
    return module


def token_bytes(merges: Mapping[tuple[int, int], int]) -> dict[int, bytes]:
    """Every id's bytes: 0..255 themselves, each merge its parts joined, in id order.

    A table whose part names neither a byte nor an earlier merge (a hole in its ids: a course's merges list holding
    a pair twice gives one, bpe_kata/verdict/malformed.py) has no bytes for that part: refused with a ValueError that
    says so, never a KeyError of this translation's own."""
    table = {b: bytes([b]) for b in range(256)}
    for (left, right), idx in sorted(merges.items(), key=lambda item: item[1]):
        missing = next((part for part in (left, right) if part not in table), None)
        if missing is not None:
            raise MalformedResult(f"merge ({left}, {right}) -> {idx}: id {missing} is neither a byte nor the id of "
                                  "an earlier merge (a table's ids run 256, 257, ... in training order)",
                                  function="train", call="train")
        table[idx] = table[left] + table[right]
    return table


class PerTable:
    """One object built per table object and kept (the suite passes one table many times)."""

    def __init__(self, build: Callable) -> None:
        self.build, self.entries = build, []

    def __call__(self, table):
        for held, size, built in self.entries:
            if held is table and size == len(table):
                return built
        built = self.build(table)
        self.entries = [(table, len(table), built), *self.entries[:3]]
        return built


class _Unset:
    """An argument the spec's call did not give: a shape then lets the learner's own default apply."""

    def __repr__(self) -> str:
        return "<not given>"


UNSET = _Unset()


def special_policy(text: str, special_tokens: Mapping[str, int] | None, allowed_special: Collection[str] | str,
                   disallowed_special: Collection[str] | str) -> tuple[set[str], set[str]]:
    """The specials to treat as specials in ``text``, and the disallowed ones that occur in it.

    Named as tiktoken names it (spec/CONTRACT.md, special): ``allowed_special`` is "all" or a set;
    ``disallowed_special`` "all" (every special not allowed) or a set. A special neither allowed nor
    disallowed is ordinary text. Neither course shape can refuse a special while allowing another, so
    the adapters use the second set to say when a call cannot be expressed."""
    allowed_special = frozenset() if allowed_special is UNSET else allowed_special  # the contract's defaults
    disallowed_special = "all" if disallowed_special is UNSET else disallowed_special
    specials = set(special_tokens or {})
    allowed = specials if allowed_special == "all" else set(allowed_special or ()) & specials
    disallowed = specials - allowed if disallowed_special == "all" else set(disallowed_special or ()) - allowed
    return allowed, {token for token in disallowed if token in text}


def dotted_name_under_sys_path(path: Path) -> str | None:
    """The dotted name ``path`` has when imported from a ``sys.path`` entry, if any."""
    module_path = path.with_suffix("") if path.suffix == ".py" else path
    for entry in sys.path:
        root = Path(entry or os.getcwd()).resolve()
        try:
            relative = module_path.relative_to(root)
        except ValueError:
            continue
        parts = relative.parts
        if not parts or not all(part.isidentifier() for part in parts):
            continue
        # every enclosing folder must be a package for the dotted name to be importable
        if all((root.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
            return ".".join(parts)
    return None
