"""Differential checks behind the ledger's "equivalent" and "performance-only" entries.

An accepted survivor that claims to change no result is checked, not believed: the gate
(``bpe-kata mutate --gate``) runs a probe twice in fresh processes, importing ``reference``
from mutmut's ``mutants/`` copy, once with no mutant active (the original) and once with the
entry's mutant active, and compares what the two saw on the same :data:`INPUTS` generated
inputs: every result, and every error's type and message. A difference fails the gate with
the first input on which they part. The CPU time of both runs is reported beside it, since
for a performance-only entry time (or memory) is all that may differ.

Each probe drives the reference's public functions (``reference/__init__.py``) from a
fixed seed, so both runs see the same inputs; one probe per family of modules:

* ``encode``  - tables and specials (valid and bad; a table changed between calls, by a new key and in
  place at the same size), encode, decode,
  build_vocab, get_stats, merge
* ``train``   - training with and without a split pattern, under each tie rule
* ``persist`` - save, the saved bytes and their mode, load; load of damaged files
* ``words``   - train_words and segment_word, bad input included
* ``stream``  - StreamDecoder over random ids
* ``iterable`` - encode_iterable over random cuts, every text a batch

Run by hand: ``cd mutants && MUTANT_UNDER_TEST=NAME python -m bpe_kata.mutation.checks PROBE``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: How many generated inputs each probe tries (per kind of call within the probe).
INPUTS = 150
SEED = 20261202
#: CPU seconds a probe may use in one run before it counts as not finished.
CPU_LIMIT_S = 30

ALPHABET = "aab ba\nab!é你🌍\ud800 <|x|>0123"
SPECIALS = {"<|x|>": 1000, "<|end|>": 1001}
PATTERN = r"""'s|'t| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def _outcome(call: Callable[[], object]) -> object:
    """What a call gave: its result, or its error's type and message (paths left out)."""
    try:
        return ["ok", call()]
    except Exception as error:  # every error is part of the behaviour compared
        return ["error", type(error).__name__, str(error)]


def _text(rng: random.Random, longest: int = 40) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest)))


def _table(reference, rng: random.Random) -> dict:
    """A valid table (trained), sometimes broken on purpose, sometimes integer-like."""
    table = dict(reference.train(_text(rng, 80), 256 + rng.randint(0, 30)))
    kind = rng.random()
    if kind < 0.15 and table:
        pair = rng.choice(list(table))
        table[pair] = rng.choice([97, 255, -1, max(table.values()), True, 2.5])
    elif kind < 0.25:
        table[(rng.choice([256, 300, 97, -2, True]), rng.choice([98, 256, 999]))] = 256 + len(table)
    elif kind < 0.3:
        table[(97, 98, 99)] = 999
    return table


#: Tables whose later merge builds on the earlier: given a lower id in place, the merge the first one
#: makes ranks before it (issue 37: two "performance-only" survivors differed only here).
IN_PLACE_TABLES = ({(97, 97): 256, (256, 97): 257}, {(97, 98): 256, (256, 97): 257})


def _changed_in_place(reference, rng: random.Random, text: str) -> list:
    """Encode with a table, then change one entry's id in place (same size) and encode again.

    Adding a key changes the table's size, which any cache keyed on it notices; a change in
    place does not, so the encoding after it is the only one that shows what was remembered.
    """
    seen = []
    trained = dict(reference.train(_text(rng, 80), 256 + rng.randint(2, 30)))
    for base in (rng.choice(IN_PLACE_TABLES), trained):
        for probe_text in ("aaaa", "abab", "aaaaa", "ababa", text):
            table = dict(base)
            seen.append(_outcome(lambda: reference.encode("", table)))
            if table:
                table[list(table)[-1]] = rng.choice([255, 97, min(table.values()) - 1, min(table.values())])
            seen.append(_outcome(lambda: reference.encode(probe_text, table)))
    return seen


