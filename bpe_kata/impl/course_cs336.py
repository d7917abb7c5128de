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

import functools
import os
import sys
import tempfile
import types
from pathlib import Path

from bpe_kata.impl import cs336_adapters_file as adapters_file
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
        except ImportError:  # PackageNotFoundError (its version, uninstalled) is one: run with those skipped
            notes += [f"{folder.name}/__init__.py {note}" for note in adapters_file.guarded_package(folder)]
        except Exception as error:
            raise shape_parts.ShapeError(
                f"--impl cs336:{repo}: importing {folder.name} raised {type(error).__name__}: {error}") from error
    return notes


def build(path: Path, value: str) -> types.ModuleType:
    """The contract's module over the CS336 solution at ``path``."""
    repo, adapters = find(path)
    if str(repo) not in sys.path:
        sys.path.append(str(repo))  # at the end: a file of the repository never hides the suite's modules
    with repository_tests.imported_from(repo):
        notes = _packages(repo)
        learner = adapters_file.load(adapters)
    missing = [name for name in NEEDED if not callable(getattr(learner, name, None))]
    if missing:
        raise shape_parts.ShapeError(f"--impl {value}: {adapters} defines no {' and no '.join(missing)} "
                                       "(the course's names: run_train_bpe and get_tokenizer)")
    adapters_file.require_what_the_tokenizer_uses(learner, NEEDED, adapters, value)
    adapters_file.require_the_imports_inside(learner, NEEDED, adapters, value, notes)
    failed: dict[str, list[str]] = {}
    for line in learner.__bpe_kata_skipped__:  # "line N: No module named 'torch'"
        where, _, why = line.partition(": ")
        failed.setdefault(why, []).append(where.removeprefix("line "))
    skipped = notes + [f"tests/adapters.py line {', '.join(dict.fromkeys(lines))} ({why})"
                       for why, lines in failed.items()]
    if skipped:
        print(f"bpe-kata: cs336: skipped what the tokenizer does not need: {'; '.join(skipped)}", file=sys.stderr)
    return shape_parts.contract_module(value, repo, adapters, __doc__, _functions(learner),
                                         FIXED_PATTERN="gpt2", COURSE_SHAPE="cs336",
                                         DEFAULT_TIE_RULE="bytes-greatest")


#: The specials of a tokenizer given an empty collection of them (``special_tokens={}``): built with ``[]``.
EMPTY = "[]"


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

    def _tokenizer_for(merges, specials: tuple[tuple[str, int], ...] | str):
        vocab = shape_parts.token_bytes(merges)
        pairs = [(vocab[left], vocab[right]) for (left, right), _ in sorted(merges.items(), key=lambda m: m[1])]
        if specials == EMPTY:  # special_tokens given, none in it: the course's empty list (None is none given)
            return get_tokenizer(vocab, pairs, [])
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
        key = EMPTY if special_tokens is not None and not special_tokens else specials
        built = tokenizers(merges)
        if key not in built:
            built[key] = _tokenizer_for(merges, key)
        return shape_parts.ids_returned(built[key].encode(text), function="Tokenizer.encode", call="encode")

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
        got = f"a {type(result).__name__} of {len(result)} values" if isinstance(result, tuple | list) else \
            f"a {type(result).__name__}"
        raise refuse(f"run_train_bpe returned {got}, {shape_parts.NOT_THE_INTERFACE}: the course's run_train_bpe "
                     "returns (vocab, merges)")
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

