"""Cells of the command line's exports and tables: local times and spreadsheet-safe CSV cells.

Standard library only (imported by command modules at start-up).
"""

from __future__ import annotations


def local_time(iso: str) -> str:
    """'2026-12-01 10:05:00' in this computer's time zone, from a stored ISO 8601 UTC timestamp."""
    from datetime import datetime  # lazy: start-up (loaded when the command runs)

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return iso[:19].replace("T", " ")


def local_iso(iso: str) -> str:
    """'2026-12-01T11:05:00+01:00': a stored ISO 8601 UTC timestamp in this computer's time zone, with its
    UTC offset, to the second (what --json and CSV give wherever a time is shown); text that is not a
    timestamp is returned as it is."""
    from datetime import datetime  # lazy: start-up (loaded when the command runs)

    try:
        return datetime.fromisoformat(iso).astimezone().isoformat(timespec="seconds")
    except (TypeError, ValueError):
        return iso


def csv_cell(value: object) -> object:
    """A CSV cell: text with control characters escaped, and quoted with ' when a spreadsheet would take
    it for a formula (it starts with = + - or @)."""
    from stkit.text import printable  # lazy: start-up (loaded when the command runs)

    if not isinstance(value, str):
        return value
    text = printable(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
