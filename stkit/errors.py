"""The one error hierarchy of stkit.

Library code raises subclasses of :class:`StkitError`; only ``stkit.cli`` turns them into a one-line
message on stderr and an exit code (1).
"""

from collections.abc import Iterator
from contextlib import contextmanager


class StkitError(Exception):
    """Root of every error stkit raises on purpose. The message is one line, fit to show a user."""


class InvalidValue(StkitError, ValueError):
    """A value outside what the rules allow (a difficulty of 11, a pool of 0, a die face of 0...)."""


class RuleRefusal(StkitError):
    """The rules forbid the requested action (automatic success in combat, no Willpower left...)."""


class NotFound(StkitError, LookupError):
    """A named thing (character, card, rule entry, tracked action) does not exist."""


class DataFileError(StkitError):
    """A file could not be read: malformed, unknown field, value out of range. Names the file and field."""


class StoreError(StkitError):
    """The database could not be opened, migrated or written."""


@contextmanager
def about(what: str) -> Iterator[None]:
    """Any StkitError raised inside says which ``what`` it concerns (``the damage roll: 1 die given ...``):
    the same exception, its message prefixed with ``what: ``. For steps that raise the same message for
    different rolls of one command (an attack's four rolls)."""
    try:
        yield
    except StkitError as exc:
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (f"{what}: {exc.args[0]}", *exc.args[1:])
        raise
