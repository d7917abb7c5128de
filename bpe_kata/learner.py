"""The learner's own commands: start a solution (``new``), list the claims, find or fetch the corpora
(``data``), print the words level's merge-budget table (``words-budget``).

Each is ``(argv) -> exit status``; bpe_kata/cli.py holds the one table of subcommands.
"""

from __future__ import annotations

import argparse
import keyword
import shutil
import sys
from pathlib import Path

from bpe_kata.data import corpora
from bpe_kata.layout.paths import SPEC_DIR
from bpe_kata.shape_starters import STARTERS
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

PROJECT_ROOT = SPEC_DIR.parent
STARTER = PROJECT_ROOT / "solutions" / "starter"
#: ``new --shape``: the shapes a starter can be written in (bpe_kata/shape_starters.py).
SHAPES = tuple(STARTERS)

NEW_HELP = (
    "usage: bpe-kata new NAME [--shape cs336|minbpe|map]\n"
    "Copy the starter (solutions/starter) to solutions/NAME: the functions to write, level by level,\n"
    "each with its contract. NAME is a Python identifier (e.g. mine); nothing existing is overwritten.\n"
    "Run it in a clone of bpe-kata, then `bpe-kata check solutions.NAME`.\n"
    "--shape cs336: a CS336 assignment-1 layout (tests/adapters.py, cs336_basics/); check it with\n"
    "  `bpe-kata check cs336:solutions/NAME`. --shape minbpe: a minbpe-style tokenizer class; check it\n"
    "  with `bpe-kata check minbpe:solutions/NAME`. --shape map: code with names of its own and a\n"
    "  bpe-kata.toml saying which is which; check it with `bpe-kata check map:solutions/NAME` (docs/COURSES.md)."
)

WORDS_BUDGET_HELP = (
    "usage: bpe-kata words-budget [IMPL]\n"
    "Print the word-level toy corpus's merge-budget table as IMPL's train_words and segment_word give it\n"
    "(level words). IMPL: a dotted module name, a package folder or a .py file (default: reference)."
)


