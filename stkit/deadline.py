"""A whole-call deadline for outbound network calls, whose libraries only bound each network step.

A socket timeout bounds one read; a server sending a byte a second never trips it. :func:`within` runs the
call in a daemon thread and stops waiting for it at the deadline; the call itself is asked to stop through
the :class:`Deadline` it is given (``left()`` for its next step's timeout, ``check()`` between steps), so
an abandoned call ends by itself soon after. Standard library only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlinePassed(TimeoutError):
    """The deadline of a :func:`within` call passed before the call was done."""


class Deadline:
    """A point ``seconds`` from now (monotonic clock)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left (0 once passed)."""
        return max(self.at - time.monotonic(), 0.0)

    def check(self) -> None:
        """Raises DeadlinePassed once the deadline has passed."""
        if self.left() <= 0:
            raise DeadlinePassed(f"not done within {self.seconds:g} s")


def within(seconds: float, call: Callable[[Deadline], T]) -> T:
    """``call(deadline)``'s result, or what it raised, if it is done within ``seconds``; else raises
    DeadlinePassed (the call goes on in its daemon thread until it next checks the deadline)."""
    deadline = Deadline(seconds)
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = call(deadline)
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="stkit-deadline", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise DeadlinePassed(f"not done within {seconds:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
