"""``--impl cs336:PATH``: a Stanford CS336 assignment-1 solution, through its own ``tests/adapters.py``.

The course wires a solution through two functions of ``tests/adapters.py``:
``run_train_bpe(input_path, vocab_size, special_tokens) -> (vocab, merges)`` (vocab ``dict[int, bytes]``,
merges ``list[tuple[bytes, bytes]]`` in creation order) and ``get_tokenizer(vocab, merges,
special_tokens)``, an object with ``encode``, ``decode`` and ``encode_iterable``. Names and types only:

- ``train(text, vocab_size, special_tokens=None)`` writes the text's UTF-8 bytes to a temporary file and calls
  ``run_train_bpe`` with the special tokens asked (none: ``[]``), keywords as the course's tests pass them, and
  ``vocab_size`` plus one per special (the course's vocab holds them, the contract's table does not); the
  byte-string merges become contract ids (a merge's id is 256 + its place, its parts looked up by their bytes),
  the course's vocab, specials and all, is not read (claim train.special-tokens).
- ``encode``/``decode`` build the learner's tokenizer from the contract's table: ``vocab`` = every id's
  bytes, ``merges`` = each merge's two parts' bytes, in id order; the allowed special tokens are passed
  as the list of strings, with their ids in the vocab. One tokenizer is built per table and kept.
- ``build_vocab`` is this translation (the course has no such function: its tokenizer is given the
  vocab), so the claims about ``build_vocab`` alone say nothing about the learner's code.

What the shape cannot express is declared, so those tests are "not started" with the reason:
GPT-2's split pattern is fixed (``FIXED_PATTERN = "gpt2"``, spec/CONTRACT.md "A fixed split pattern"),
and the oracle splits alike (spec/oracle/split.py); the course's tie rule (the greatest pair of byte
strings) is declared (``DEFAULT_TIE_RULE = "bytes-greatest"``), so the oracle ties by it and a check of the
default rule credits ``ties.bytes-greatest``; there is no get_stats, merge, stream
decoder, save/load in the contract's format, word-level BPE or choice of tie rule; the tokenizer cannot
refuse a special token (a call whose text holds a disallowed one is not started); a text holding
surrogate code points has no UTF-8 bytes to write to the training file. ``encode_iterable(texts, merges,
...)`` is the same tokenizer's own ``encode_iterable`` (claim encode.iterable). ``tests/adapters.py``
usually imports torch and jaxtyping
for the rest of the assignment: an import that fails is skipped (and said on stderr), since the
tokenizer's two functions do not use them; a package ``__init__`` that needs its installed version or
the model code is bypassed the same way.
"""

from __future__ import annotations
import __future__

import ast
import functools
import hashlib
import os
import sys
import tempfile
import types
from pathlib import Path

from bpe_kata.impl import repository_tests, shape_parts

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

ADAPTERS_FILE = Path("tests") / "adapters.py"
NEEDED = ("run_train_bpe", "get_tokenizer")


def find(path: Path) -> tuple[Path, Path]:
    """The repository and its ``tests/adapters.py``, from either."""
    if path.is_file():
        if path.suffix != ".py":
            raise shape_parts.ShapeError(f"--impl cs336:{path}: give the repository or its tests/adapters.py")
        return (path.parent.parent if path.parent.name == "tests" else path.parent), path
    adapters = path / ADAPTERS_FILE
    if not adapters.is_file():
        raise shape_parts.ShapeError(
            f"--impl cs336:{path}: no {ADAPTERS_FILE} there. Give the root of your assignment-1 repository "
            "(the folder holding tests/adapters.py and cs336_basics/), or the adapters file itself.")
    return path, adapters


def _packages(repo: Path) -> list[str]:
    """Import each package of the repository from it; one whose __init__ fails to import is bypassed."""
    notes = []
    for folder in sorted(repo.iterdir()):
        if not (folder / "__init__.py").is_file() or not folder.name.isidentifier() or folder.name == "tests":
            continue
        try:
            shape_parts.import_package(folder)
        except ImportError as error:  # PackageNotFoundError (its version, uninstalled) is one
            shape_parts.bare_package(folder)
            notes.append(f"{folder.name}/__init__.py not run ({type(error).__name__}: {error})")
        except Exception as error:
            raise shape_parts.ShapeError(
                f"--impl cs336:{repo}: importing {folder.name} raised {type(error).__name__}: {error}") from error
    return notes


