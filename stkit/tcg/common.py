"""Helpers shared by the whole ``stkit.tcg`` package: reading data files and folding names.

One place for them so that the rules corpus, the card lists, deck lists and the resolvers' input files all
report a bad file the same way (a ``DataFileError`` naming the file and, for YAML, the line and column) and
all match names the same way. Standard library only at import time; PyYAML is imported when first needed.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError

_PUNCT_RE = re.compile(r"[^0-9a-z]+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'", "`": "'"})


def normalize_name(text: str) -> str:
    """Fold a name for matching: case, accents, curly apostrophes and punctuation removed, spaces collapsed.

    ``"Den of Rorth, Son of Bast"`` and ``"den of rorth son of bast"`` give the same key; apostrophes are
    dropped so ``"Gaia’s Claws"`` matches ``"gaias claws"``; ``"Fast-Striking"`` gives ``"fast striking"``.
    """
    text = unicodedata.normalize("NFKD", str(text).translate(_QUOTES))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold().replace("'", "")
    return " ".join(_PUNCT_RE.sub(" ", text).split())


def read_text(path: str | Path, encodings: tuple[str, ...] = ("utf-8-sig",)) -> str:
    """The text of ``path``, decoded with the first of ``encodings`` that works (default UTF-8, BOM allowed).

    Raises DataFileError: ``<path>: no such file``, ``<path>: cannot read: <reason>`` or
    ``<path>: not UTF-8 text`` (naming the encodings tried when there are several).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise DataFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    names = " or ".join("UTF-8" if e.startswith("utf-8") else e for e in encodings)
    raise DataFileError(f"{path}: not {names} text")


def parse_yaml(text: str, path: str | Path) -> Any:
    """Parse YAML ``text`` read from ``path`` with PyYAML's safe loader (its C version when available).

    Raises DataFileError ``<path>: malformed YAML at line L, column C: <problem>``.
    """
    import yaml

    try:
        # the C-accelerated safe loader when PyYAML has it (same safety, ~10x faster)
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataFileError(f"{path}: malformed YAML{where}: {problem}") from None
    except (ValueError, OverflowError, RecursionError) as exc:
        # PyYAML's constructors raise these for values it parsed but cannot build, such as a number with
        # thousands of digits (Python refuses to convert more than 4300)
        raise DataFileError(f"{path}: a value cannot be read: {str(exc).split(';')[0]}") from None


def read_yaml(path: str | Path) -> Any:
    """Read and parse a YAML file (see :func:`read_text` and :func:`parse_yaml` for the errors)."""
    return parse_yaml(read_text(path), path)
