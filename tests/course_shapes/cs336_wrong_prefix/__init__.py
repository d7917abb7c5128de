"""A CS336 solution that is right on every short text and wrong on a corpus: its trainer reads the file's first
64 Ki characters only (``read(65536)``, a buffer size left from debugging), so a table trained on tiny Shakespeare
or the Alice text is the table of their beginnings. Only the corpus values catch it (issue 38, item 1).
"""
