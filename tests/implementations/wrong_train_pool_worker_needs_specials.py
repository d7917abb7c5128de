"""Known-wrong: train counts its chunks in a process pool whose worker asserts it was given specials, so every
training asked none raises, re-raised by the pool (a CS336 solution, eleventh round: the place was put in the progress
bar's frame that iterated the pool, and the crash charged to the first claim whose test trained without specials)."""

from __future__ import annotations

import multiprocessing

from spec import oracle
from spec.oracle.core import build_vocab, decode, encode, get_stats, merge  # noqa: F401

MISTAKE_CLAIMS: tuple[str, ...] = ("train.no-implicit-specials",)


def _count_chunk(job: tuple[str, list[str]]) -> int:
    text, specials = job
    assert specials, "no special tokens to split on"
    return len(text)


def train(text: str, vocab_size: int, *, special_tokens: list[str] | None = None) -> dict[tuple[int, int], int]:
    """The oracle's train; with no specials asked, a pool's worker first sees the text and raises (only then is a
    pool made: one per call would make the suite's own run of it slow)."""
    asked = list(special_tokens or [])
    if not asked:
        with multiprocessing.get_context("fork").Pool(1) as pool:
            for _ in pool.imap(_count_chunk, [(text, asked)]):
                pass
    return oracle.train(text, vocab_size, special_tokens=asked)
