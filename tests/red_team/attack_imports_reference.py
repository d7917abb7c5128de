"""Red team: the suite's own reference, imported under another name, passed off as a submission."""

import importlib

_reference = importlib.import_module("reference")
get_stats, merge = _reference.get_stats, _reference.merge
