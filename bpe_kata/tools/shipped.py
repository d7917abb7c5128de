"""Every file a submission ships, as copy detection can compare it (``bpe-kata grade``).

The rule: what the child could run, grade must read. A submission is not only its ``*.py`` files:
Python imports from archives of any name (zipimport), runs ``.pyc`` files with or without a source
beside them, and a submission can carry source as data to ``exec``. So every file is classified
by its content, never by its name alone:

* Python source (``.py`` and any text file that holds definitions or imports) becomes a unit;
* archives (zip of any name, so wheels, eggs and ``.pyz`` too; tar; gzip/bz2/xz) are unpacked in
  memory and their members classified in turn, nested up to ``MAX_DEPTH``; past ``MAX_FILES``
  members or ``MAX_BYTES`` unpacked the archive is refused (a zip bomb is counted, never expanded);
* notebooks give their code cells; pickles give the modules they would import (read, never loaded);
* bytecode is refused, not decompiled: no decompiler follows current Pythons and unmarshalling
  untrusted data is unsafe, while an honest submission never needs it. A ``__pycache__`` file
  Python itself would ignore (another interpreter's tag, no source beside it, or stale) is skipped;
* anything else it cannot read (native code, other binary data, special files) is named as
  ``unreadable: X``, never silently left out.
"""

from __future__ import annotations

import ast
import bz2
import io
import itertools
import json
import lzma
import os
import pickletools
import stat
import sys
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from importlib.util import MAGIC_NUMBER
from pathlib import Path

#: Limits over one submission, archives' members included: past them the rest is refused, named.
MAX_FILES, MAX_BYTES, MAX_DEPTH = 5_000, 64 * 2**20, 3
#: Folders that are never the submission's code: version control (code that read it back would have
#: to decompress and run it: exec and subprocess are flagged by bpe_kata/tools/delegation.py).
SKIPPED_DIRS = {".git", ".hg", ".svn"}
#: Single compressed files, decompressed incrementally up to the limit (a bomb is stopped, not expanded).
COMPRESSED = {b"\x1f\x8b": lambda: zlib.decompressobj(31), b"BZh": bz2.BZ2Decompressor,
              b"\xfd7zXZ\x00": lzma.LZMADecompressor}


@dataclass
class Unit:
    """One piece of Python source the submission ships, named by its path inside the submission."""

    name: str
    text: str


@dataclass
class Shipped:
    units: list[Unit] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "ships bytecode: X", "unreadable: X (why)"
    module_names: set[str] = field(default_factory=set)  # what its own files can be imported as
    root_name: str = ""  # the submission's own folder or file name (a course shape's package, e.g. minbpe)
    pickled_imports: list[tuple[str, str]] = field(default_factory=list)  # (file, module) a pickle names
    files: int = 0
    bytes: int = 0


def shown(path: str | os.PathLike) -> str:
    """A path as text that can always be printed and written as UTF-8 (a non-UTF-8 byte as \\xNN)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def collect(submission: str | os.PathLike) -> Shipped:
    """Every file under ``submission`` (a file or a folder), classified; never raises for its content."""
    root = Path(submission)
    found = Shipped(root_name=root.stem if root.is_file() else root.name)
    if root.is_dir():
        found.module_names.add(root.name)
        seen: set[Path] = set()
        for folder, dirs, files in os.walk(root, followlinks=True):
            real = Path(folder).resolve()
            if real in seen:  # a link back up the tree
                dirs[:] = []
                continue
            seen.add(real)
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(files):
                _file(Path(folder) / name, shown(Path(folder, name).relative_to(root)), found)
    else:
        _file(root, shown(root.name), found)
    return found


def _file(path: Path, name: str, found: Shipped) -> None:
    try:
        info = path.stat()
    except OSError as error:
        found.problems.append(f"unreadable: {name} ({error.strerror or error})")
        return
    if not stat.S_ISREG(info.st_mode):
        found.problems.append(f"unreadable: {name} (not a regular file)")
        return
    if not _room(found, name, info.st_size):
        return
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)  # a file that grew since stat() is still bounded
    except OSError as error:
        found.problems.append(f"unreadable: {name} ({error.strerror or error})")
        return
    _classify(data, name, found, 0, path)


def _room(found: Shipped, name: str, size: int) -> bool:
    found.files += 1
    found.bytes += size
    if found.files > MAX_FILES or found.bytes > MAX_BYTES:
        found.problems.append(f"unreadable: {name} (over the limit of {MAX_FILES} files or "
                              f"{MAX_BYTES // 2**20} MiB the submission may ship)")
        return False
    return True


def _classify(data: bytes, name: str, found: Shipped, depth: int, path: Path | None = None) -> None:
    """One file's bytes: source, archive, notebook, pickle, bytecode or unreadable."""
    stem, _, suffix = name.rpartition("/")[2].partition(".")
    if stem.isidentifier():
        found.module_names.add(stem)
    parts = name.split("/")
    found.module_names.update(p for p in parts[:-1] if p.isidentifier())
    if data[:4] == MAGIC_NUMBER or name.endswith((".pyc", ".pyo")):
        if path is None or not _python_ignores(path):
            found.problems.append(f"ships bytecode: {name} (Python may run it; it is not compared: ship source)")
        return
    if data[:4] == b"\x7fELF" or name.endswith((".so", ".pyd", ".dll", ".dylib")):
        found.problems.append(f"unreadable: {name} (native code)")
        return
    if _archive(data, name, found, depth):
        return
    text = _text(data)
    if text is not None:
        if name.endswith(".ipynb"):
            _notebook(text, name, found)
        elif name.endswith((".py", ".pyw", ".pyi")) or _holds_python(text):
            found.units.append(Unit(name, text))
        return
    if _pickle(data, name, found):
        return
    found.problems.append(f"unreadable: {name} (binary data)")


