"""The merge-budget table of the word-level toy corpus, derived from an implementation.

Shared by the words level's tests and by ``bpe-kata words-budget``, so the table a
learner prints is the one the spec checks.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The word-level toy corpus of "Tokenization: Byte-Pair Encoding by Hand" (23 words).
TOY_CORPUS = "the cat sat on the mat the cat ate the rat a cat and a rat sat on a mat the rats ate"
BUDGETS = (0, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class BudgetRow:
    budget: int          # merges asked for
    learned: int         # merges train_words returned (fewer once no pair is left)
    vocab_size: int      # base symbols (characters and marker) plus the merges learned
    tokens: int          # symbols of the whole corpus, every word segmented
    words: int

    @property
    def per_word(self) -> str:
        return f"{self.tokens / self.words:.2f}"

    @property
    def label(self) -> str:
        """One row as a test id: merges-8-vocab-20-tokens-39-per-word-1.70."""
        label = f"merges-{self.budget}-vocab-{self.vocab_size}-tokens-{self.tokens}-per-word-{self.per_word}"
        return label + (f"-exhausted-after-{self.learned}" if self.learned < self.budget else "")


def budget_row(impl: object, budget: int, corpus: str = TOY_CORPUS) -> BudgetRow:
    """Train ``budget`` merges with ``impl.train_words`` and measure the corpus with ``impl.segment_word``."""
    words = corpus.split()
    merges = list(impl.train_words(corpus, budget))
    base = {symbol for word in set(words) for symbol in impl.segment_word(word, [])}
    tokens = sum(len(impl.segment_word(word, merges)) for word in words)
    return BudgetRow(budget, len(merges), len(base) + len(merges), tokens, len(words))


def render(rows: list[BudgetRow]) -> list[str]:
    """The table as text, one line per budget."""
    lines = [f"{'merges':>6}  {'vocab size':>10}  {'corpus tokens':>13}  {'tokens/word':>11}", "-" * 48]
    for row in rows:
        note = f"  (no pair left after {row.learned} merges)" if row.learned < row.budget else ""
        lines.append(f"{row.budget:>6}  {row.vocab_size:>10}  {row.tokens:>13}  {row.per_word:>11}{note}")
    return lines
