"""Questions to the person at the keyboard, and the rule that a script is never asked one.

A command that asks before it acts (``char delete`` without ``--yes``) calls :func:`confirm`. While
``stkit shell`` runs lines read from a pipe or a file (:func:`scripted`), nobody is there to answer and the
next script line must not be taken as the answer: the command is refused with a line saying to add
``--yes``, and the script goes on with its next line.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from stkit.errors import RuleRefusal

_scripted = False


@contextmanager
def scripted() -> Iterator[None]:
    """While inside, every :func:`confirm` is refused instead of asked (lines come from a script)."""
    global _scripted
    before, _scripted = _scripted, True
    try:
        yield
    finally:
        _scripted = before


def confirm(question: str, *, command: str) -> bool:
    """Ask ``question`` (yes / no, default no) and return the answer. Raises RuleRefusal naming
    ``command`` and ``--yes`` while :func:`scripted` is in force."""
    if _scripted:
        raise RuleRefusal(f"{command} asks for confirmation, and a script cannot answer: add --yes")
    import typer  # lazy: start-up (loaded when the command runs)

    return typer.confirm(question, default=False)
