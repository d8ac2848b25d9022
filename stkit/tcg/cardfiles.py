"""Reading a card file of any format: stkit's YAML / JSON / CSV (:mod:`stkit.tcg.cards`) and LackeyCCG
tab-separated lists (:mod:`stkit.tcg.lackey`), and the packaged card list.

A module of its own so that the schema (``cards``) and the Lackey reader, which builds on the schema, do
not import each other.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from stkit.errors import DataFileError
from stkit.tcg.cards import (
    MAX_CARD_FILE_BYTES,
    Card,
    ParsedFile,
    Progress,
    detect_format,
    parse_csv,
    parse_json,
    parse_yaml,
)
from stkit.tcg.common import read_text
from stkit.tcg.lackey import parse_lackey


def parse_card_file(path: str | Path, progress: Progress | None = None) -> ParsedFile:
    """Read and validate a whole card file before anything is stored.

    Formats: stkit YAML / JSON / CSV (strict: any bad card raises DataFileError naming file and place) and
    LackeyCCG tab-separated lists (lenient: every row is accounted for in ``cards``, ``merged`` or
    ``errors``; see :mod:`stkit.tcg.lackey`). The file is read as a regular file only, at most
    MAX_CARD_FILE_BYTES; a byte-order mark decides UTF-8 / UTF-16 / UTF-32, else UTF-8 then Windows-1252
    (Lackey plugins are often saved so). ``progress(done, total)`` is called now and then. Raises
    DataFileError for unreadable files.
    """
    path = Path(path)
    text = read_text(path, ("cp1252",), max_bytes=MAX_CARD_FILE_BYTES)
    if not text.strip():
        raise DataFileError(f"{path}: the file is empty")
    fmt = detect_format(path, text)
    if fmt == "lackey":
        # a built-in card's comma ("Den of Rorth, Son of Bast") is no list separator in a plugin's lists
        return parse_lackey(path, text, progress, known_names=(c.name for c in load_builtin_cards()))
    parser = {"yaml": parse_yaml, "json": parse_json, "csv": parse_csv}[fmt]
    return parser(path, text, progress)


def builtin_cards_path() -> Path:
    """The packaged ``data/cards.yaml`` (cards whose facts the three documents give)."""

    return Path(str(resources.files("stkit.tcg") / "data" / "cards.yaml"))


@functools.lru_cache(maxsize=1)
def _builtin_cards() -> tuple[Card, ...]:
    return tuple(parse_card_file(builtin_cards_path()).cards)


def load_builtin_cards() -> list[Card]:
    """The packaged cards, validated (DataFileError if the packaged file is broken)."""
    return list(_builtin_cards())
