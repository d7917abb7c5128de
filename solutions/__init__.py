"""Your implementations live here: ``bpe-kata new NAME`` copies the starter to ``solutions/NAME``."""
