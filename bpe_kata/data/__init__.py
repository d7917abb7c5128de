"""Outside data the spec reads: corpora (found or fetched, hash-checked), tables trained from them,
and published tokenizers."""
