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
are found under the names people use (minbpe_finding's ``HELPER_NAMES``: ``merge_pair``, ``get_pair_counts``,
...), beside the class or as its static methods. CLASS defaults to the one class beside the module's names with
train, encode and decode, preferring one whose constructor takes a pattern.
"""

from __future__ import annotations

import inspect
import sys
import tempfile
import types
from collections.abc import Mapping
from pathlib import Path

from bpe_kata.impl import minbpe_finding, shape_parts
from spec.shapes import outcome_of

#: Frames of this module are the adapter's, not the learner's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True

#: The split for "no pattern" on a class whose constructor wants one: the whole text is one chunk.
WHOLE_TEXT = r"[\s\S]+"


def build(path: Path, class_name: str | None, value: str) -> types.ModuleType:
    """The contract's module over the minbpe-style class at ``path``."""
    try:
        module, root = minbpe_finding.import_solution(path, value)
    except shape_parts.ShapeError:
        raise
    except Exception as error:
        raise shape_parts.ShapeError(
            f"--impl {value}: importing it raised {type(error).__name__}: {error}") from error
    return build_over(module, root, class_name, value)


def build_over(module: types.ModuleType, root: Path, class_name: str | None, value: str) -> types.ModuleType:
    """The contract's module over the class of a module already loaded (a notebook's, course_notebook.py)."""
    cls = minbpe_finding.find_class(module, class_name, value)
    home = sys.modules.get(cls.__module__)
    functions = functions_over(cls)
    for helper, names in minbpe_finding.HELPER_NAMES.items():
        found = minbpe_finding.find_helper(names, home, module, cls)
        if found is not None:
            functions[helper] = found  # the learner's own functions, called as they are
    main = Path(inspect.getfile(cls))
    fixed = minbpe_finding.fixed_pattern(cls)
    return shape_parts.contract_module(value, root, main, __doc__, functions, COURSE_SHAPE="minbpe",
                                         TOKENIZER_CLASS=f"{cls.__module__}.{cls.__qualname__}",
                                         **({"FIXED_PATTERN": fixed} if fixed else {}))

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


