"""The run's output as the CI log shows it: the judged code's text may appear in it (its messages, what it
printed), never its terminal control. An escape that clears the screen, moves the cursor or retitles the
window, a carriage return that overwrites a line, a direction override that reorders one: each is written
as its Python escape. pytest's own colours (SGR, ``ESC[...m``) and tabs stay.
"""

from __future__ import annotations

import re

#: SGR colour sequences (kept), any other escape sequence, C0/C1 controls but tab and newline, the bidi controls.
_COLOUR = r"\x1b\[[0-9;]*m"
_CONTROL = re.compile(rf"({_COLOUR})|[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


#: Lines only the supervisor prints, after the verdict process has ended: the same words in the run's output
#: are somebody's imitation (a child printing a digest of its own), and are marked as such.
SUPERVISOR_ONLY = ("report sha256",)
IMITATION = " [printed by the run, not by the supervisor]"


def shown(line: str) -> str:
    """``line`` with every control but colours, tab and the final newline written as its escape, and an
    imitation of the supervisor's own lines marked."""
    body, newline = (line[:-1], "\n") if line.endswith("\n") else (line, "")
    if body.endswith("\r"):
        body = body[:-1]  # a CRLF line end is a line end
    body = _CONTROL.sub(lambda m: m.group(1) or m.group(0).encode("unicode_escape").decode("ascii"), body)
    for words in SUPERVISOR_ONLY:  # marked between the words and the digest: a search for the line finds no digest
        body = body.replace(words, words + IMITATION)
    return body + newline