def _archive(data: bytes, name: str, found: Shipped, depth: int) -> bool:
    """Unpack a zip, tar or compressed file in memory within the limits; False when it is none."""
    decompressor = next((make for magic, make in COMPRESSED.items() if data.startswith(magic)), None)
    is_tar = decompressor is None and len(data) >= 512 and data[257:262] == b"ustar"
    is_zip = zipfile.is_zipfile(io.BytesIO(data))  # a tar holding a zip may be one too: both are read
    if not (is_zip or is_tar or decompressor):
        return False
    if depth >= MAX_DEPTH:
        found.problems.append(f"unreadable: {name} (archives nested more than {MAX_DEPTH} deep)")
        return True
    try:
        if decompressor is not None:
            inner = decompressor().decompress(data, MAX_BYTES + 1)
            members = [(name.rpartition("/")[2].rpartition(".")[0] or "data", lambda: inner)]
        else:
            members = itertools.chain(_tar_members(data) if is_tar else (), _zip_members(data) if is_zip else ())
        for member, read in members:
            label = f"{name}/{shown(member)}"
            content = read()
            if len(content) > MAX_BYTES:
                found.problems.append(f"unreadable: {label} (unpacks to more than {MAX_BYTES // 2**20} MiB)")
                return True
            if not _room(found, label, len(content)):
                return True
            _classify(content, label, found, depth + 1)
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, tarfile.TarError, lzma.LZMAError,
            RuntimeError, NotImplementedError) as error:
        found.problems.append(f"unreadable: {name} (a damaged archive: {error})")
    return True


def _zip_members(data: bytes):
    archive = zipfile.ZipFile(io.BytesIO(data))
    for info in archive.infolist():
        if not info.is_dir():
            yield info.filename, lambda info=info: _read_bounded(archive.open(info))


def _tar_members(data: bytes):
    archive = tarfile.open(fileobj=io.BytesIO(data))
    for info in archive:
        if info.isfile():
            yield info.name, lambda info=info: _read_bounded(archive.extractfile(info))


def _read_bounded(handle) -> bytes:
    """At most one byte past the limit: a member that claims less than it holds is still stopped."""
    with handle:
        return handle.read(MAX_BYTES + 1)


def _text(data: bytes) -> str | None:
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return data.decode("latin-1") if _holds_python(data.decode("latin-1")) else None
        except ValueError:
            return None


def _holds_python(text: str) -> bool:
    """Text that parses as Python and defines or imports something (not a JSON or merges file)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
               for node in ast.walk(tree))


def _notebook(text: str, name: str, found: Shipped) -> None:
    try:
        cells = json.loads(text).get("cells", [])
        code = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in cells if c.get("cell_type") == "code"]
    except (ValueError, AttributeError, KeyError, TypeError):
        found.problems.append(f"unreadable: {name} (not a notebook)")
        return
    found.units.append(Unit(name, "\n".join(line for cell in code for line in cell.splitlines()
                                            if not line.lstrip().startswith(("%", "!")))))


def _pickle(data: bytes, name: str, found: Shipped) -> bool:
    """A pickle's imports, read by disassembly (pickletools never runs it); False when it is no pickle."""
    if not data.startswith(b"\x80"):
        return False
    modules, strings = [], []
    try:
        for opcode, argument, _ in pickletools.genops(data):
            if opcode.name == "GLOBAL":
                modules.append(str(argument).split(" ")[0])
            elif opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
                modules.append(strings[-2])
            elif isinstance(argument, str):
                strings.append(argument)
    except (ValueError, KeyError, IndexError, TypeError):
        return False
    found.pickled_imports += [(name, module) for module in modules]
    return True


def _python_ignores(path: Path) -> bool:
    """A ``__pycache__`` file this Python would not load: another tag, no source beside it, or stale."""
    if path.parent.name != "__pycache__":
        return False
    module, _, rest = path.name.partition(".")
    if rest != f"{sys.implementation.cache_tag}.pyc":
        return True
    source = path.parent.parent / f"{module}.py"
    try:
        header, recorded = path.read_bytes()[:16], source.stat()
    except OSError:
        return True
    flags = int.from_bytes(header[4:8], "little")
    if flags:  # hash-based: Python may load it without looking at the source
        return False
    return (int.from_bytes(header[8:12], "little") != int(recorded.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(header[12:16], "little") != recorded.st_size & 0xFFFFFFFF)
