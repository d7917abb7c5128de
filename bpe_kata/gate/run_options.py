"""The gate's own command line and its private folder: its limits' defaults, which options the supervisor takes
out of pytest's (the files it redirects into its private run directory, its own limits and flags), and where
that directory is."""

from __future__ import annotations

import os
from pathlib import Path

from bpe_kata.platforms.option_names import OUTPUT_OPTIONS, POINTS_OPTION

#: Total child time a whole gate may take, per verdict process: the reference's whole gate took
#: 56-73 s of wall time on 2 xdist workers at load 8 (benchmarks/bench_gate.py), so at most that
#: much child time per worker; this is over 20 times it.
DEFAULT_TIME_BUDGET = 1500.0
#: The supervisor's wall limit for one run (seconds).
DEFAULT_WALL_LIMIT = 3600.0
#: Options the supervisor takes out of the pytest arguments (each followed by a value).
REDIRECTED = ("--bpe-report", "--bpe-html", "--junitxml", "--junit-xml", "--expect", POINTS_OPTION, *OUTPUT_OPTIONS)
OWN_VALUED = ("--wall-limit",)
OWN_FLAGS = ("--require-sandbox", "--expose-suite")


def private_root() -> Path:
    """Where run directories go: the user's cache, 0700 (never $TMPDIR, never the workspace)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bpe-kata" / "runs"
    base.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(base, 0o700)
    return base


def private_pycache() -> Path:
    """The verdict process's bytecode cache: inside the private root (hidden from children, never
    written by them), so a ``.pyc`` planted beside an unchanged suite module is never loaded; kept
    across runs, so the verdict process does not compile pytest and Hypothesis again each time."""
    path = private_root() / "pycache"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def split_options(argv: list[str]) -> tuple[list[str], dict[str, str], set[str]]:
    """pytest's arguments without the supervisor's own; the redirected and own options' values."""
    rest, values, flags = [], {}, set()
    k = 0
    while k < len(argv):
        arg = argv[k]
        name, eq, value = arg.partition("=")
        if name in REDIRECTED + OWN_VALUED:
            if not eq:
                if k + 1 >= len(argv):
                    raise SystemExit(f"bpe-kata: {name} needs a value")
                value, k = argv[k + 1], k + 1
            values["--junitxml" if name == "--junit-xml" else name] = value
        elif arg in OWN_FLAGS:
            flags.add(arg)
        else:
            rest.append(arg)
        k += 1
    return rest, values, flags


def impl_value(argv: list[str]) -> str | None:
    """The ``--impl`` value among pytest's arguments (the gate always gives one)."""
    return next((argv[k + 1] for k, a in enumerate(argv[:-1]) if a == "--impl"),
                next((a.partition("=")[2] for a in argv if a.startswith("--impl=")), None))
