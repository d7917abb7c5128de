"""``--impl minbpe:PATH[:CLASS]``: a minbpe-style tokenizer class (Karpathy's course and its ports).

The shape: ``tok = CLASS()`` (``CLASS(pattern)`` when its constructor takes a split pattern),
``tok.train(text, vocab_size, verbose=False)``, ``tok.encode(text)``, ``tok.decode(ids)``, the tables as
attributes ``tok.merges`` (``{(int, int): int}`` in training order, the contract's own type) and
``tok.vocab`` (``{int: bytes}``, built by ``tok._build_vocab()``), ``tok.register_special_tokens(dict)``
with ``encode(text, allowed_special="all" | "none" | "none_raise" | set)``, and module-level
``get_stats(ids)`` and ``merge(ids, pair, idx)`` beside the class. Names and types only:

- ``train`` builds a tokenizer, trains it and returns its ``merges``; ``encode``/``decode``/``build_vocab``
  set the tables given as its attributes (the very objects the spec passes, so a tokenizer that changes
  them is caught) and call its methods. One tokenizer is built per table and pattern, and kept.
- no split (``pattern=None``) on a class that takes a pattern is the pattern ``[\\s\\S]+``, one chunk
  for the whole text (minbpe's own default for no pattern is GPT-4's).
- the special-token policy: allow all, allow none and raise on any, allow none and keep them as text,
  or allow a set of them, are minbpe's own four; a call allowing some specials while refusing another
  that occurs in the text cannot be expressed and is "not started".

What the shape cannot express is declared, so those levels are "not started" with the reason: minbpe's
``save(prefix)``/``load(model_file)`` use minbpe's own ``.model`` format, not the contract's bpe-kata v1
file (level persist); there is no incremental decoder (stream), no word-level BPE (words) and no choice
of tie rule (ties). As people write it (issue 38): a class whose constructor takes no pattern but whose
instance has one (``pattern``, or ``compiled_pattern.pattern``) always splits with it, and is declared
pattern-fixed (``FIXED_PATTERN``: judged against the oracle splitting alike); a class with no
``_build_vocab`` decodes through its own ``vocab`` attribute, set to the table's bytes (``build_vocab`` is
then this translation, so claims about ``build_vocab`` alone say nothing of the learner's code); the helpers
are found under the names people use (``HELPER_NAMES``: ``merge_pair``, ``get_pair_counts``, ...), beside the
class or as its static methods. CLASS defaults to the one class beside the module's names with train, encode
and decode, preferring one whose constructor takes a pattern.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import tempfile
import types
from collections.abc import Mapping
from pathlib import Path

from bpe_kata.impl import shape_parts

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

#: The split for "no pattern" on a class whose constructor wants one: the whole text is one chunk.
WHOLE_TEXT = r"[\s\S]+"
NOT_PACKAGES = ("tests", "test", "docs", "examples", "scripts")


def _takes(function, name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in parameters)


def _import_module(path: Path, value: str) -> tuple[types.ModuleType, Path]:
    """The module ``path`` names (a .py file, a package folder, or a repository holding one package),
    and the folder that holds the learner's code."""

    def package(folder: Path) -> types.ModuleType:
        dotted = shape_parts.dotted_name_under_sys_path(folder)
        return importlib.import_module(dotted) if dotted else shape_parts.import_package(folder)

    if path.is_file():
        if path.suffix != ".py":
            raise shape_parts.ShapeError(f"--impl {value}: {path} is not a .py file")
        if (path.parent / "__init__.py").is_file():  # a module of a package: its relative imports need it
            try:
                parent = package(path.parent)
            except ImportError:  # an __init__ importing what this module does not need (a solver, torch)
                parent = shape_parts.bare_package(path.parent)
            return (parent if path.name == "__init__.py" else
                    importlib.import_module(f"{parent.__name__}.{path.stem}")), path.parent
        dotted = shape_parts.dotted_name_under_sys_path(path)
        if dotted:
            return importlib.import_module(dotted), path.parent
        if str(path.parent) not in sys.path:
            sys.path.append(str(path.parent))
        return shape_parts.import_package_file(path), path.parent
    if (path / "__init__.py").is_file():
        return package(path), path
    found = [folder for folder in sorted(path.iterdir()) if (folder / "__init__.py").is_file()
             and folder.name.isidentifier() and folder.name not in NOT_PACKAGES]
    if len(found) != 1:
        listed = ", ".join(f.name for f in found) or "none"
        raise shape_parts.ShapeError(
            f"--impl {value}: {path} holds {len(found)} Python packages ({listed}); name the package folder or "
            "the module file: minbpe:PATH/PACKAGE[:CLASS]")
    if str(path) not in sys.path:
        sys.path.append(str(path))
    return package(found[0]), path


