"""pytest-xdist's workers of a trusted verdict process start the way it did (bpe_kata/gate/trusted_start.py).

xdist starts each popen worker as ``python -c BOOTSTRAP`` in the working folder: the folder first on
``sys.path`` (a judged repository's ``queue.py`` or ``pytest.py`` would be imported by the worker
before it receives its ``sys.path``), its ``.pth`` files and ``sitecustomize`` processed. Loaded with
``-p`` by the supervisor, this plugin gives each popen worker the trusted interpreter instead:
``python -I -S -X pycache_prefix=P -u -c 'sys.path = TRUSTED; exec(BOOTSTRAP)'``. The worker inherits
the verdict process's environment, already allow-listed.
"""

from __future__ import annotations

import os
import sys

import pytest

from bpe_kata.gate import trusted_start


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list) -> None:
    if not os.environ.get(trusted_start.MARK):
        return
    python = trusted_start.worker_python(sys.pycache_prefix)
    for spec in specs:
        if spec.popen and not spec.python:
            spec.python = python
