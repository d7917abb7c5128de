"""What an implementation child may read under the gate: an allow list, never a list of what to hide.

A list of folders to hide misses every copy nobody listed: the clone's ``.git`` (``git show
HEAD:reference/__init__.py``), a sibling worktree, a wheel in ``dist/``, pip's cache. So the child is
granted only what it needs, and everything else is unreadable by construction:

- the system folders (``/usr``, ``/lib*``, ``/bin``, ``/sbin``, ``/etc``, ``/proc``, ``/sys``);
- the interpreter: its prefixes and ``sys.path`` folders (and where their symbolic links lead), and a
  ``cmd:`` program's own install folder;
- the implementation's own folder (a package folder, or the folder of a ``.py`` file) and the
  ``__init__.py`` of each package around it;
- the working directory, unless it lies inside the suite;
- folders the user names in ``BPE_KATA_CHILD_READS`` (``os.pathsep``-separated);
- the shipped server's own modules, file by file (``SERVER_MODULES``): the child's end of the protocol;
- the run's scratch folder (read and write, ``bpe_kata.child.sandbox``).

From every granted folder the **protected** folders beneath it are taken out (Landlock only grants,
so a folder holding one is granted as its other children, recursively): the suite's packages
(``bpe_kata/``, ``spec/``, ``reference/``), the complete implementations it ships, the suite's
checkout when it is one (with ``.git``, ``dist/``, ``build/``, ``mutants/``), the repository's git
directory and every worktree of it, the user's cache folder (pip's and uv's caches, the run
directories). A folder inside a protected one is granted only where it is the interpreter's or
the implementation's own (a ``.venv`` in the clone, ``tests/red_team/``), never for the working
directory nor a ``cmd:`` argument: a ``cmd:`` word inside the suite's checkout is granted as that
one file. The exceptions: the implementation under test *is* one of the suite's implementations
(``bpe-kata gate reference``, or ``cmd:"node <suite>/solutions/js/bpe.mjs"``), or ``--expose-suite``.
Symbolic links met while listing a folder are not followed (their targets are granted on their own
or not at all).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bpe_kata.impl import course_shapes
from bpe_kata.layout.paths import PACKAGE_DIR, SPEC_DIR, SUITE_ROOT, reference_dir, shipped_implementations

READS_VAR = "BPE_KATA_CHILD_READS"
SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/proc", "/sys",
          "/nix/store", "/gnu/store")
#: What ``python -m bpe_kata.child.server IMPL`` imports of the suite (tests/test_sandbox_channels.py
#: checks that it imports nothing else): the only suite files a child may read.
SERVER_MODULES = ("bpe_kata", "bpe_kata.child", "bpe_kata.child.protocol", "bpe_kata.child.server",
                  "bpe_kata.child.handlers", "bpe_kata.child.signatures", "bpe_kata.child.iterable_memory",
                  "bpe_kata.child.gc_policy", "bpe_kata.impl", "bpe_kata.impl.frames", "bpe_kata.impl.loader",
                  "bpe_kata.impl.course_shapes", "bpe_kata.impl.shape_parts", "bpe_kata.impl.course_cs336",
                  "bpe_kata.impl.cs336_adapters_file",
                  "bpe_kata.impl.course_minbpe", "bpe_kata.impl.minbpe_finding", "bpe_kata.impl.repository_tests",
                  "bpe_kata.impl.declared_shape", "bpe_kata.impl.declared_build",
                  "bpe_kata.impl.course_notebook", "bpe_kata.impl.notebook_cells", "bpe_kata.adapters")
#: The suite's own JavaScript solution, gated in CI as ``cmd:"node solutions/js/bpe.mjs"``.
JS_SOLUTION = ("solutions", "js", "bpe.mjs")


@dataclass
class View:
    """The child's view: ``roots`` (each granted minus ``protected``), ``files`` granted one by one."""

    roots: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    protected: list[str] = field(default_factory=list)
    visible: list[str] = field(default_factory=list)  # suite folders shown because the implementation is one


def suite_packages() -> list[Path]:
    """The suite's packages and the complete implementations it ships (never shown unless one is gated)."""
    return [p for p in (PACKAGE_DIR, SPEC_DIR, reference_dir(), *shipped_implementations()) if p]


