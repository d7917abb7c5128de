"""Course-shaped solutions as ``--impl`` values: ``cs336:PATH`` and ``minbpe:PATH[:CLASS]`` (issue 25), any other
code described by a small TOML file, ``map:PATH`` (issue 38, bpe_kata/impl/declared_shape.py), and a notebook's
definitions, ``notebook:PATH.ipynb[:CLASS]`` (issue 40, bpe_kata/impl/course_notebook.py).

Learners of the two biggest from-scratch courses write BPE in a shape of their own (CS336's
``run_train_bpe`` and ``Tokenizer``, minbpe's tokenizer class). These values let the spec load such
a solution as it is: bpe_kata/impl/course_cs336.py and course_minbpe.py translate names and
types into the contract (spec/CONTRACT.md) and nothing else. This module only parses the value,
makes its path absolute for a child process, and builds the module the spec runs. What the shapes
share is in bpe_kata/impl/shape_parts.py.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from pathlib import Path

from bpe_kata.impl.shape_parts import INEXPRESSIBLE, ShapeError, is_refusal

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True


#: ``--impl`` prefixes, each with the value's form as the usage shows it.
SHAPES = {"cs336": "cs336:PATH (a CS336 repository, or its tests/adapters.py)",
          "minbpe": "minbpe:PATH[:CLASS] (a minbpe-style package, module file or repository; CLASS: its class)",
          "map": "map:PATH (a bpe-kata.toml naming your code's parts, or the folder holding it)"}
#: Every prefixed form this module loads: the course shapes (each with a starter, ``bpe-kata new --shape``) and a
#: notebook's definitions, in either shape or the contract's names (bpe_kata/impl/course_notebook.py).
FORMS = {**SHAPES, "notebook": "notebook:PATH.ipynb[:CLASS] (a Jupyter notebook's definitions; CLASS: its class)"}
#: How an ``--impl`` value names a course shape: every floor asks this tuple, never its own list.
PREFIXES = tuple(f"{shape}:" for shape in FORMS)


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
    if not colon or shape not in FORMS:
        return None
    if not rest:
        raise ShapeError(f"--impl {value}: give the path after the prefix: {FORMS[shape]}")
    if shape in ("minbpe", "notebook"):
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
        raise ShapeError(f"--impl {value}: not a course shape ({', '.join(FORMS.values())})")
    path = Path(shape.path).expanduser().resolve()
    if not path.exists():
        raise ShapeError(f"--impl {value}: {path} does not exist. Give {FORMS[shape.shape]}.")
    if shape.shape == "cs336":
        from bpe_kata.impl import course_cs336
        return course_cs336.build(path, value)
    if shape.shape == "map":
        from bpe_kata.impl import declared_build
        return declared_build.build(path, value)
    if shape.shape == "notebook":
        from bpe_kata.impl import course_notebook
        return course_notebook.build(path, shape.class_name, value)
    from bpe_kata.impl import course_minbpe
    return course_minbpe.build(path, shape.class_name, value)
