"""The one error hierarchy of stkit.

Library code raises subclasses of :class:`StkitError`; only ``stkit.cli`` turns them into a one-line
message on stderr and an exit code (1).
"""


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