def _is_tokenizer(thing: object) -> bool:
    return inspect.isclass(thing) and all(callable(getattr(thing, op, None)) for op in ("train", "encode", "decode"))


def _class(module: types.ModuleType, name: str | None, value: str) -> type:
    if name:
        where, _, attribute = name.rpartition(".")
        owner = importlib.import_module(f"{module.__name__}.{where}") if where else module
        found = getattr(owner, attribute, None)
        if not _is_tokenizer(found):
            raise shape_parts.ShapeError(
                f"--impl {value}: {owner.__name__} has no class {attribute!r} with train, encode and decode")
        return found
    candidates = [thing for thing in vars(module).values() if _is_tokenizer(thing)]
    best = [c for c in candidates if _takes(c.__init__, "pattern")] or candidates
    if len(best) != 1:
        names = ", ".join(sorted(c.__name__ for c in best)) or "none"
        raise shape_parts.ShapeError(f"--impl {value}: cannot tell which tokenizer class to use (found: {names}); "
                                       "name it: minbpe:PATH:CLASS")
    return best[0]


def build(path: Path, class_name: str | None, value: str) -> types.ModuleType:
    """The contract's module over the minbpe-style class at ``path``."""
    try:
        module, root = _import_module(path, value)
    except shape_parts.ShapeError:
        raise
    except Exception as error:
        raise shape_parts.ShapeError(
            f"--impl {value}: importing it raised {type(error).__name__}: {error}") from error
    cls = _class(module, class_name, value)
    home = sys.modules.get(cls.__module__)
    functions = _functions(cls)
    for helper, names in HELPER_NAMES.items():
        found = _helper(names, home, module, cls)
        if found is not None:
            functions[helper] = found  # the learner's own functions, called as they are
    main = Path(inspect.getfile(cls))
    fixed = _fixed_pattern(cls)
    return shape_parts.contract_module(value, root, main, __doc__, functions, COURSE_SHAPE="minbpe",
                                         TOKENIZER_CLASS=f"{cls.__module__}.{cls.__qualname__}",
                                         **({"FIXED_PATTERN": fixed} if fixed else {}))


#: The names people give minbpe's two helpers, in the order they are looked for: beside the class in its
#: module, in the module given, then on the class itself (a static method).
HELPER_NAMES: dict[str, tuple[str, ...]] = {
    "get_stats": ("get_stats", "get_pair_stats", "get_pair_counts", "count_pairs", "pair_counts", "_get_stats"),
    "merge": ("merge", "merge_pair", "merge_ids", "apply_merge", "replace_pair", "_merge"),
}


def _helper(names: tuple[str, ...], *owners: object):
    for owner in owners:
        for name in names:
            found = inspect.getattr_static(owner, name, None) if inspect.isclass(owner) else getattr(owner, name, None)
            if isinstance(found, staticmethod):
                found = found.__func__
            elif inspect.isclass(owner):
                continue  # an instance method needs a tokenizer: not the contract's free function
            if callable(found):
                return found
    return None