class _GuardImports(ast.NodeTransformer):
    """Each top-level import in a ``try``: a failed one is noted, not fatal (torch for the model code)."""

    def visit_Module(self, node: ast.Module) -> ast.Module:
        body = []
        for statement in node.body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)) and getattr(statement, "module", "") != "__future__":
                bound = [(alias.asname or alias.name.partition(".")[0]) for alias in statement.names]
                line = statement.lineno
                note = ast.parse(f"__bpe_kata_skipped__.append('line {line}: ' + str(_error))\n"
                                 f"__bpe_kata_unbound__.update({{name: {line} for name in {bound!r}}})").body
                handler = ast.ExceptHandler(type=ast.Name("ImportError", ast.Load()), name="_error", body=note)
                guarded = ast.Try(body=[statement], handlers=[handler], orelse=[], finalbody=[])
                body.append(ast.fix_missing_locations(ast.copy_location(guarded, statement)))
            else:
                body.append(statement)
        node.body = body
        return node


def _load_adapters(adapters: Path) -> types.ModuleType:
    """The learner's tests/adapters.py as a module of its own name (never ``tests.adapters``: the suite
    has a ``tests`` package of its own), its failing imports skipped; annotations are not evaluated."""
    source = adapters.read_text(encoding="utf-8")
    tree = _GuardImports().visit(ast.parse(source, str(adapters)))
    name = "bpe_kata_cs336_adapters_" + hashlib.sha256(str(adapters).encode()).hexdigest()[:10]
    module = types.ModuleType(name)
    module.__file__ = str(adapters)
    module.__bpe_kata_skipped__ = []
    module.__bpe_kata_unbound__ = {}  # name a skipped import would have bound -> its line
    sys.modules[name] = module
    code = compile(tree, str(adapters), "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    try:
        exec(code, module.__dict__)
    except Exception as error:
        del sys.modules[name]
        raise shape_parts.ShapeError(
            f"--impl cs336:{adapters}: running it raised {type(error).__name__}: {error}") from error
    return module


def build(path: Path, value: str) -> types.ModuleType:
    """The contract's module over the CS336 solution at ``path``."""
    repo, adapters = find(path)
    if str(repo) not in sys.path:
        sys.path.append(str(repo))  # at the end: a file of the repository never hides the suite's modules
    with repository_tests.imported_from(repo):
        notes = _packages(repo)
        learner = _load_adapters(adapters)
    missing = [name for name in NEEDED if not callable(getattr(learner, name, None))]
    if missing:
        raise shape_parts.ShapeError(f"--impl {value}: {adapters} defines no {' and no '.join(missing)} "
                                       "(the course's names: run_train_bpe and get_tokenizer)")
    _require_what_the_tokenizer_uses(learner, adapters, value)
    _require_the_imports_inside(learner, adapters, value, notes)
    failed: dict[str, list[str]] = {}
    for line in learner.__bpe_kata_skipped__:  # "line N: No module named 'torch'"
        where, _, why = line.partition(": ")
        failed.setdefault(why, []).append(where.removeprefix("line "))
    skipped = notes + [f"tests/adapters.py imports at line {', '.join(lines)} ({why})" for why, lines in failed.items()]
    if skipped:
        print(f"bpe-kata: cs336: skipped what the tokenizer does not need: {'; '.join(skipped)}", file=sys.stderr)
    return shape_parts.contract_module(value, repo, adapters, __doc__, _functions(learner),
                                         FIXED_PATTERN="gpt2", COURSE_SHAPE="cs336",
                                         DEFAULT_TIE_RULE="bytes-greatest")


def _require_the_imports_inside(learner: types.ModuleType, adapters: Path, value: str, notes: list[str]) -> None:
    """An import inside run_train_bpe or get_tokenizer (or a function of adapters.py they call) that fails now would
    fail on every call: the solution could not be loaded, said in one line with the package ``__init__`` the load
    bypassed (held out, sixth round: ``from cs336_basics import train_bpe`` inside run_train_bpe needed the
    ``__init__`` that imports torch, and every training claim read "could not run" behind an ImportError)."""
    used = set(NEEDED).union(*(_names_used(getattr(learner, name), learner) for name in NEEDED))
    tree = ast.parse(adapters.read_text(encoding="utf-8"), str(adapters))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in used]
    for function in functions:
        for node in ast.walk(function):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "level", 0):
                continue
            try:
                exec(compile(ast.Module([node], []), str(adapters), "exec"), {"__name__": learner.__name__})
            except ImportError as error:
                bypassed = f"; bypassed at load: {'; '.join(notes)}" if notes else ""
                raise shape_parts.ShapeError(
                    f"--impl {value}: could not load: {function.name} (tests/adapters.py line {node.lineno}) "
                    f"imports what cannot be imported here: {error}{bypassed}") from None


