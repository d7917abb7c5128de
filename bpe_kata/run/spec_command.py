"""The arguments ``bpe-kata check`` and ``gate`` add to pytest's: one rootdir and one config, short output.

Installed without ``-e`` (docs/GATE.md's CI recipe), the spec lives in site-packages and pytest would
find no configuration: test ids became ``../env/lib/python3.11/site-packages/spec/...`` (so no
expectations entry matched) and the project's markers, plugins and timeout were not loaded. Both
commands therefore name the spec's parent folder as ``--rootdir`` and the packaged
``pytest_settings.ini`` as the config, wherever the package is: ids are ``spec/test_x.py::...``
and the settings the same in a clone and in an install. An installed copy keeps pytest's cache in
the current folder rather than in site-packages.

Output defaults (each only when the user's arguments do not set it): ``--tb=short``, which
bpe_kata/verdict/tracebacks.py trims to the implementation's frames, and ``-rN`` (no "short test summary":
the level table and the claim to fix first are the run's last lines; ``-rfE`` brings it back).
"""

from __future__ import annotations

from pathlib import Path

from bpe_kata.layout.paths import SUITE_ROOT

SETTINGS = Path(__file__).resolve().with_name("pytest_settings.ini")


def _given(argv: list[str], *names: str) -> bool:
    return any(arg == name or arg.startswith(name + "=") or (len(name) == 2 and arg.startswith(name) and
                                                               not arg.startswith("--"))
               for arg in argv for name in names)


def config_args(argv: list[str], cwd: Path | None = None) -> list[str]:
    """``--rootdir`` and ``-c`` (unless given), and, out of a clone, a cache folder that is not site-packages."""
    if _given(argv, "-c", "--config-file", "--rootdir"):
        return []
    args = ["--rootdir", str(SUITE_ROOT), "-c", str(SETTINGS), "--confcutdir", str(SUITE_ROOT)]
    cache_off = any(arg.endswith("no:cacheprovider") for arg in argv)  # then cache_dir is an unknown option
    if not (SUITE_ROOT / "pyproject.toml").is_file() and not cache_off:
        args += ["-o", f"cache_dir={(cwd or Path.cwd()) / '.pytest_cache'}"]
    return args


def output_args(argv: list[str]) -> list[str]:
    """``--tb=short`` and ``-rN`` unless the user chose a traceback style or a summary."""
    return ([] if _given(argv, "--tb", "--fulltrace") else ["--tb=short"]) + ([] if _given(argv, "-r") else ["-rN"])


def defaults(argv: list[str]) -> list[str]:
    """Everything this module adds, placed before the user's own arguments."""
    return config_args(argv) + output_args(argv)
