"""Waiting in tests: for a condition, with a deadline, never for a fixed window.

A test that sleeps "long enough" for something to happen fails on a busy machine and wastes time on an
idle one. :func:`wait_until` polls a condition and returns as soon as it holds; the deadline is generous
(:data:`DEADLINE`) because it is only reached when the test is going to fail anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

#: Seconds a test waits for something that should take well under one on an idle machine.
DEADLINE = 60.0

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, *, seconds: float = DEADLINE, every: float = 0.02) -> T:
    """Call ``condition`` every ``every`` seconds until it returns something true, and return that;
    AssertionError naming ``what`` when ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        got = condition()
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}"
        time.sleep(every)
