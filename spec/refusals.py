"""A refusal is the implementation's answer to an argument only if the same call with that argument made right does not
raise the same error: a crash is no refusal.

``pytest.raises(ValueError)`` takes any ValueError. A trainer whose every call without special tokens crashes with
``max() arg is an empty sequence`` raises it for ``vocab_size=255`` too, and the check of the refusal passed
(tenth round, development; the ninth round's held-out false pass was the same kind): its trainer, given a special,
trained to 200 without a word. So the call is made again with the argument made right (``control``); when that raises
the same error, the check cannot tell a refusal from the crash, and the crash is raised as the test's own error, the
implementation's (a root cause; the rerun in the equivalent form then finds the missing refusal behind it).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest


def refused(call: Callable[[], object], control: Callable[[], object]) -> BaseException:
    """The ValueError ``call`` raises, once ``control`` (the same call, its argument made right) shows it no crash."""
    with pytest.raises(ValueError) as raised:
        call()
    try:
        control()
    except ValueError as again:
        if type(again) is type(raised.value) and str(again) == str(raised.value):
            raise again  # the same error whatever the argument: the crash, not a refusal
    except Exception:  # noqa: BLE001  another error there is another claim's: the refusal stands
        pass
    return raised.value