def _names_used(function: object, module: types.ModuleType) -> set[str]:
    """The global names ``function`` reads, and those of the module's own functions it reads, transitively."""
    seen: set[str] = set()
    todo = [getattr(function, "__code__", None)]
    while todo:
        code = todo.pop()
        if code is None:
            continue
        for name in code.co_names:
            if name in seen:
                continue
            seen.add(name)
            value = module.__dict__.get(name)
            if getattr(value, "__module__", None) == module.__name__ and hasattr(value, "__code__"):
                todo.append(value.__code__)
        todo.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    return seen


def _require_what_the_tokenizer_uses(learner: types.ModuleType, adapters: Path, value: str) -> None:
    """A skipped import is harmless only when the tokenizer's functions never read what it would have bound
    (torch for the model code); when they do, every call would be a NameError blamed on a claim: the solution
    could not be loaded, and that is said in one line instead (issue 37 kind 3)."""
    unbound = {name: line for name, line in learner.__bpe_kata_unbound__.items() if name not in learner.__dict__}
    needed = set().union(*(_names_used(getattr(learner, name), learner) for name in NEEDED))
    missing = sorted((line, name) for name, line in unbound.items() if name in needed)
    if missing:
        why = {line: text.partition(": ")[2] for text in learner.__bpe_kata_skipped__
               for line in [int(text.partition(": ")[0].removeprefix("line "))]}
        shown = "; ".join(f"{name} (line {line}: {why.get(line, 'import failed')})" for line, name in missing)
        raise shape_parts.ShapeError(f"--impl {value}: could not load: {adapters} could not import what "
                                       f"run_train_bpe or get_tokenizer uses: {shown}")


