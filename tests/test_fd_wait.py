"""The child's pipes are waited on with poll (bpe_kata/child/fd_wait.py): a descriptor numbered past select's
FD_SETSIZE, where code under test that leaks files pushes ours, still works (ninth round, holdout: a suite error)."""

from __future__ import annotations

import os
import resource

import pytest

from bpe_kata.child import fd_wait


def test_a_pipe_numbered_past_1024_is_waited_on_as_select_would():
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        pytest.skip(f"this machine allows {soft} open files: no descriptor past 1024 to try")
    read_end, write_end = os.pipe()
    high_read, high_write = os.dup2(read_end, 1100), os.dup2(write_end, 1101)
    try:
        assert fd_wait.wait([high_read], [high_write], 0.05) == ([], [high_write])  # room to write, nothing to read
        os.write(high_write, b"answer\n")
        assert fd_wait.wait([high_read], [], 0.05) == ([high_read], [])
        os.close(high_write)
        os.close(write_end)
        os.read(high_read, 100)
        assert fd_wait.wait([high_read], [], 0.05) == ([high_read], [])  # the end of the file reads as readable
    finally:
        for fd in (read_end, high_read, high_write, write_end):
            try:
                os.close(fd)
            except OSError:
                pass
