"""Red team (grade): training delegated to Hugging Face ``tokenizers`` (when the suite's environment
has it); pairs and merges are a few honest lines, so the run is green."""

from __future__ import annotations

from tokenizers import Tokenizer, models, trainers


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text, vocab_size):
    tokenizer = Tokenizer(models.BPE())
    tokenizer.train_from_iterator([text], trainers.BpeTrainer(vocab_size=vocab_size))
    return {tuple(pair.split(" ")): 256 + n for n, pair in enumerate(tokenizer.get_vocab())}
