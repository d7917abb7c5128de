"""Hugging Face ``tokenizers`` behind the contract: its byte-level BPE trainer, encoder and decoder.

``train`` runs ``BpeTrainer`` over a byte-level pre-tokenizer (``ByteLevel(use_regex=False)``:
the 256 bytes as the alphabet, no splitting of its own); with ``pattern``, a ``Split`` on that
regex (matches kept as chunks) comes first. The learned merges are read back as pairs and
renumbered 256, 257, ... in the trainer's order. ``encode`` builds a ``models.BPE`` from the
contract's table (merge rank = id order); with ``special_tokens``, the allowed ones are added
tokens (``tokenizers`` has no policy that refuses a disallowed special: other specials are
plain text). ``decode`` is ``Tokenizer.decode`` with the ``ByteLevel`` decoder. There is no
``get_stats``/``merge`` (inside Rust), no save/load in this format, no stream decoder, no
word-level trainer with an end-of-word marker in the contract's shape, no tie-rule choice.
"""

from __future__ import annotations

import json

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

from bpe_kata.adapters._glue import PerTable, token_bytes

#: Frames of this module are the adapter's, not the wrapped library's (bpe_kata/impl/frames.py).
__bpe_kata_adapter__ = True


def _byte_chars() -> list[str]:
    """GPT-2's printable stand-in for each byte, as ``tokenizers``' ByteLevel uses it."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    extra = iter(range(256, 512))
    return [chr(b) if b in kept else chr(next(extra)) for b in range(256)]


CHAR = _byte_chars()
BYTE = {c: b for b, c in enumerate(CHAR)}


_text = lambda piece: "".join(CHAR[b] for b in piece)  # noqa: E731
_bytes = lambda text: bytes(BYTE[c] for c in text)  # noqa: E731


def _pre_tokenizer(pattern):
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    split = [] if pattern is None else [pre_tokenizers.Split(Regex(pattern), behavior="isolated")]
    return pre_tokenizers.Sequence([*split, byte_level])


def train(text, vocab_size, *, pattern=None):
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = _pre_tokenizer(pattern)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=0, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([text], trainer)
    learned = json.loads(tokenizer.to_str())["model"]["merges"]
    ids = {bytes([b]): b for b in range(256)}
    merges = {}
    for idx, pair in enumerate(learned, start=256):
        left, right = pair if isinstance(pair, list) else pair.split(" ")
        merges[ids[_bytes(left)], ids[_bytes(right)]] = idx
        ids.setdefault(_bytes(left) + _bytes(right), idx)
    return merges


def _tokenizer(pieces: dict[int, bytes], merges, pattern, specials=None) -> Tokenizer:
    vocab = {_text(piece): idx for idx, piece in pieces.items()}
    vocab.update(specials or {})  # an added token keeps the id its text has in the vocabulary
    learned = [(_text(pieces[a]), _text(pieces[b])) for (a, b), _ in sorted(merges.items(), key=lambda kv: kv[1])]
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=learned))
    tokenizer.pre_tokenizer = _pre_tokenizer(pattern)
    tokenizer.decoder = decoders.ByteLevel()
    if specials:
        tokenizer.add_special_tokens([AddedToken(s, special=True, normalized=False) for s in specials])
        if any(tokenizer.token_to_id(s) != idx for s, idx in specials.items()):
            raise RuntimeError("adapter bug: tokenizers did not keep a special token's id")
    return tokenizer


_for_table = PerTable(lambda merges: {})


def encode(text, merges, *, special_tokens=None, allowed_special=frozenset(), disallowed_special="all",
           pattern=None):
    special_tokens = special_tokens or {}
    allowed = tuple(sorted(special_tokens if allowed_special == "all" else set(allowed_special) & set(special_tokens)))
    built = _for_table(merges)  # specials and pattern arrive afresh with each call: keyed by value
    key = (pattern, tuple((s, special_tokens[s]) for s in allowed))
    if key not in built:
        built[key] = _tokenizer(token_bytes(merges), merges, pattern, dict(key[1]))
    return built[key].encode(text, add_special_tokens=False).ids


def build_vocab(merges, special_tokens=None):
    tokenizer = _tokenizer(token_bytes(merges), merges, None, None)
    vocab = {idx: _bytes(tokenizer.id_to_token(idx)) for idx in [*range(256), *merges.values()]}
    vocab.update({idx: s.encode("utf-8") for s, idx in (special_tokens or {}).items()})
    return vocab


_decoder = PerTable(lambda vocab: _tokenizer(dict(vocab), {}, None, None))


def decode(ids, vocab):
    return _decoder(vocab).decode(list(ids), skip_special_tokens=False)