def _fixed_pattern(cls: type) -> str | None:
    """The regex a class whose constructor takes no pattern always splits with (its instance's ``pattern``,
    or its compiled pattern's), or None: such a class is pattern-fixed (spec/fixed_pattern.py)."""
    if _takes(cls.__init__, "pattern"):
        return None
    try:
        tok = cls()
    except Exception:  # noqa: BLE001 - a constructor that needs more says nothing about its split
        return None
    pattern = getattr(tok, "pattern", None)
    if not isinstance(pattern, str):
        pattern = getattr(getattr(tok, "compiled_pattern", None), "pattern", None)
    if isinstance(pattern, str) and pattern:
        return pattern
    return _module_pattern(cls)


#: A text every split pattern covers whole: a string constant whose matches rebuild it is a split pattern.
_SPLIT_SAMPLE = "Hello, world's 123 times!\n\n  x = 1\t"


def _module_pattern(cls: type) -> str | None:
    """The split pattern a class's methods read from their module (a ``GPT4_SPLIT_PATTERN`` constant, or a compiled
    regex, used in ``train`` directly or through a module function), when there is exactly one: the class splits
    with it though no instance holds it (seen on a minbpe exercise judged unsplit while it split every text)."""
    home = sys.modules.get(cls.__module__)
    if home is None:
        return None
    found: set[str] = set()
    seen: set[str] = set()
    codes = [value.__code__ for value in vars(cls).values() if isinstance(value, types.FunctionType)]
    while codes:
        code = codes.pop()
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
        for name in code.co_names:
            if name in seen:
                continue
            seen.add(name)
            value = vars(home).get(name)
            if isinstance(value, types.FunctionType) and value.__module__ == home.__name__:
                codes.append(value.__code__)  # a module helper the methods call (chunks(text), ...)
            text = value if isinstance(value, str) else getattr(value, "pattern", None)
            if isinstance(text, str) and _is_split_pattern(text):
                found.add(text)
    return found.pop() if len(found) == 1 else None


def _is_split_pattern(text: str) -> bool:
    try:
        import regex

        pieces = regex.findall(text, _SPLIT_SAMPLE)
    except Exception:  # noqa: BLE001 - not a regex at all
        return False
    return len(pieces) > 1 and all(isinstance(piece, str) for piece in pieces) and "".join(pieces) == _SPLIT_SAMPLE


def _lacks_derived_state(tok) -> bool:
    """Whether this tokenizer, given merges as attributes, cannot encode for want of an attribute that
    only its own train or load builds (seen on a port's ``vocab_rev``): its behaviour says so, not its name."""
    try:
        tok.encode("ab")
    except AttributeError:
        return True
    except Exception:  # noqa: BLE001 - any other error is the learner's encode, judged by the spec
        return False
    return False


def _load_through_model_file(tok, merges, pattern: str, specials) -> bool:
    """Give the table to ``tok`` through its own ``load``, as minbpe's ``.model`` file (version line,
    pattern, specials, then each merge's two ids, the k-th merge getting id 256 + k). False when the table
    cannot be written so (ids not consecutive from 256, a pattern with a line break, a special with a space)."""
    ordered = sorted(merges.items(), key=lambda item: item[1])
    if [idx for _, idx in ordered] != list(range(256, 256 + len(ordered))) or "\n" in pattern \
            or any(not special or special.split() != [special] for special, _ in specials):
        return False
    lines = ["minbpe v1", pattern, str(len(specials)), *(f"{special} {idx}" for special, idx in specials),
             *(f"{a} {b}" for (a, b), _ in ordered)]
    with tempfile.TemporaryDirectory(prefix="bpe-kata-minbpe-") as folder:
        model = Path(folder) / "table.model"
        model.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tok.load(str(model))
    return True


