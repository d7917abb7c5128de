"""Waiting on a child's pipes with poll, never select.select: select's FD_SETSIZE (1024) cannot hold a descriptor
numbered past it, which code under test that leaks files pushes ours to (ninth round, holdout: "filedescriptor out
of range in select()" in a hash-seed child's test, a suite error that ended the run with exit status 6)."""

from __future__ import annotations

import select

_READ = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR  # end of file reads as readable, as select
_WRITE = select.POLLOUT | select.POLLERR | select.POLLHUP  # a closed reader: the write fails and says so


def wait(readers: list[int], writers: list[int], timeout: float) -> tuple[list[int], list[int]]:
    """(readable, writable) among the descriptors within ``timeout`` seconds, as ``select.select`` answers."""
    poller = select.poll()
    for fd in dict.fromkeys([*readers, *writers]):
        poller.register(fd, (select.POLLIN if fd in readers else 0) | (select.POLLOUT if fd in writers else 0))
    events = poller.poll(max(0.0, timeout) * 1000)
    return ([fd for fd, event in events if fd in readers and event & _READ],
            [fd for fd, event in events if fd in writers and event & _WRITE])