def checkout_copies(root: Path = SUITE_ROOT) -> list[Path]:
    """The suite's checkout, its git directory and every worktree of that repository (each a whole copy)."""
    if not ((root / "pyproject.toml").is_file() or (root / ".git").exists()):
        return []  # an installed wheel: the packages are in site-packages, beside other projects
    found = [root]
    git = root / ".git"
    if git.is_file():  # a worktree: "gitdir: <common>/worktrees/<name>"
        text = git.read_text(encoding="utf-8", errors="replace").strip()
        git = Path(text.partition("gitdir:")[2].strip())
        common = git / "commondir"
        if common.is_file():
            git = (git / common.read_text(encoding="utf-8").strip()).resolve()
    if git.is_dir():
        found.append(git.resolve())
        if git.name == ".git":
            found.append(git.resolve().parent)  # the main worktree
        for entry in (git / "worktrees").glob("*/gitdir"):
            try:
                found.append(Path(entry.read_text(encoding="utf-8").strip()).resolve().parent)
            except OSError:
                continue
    return found


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").resolve()


def server_files() -> list[Path]:
    """The source (and bytecode, when cached beside it) of every module in ``SERVER_MODULES``."""
    files = []
    for name in SERVER_MODULES:
        parts = name.split(".")[1:]
        base = PACKAGE_DIR.joinpath(*parts)
        source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if source.is_file():
            files.append(source)
            cached = Path(importlib.util.cache_from_source(str(source)))
            if cached.is_file():
                files.append(cached)
    return files


def interpreter_roots() -> list[Path]:
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *filter(None, sys.path)}
    return [Path(p).resolve() for p in found if os.path.isdir(p)]


