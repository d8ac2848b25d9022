"""Notes a use case leaves for the person at the door: a choice made for them that they did not spell out
("Grins is in two chronicles; took the one in 'default'"). Standard library only.

A door that shows notes wraps its work in :func:`collecting` and shows the list it yields; without
it, :func:`note` keeps nothing (a server handling many requests collects nothing by accident).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_collected: ContextVar[list[str] | None] = ContextVar("stkit_notices", default=None)


def note(text: str) -> None:
    """Leave ``text`` for the door (once: a retried transaction does not repeat it)."""
    notes = _collected.get()
    if notes is not None and text not in notes:
        notes.append(text)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """Collect the notes left inside the block into the list it yields."""
    notes: list[str] = []
    token = _collected.set(notes)
    try:
        yield notes
    finally:
        _collected.reset(token)
