"""Adapter: karpathy/minbpe (Python) to the bpe-kata contract. Names and types only.

Upstream: MINBPE_PY_SRC = a checkout of github.com/karpathy/minbpe (README.md here).
``train`` is ``BasicTokenizer.train`` (``RegexTokenizer`` with a pattern) and returns its
``merges``; ``encode``/``decode`` set the tokenizer's tables and call its methods;
``allowed_special`` is translated to minbpe's names ("all", a set, or "none_raise").
"""

from __future__ import annotations

__bpe_kata_adapter__ = True  # its frames are the adapter's, not the upstream's (bpe_kata/impl/frames.py)

from _minbpe_shape import bind
from _upstream import upstream

upstream("MINBPE_PY_SRC", "minbpe/base.py")

from minbpe.base import Tokenizer, get_stats, merge  # noqa: E402  (upstream, unchanged)
from minbpe.basic import BasicTokenizer  # noqa: E402
from minbpe.regex import RegexTokenizer  # noqa: E402

__all__ = ["get_stats", "merge", "train", "build_vocab", "decode", "encode"]

globals().update(bind(Tokenizer, BasicTokenizer, RegexTokenizer, "minbpe's"))
