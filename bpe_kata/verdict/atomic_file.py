"""Reports written whole or not at all, with the permissions any file the user writes gets.

A temporary file in the target's folder, renamed over the target: a reader never sees half a
report (docs/GATE.md). ``tempfile`` creates it readable by its owner only (0600), which the
rename would keep; a report is meant to be read by CI and by whoever is grading, so before the
rename it gets the mode ``open()`` would have given (0666 less the umask: 0644 under umask 022).
The folder keeps its own permissions: the gate's private run directory (0700) stays private.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def current_umask() -> int:
    """The process's umask, read without changing it (Linux: /proc); else set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, mode 0666 & ~umask; returns the resolved path."""
    path = Path(path).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as tmp:
        tmp.write(text)
        os.fchmod(tmp.fileno(), 0o666 & ~current_umask())
    os.replace(tmp.name, path)
    return path