def probe_encode(reference, rng: random.Random) -> list:
    seen = []
    for _ in range(INPUTS):
        table = _table(reference, rng)
        text = _text(rng)
        specials = rng.choice([None, SPECIALS, {"<|x|>": 256}, {"": 1002}, {"<|x|>": 97}])
        allowed = rng.choice(["all", frozenset(), {"<|x|>"}, "none"])
        pattern = rng.choice([None, PATTERN])
        ids = _outcome(lambda: reference.encode(text, table, pattern=pattern, special_tokens=specials,
                                                allowed_special=allowed))
        seen.append(ids)
        seen.append(_outcome(lambda: reference.encode(text, table)))
        vocab = _outcome(lambda: reference.build_vocab(table, special_tokens=specials))
        seen.append(vocab)
        if ids[0] == "ok" and vocab[0] == "ok":
            seen.append(_outcome(lambda: reference.decode(ids[1], vocab[1])))
        table[(98, 98)] = 98  # the caller changes the table between calls: the verdict must follow
        seen.append(_outcome(lambda: reference.encode(text, table)))
        seen.extend(_changed_in_place(reference, rng, text))
        raw = [rng.randint(0, 300) for _ in range(rng.randint(0, 12))]
        seen.append(_outcome(lambda: list(reference.get_stats(raw).items())))
        if len(raw) > 1:
            seen.append(_outcome(lambda: reference.merge(raw, (raw[0], raw[1]), 999)))
        seen.append(_outcome(lambda: reference.decode(raw, reference.build_vocab({}))))
    return seen