def _functions(cls: type) -> dict[str, object]:
    name = cls.__name__
    takes_pattern = _takes(cls.__init__, "pattern")
    takes_verbose = _takes(cls.train, "verbose")
    has_specials = callable(getattr(cls, "register_special_tokens", None)) and _takes(cls.encode, "allowed_special")

    def make(pattern):
        if takes_pattern:
            return cls(pattern=WHOLE_TEXT if pattern is None else pattern)
        if pattern is not None:
            raise NotImplementedError(f"{name}() takes no split pattern")
        return cls()

    def train(text, vocab_size, *, pattern=None):
        tok = make(pattern)
        tok.train(text, vocab_size, **({"verbose": False} if takes_verbose else {}))
        merges = tok.merges
        if isinstance(merges, Mapping):
            return merges
        return {tuple(pair): idx for idx, pair in enumerate(merges, start=256)}  # a list of pairs, in order

    def loaded(merges, pattern, specials):
        tok = make(pattern)
        tok.merges = merges
        if specials:
            tok.register_special_tokens(dict(specials))
        if callable(getattr(tok, "load", None)) and _lacks_derived_state(tok):
            own = make(pattern)  # a port whose encode reads state only its train and load build (vocab_rev)
            if _load_through_model_file(own, merges, WHOLE_TEXT if pattern is None else pattern, specials):
                return own
        return tok  # minbpe's encode reads merges (and specials) only: no vocab is built for it

    tokenizers = shape_parts.PerTable(lambda merges: {})

    def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=frozenset(),
               disallowed_special="all"):
        specials = tuple(sorted((special_tokens or {}).items()))
        if specials and not has_specials:
            raise NotImplementedError(f"{name} has no register_special_tokens and encode(allowed_special=)")
        built, key = tokenizers(merges), (pattern, specials)
        if key not in built:
            built[key] = loaded(merges, pattern, specials)
        if not specials:
            return list(built[key].encode(text))
        allowed, refused = shape_parts.special_policy(text, special_tokens, allowed_special, disallowed_special)
        if refused and allowed:
            raise shape_parts.inexpressible(f"minbpe's policies cannot allow {sorted(allowed)} and refuse "
                                              f"{sorted(refused)[0]!r} in one call")
        policy = ("none_raise" if refused else "all" if allowed == set(special_tokens) else
                  set(allowed) if allowed else "none")
        return list(built[key].encode(text, allowed_special=policy))

    def build_vocab(merges, special_tokens=None):
        if special_tokens and not has_specials:
            raise NotImplementedError(f"{name} has no register_special_tokens")
        tok = make(None)
        if not callable(getattr(tok, "_build_vocab", None)):  # the table's bytes: decode still reads its own vocab
            vocab = shape_parts.token_bytes(merges)
            vocab.update((idx, special.encode("utf-8")) for special, idx in (special_tokens or {}).items())
            return vocab
        tok.merges = merges
        if special_tokens:
            tok.register_special_tokens(dict(special_tokens))
        built = tok._build_vocab()
        # minbpe's returns the vocab; many classes fill ``self.vocab`` and return None: the state is the vocab
        return built if built is not None else tok.vocab

    def decoder(vocab):
        tok = make(None)
        tok.vocab = vocab
        return tok

    decoders = shape_parts.PerTable(decoder)

    def decode(ids, vocab):
        return decoders(vocab).decode(list(ids))

    absent = "the minbpe shape has no {}"
    persist = ("the minbpe shape saves with save(prefix) and loads with load(model_file) in minbpe's own "
               ".model format, not the contract's bpe-kata v1 file")
    functions: dict[str, object] = {"train": train, "encode": encode, "build_vocab": build_vocab, "decode": decode}
    functions.update(
        get_stats=shape_parts.not_expressible("get_stats", f"{absent.format('get_stats')} beside {name}"),
        merge=shape_parts.not_expressible("merge", f"{absent.format('merge')} beside {name}"),
        save=shape_parts.not_expressible("save", persist),
        load=shape_parts.not_expressible("load", persist),
        StreamDecoder=shape_parts.not_expressible("StreamDecoder", absent.format("incremental decoder")),
        train_words=shape_parts.not_expressible("train_words", absent.format("word-level BPE")),
        segment_word=shape_parts.not_expressible("segment_word", absent.format("word-level BPE")),
    )
    return functions
