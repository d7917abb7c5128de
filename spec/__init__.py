"""bpe-kata: the executable specification of byte-level BPE.

The spec is a pytest plugin plus test modules, organised in levels; it runs against any
implementation given with ``--impl`` (see spec/CONTRACT.md).
"""

__version__ = "0.1.0"