def probe_train(reference, rng: random.Random) -> list:
    from reference.tie_rules import TIE_RULES

    seen = []
    for _ in range(INPUTS // 3):
        text = _text(rng, 120)
        size = 256 + rng.randint(0, 40)
        for rule in TIE_RULES:
            seen.append(_outcome(lambda: list(reference.train(text, size, tie_rule=rule).items())))
            seen.append(_outcome(lambda: list(reference.train(text, size, pattern=PATTERN,
                                                              tie_rule=rule).items())))
    return seen


def probe_persist(reference, rng: random.Random) -> list:
    seen = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(INPUTS // 3):
            table = _table(reference, rng)
            specials = rng.choice([None, SPECIALS, {"<|x|>": 256}])
            pattern = rng.choice([None, PATTERN, "("])
            path = Path(folder) / f"t{number}.bpe"
            saved = _outcome(lambda: reference.save(path, table, pattern=pattern, special_tokens=specials))
            seen.append(saved)
            if not path.exists():
                continue
            data = path.read_bytes()
            seen.append([data.decode("latin-1"), oct(stat.S_IMODE(path.stat().st_mode))])
            seen.append(_outcome(lambda: _plain(reference.load(path))))
            for _ in range(3):  # damaged copies: a flipped, lost or added byte, or a cut
                damaged = bytearray(data)
                where = rng.randrange(len(damaged))
                kind = rng.randrange(4)
                if kind == 0:
                    damaged[where] ^= 1 << rng.randrange(8)
                elif kind == 1:
                    del damaged[where]
                elif kind == 2:
                    damaged.insert(where, rng.choice([0x80, 0xFF, 0x0A, 0x20, 0x39]))
                else:
                    del damaged[where:]
                broken = Path(folder) / "damaged.bpe"
                broken.write_bytes(bytes(damaged))
                seen.append(_outcome(lambda: _plain(reference.load(broken))))
    return [json.loads(json.dumps(item, default=repr).replace(folder, "<folder>")) for item in seen]


def _plain(tokenizer) -> list:
    merges, pattern, specials = tokenizer
    return [list(merges.items()), pattern, sorted(specials.items())]


def probe_words(reference, rng: random.Random) -> list:
    seen = []
    words = ["low", "lower", "lowest", "newer", "wider", "a", "ab", "é你"]
    for _ in range(INPUTS):
        if rng.random() < 0.5:
            corpus: object = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        else:
            corpus = {rng.choice(words): rng.choice([1, 2, 5, 0, -1, True, 2.5]) for _ in range(rng.randint(0, 5))}
        count = rng.choice([0, 1, 3, 10, -1, 2.5, True])
        marker = rng.choice(["_", "</w>", None, ""])
        merges = _outcome(lambda: reference.train_words(corpus, count, end_of_word=marker))
        seen.append(merges)
        if merges[0] == "ok":
            word = rng.choice(words)
            seen.append(_outcome(lambda: reference.segment_word(word, merges[1], end_of_word=marker)))
    return seen


def probe_stream(reference, rng: random.Random) -> list:
    seen = []
    for _ in range(INPUTS):
        table = dict(reference.train(_text(rng, 60), 256 + rng.randint(0, 20)))
        vocab = reference.build_vocab(table)
        decoder = reference.StreamDecoder(vocab)
        ids = [rng.choice(list(vocab)) for _ in range(rng.randint(0, 15))]
        seen.append([_outcome(lambda: decoder.feed(i)) for i in ids] + [_outcome(decoder.flush)])
    return seen


#: What a cut between texts can fall inside: specials (one a prefix of another), contractions, runs of spaces and
#: line ends, a surrogate pair written as two code points, digits.
ITERABLE_UNITS = ("a", "b", " ", "  ", "\r\n", "\n\n", "'ll", "'s", "don't", "é", "🌍", "\ud83c", "\udf0d", "<|x|>",
                  "<|x|>y", "<|end|>", "<|", "123", "!")


def probe_iterable(reference, rng: random.Random) -> list:
    """encode_iterable over random cuts of random texts, every text a batch of its own (the batched path runs on
    small inputs), with and without specials (one a prefix of another) and patterns, valid and refused (the
    refusal's message names its position in the joined text)."""
    from reference import iterable

    iterable.BATCH = 1
    seen = []
    patterns = [None, PATTERN, *iterable.BOUNDED_PATTERNS]
    for _ in range(INPUTS):
        table = dict(reference.train(_text(rng, 60), 256 + rng.randint(0, 20)))
        text = "".join(rng.choice(ITERABLE_UNITS) for _ in range(rng.randint(0, 20)))
        cuts = sorted(rng.randint(0, len(text)) for _ in range(rng.randint(0, 6)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
        specials = rng.choice([None, SPECIALS, {**SPECIALS, "<|x|>y": 1002}, {"<|x|>": 256}])
        keywords = {"pattern": rng.choice(patterns), "special_tokens": specials,
                    "allowed_special": rng.choice(["all", frozenset(), {"<|x|>"}])}
        seen.append(_outcome(lambda: list(reference.encode_iterable(iter(pieces), table, **keywords))))
    return seen


PROBES: dict[str, Callable] = {"encode": probe_encode, "train": probe_train, "persist": probe_persist,
                               "words": probe_words, "stream": probe_stream, "iterable": probe_iterable}


# --- running a probe against the original and a mutant ---------------------------------------


@dataclass(frozen=True)
class ProbeRun:
    digest: str  # sha256 of everything the probe saw ("" when it did not finish)
    outcomes: list | None
    cpu_s: float
    problem: str = ""  # why it did not finish


def run_probe(mutants_dir: Path, probe: str, mutant: str = "") -> ProbeRun:
    """``probe`` in a fresh process importing ``reference`` from ``mutants_dir``, with ``mutant`` active."""
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant, "PYTHONHASHSEED": "0"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "bpe_kata.mutation.checks", probe], cwd=mutants_dir, env=env,
                          capture_output=True, text=True, check=False,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_S, CPU_LIMIT_S + 1)))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return ProbeRun("", None, cpu, f"the probe did not finish ({tail[0][:200]})")
    outcomes = json.loads(done.stdout)
    return ProbeRun(hashlib.sha256(done.stdout.encode()).hexdigest(), outcomes, cpu)


def first_difference(original: list, mutated: list) -> str:
    for number, (a, b) in enumerate(zip(original, mutated), 1):
        if a != b:
            return f"input {number}: original {json.dumps(a)[:160]}, mutant {json.dumps(b)[:160]}"
    return f"the original saw {len(original)} outcomes, the mutant {len(mutated)}"


def main(argv: list[str]) -> int:
    """Run one probe here (cwd: mutants/) and print what it saw as JSON."""
    if len(argv) != 1 or argv[0] not in PROBES:
        print(f"usage: python -m bpe_kata.mutation.checks {{{','.join(PROBES)}}}", file=sys.stderr)
        return 2
    sys.path.insert(0, os.getcwd())  # reference/ from mutants/, not the checkout
    import reference

    if not str(Path(reference.__file__).resolve()).startswith(os.getcwd()):
        print(f"reference was imported from {reference.__file__}, not from {os.getcwd()}", file=sys.stderr)
        return 2
    outcomes = PROBES[argv[0]](reference, random.Random(SEED))
    print(json.dumps(outcomes, default=repr, ensure_ascii=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
