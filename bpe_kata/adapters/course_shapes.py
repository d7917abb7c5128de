"""Course-shaped solutions as ``--impl`` values: ``cs336:PATH`` and ``minbpe:PATH[:CLASS]`` (issue 25).

Learners of the two biggest from-scratch courses write BPE in a shape of their own (CS336's
``run_train_bpe`` and ``Tokenizer``, minbpe's tokenizer class). These values let the spec load such
a solution as it is: bpe_kata/adapters/course_cs336.py and course_minbpe.py translate names and
types into the contract (spec/CONTRACT.md) and nothing else. This module only parses the value,
makes its path absolute for a child process, and builds the module the spec runs.

What the shapes share lives here too: the module object the spec sees, with ``__bpe_kata_root__``
naming the learner's folder (so root causes are placed in the learner's files, bpe_kata/run/frames.py),
and the translation of the contract's special-token policy, which neither shape can express whole.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Frames of this module are the adapter's, not the learner's (bpe_kata/run/frames.py).
__bpe_kata_adapter__ = True

#: ``--impl`` prefixes, each with the value's form as the usage shows it.
SHAPES = {"cs336": "cs336:PATH (a CS336 repository, or its tests/adapters.py)",
          "minbpe": "minbpe:PATH[:CLASS] (a minbpe-style package, module file or repository; CLASS: its class)"}


#: Opens the message of a call the shape cannot express. For a course-shaped ``--impl`` (and only there)
#: the plugin reports a test stopped by it "not started" with the message, in process and isolated alike
#: (bpe_kata/run/kata_run.py): the level is partly started, not failed.
INEXPRESSIBLE = "the course shape cannot express this call"


def inexpressible(detail: str) -> NotImplementedError:
    """The error for a call the shape has no counterpart for (``detail`` says why)."""
    return NotImplementedError(f"{INEXPRESSIBLE}: {detail}")


def is_refusal(error: BaseException) -> bool:
    """``error`` is an adapter's refusal of a call its shape cannot express."""
    return isinstance(error, NotImplementedError) and INEXPRESSIBLE in str(error)


def refusal(error: BaseException, impl_value: str) -> str | None:
    """The reason a test is "not started" when ``error`` is only the adapter's refusal of a call its shape
    cannot express, for a course-shaped ``impl_value``; else None."""
    try:
        if parse(impl_value) is None:
            return None
    except ShapeError:
        return None
    leaves = list(error.exceptions) if isinstance(error, BaseExceptionGroup) else [error]
    if not leaves or not all(is_refusal(leaf) for leaf in leaves):
        return None
    message = str(leaves[0])
    return "not started: " + message[message.index(INEXPRESSIBLE):].splitlines()[0]


class ShapeError(ValueError):
    """The value names a course shape the adapter cannot load; the message says how to fix it."""


@dataclass(frozen=True)
class Shape:
    """A parsed value: the shape, the learner's path as given, and (minbpe) the class to use."""

    shape: str
    path: str
    class_name: str | None = None

    def value(self) -> str:
        return f"{self.shape}:{self.path}" + (f":{self.class_name}" if self.class_name else "")


def parse(value: str) -> Shape | None:
    """The course shape ``value`` names, or None when it names none (a module, a path, ``cmd:``)."""
    shape, colon, rest = value.partition(":")
    if not colon or shape not in SHAPES:
        return None
    if not rest:
        raise ShapeError(f"--impl {value}: give the path after the prefix: {SHAPES[shape]}")
    if shape == "minbpe":
        head, colon, tail = rest.rpartition(":")
        if colon and head and all(part.isidentifier() for part in tail.split(".")) and not Path(rest).exists():
            return Shape(shape, head, tail)
    return Shape(shape, rest)


def absolute(value: str, cwd: str | Path) -> str:
    """``value`` with its path made absolute against ``cwd`` (a child process may start elsewhere)."""
    shape = parse(value)
    if shape is None:
        return value
    path = Path(cwd) / Path(shape.path).expanduser()
    return Shape(shape.shape, str(path.resolve()), shape.class_name).value()


def path_of(value: str) -> str | None:
    """The learner's path a course-shaped value names, else None."""
    shape = parse(value)
    return shape.path if shape is not None else None


def load(value: str) -> types.ModuleType:
    """The module the spec runs for a course-shaped value. Raises ShapeError."""
    shape = parse(value)
    if shape is None:
        raise ShapeError(f"--impl {value}: not a course shape ({', '.join(SHAPES.values())})")
    path = Path(shape.path).expanduser().resolve()
    if not path.exists():
        raise ShapeError(f"--impl {value}: {path} does not exist. Give {SHAPES[shape.shape]}.")
    if shape.shape == "cs336":
        from bpe_kata.adapters import course_cs336
        return course_cs336.build(path, value)
    from bpe_kata.adapters import course_minbpe
    return course_minbpe.build(path, shape.class_name, value)


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


# --- tables: the contract's ids as a course's bytes ---------------------------------------------------------
# (Written here, not taken from _glue: that module reads the published tables through the spec's package,
# which a gate's sandbox hides from the child process this code runs in.)


def token_bytes(merges: Mapping[tuple[int, int], int]) -> dict[int, bytes]:
    """Every id's bytes: 0..255 themselves, each merge its parts joined, in id order.

    A table whose part names neither a byte nor an earlier merge (a hole in its ids: a course's merges list holding
    a pair twice gives one, bpe_kata/run/malformed.py) has no bytes for that part: refused with a ValueError that
    says so, never a KeyError of this translation's own."""
    table = {b: bytes([b]) for b in range(256)}
    for (left, right), idx in sorted(merges.items(), key=lambda item: item[1]):
        missing = next((part for part in (left, right) if part not in table), None)
        if missing is not None:
            raise ValueError(f"merge ({left}, {right}) -> {idx}: id {missing} is neither a byte nor the id of an "
                             "earlier merge (a table's ids run 256, 257, ... in training order)")
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


# --- special tokens: the contract's policy, as far as a course shape can take it -------------------------


def special_policy(text: str, special_tokens: Mapping[str, int] | None, allowed_special: Collection[str] | str,
                   disallowed_special: Collection[str] | str) -> tuple[set[str], set[str]]:
    """The specials to treat as specials in ``text``, and the disallowed ones that occur in it.

    Named as tiktoken names it (spec/CONTRACT.md, special): ``allowed_special`` is "all" or a set;
    ``disallowed_special`` "all" (every special not allowed) or a set. A special neither allowed nor
    disallowed is ordinary text. Neither course shape can refuse a special while allowing another, so
    the adapters use the second set to say when a call cannot be expressed."""
    specials = set(special_tokens or {})
    allowed = specials if allowed_special == "all" else set(allowed_special or ()) & specials
    disallowed = specials - allowed if disallowed_special == "all" else set(disallowed_special or ()) - allowed
    return allowed, {token for token in disallowed if token in text}
