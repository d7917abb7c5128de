"""``bpe-kata curve``: bytes per token against vocabulary size, the picture of what merges buy.

The implementation trains once, at the largest size; each smaller vocabulary is a prefix of
that table (training is greedy, so the first k merges of a longer run are the k-merge run). Each
point replays its prefix over the corpus (spec/replay.py), which measures the trainer; ``encode``
on the training text gives the same tokens when it is right, and has claims of its own.
The reference series is the Alice figures of "Build a BPE Tokenizer: Why Your Model Can't Count
the R's" (claim corpus.d1-curve), read from the spec's worked cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bpe_kata.data.corpora import CORPORA
from spec.cases import cases_of
from spec.replay import Replayer

REFERENCE_CLAIM = "corpus.d1-curve"
REFERENCE_TITLE = "Alice, as published (corpus.d1-curve)"


@dataclass(frozen=True)
class Point:
    vocab_size: int
    tokens: int
    bytes_per_token: float


def parse_sizes(value: str) -> list[int]:
    """``256..4096`` doubles from the first to the last; ``300,400,512`` lists sizes."""
    if ".." in value:
        low, high = (int(part) for part in value.split("..", 1))
        if not 256 <= low <= high:
            raise ValueError(f"--vocab {value}: need 256 <= LOW <= HIGH")
        sizes = []
        while low < high:
            sizes.append(low)
            low *= 2
        return sizes + [high]
    sizes = sorted({int(part) for part in value.split(",") if part.strip()})
    if not sizes or sizes[0] < 256:
        raise ValueError(f"--vocab {value}: sizes are at least 256")
    return sizes


def measure(text: str, merges: dict, sizes: list[int]) -> list[Point]:
    """Bytes per token of ``text`` under the first ``size - 256`` merges, for each size."""
    ordered = list(merges.items())
    size_in_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    replayer, points = Replayer(text), []
    for size in sizes:
        tokens = len(replayer.after(ordered[:max(size - 256, 0)]))
        points.append(Point(size, tokens, size_in_bytes / max(tokens, 1)))
    return points


def reference_points() -> list[Point]:
    """The published Alice curve: token counts of the worked cases, over the corpus's bytes."""
    size = CORPORA["alice"].size
    points = [Point(c["input"]["vocab_size"], c["expected"]["length"], size / c["expected"]["length"])
              for c in cases_of("encode") if REFERENCE_CLAIM in c["claims"] and "length" in c["expected"]]
    return sorted(points, key=lambda p: p.vocab_size)


def terminal_chart(points: list[Point], reference: list[Point], width: int = 40) -> list[str]:
    """One bar per size, scaled to the largest figure; the reference figure beside it where there is one."""
    known = {p.vocab_size: p for p in reference}
    top = max([p.bytes_per_token for p in points + reference] + [1.0])
    lines = [f"{'vocab':>6}  bytes per token"]
    for point in points:
        bar = "█" * max(1, round(point.bytes_per_token / top * width))
        ref = known.get(point.vocab_size)
        note = f"   (Alice as published: {ref.bytes_per_token:.2f})" if ref else ""
        lines.append(f"{point.vocab_size:>6}  {bar:<{width}} {point.bytes_per_token:.2f}{note}")
    return lines


def plot(points: list[Point], reference: list[Point], label: str, target: Path) -> Path:
    """Write the curve as an image (PNG, SVG or PDF, by the file's suffix) with the Agg backend."""
    from matplotlib import pyplot

    figure = draw(points, reference, label)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target)
    pyplot.close(figure)
    return target


def draw(points: list[Point], reference: list[Point], label: str):
    """The figure: the published points behind, hollow, and the user's own on top, so that a right
    implementation (whose points fall exactly on the published ones) still shows its own."""
    from bpe_kata.tools.extras import require

    matplotlib = require("matplotlib", "curve")
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6.4, 4.0), dpi=100)
    if reference:
        axes.plot([p.vocab_size for p in reference], [p.bytes_per_token for p in reference], "s--", color="grey",
                  markersize=10, markerfacecolor="none", zorder=1, label=REFERENCE_TITLE)
    axes.plot([p.vocab_size for p in points], [p.bytes_per_token for p in points], "o-", zorder=2, label=label)
    axes.set_xscale("log", base=2)
    sizes = sorted({p.vocab_size for p in points + reference})
    axes.set_xticks(sizes, labels=[str(size) for size in sizes])
    axes.minorticks_off()
    axes.set_xlabel("vocabulary size (ids)")
    axes.set_ylabel("bytes per token")
    axes.set_title("Compression grows with the vocabulary")
    axes.grid(True, alpha=0.3)
    handles, labels = axes.get_legend_handles_labels()
    axes.legend(handles[::-1], labels[::-1])  # the user's own first
    figure.tight_layout()
    return figure
