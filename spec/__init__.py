"""bpe-kata: the executable specification of byte-level BPE.

The spec is the claims ledger, the worked cases, the oracle and the test modules, organised in
levels; the runner (the ``bpe_kata`` package's pytest plugin) runs them against any implementation
given with ``--impl`` (see spec/CONTRACT.md).
"""

__version__ = "0.1.0"
