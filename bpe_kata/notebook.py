"""Check the BPE a learner wrote in a live Jupyter kernel (issue 40), from a cell:

    from bpe_kata import notebook
    notebook.check(globals(), level="train")          # or claim="train.ids-from-256"

or as a magic: ``%load_ext bpe_kata.notebook`` once, then ``%bpe_kata_check --level train``.

The kernel itself runs nothing of the spec: a learner's kernel holds corpora, half-run cells and state the check
must not see or change, and a hang there would lose the kernel. Instead the definitions the kernel ran are taken
as source, written as a notebook in a temporary folder, and ``bpe-kata check notebook:THAT.ipynb`` runs in a
subprocess with the kernel's Python, its output printed in the cell as it comes. Which statements count as
definitions is bpe_kata/impl/notebook_cells.py's rule, the same as for a notebook file (no training cell runs).

Where the source comes from: IPython's input history (``_ih``, every cell run, in order, each labelled
``In [N]`` so a root cause names the cell the learner sees); for a function or class the history does not
define (made by ``%run`` or ``exec``), ``inspect.getsource``; outside IPython, the running script's file.
History first, because ``inspect.getsource`` alone does not do: under ipykernel 7 and IPython 9 on Python 3.11 it
finds a function defined in a cell (IPython keeps the cell in ``linecache``) but not a class ("source code not
available": a class's source is looked up through its module, ``__main__``, which has no file), and neither
brings the imports and constants the functions read.
A cell of the history that does not parse defined nothing in the kernel either, and is left out.
"""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import tempfile
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.impl import notebook_cells


@dataclass
class Result:
    """What ``check`` returns: the check's exit status (0 green, 1 failures, 4 could not load) and its JSON report
    (docs/SCHEMAS.md), or None when no report was written."""

    returncode: int
    report: dict | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        levels = (self.report or {}).get("levels", {})
        shown = ", ".join(f"{name} {level.get('status')}" for name, level in levels.items())
        return f"bpe-kata check: exit status {self.returncode}" + (f" ({shown})" if shown else "")


def kernel_cells(namespace: Mapping[str, object]) -> list[notebook_cells.Cell]:
    """The cells whose definitions made ``namespace``: the input history, else the script's file, then the
    source of any function or class of the namespace they do not define."""
    history = namespace.get("_ih")
    cells: list[notebook_cells.Cell] = []
    if isinstance(history, list):
        cells = [notebook_cells.Cell(n, f"In [{n}]", str(source)) for n, source in enumerate(history)
                 if n and str(source).strip()]
    elif isinstance(namespace.get("__file__"), str) and Path(str(namespace["__file__"])).is_file():
        script = Path(str(namespace["__file__"]))
        cells = [notebook_cells.Cell(1, script.name, script.read_text(encoding="utf-8"))]
    kept = notebook_cells.definitions(cells, "the kernel", skip_unparsable=True)
    defined = {getattr(node, "name", None) for item in kept for node in item.tree.body}
    home = namespace.get("__name__", "__main__")
    extra = [notebook_cells.Cell(len(cells) + k + 1, label, source)
             for k, (label, source) in enumerate(_sources(namespace, home, defined))]
    return [*(item.cell for item in kept), *extra]


def _sources(namespace: Mapping[str, object], home: object, defined: set) -> list[tuple[str, str]]:
    found = []
    for name, value in namespace.items():
        if name.startswith("_") or name in defined or not isinstance(value, (types.FunctionType, type)):
            continue
        if getattr(value, "__module__", None) != home:
            continue
        try:
            found.append((f"{name} (its source)", inspect.getsource(value)))
        except (OSError, TypeError):
            continue  # no source anywhere (a builtin, a lambda typed at a prompt that kept none)
    if found:  # the modules the namespace imported, for those functions' globals
        imports = [f"import {value.__name__} as {name}" for name, value in namespace.items()
                   if isinstance(value, types.ModuleType) and not name.startswith("_")]
        found.insert(0, ("the namespace's modules", "\n".join(imports)))
    return found


def write_notebook(cells: list[notebook_cells.Cell], path: Path) -> Path:
    """``cells`` as an nbformat 4 notebook at ``path``, each keeping its label (``In [N]``)."""
    document = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "execution_count": None, "outputs": [], "id": f"c{k}",
         "metadata": {"bpe_kata": {"label": cell.label}}, "source": cell.source} for k, cell in enumerate(cells)]}
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def check(namespace: Mapping[str, object] | None = None, level: str | None = None, claim: str | None = None,
          args: list[str] | tuple[str, ...] = (), tokenizer_class: str | None = None) -> Result:
    """Check the definitions of ``namespace`` (default: the caller's globals) in a subprocess; print its verdict.

    ``level``: climb up to this level (``--level``); ``claim``: only this claim's tests (``--claim``);
    ``args``: more options of ``bpe-kata check`` (``-x``, ``-m "not corpus"``); ``tokenizer_class``: the
    minbpe-style class to check when the kernel defines several."""
    if namespace is None:
        caller = inspect.currentframe()
        namespace = caller.f_back.f_globals if caller is not None and caller.f_back is not None else {}
    cells = kernel_cells(namespace)
    options = [*(["--level", level] if level else []), *(["--claim", claim] if claim else []), *args]
    with tempfile.TemporaryDirectory(prefix="bpe-kata-kernel-") as folder:
        written = write_notebook(cells, Path(folder) / "kernel.ipynb")
        report = Path(folder) / "report.json"
        value = f"notebook:{written}" + (f":{tokenizer_class}" if tokenizer_class else "")
        command = [sys.executable, "-m", "bpe_kata.cli", "check", value, "--bpe-report", str(report), *options]
        returncode = _run_printing(command)
        loaded = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    return Result(returncode, loaded)


def _run_printing(command: list[str]) -> int:
    """Run ``command``, printing its output line by line as it comes (the cell shows the run's progress).

    The check runs in a session of its own: when the learner interrupts the cell, it and the workers it started
    are stopped with it, rather than left running behind a kernel that has moved on."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                          encoding="utf-8", errors="replace", start_new_session=True) as process:
        assert process.stdout is not None
        try:
            for line in process.stdout:
                print(line, end="", flush=True)
            return process.wait()
        except BaseException:  # KeyboardInterrupt: the learner stopped the cell
            os.killpg(process.pid, signal.SIGTERM)
            raise


def load_ipython_extension(ipython) -> None:
    """``%load_ext bpe_kata.notebook``: registers ``%bpe_kata_check [--level L] [--claim C] [options...]``."""
    import shlex

    def bpe_kata_check(line: str) -> Result:
        return check(ipython.user_ns, args=shlex.split(line))

    ipython.register_magic_function(bpe_kata_check, magic_kind="line", magic_name="bpe_kata_check")
