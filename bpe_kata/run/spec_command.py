"""The one pytest command line every spec run starts with: ``check`` in process, ``gate`` under its supervisor
and each submission ``grade`` runs. Built here only, so that the three cannot drift apart: the spec's folder,
the plugin, pytest-timeout's safety net, one rootdir and one config, short output, then the mode's options.

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

from bpe_kata.layout.paths import SPEC_DIR, SUITE_ROOT

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
    """The rootdir, config and output arguments, placed before the user's own arguments."""
    return config_args(argv) + output_args(argv)


#: In-process runs have no per-call limit; a test that hangs fails after this many seconds
#: (pytest-timeout) rather than stopping the run.
IN_PROCESS_TEST_TIMEOUT = "600"
#: What makes a run a gate: the implementation isolated, levels and data required.
GATE_OPTIONS = ("--isolated", "--strict-levels", "--require-data")
#: Each mode's own options: a graded submission runs isolated, like ``check --isolated``.
MODE_OPTIONS = {"check": (), "gate": GATE_OPTIONS, "graded": ("--isolated",)}


def safety_net(argv: list[str]) -> list[str]:
    """pytest-timeout named by its entry point ("timeout"), not its module: outside this repository
    pytest autoloads it under that name, and a second name for one plugin is an error."""
    given = any(arg == "--timeout" or arg.startswith("--timeout=") for arg in argv)
    return ["-p", "timeout"] + ([] if given else ["--timeout", IN_PROCESS_TEST_TIMEOUT])


def no_cache(argv: list[str]) -> list[str]:
    """A supervised run keeps no pytest cache: it would be written in the judged folder (an installed suite's
    cache_dir is the working folder), where a committed ``.pytest_cache`` symlink sends it anywhere."""
    return [] if any(arg.endswith("no:cacheprovider") for arg in argv) else ["-p", "no:cacheprovider"]


def spec_run(mode: str, argv: list[str]) -> list[str]:
    """pytest's arguments for one spec run in ``mode`` (check, gate or graded), ``argv`` the user's."""
    if mode != "check":
        argv = [*no_cache(argv), *argv]
    return [str(SPEC_DIR), "-p", "bpe_kata.plugin", *safety_net(argv), *defaults(argv), *MODE_OPTIONS[mode], *argv]
