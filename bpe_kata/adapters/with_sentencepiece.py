"""sentencepiece in BPE mode: no contract function can be mapped without changing its behaviour.

SentencePiece is not byte-level. Its BPE trainer (``model_type="bpe"``) starts from the
text's *characters*, not its 256 bytes: a character such as ``é`` is one base piece, where
the contract has two byte ids and a merge. ``byte_fallback=True`` adds 256 byte pieces, but
only for characters left out of the alphabet, and they are never merged. By default it also
rewrites the text before training (NFKC normalisation, spaces as ``▁``, a space added in
front, runs of spaces squeezed), and its model stores pieces with scores, not the pairs each
merge joined. So ``train`` (ids 0..255 are bytes, merges of two ids), ``encode`` with a
contract table and ``build_vocab``/``decode`` on byte ids have no equivalent: all are left
out, and every level reads "not started". The row is in the matrix to say so.
"""

import sentencepiece  # noqa: F401  (the row records the installed version)