def functions_over(cls: type) -> dict[str, object]:
    """The contract's functions over a class in minbpe's shape (or renamed into it: bpe_kata/impl/declared_build.py)."""
    name = cls.__name__
    pattern_keyword = minbpe_finding.keyword_for(cls.__init__, "pattern")  # pattern=, split_pattern=, ...
    learn = minbpe_finding.train_method(cls) or "train"  # train, or fit, learn, ...
    takes_verbose = minbpe_finding.takes(getattr(cls, learn), "verbose")
    allowed_keyword = minbpe_finding.keyword_for(cls.encode, "allowed_special")
    register = minbpe_finding.specials_method(cls)  # register_special_tokens, however spelled
    has_specials = register is not None and allowed_keyword is not None

    def make(pattern):
        if pattern_keyword:
            return cls(**{pattern_keyword: WHOLE_TEXT if pattern is None else pattern})
        if pattern is not None:
            raise NotImplementedError(f"{name}() takes no split pattern")
        return cls()

    def trained(tok, text, vocab_size):
        table = minbpe_finding.table_attribute(tok)
        getattr(tok, learn)(text, vocab_size, **({"verbose": False} if takes_verbose else {}))
        merges = getattr(tok, table, None)
        if merges is None:
            raise shape_parts.MalformedResult(f"{name} has no learned table in .{table} after train: minbpe's shape "
                                              f"reads it there ({', '.join(minbpe_finding.TABLE_NAMES)})",
                                              function=f"{name}.{learn}", call="train")
        if (form := minbpe_finding.table_form(merges)) is not None:
            forms.setdefault("learned", form)
        return minbpe_finding.table_read(merges)

    def train(text, vocab_size, *, pattern=None):
        return trained(make(pattern), text, vocab_size)

    forms: dict[str, str | None] = {}  # the form the class keeps its table in, once a training showed it

    def set_table(tok, merges) -> None:
        """The spec's table on ``tok``, in the form the class keeps it in (its fresh list says nothing: one small
        training shows it)."""
        table = minbpe_finding.table_attribute(tok)
        if isinstance(getattr(tok, table, None), list) and forms.get("learned") is None:
            try:
                trained(make(None), "abab", 258)
            except Exception:  # noqa: BLE001  no answer: the table is set as the contract's dict
                pass
        setattr(tok, table, minbpe_finding.table_in_form(merges, forms.get("learned")))

    def train_again(first, second, vocab_size, *, pattern=None, second_vocab_size=None):
        """One object trained twice, as a user retrains a tokenizer (claim train.starts-afresh): the second table
        (to ``second_vocab_size`` when given: a retraining that asks no merge must forget the first's too)."""
        tok = make(pattern)
        trained(tok, first, vocab_size)
        return trained(tok, second, vocab_size if second_vocab_size is None else second_vocab_size)

    def decode_after_training(trainings, ids, *, pattern=None):
        """One object trained on each (text, vocab_size) in turn, then asked to decode each id alone with its own
        vocab, as a user decodes after retraining (claim train.starts-afresh): what each gave, text or error type
        (tenth round, development: a class whose second training started from the first's vocab decoded an id
        only the first had made)."""
        tok = make(pattern)
        for text, vocab_size in trainings:
            trained(tok, text, vocab_size)
        return [outcome_of(lambda idx=idx: tok.decode([idx])) for idx in ids]

    def loaded(merges, pattern, specials):
        tok = make(pattern)
        set_table(tok, merges)
        if specials:
            getattr(tok, register)(dict(specials))
        if callable(getattr(tok, "load", None)) and _lacks_derived_state(tok):
            own = make(pattern)  # a port whose encode reads state only its train and load build (vocab_rev)
            if _load_through_model_file(own, merges, WHOLE_TEXT if pattern is None else pattern, specials):
                return own
        return tok  # minbpe's encode reads merges (and specials) only: no vocab is built for it

    tokenizers = shape_parts.PerTable(lambda merges: {})

    def encode(text, merges, *, pattern=None, special_tokens=None, allowed_special=shape_parts.UNSET,
               disallowed_special=shape_parts.UNSET):
        specials = tuple(sorted((special_tokens or {}).items()))
        if specials and not has_specials:
            raise NotImplementedError(f"{name} has no register_special_tokens and encode(allowed_special=)")
        built, key = tokenizers(merges), (pattern, specials)
        if key not in built:
            built[key] = loaded(merges, pattern, specials)
        if not specials or allowed_special is disallowed_special is shape_parts.UNSET:
            # no policy asked: the class's own default, which is the contract's (minbpe's "none_raise", tiktoken's
            # refusal); always passing one left a class defaulting to "all" unjudged (eleventh round, holdout)
            return shape_parts.ids_returned(built[key].encode(text), function=f"{name}.encode", call="encode")
        allowed, refused = shape_parts.special_policy(text, special_tokens, allowed_special, disallowed_special)
        if refused and allowed:
            raise shape_parts.inexpressible(f"minbpe's policies cannot allow {sorted(allowed)} and refuse "
                                              f"{sorted(refused)[0]!r} in one call")
        policy = ("none_raise" if refused else "all" if allowed == set(special_tokens) else
                  set(allowed) if allowed else "none")
        return shape_parts.ids_returned(built[key].encode(text, **{allowed_keyword: policy}),
                                        function=f"{name}.encode", call="encode")

    def build_vocab(merges, special_tokens=None):
        if special_tokens and not has_specials:
            raise NotImplementedError(f"{name} has no register_special_tokens")
        tok = make(None)
        if not callable(getattr(tok, "_build_vocab", None)):  # the table's bytes: decode still reads its own vocab
            vocab = shape_parts.token_bytes(merges)
            vocab.update((idx, special.encode("utf-8")) for special, idx in (special_tokens or {}).items())
            return vocab
        set_table(tok, merges)
        if special_tokens:
            getattr(tok, register)(dict(special_tokens))
        built = tok._build_vocab()
        # minbpe's returns the vocab; many classes fill ``self.vocab`` and return None: the state is the vocab
        vocab = built if built is not None else getattr(tok, "vocab", None)
        if not isinstance(vocab, Mapping):  # tenth round, holdout: a None read as a vocab raised in the suite's code
            raise shape_parts.MalformedResult(
                f"{name}._build_vocab returned {type(built).__name__} and left .vocab a {type(vocab).__name__}: "
                "minbpe's shape reads the vocab {id: bytes} from one of them", function=f"{name}._build_vocab",
                call="build_vocab")
        return vocab

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
    functions: dict[str, object] = {"train": train, "train_again": train_again, "encode": encode,
                                    "build_vocab": build_vocab, "decode": decode,
                                    "decode_after_training": decode_after_training}
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
