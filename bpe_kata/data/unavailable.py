"""The one kind of error for data a run needs and cannot have: a corpus or a published table that is
missing, not downloadable, or not the published bytes.

Every such error says what is missing and the command that fixes it, in one line. The suite
never charges it to the implementation: a test stopped by it is "not run", and a run that
requires its data (``--require-data``, the gate) ends as a set-up error (bpe_kata/verdict/missing_data.py).
"""

from __future__ import annotations


class DataUnavailable(Exception):
    """Data the suite reads is missing or is not the published data; the message says how to fix it."""

    #: what is missing, as the run's one line names it ("corpus", "published table")
    what = "data"

    def line(self) -> str:
        """The one line a user reads: what is unavailable and how to fix it."""
        text = " ".join(str(self).split())  # one line, whatever the message's parts held
        return f"{self.what} unavailable: {text}"
