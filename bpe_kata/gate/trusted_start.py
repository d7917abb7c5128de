"""How a trusted process starts: never from the judged folder, the environment or another installation.

The processes that judge (the gate's verdict process and its pytest-xdist workers, grade's supervisor
of each submission, the matrix's gates) used to start as ``python -m ...`` or ``python -c ...`` in the
working folder: Python puts that folder first on ``sys.path``, so a judged repository with its own
``bpe_kata/``, ``spec/``, ``_pytest/``, ``pytest.py``, ``xdist/`` or ``hypothesis/`` at its root
replaced the suite, and ``PYTHONPATH``, ``PYTEST_PLUGINS``, ``PYTHONSTARTUP`` or a ``.pth`` file of an
implementation installed beside the suite reached the verdict too.

The rule: a trusted process is started by :func:`command`, ``python -I -S -X pycache_prefix=P -c BOOT``.
``-I`` ignores every ``PYTHON*`` variable, the user's site-packages and the working folder; ``-S``
processes no ``.pth`` file and imports no ``sitecustomize``/``usercustomize``. BOOT then sets
``sys.path`` to exactly :func:`trusted_path`: the suite's own package roots, the standard library,
this environment's site-packages folders (without their ``.pth`` files), and the roots of the
run's own modules (:data:`RUN_MODULES`) where this process finds them elsewhere (an editable install
of a dependency). Its environment
is :func:`environment`: an allow-list, with pytest's plugin autoload off (the plugins the run needs
are named with ``-p``). The bytecode cache is ``P`` (``-I`` ignores ``PYTHONPYCACHEPREFIX``), the
supervisor's private one (bpe_kata/gate/supervisor.py ``private_pycache``), which no untrusted
process is ever given.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

#: The suite's own top-level packages: their roots come first on a trusted ``sys.path``.
SUITE_PACKAGES = ("bpe_kata", "spec", "reference")
#: What the verdict process and its workers import besides the standard library: their roots are
#: added where they are not in site-packages (an editable install of one of them).
RUN_MODULES = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "xdist", "execnet", "pytest_timeout",
               "hypothesis", "_hypothesis_pytestplugin", "sortedcontainers", "attr", "regex", "tiktoken")
#: Variables a trusted process keeps (exact names), and prefixes of kept names.
ENV_KEEP = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "XDG_CACHE_HOME",
            "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PY_COLORS", "CI", "GITHUB_ACTIONS",
            "PYTEST_XDIST_AUTO_NUM_WORKERS", "COVERAGE_PROCESS_START")
ENV_KEEP_PREFIXES = ("LC_", "BPE_KATA_", "HYPOTHESIS_")
#: Plugins the spec's run needs, loaded by name since autoload is off (pytest_settings.ini names them too).
PLUGINS = ("xdist", "hypothesispytest", "timeout")
#: Set in every trusted process's environment: its workers start the same way (bpe_kata/gate/trusted_workers.py).
MARK = "BPE_KATA_TRUSTED_START"


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def _root_of(name: str) -> Path | None:
    """The folder to put on ``sys.path`` to import top-level ``name`` as this process finds it."""
    try:
        found = importlib.util.find_spec(name)  # a top-level name: the finders only, nothing executed
    except (ImportError, ValueError):
        return None
    if found is None or not found.origin or found.origin in ("built-in", "frozen"):
        return None
    # As found, links not followed: an environment whose site-packages entries link into another one must
    # give the folder it has, not the other environment's whole site-packages (with what this one lacks).
    origin = Path(os.path.abspath(found.origin))
    return origin.parent.parent if found.submodule_search_locations is not None else origin.parent


def site_dirs() -> list[str]:
    """This environment's site-packages folders (never the user's): where the suite was installed."""
    import site  # under -S importing site adds nothing: it only runs its main() when the flag is off

    return [d for d in site.getsitepackages() if Path(d).is_dir()]


def stdlib_dirs() -> list[str]:
    """The standard library's entries of this process's ``sys.path`` (the zip, the folder, lib-dynload)."""
    bases = [Path(sys.base_prefix).resolve(), Path(sys.base_exec_prefix).resolve()]
    sites = {Path(d).resolve() for d in site_dirs()}
    found = []
    for entry in sys.path:
        if not entry:
            continue
        path = Path(entry).resolve()
        if _inside(path, bases) and path not in sites and not {"site-packages", "dist-packages"} & set(path.parts):
            found.append(entry)
    return found


def untrusted_roots() -> list[Path]:
    """Folders a dependency is never taken from: the working folder and ``PYTHONPATH``'s entries (the judged
    repository's; an editable dependency lives in an environment of its own or in the suite's)."""
    entries = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return [Path(p).resolve() for p in [os.getcwd(), *entries]]


def trusted_path() -> list[str]:
    """The whole ``sys.path`` of a trusted process: suite roots, stdlib, site-packages, dependencies' roots."""
    suite = [root for root in map(_root_of, SUITE_PACKAGES) if root is not None]
    stdlib, sites = stdlib_dirs(), site_dirs()
    known = [path for p in [*stdlib, *sites] for path in (Path(os.path.abspath(p)), Path(p).resolve())]
    shunned = untrusted_roots()
    extra = []
    for name in RUN_MODULES:  # never "whatever this process imported": the path must not depend on its history
        root = _root_of(name)
        if (root is not None and not _inside(root, known) and root not in suite and root not in extra
                and not _inside(root, shunned)):
            extra.append(root)
    return list(dict.fromkeys([*map(str, suite), *stdlib, *sites, *map(str, extra)]))


