"""Python's cyclic garbage collector during a command's start-up (see :func:`collect_later`).

Standard library only: :mod:`stkit.cli.launch` imports it before any framework.
"""

from __future__ import annotations

import gc
import threading

#: Seconds a command runs before Python's cyclic garbage collector is switched back on (see
#: :func:`collect_later`).
COLLECT_AFTER = 1.0

_pending: list[threading.Timer] = []


def collect_later(after: float = COLLECT_AFTER) -> None:
    """Switch the cyclic garbage collector off now and back on after ``after`` seconds (a daemon timer);
    a second call while the first timer is pending changes nothing.

    Start-up creates a few hundred thousand long-lived objects (modules, classes, typer's command), and
    the collector walks them again and again while they are made, a tenth of a short command's time; a
    command that ends sooner never needs it (reference counting frees everything else), and one that runs
    longer (a server, the shell, exact odds) gets it back."""
    if any(t.is_alive() for t in _pending):
        return
    gc.disable()
    timer = threading.Timer(after, gc.enable)
    timer.daemon = True
    timer.start()
    _pending[:] = [timer]
