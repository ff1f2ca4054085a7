# SPDX-License-Identifier: GPL-2.0
"""Systematic fault injection: the kernel's per-task fail-nth
(Documentation/fault-injection/fault-injection.rst) makes the Nth
fault-injection point this thread passes fail, in whichever fault type is
enabled (failslab, fail_page_alloc).  sweep() runs one action with its
first point failing, then its second, and so on, until an action passes
all of them: every allocation the action makes in this thread's context
has failed once.

Only what the action does in this thread counts (a softirq's allocations
never do), so an action should be one system call, made right after the
counter is set.
"""

import os

PATH = "/proc/thread-self/fail-nth"


def sweep(action, limit=100000):
    """Calls ACTION() with fail-nth 1, 2, ...; returns [(n, result)] for
    each call in which the Nth point failed, and the result of the first
    call that passed every point.  An exception of ACTION is its result."""
    fd = os.open(PATH, os.O_RDWR)
    injected = []
    try:
        for n in range(1, limit):
            os.pwrite(fd, b"%d" % n, 0)
            try:
                result = action()
            except OSError as e:
                result = e
            left = int(os.pread(fd, 32, 0))
            os.pwrite(fd, b"0", 0)
            if left:
                return injected, result
            injected.append((n, result))
    finally:
        os.close(fd)
    raise RuntimeError("fail-nth: still failing at point %d" % limit)