def new(name: str, root: Path = PROJECT_ROOT, shape: str | None = None) -> int:
    """Copy the starter (or write one in a course's ``shape``) to ``solutions/NAME``, refusing to overwrite anything."""
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__") or name == "starter":
        print(f"bpe-kata new: {name!r} is not a usable name: use a Python identifier other than "
              "'starter' (letters, digits, underscores; not starting with a digit), e.g. `bpe-kata new mine`.",
              file=sys.stderr)
        return 2
    starter, target = root / "solutions" / "starter", root / "solutions" / name
    if not starter.is_dir():
        print(f"bpe-kata new: the starter is missing at {starter}; run this from a clone of bpe-kata.", file=sys.stderr)
        return 2
    if target.exists():
        print(f"bpe-kata new: {target} already exists; nothing was changed. Pick another name or delete it first.",
              file=sys.stderr)
        return 1
    staging = target.with_name(f".{name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        if shape is None:
            shutil.copytree(starter, staging, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            _write_shape(staging, shape, name)
        staging.rename(target)  # all or nothing: never a half-copied solution
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    relative = target.relative_to(Path.cwd()) if target.is_relative_to(Path.cwd()) else target
    if shape is not None:
        from bpe_kata.shape_starters import CHECK, STARTERS

        command = CHECK[shape].format(name=name)
        print(f"created {relative}/ in the {shape} shape: {', '.join(STARTERS[shape])}.\n"
              f"next: {command}          (every level starts 'not started')\n"
              f"      {command} --level decode   (climb one level at a time; docs/COURSES.md)")
        return 0
    print(f"created {relative}/__init__.py: the functions to write, level by level, each with its contract.\n"
          f"next: bpe-kata check solutions.{name}          (every level starts 'not started')\n"
          f"      bpe-kata check solutions.{name} --level pairs   (climb one level at a time)")
    return 0


def _write_shape(folder: Path, shape: str, name: str) -> None:
    from bpe_kata.shape_starters import STARTERS

    for relative, text in STARTERS[shape].items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(name=name), encoding="utf-8")


def claims(level: str | None, kind: str | None) -> int:
    ledger = load_claims()
    if level and level not in ALL_LEVEL_NAMES:
        print(f"bpe-kata claims: unknown level {level!r}; the levels are {', '.join(ALL_LEVEL_NAMES)}", file=sys.stderr)
        return 2
    for claim in ledger.values():
        if (level is None or claim.level == level) and (kind is None or claim.kind == kind):
            print(f"{claim.id:<34} {claim.level:<10} {claim.kind:<11} {claim.statement}")
    return 0


def import_data(path: str) -> int:
    """``bpe-kata data import FILE``: cut, check and cache a corpus downloaded by hand."""
    try:
        corpus, target = corpora.import_file(Path(path))
    except corpora.CorpusUnavailable as error:
        print(f"bpe-kata data import: {error}", file=sys.stderr)
        return 1
    print(f"{corpus.name}: {target} (SHA-256 checked)")
    return 0


def data(action: str) -> int:
    finder = corpora.CorpusFinder()
    status = 0
    for name, corpus in corpora.CORPORA.items():
        try:
            path = finder.path(name) if action == "fetch" else next(
                (p for p in finder.candidates(corpus) if p.is_file()), None)
        except corpora.CorpusUnavailable as error:
            print(f"{name}: unavailable: {error}", file=sys.stderr)
            status = 1
            continue
        print(f"{name}: {path or 'not found (run `bpe-kata data fetch`)'}")
    return status


def words_budget(value: str | None) -> int:
    """Print the toy corpus's merge-budget table as IMPL's train_words and segment_word give it."""
    from bpe_kata.impl.loader import DEFAULT_IMPL, ImplementationNotFound, load_implementation
    from spec import toy_words

    try:
        impl = load_implementation(value or DEFAULT_IMPL)
        rows = [toy_words.budget_row(impl, budget) for budget in toy_words.BUDGETS]
    except ImplementationNotFound as error:
        print(f"bpe-kata words-budget: {error}", file=sys.stderr)
        return 2
    except (AttributeError, NotImplementedError, TypeError) as error:
        print(f"bpe-kata words-budget: {value or DEFAULT_IMPL} cannot train words yet "
              f"(level words needs train_words and segment_word): {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"merge budgets on the word-level toy corpus ({len(toy_words.TOY_CORPUS.split())} words), "
          f"implementation {value or DEFAULT_IMPL}:")
    print("\n".join(toy_words.render(rows)))
    return 0


def _asks_for_help(argv: list[str]) -> bool:
    return any(arg in ("-h", "--help") for arg in argv)


def new_command(argv: list[str]) -> int:
    """``bpe-kata new NAME``: in the clone the command runs from, else in the editable install's clone."""
    if _asks_for_help(argv):
        print(NEW_HELP)
        return 0
    shape = None
    for k, arg in enumerate(argv):
        if arg == "--shape" or arg.startswith("--shape="):
            shape = arg.partition("=")[2] if "=" in arg else (argv[k + 1] if k + 1 < len(argv) else "")
            argv = argv[:k] + argv[k + (1 if "=" in arg else 2):]
            break
    if shape is not None and shape not in SHAPES:
        print(f"bpe-kata new: --shape {shape!r}: the shapes are {', '.join(SHAPES)}", file=sys.stderr)
        return 2
    if len(argv) != 1:
        print("usage: bpe-kata new NAME [--shape cs336|minbpe|map]", file=sys.stderr)
        return 2
    here = Path.cwd()
    if (here / "solutions" / "starter").is_dir():
        return new(argv[0], here, shape)
    if (PROJECT_ROOT / "pyproject.toml").is_file():  # an editable install: the clone itself
        return new(argv[0], PROJECT_ROOT, shape)
    print("bpe-kata new: run this from a clone of bpe-kata (a folder with solutions/starter); "
          "an installed copy has no place for your solution.", file=sys.stderr)
    return 2


def claims_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata claims")
    parser.add_argument("--level")
    parser.add_argument("--kind", choices=("contract", "fact", "informative"))
    options = parser.parse_args(argv)
    return claims(options.level, options.kind)


def data_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata data")
    parser.add_argument("action", nargs="?", default="where", choices=("where", "fetch", "import"))
    parser.add_argument("file", nargs="?", help="for import: pg11.txt (Alice, Project Gutenberg) or tiny Shakespeare")
    options = parser.parse_args(argv)
    if options.action == "import":
        if not options.file:
            parser.error("import needs the FILE to import")
        return import_data(options.file)
    if options.file:
        parser.error(f"{options.action} takes no FILE")
    return data(options.action)


def words_budget_command(argv: list[str]) -> int:
    if _asks_for_help(argv):
        print(WORDS_BUDGET_HELP)
        return 0
    if len(argv) > 1:
        print("usage: bpe-kata words-budget [IMPL]", file=sys.stderr)
        return 2
    return words_budget(argv[0] if argv else None)
