"""What in the suite's environment runs at every Python start-up without being the suite's: named before a run.

The trusted processes never process ``.pth`` files or import ``sitecustomize`` (``python -I -S``,
bpe_kata/gate/trusted_start.py), but the ``bpe-kata`` command itself is a plain Python start: an
implementation installed into the suite's environment whose wheel carries a ``.pth`` file with an
``import`` line, or a ``sitecustomize``/``usercustomize`` module, has run there before the
supervisor began. So the supervisor names each one in a line, and under ``--require-sandbox``
refuses to run (exit status 2): install the implementation in an environment of its own.

Not named (honest environments): ``.pth`` files that only list folders; those with ``import`` lines
installed by a distribution the suite depends on (its requirements, with each of its extras, followed
transitively: coverage's ``a1_coverage.pth``, the suite's own editable finder), by pip or setuptools
(``distutils-precedence.pth``), and virtualenv's ``_virtualenv.pth``; a ``sitecustomize`` of the
interpreter's own library (Debian's).
"""

from __future__ import annotations

import importlib.machinery
import re
import site
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from bpe_kata.gate import trusted_start

#: Distributions whose start-up files are the environment's own, whatever the suite requires.
ENVIRONMENT_TOOLS = ("bpe-kata", "pip", "setuptools", "wheel")
#: ``.pth`` files no distribution records but honest environments have.
UNOWNED_HONEST = ("_virtualenv.pth",)
REFUSAL = "install the implementation in an environment of its own, not the suite's (docs/GATE.md, 1.)"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def suite_dependencies(root: str = "bpe-kata") -> set[str]:
    """The suite's distribution and what it requires (every extra of its own), transitively (normalized)."""
    seen, todo = set(), [root]
    while todo:
        name = _normal(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [re.split(r"[\s;<>=!~\[(]", line.strip(), maxsplit=1)[0] for line in requires
                 if name == _normal(root) or "extra ==" not in line]  # every extra of the suite's, none of theirs
    return seen


def pth_owners() -> dict[Path, str]:
    """Every ``.pth`` file an installed distribution's RECORD lists, and that distribution's name."""
    owners = {}
    for dist in metadata.distributions():
        for file in dist.files or ():
            if file.name.endswith(".pth"):
                owners[Path(dist.locate_file(file)).resolve()] = _normal(dist.metadata["Name"] or "")
    return owners


def _runs_code(pth: Path) -> bool:
    try:
        lines = pth.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    return any(line.startswith(("import ", "import\t")) for line in lines)


def findings(sites: Iterable[str] | None = None, owners: dict[Path, str] | None = None,
             allowed: set[str] | None = None) -> list[str]:
    """One line per start-up file of the environment that is not the suite's or the interpreter's."""
    sites = list(sites if sites is not None else _sites())
    owners = pth_owners() if owners is None else owners
    allowed = (suite_dependencies() | set(ENVIRONMENT_TOOLS)) if allowed is None else allowed
    found = []
    for name in ("sitecustomize", "usercustomize"):
        spec = importlib.machinery.PathFinder.find_spec(name, sites)
        if spec is not None and spec.origin:
            found.append(f"{spec.origin}: a {name} module of this environment runs in every Python started here")
    for folder in sites:
        for pth in sorted(Path(folder).glob("*.pth")):
            owner = owners.get(pth.resolve())
            if not _runs_code(pth) or pth.name in UNOWNED_HONEST or owner in allowed:
                continue
            source = f"installed by {owner}" if owner else "installed by no distribution"
            found.append(f"{pth}: runs code at every Python start-up ({source}, not a dependency of the suite)")
    return found


def _sites() -> list[str]:
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return [*trusted_start.site_dirs(), *([user] if user and Path(user).is_dir() else [])]