def linked_entries(folder: Path) -> list[Path]:
    """Where the symbolic links directly in an interpreter's folder lead (an environment whose site-packages
    links to another's): Landlock judges a file where it really is."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return [Path(entry.path).resolve() for entry in entries if entry.is_symlink() and os.path.exists(entry.path)]


def program_root(word: str, path: str | None) -> Path | None:
    """The install folder of a ``cmd:`` program (``.../node/20/bin/node`` -> ``.../node/20``)."""
    found = shutil.which(word, path=path)
    if found is None:
        return None
    folder = Path(found).resolve().parent
    return folder.parent if folder.name == "bin" else folder


def python_paths(value: str, cwd: Path) -> list[Path]:
    """The files a Python ``--impl`` value is: a path, a course shape's path, or a dotted name found on
    the path (never imported); as named, links not followed (:func:`child_view` tells a link into the suite
    from the suite's own folder)."""
    for prefix in course_shapes.PREFIXES:
        if value.startswith(prefix):
            rest = value[len(prefix):]
            head, colon, tail = rest.rpartition(":")
            value = head if colon and head and not (cwd / rest).exists() and tail.isidentifier() else rest
    candidate = (cwd / value).expanduser()
    if candidate.exists():
        return [_absolute(candidate)]
    parts = value.split(".")
    if not all(part.isidentifier() for part in parts):
        return []
    for entry in [str(cwd), *sys.path]:
        base = Path(entry or cwd).joinpath(*parts)
        for found in (base.with_suffix(".py"), base / "__init__.py"):
            if found.is_file():
                return [_absolute(found)]
    spec = importlib.util.find_spec(parts[0]) if len(parts) == 1 else None  # an editable install's finder
    return [_absolute(Path(spec.origin))] if spec and spec.origin and os.path.isfile(spec.origin) else []


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def submission_folder(impl: str, cwd: Path) -> Path:
    """The folder a graded submission's child may read besides its own files: the submission's own folder
    (never the class's working folder, where every classmate's submission is)."""
    if impl.startswith("cmd:"):
        return cwd
    found = python_paths(impl, cwd)
    return own_folder(found[0].resolve()) if found else cwd


def own_folder(path: Path) -> Path:
    """The folder an implementation file belongs to: its package folder, or the folder of a plain ``.py``."""
    if path.is_dir():
        return path
    return path.parent


def package_inits(folder: Path) -> list[Path]:
    """The ``__init__.py`` of ``folder`` and of every package around it (a dotted import reads them)."""
    found = []
    for parent in (folder, *folder.parents):
        init = parent / "__init__.py"
        if not init.is_file():
            break
        found.append(init)
    return found


def inside(path: Path, folders: list[Path]) -> Path | None:
    return next((f for f in folders if path == f or path.is_relative_to(f)), None)


def child_view(impl: str | None, *, cwd: Path, run_root: Path, expose: bool = False,
               environ: dict[str, str] | os._Environ = os.environ) -> View:
    """The allow list for a run gating ``impl`` (an ``--impl`` value) from ``cwd``."""
    cwd = cwd.resolve()
    packages = suite_packages()
    copies = checkout_copies()
    protected = list(dict.fromkeys([*packages, *copies, cache_dir(), run_root.resolve()]))
    view = View(files=[str(p) for p in server_files()])
    roots: list[Path] = [Path(p) for p in SYSTEM]
    visible: list[Path] = []
    if expose:
        visible += [*packages, *copies]
    for root in interpreter_roots():
        if not inside(root, packages):
            roots.append(root)
            roots += [target for target in linked_entries(root)
                      if not inside(target, packages) and ".git" not in target.parts]
    command = shlex.split(impl[4:]) if impl and impl.startswith("cmd:") else None
    if command:
        program = program_root(command[0], environ.get("PATH"))
        if program is not None and not inside(program, protected):
            roots.append(program)
        js = SUITE_ROOT.joinpath(*JS_SOLUTION).resolve()
        for word in command:
            path = (cwd / word).resolve() if os.path.exists(cwd / word) else None
            if path is None:
                continue
            if path == js:
                visible.append(js.parent)
            elif inside(path, packages):
                continue  # a cmd: word never shows the suite's packages or shipped implementations
            elif inside(path, protected):
                if path.is_file():
                    view.files.append(str(path))  # inside the checkout: that one file, never its folder
            else:
                roots.append(own_folder(path))
    elif impl:
        for named in python_paths(impl, cwd):
            path = named.resolve()
            shipped = inside(path, packages)
            folder = own_folder(path)
            if shipped is not None and inside(named, packages) is not None:
                visible.append(shipped)  # the implementation is one of the suite's own (gate reference)
            elif shipped is not None:
                continue  # a link into the suite (my_bpe -> reference/) never shows the suite: it shows nothing
            elif folder in protected:
                view.files.append(str(path))
            else:
                roots.append(folder)
            view.files += [str(p) for p in package_inits(folder)]
    if not inside(cwd, protected) or (expose and not inside(cwd, [cache_dir(), run_root.resolve()])):
        roots.append(cwd)
    for named in filter(None, environ.get(READS_VAR, "").split(os.pathsep)):
        roots.append(Path(named).expanduser().resolve())
    view.protected = [str(p) for p in protected if not any(p == v or p.is_relative_to(v) for v in visible)]
    view.visible = sorted({str(p) for p in visible})
    view.roots = sorted({str(p) for p in [*roots, *visible]})
    return view


def granted_paths(roots: list[str], protected: list[str]) -> list[str]:
    """Paths whose trees together hold every file beneath ``roots`` except those beneath ``protected``.

    A root inside a protected folder is kept (the caller decided it may be read), minus what is
    protected beneath it; a root holding a protected folder becomes its other children, recursively."""
    hidden = [Path(p) for p in protected]
    granted: list[str] = []
    for text in roots:
        root = Path(text)
        if not root.exists():
            continue
        beneath = [h for h in hidden if h != root and h.is_relative_to(root)]
        if any(root == h for h in hidden):
            continue
        if not beneath:
            granted.append(text)
            continue
        ancestors = {a for h in beneath for a in h.parents if a == root or a.is_relative_to(root)}
        ancestors = {a for a in ancestors if not any(a == h or a.is_relative_to(h) for h in beneath)}
        for directory in ancestors:
            try:
                names = os.listdir(directory)
            except OSError:
                continue
            for name in names:
                entry = directory / name
                if entry in ancestors or entry in beneath or entry.is_symlink():
                    continue
                granted.append(str(entry))
    return granted
