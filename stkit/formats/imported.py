"""What reading a character file gives: one sheet, where it came from, its format and the warnings.

Its own module so that the readers of each format (stkit.store.files, foundry, grapevine) share it without
importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from stkit.sheet.sheet import Sheet


@dataclass
class LoadedFile:
    """One parsed character: the sheet, the file it came from, its format (yaml, json, foundry or grapevine)
    and the warnings of its import (every value not kept, named by its path)."""

    sheet: Sheet
    path: Path
    format: str
    warnings: list[str] = field(default_factory=list)
