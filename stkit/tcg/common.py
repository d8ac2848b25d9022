"""Helpers shared by the whole ``stkit.tcg`` package: reading data files and folding names.

One place for them so that the rules corpus, the card lists, deck lists and the resolvers' input files all
report a bad file the same way (a ``DataFileError`` naming the file and, for YAML, the line and column) and
all match names the same way. Files are read through :func:`stkit.safefile.read_bytes` (regular files
only, size-capped, never blocking) and YAML through :func:`stkit.yamlsafe.load` (duplicate keys, alias
bombs and deep nesting refused). Names are matched with :func:`stkit.text.fold_name`, the one fold of
stkit; :func:`fold_words` is the same fold applied word by word, for word and full-text matching.
"""

from __future__ import annotations

import codecs
import functools
import re
from pathlib import Path
from typing import Any

from stkit import text as _text
from stkit.errors import DataFileError
from stkit.safefile import MAX_FILE_BYTES, describe, read_bytes
from stkit.text import is_invisible
from stkit.yamlsafe import MAX_NODES, load

#: :func:`stkit.text.fold_name` itself, remembered per text: a card list folds the same few hundred
#: keywords, types and set names thousands of times (an import of 2,000 rows spent most of its time here).
fold_name = functools.lru_cache(maxsize=1 << 16)(_text.fold_name)

__all__ = ["decode_text", "fold_name", "fold_words", "parse_yaml", "read_text", "read_yaml"]

#: Word separators for :func:`fold_words`: any run of characters that is neither a letter, a digit, an
#: apostrophe (dropped inside a word, as fold_name drops it) nor a sign directly before a digit.
_SEPARATORS = re.compile(r"(?:(?![+-]\d)[^\w'\u2018\u2019\u00b4`])+|_+")


def fold_words(text: str) -> str:
    """The words of ``text``, each folded by :func:`stkit.text.fold_name`, joined by single spaces.

    Why a second shape: matching a word inside a name ("fenris" in "Get of Fenris") and full-text search
    need the word boundaries that fold_name removes; every word is folded by the same rules, so
    ``fold_words(a).replace(" ", "") == fold_name(a)`` for every ``a``. ``"Fast-Striking"`` gives
    ``"fast striking"``, ``"Gaia\u2019s Claws"`` gives ``"gaias claws"``, ``"Gauntlet Flux (-1)"`` gives
    ``"gauntlet flux -1"``.
    """
    text = "".join(ch for ch in str(text) if not is_invisible(ch))
    return " ".join(w for w in (fold_name(part) for part in _SEPARATORS.split(text)) if w)


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_text(data: bytes, shown: str, fallbacks: tuple[str, ...] = ()) -> str:
    """Decode file bytes: a byte-order mark decides (UTF-8, UTF-16 or UTF-32, either byte order); without
    one, UTF-16 is recognised by its zero bytes, else UTF-8 is tried, then each of ``fallbacks`` (such as
    ``"cp1252"`` for Windows card lists). Raises DataFileError ``<shown>: not <encodings> text``."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                raise DataFileError(f"{shown}: starts with a {encoding.upper()} byte-order mark but is not") from None
    head = data[:4096]
    if len(head) >= 4 and head.count(0) * 3 >= len(head):
        # text without a BOM whose every other byte is zero: UTF-16 (the zeros fall on the high bytes)
        encoding = "utf-16-le" if head[1::2].count(0) > head[0::2].count(0) else "utf-16-be"
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8", *fallbacks):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    names = " or ".join(("UTF-8", *fallbacks))
    raise DataFileError(f"{shown}: not {names} text")


def read_text(path: str | Path, fallbacks: tuple[str, ...] = (), *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file ``path`` (see :func:`decode_text`), at most ``max_bytes`` bytes.

    Raises DataFileError: no such file, a folder / FIFO / device, too large, unreadable, or not text in
    any encoding tried.
    """
    return decode_text(read_bytes(path, max_bytes=max_bytes), describe(path), fallbacks)


def parse_yaml(text: str, path: str | Path, *, max_nodes: int | None = None) -> Any:
    """Parse YAML ``text`` read from ``path`` with the hardened safe loader (:func:`stkit.yamlsafe.load`),
    at most ``max_nodes`` values once aliases are expanded (default: the loader's limit).

    Raises DataFileError naming the file and the line and column of the problem.
    """

    return load(text, describe(path), max_nodes=max_nodes or MAX_NODES)


def read_yaml(path: str | Path) -> Any:
    """Read and parse a YAML file (see :func:`read_text` and :func:`parse_yaml` for the errors)."""
    return parse_yaml(read_text(path), path)