def _functions(learner: types.ModuleType) -> dict[str, object]:
    run_train_bpe, get_tokenizer = learner.run_train_bpe, learner.get_tokenizer

    def train(text, vocab_size, *, special_tokens=None):
        if not isinstance(text, str):
            raise TypeError(f"train: text must be a str, got {type(text).__name__}")
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise shape_parts.inexpressible("a str holding surrogate code points has no UTF-8 bytes to write "
                                              f"to run_train_bpe's input file ({error.reason})") from None
        fd, path = tempfile.mkstemp(prefix="bpe-kata-train-", suffix=".txt")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            # The course's vocab_size counts its specials too: as many merges as the contract's vocab_size means.
            specials = list(special_tokens or [])
            size = vocab_size + len(specials) if isinstance(vocab_size, int) and vocab_size >= 256 else vocab_size
            result = run_train_bpe(input_path=path, vocab_size=size, special_tokens=specials)
        finally:
            os.unlink(path)
        return _contract_merges(result)

    def _tokenizer_for(merges, specials: tuple[tuple[str, int], ...]):
        vocab = shape_parts.token_bytes(merges)
        pairs = [(vocab[left], vocab[right]) for (left, right), _ in sorted(merges.items(), key=lambda m: m[1])]
        taken = set(vocab.values())
        for token, _ in specials:  # the course finds a special's id by its bytes: one id per bytes
            if token.encode("utf-8") in taken:
                raise shape_parts.inexpressible(f"the CS336 vocab cannot hold the special {token!r} beside a "
                                                  "learned token of the same bytes (it looks ids up by bytes)")
        vocab.update((idx, token.encode("utf-8")) for token, idx in specials)
        return get_tokenizer(vocab, pairs, [token for token, _ in specials] or None)

    tokenizers = shape_parts.PerTable(lambda merges: {})

    def encode(text, merges, *, special_tokens=None, allowed_special=frozenset(), disallowed_special="all"):
        allowed, refused = shape_parts.special_policy(text, special_tokens, allowed_special, disallowed_special)
        if refused:
            raise shape_parts.inexpressible(f"the CS336 tokenizer cannot refuse a special token "
                                              f"({sorted(refused)[0]!r} is disallowed and in the text)")
        specials = tuple(sorted((token, special_tokens[token]) for token in allowed))
        built = tokenizers(merges)
        if specials not in built:
            built[specials] = _tokenizer_for(merges, specials)
        return list(built[specials].encode(text))

    def encode_iterable(texts, merges, *, special_tokens=None, allowed_special=frozenset(),
                        disallowed_special="all"):
        allowed, _ = shape_parts.special_policy("", special_tokens, allowed_special, disallowed_special)
        everything = set(special_tokens or {})
        refused = (everything - allowed if disallowed_special == "all"
                   else set(disallowed_special or ()) & everything - allowed)
        specials = tuple(sorted((token, special_tokens[token]) for token in allowed))
        built = tokenizers(merges)
        if specials not in built:
            built[specials] = _tokenizer_for(merges, specials)
        method = getattr(built[specials], "encode_iterable", None)
        if not callable(method):
            raise shape_parts.inexpressible("the tokenizer get_tokenizer returns has no encode_iterable")
        return method(_refusing(texts, refused) if refused else iter(texts))

    def build_vocab(merges, special_tokens=None):
        vocab = shape_parts.token_bytes(merges)
        vocab.update((idx, token.encode("utf-8")) for token, idx in (special_tokens or {}).items())
        return vocab

    decoders = shape_parts.PerTable(
        lambda vocab: get_tokenizer({idx: bytes(piece) for idx, piece in vocab.items()}, [], None))

    def decode(ids, vocab):
        return decoders(vocab).decode(list(ids))

    #: The contract's functions the shape has no counterpart for: what it lacks, and why.
    absent = {
        ("get_stats",): ("get_stats", "pairs are counted inside run_train_bpe"),
        ("merge",): ("merge", "merges are applied inside run_train_bpe and Tokenizer.encode"),
        ("StreamDecoder",): ("incremental decoder", "only encode_iterable, a streaming encode"),
        ("save", "load"): ("save/load in the contract's bpe-kata v1 format",
                           "its tables are the vocab and merges in memory"),
        ("train_words", "segment_word"): ("word-level BPE", "it learns byte-level merges only"),
    }
    return {
        "train": train, "encode": encode, "encode_iterable": encode_iterable, "build_vocab": build_vocab,
        "decode": decode,
        **{name: shape_parts.not_expressible(name, f"the CS336 shape has no {what}: {why}")
           for names, (what, why) in absent.items() for name in names},
    }


def _refusing(texts, refused: set[str]):
    """The texts as they come, until a disallowed special shows up across them: the course's tokenizer cannot
    refuse one, so such a call is not expressible (its test is not started)."""
    tail, keep = "", max(map(len, refused)) - 1
    for text in texts:
        seen = tail + text
        found = sorted(token for token in refused if token in seen)
        if found:
            raise shape_parts.inexpressible(f"the CS336 tokenizer cannot refuse a special token ({found[0]!r} "
                                              "is disallowed and in the text)")
        tail = seen[len(seen) - keep:] if keep else ""
        yield text


def _contract_merges(result) -> dict[tuple[int, int], int]:
    """``run_train_bpe``'s ``(vocab, merges)`` as the contract's table: ids 256, 257, ... in creation order.

    As a dict assignment makes it: a pair the course's list holds twice keeps its first place and takes its last
    id, so the table has a hole in its ids, as a dict trainer's would (the spec judges the hole as the mark of the
    repeat, a merge made at count 0: spec/table_ids.py, bpe_kata/verdict/malformed.py)."""
    refuse = functools.partial(shape_parts.MalformedResult, function="run_train_bpe", call="train")
    if not (isinstance(result, tuple | list) and len(result) == 2):
        raise refuse(f"run_train_bpe must return (vocab, merges), got {type(result).__name__}")
    _, merges = result
    ids = {bytes([b]): b for b in range(256)}
    table: dict[tuple[int, int], int] = {}
    for idx, merge in enumerate(merges, start=256):
        try:
            left, right = (bytes(part) for part in merge)
        except (TypeError, ValueError):
            raise refuse(f"run_train_bpe's merge {idx - 256} is {merge!r}, not a pair of bytes") from None
        if left not in ids or right not in ids:
            unknown = left if left not in ids else right
            raise refuse(f"run_train_bpe's merge {idx - 256} ({left!r}, {right!r}): {unknown!r} is neither a "
                         "byte nor the result of an earlier merge")
        table[ids[left], ids[right]] = idx
        ids.setdefault(left + right, idx)
    return table