def _setup(path: list[str]) -> str:
    """``sys.path``, and the environment's prefixes, which ``site`` would set in a virtual environment
    (without them ``site.getsitepackages()`` names the base interpreter's folders)."""
    return f"import sys; sys.path[:] = {path!r}; sys.prefix, sys.exec_prefix = {sys.prefix!r}, {sys.exec_prefix!r}; "


def boot(path: list[str], module: str) -> str:
    """The ``-c`` program of a trusted start: ``sys.path`` set, then ``module`` run as ``__main__``."""
    return _setup(path) + f"import runpy; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"


def interpreter(pycache: str | os.PathLike | None) -> list[str]:
    """The interpreter and flags of every trusted start (``pycache``: its bytecode cache)."""
    return [sys.executable, "-I", "-S", *(["-X", f"pycache_prefix={os.fspath(pycache)}"] if pycache else [])]


def command(module: str, args: list[str], pycache: str | os.PathLike | None) -> list[str]:
    """``python -I -S -X pycache_prefix=P -c BOOT ARGS``: ``module`` run as ``python -m module ARGS`` would,
    but from :func:`trusted_path` only."""
    return [*interpreter(pycache), "-c", boot(trusted_path(), module), *args]


def worker_python(pycache: str | os.PathLike | None) -> str:
    """pytest-xdist's ``popen//python=`` value for a trusted worker: execnet appends ``-u -c BOOTSTRAP``,
    which this ``-c`` program runs once ``sys.path`` is the trusted one."""
    program = _setup(trusted_path()) + "exec(sys.argv[-1])"
    return shlex.join([*interpreter(pycache), "-u", "-c", program])


def environment(base: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """The allow-listed environment of a trusted process: no ``PYTHON*``, ``PYTEST_ADDOPTS`` or
    ``PYTEST_PLUGINS``, plugin autoload off, and :data:`MARK` set."""
    base = os.environ if base is None else base
    env = {name: value for name, value in base.items() if name in ENV_KEEP or name.startswith(ENV_KEEP_PREFIXES)}
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", **{MARK: "1"}, **extra)
    return env


def plugin_args(args: list[str]) -> list[str]:
    """``-p`` for each plugin the run needs (pytest-cov only when a ``--cov`` option asks for it)."""
    wanted = list(PLUGINS) + (["pytest_cov"] if any(a.startswith("--cov") for a in args) else [])
    return [word for name in wanted for word in ("-p", name)]


def started_trusted() -> bool:
    """Whether this process is a trusted start (not the ``bpe-kata`` command as the shell started it)."""
    return bool(sys.flags.isolated and sys.flags.no_site and os.environ.get(MARK))


def become_trusted(module: str, args: list[str], pycache: str | os.PathLike | None) -> NoReturn:
    """Replace this process with a trusted start of ``module`` (``bpe-kata gate``, ``grade``, ``verify-report``,
    ``matrix``): the supervisor and whatever it imports later (pytest, the spec's modules, to check an
    expectations file or derive a verdict again) never come from the working folder or ``PYTHONPATH``."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, command(module, args, pycache), environment())
