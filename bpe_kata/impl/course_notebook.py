"""``--impl notebook:PATH.ipynb[:CLASS]``: the definitions of a Jupyter notebook, checked like any implementation.

The notebook's kept statements (bpe_kata/impl/notebook_cells.py says which: imports, defs, classes, constant
assignments; never a training cell) are compiled cell by cell and run, in notebook order, in one module. Each
cell is compiled under the name ``PATH.ipynb/cell N`` with its source in ``linecache``, so a traceback shows the
learner's line and a root cause reads ``train (nb.ipynb/cell 4:7)``: the cell, and the line in it. The module's
root (``__bpe_kata_root__``) is the notebook, so every cell counts as the learner's code (bpe_kata/impl/frames.py).

Which contract it is: a notebook that defines ``train`` as a function is the contract's own names
(spec/CONTRACT.md), used as they are; one that defines a minbpe-style tokenizer class instead is read through
the minbpe shape (bpe_kata/impl/course_minbpe.py), CLASS naming the class when there are several.
"""

from __future__ import annotations

import hashlib
import linecache
import sys
import types
from pathlib import Path

from bpe_kata.impl import notebook_cells, shape_parts

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True


def cell_filename(notebook: Path, cell: notebook_cells.Cell) -> str:
    """The file name a cell's code carries: the notebook as a folder, the cell as a file in it."""
    return f"{notebook}/{cell.label}"


def module_of(path: Path, value: str) -> types.ModuleType:
    """The notebook's definitions as a module (registered in ``sys.modules``, as an import would)."""
    kept = notebook_cells.definitions(notebook_cells.read_cells(path), path.name)
    digest = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:12]
    name = f"bpe_kata_notebook_{''.join(c if c.isalnum() else '_' for c in path.stem)[:40]}_{digest}"
    module = types.ModuleType(name, f"The definitions of {path.name}")
    module.__file__ = str(path)
    module.__bpe_kata_root__ = str(path)
    sys.modules[name] = module
    if str(path.parent) not in sys.path:  # the notebook's own helper modules, imported as the kernel would
        sys.path.append(str(path.parent))
    try:
        for item in kept:
            filename = cell_filename(path, item.cell)
            source = notebook_cells.python_source(item.cell.source)
            linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
            code = _compiled(item, filename, path.name)
            try:
                exec(code, module.__dict__)  # definitions only: imports, defs, classes, pure assignments
            except Exception as error:
                where = f"{path.name}, {item.cell.label}, line {_line_of(error, filename)}"
                raise shape_parts.ShapeError(f"--impl {value}: could not load: {where}: "
                                             f"{type(error).__name__}: {error}") from error
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _compiled(item: notebook_cells.KeptCell, filename: str, notebook_name: str) -> types.CodeType:
    try:
        return compile(item.tree, filename, "exec")
    except SyntaxError as error:  # what only the compiler checks (a misplaced __future__ import, a bad nonlocal)
        raise notebook_cells.NotebookError(
            f"{notebook_name}, {item.cell.label}, line {error.lineno or '?'}: {error.msg}") from None


def _line_of(error: BaseException, filename: str) -> str:
    lines = [tb.tb_lineno for tb in _walk(error.__traceback__) if tb.tb_frame.f_code.co_filename == filename]
    return str(lines[-1]) if lines else "?"


def _walk(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def defines_train(module: types.ModuleType) -> bool:
    return isinstance(getattr(module, "train", None), types.FunctionType)


def _is_tokenizer_class(thing: object) -> bool:
    return isinstance(thing, type) and all(callable(getattr(thing, op, None)) for op in ("train", "encode", "decode"))


def build(path: Path, class_name: str | None, value: str) -> types.ModuleType:
    """The contract's module over the notebook at ``path``. Raises ShapeError with one line."""
    if path.suffix != ".ipynb" or not path.is_file():
        raise shape_parts.ShapeError(f"--impl {value}: {path} is not a .ipynb file")
    try:
        module = module_of(path, value)
    except notebook_cells.NotebookError as error:
        raise shape_parts.ShapeError(f"--impl {value}: could not load: {error}") from None
    if class_name is None and (defines_train(module) or not any(map(_is_tokenizer_class, vars(module).values()))):
        return module  # the contract's names (a notebook defining none of them leaves its levels not started)
    from bpe_kata.impl import course_minbpe

    return course_minbpe.build_over(module, path, class_name, value)

