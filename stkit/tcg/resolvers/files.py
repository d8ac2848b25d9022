"""Reading the YAML input files of the file-based resolvers (combat, moot, alpha-order, victory).

Read with the package's shared safe YAML reader (:mod:`stkit.tcg.common`, over :mod:`stkit.yamlsafe`);
every problem becomes a :class:`stkit.errors.DataFileError` naming the file and the place in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue
from stkit.tcg.common import fold_name, parse_yaml, read_text
from stkit.tcg.vocab import Derangement
from stkit.text import check_text, shown_key

#: Largest situation file read, in bytes: a combat, a turn's Moots or a game's Victory Piles fit in a few KB;
#: a multi-megabyte file is a mistake and would only make the parser crawl.
MAX_FILE_BYTES = 1_000_000
#: Most values (mappings, lists, scalars) a file may hold once YAML aliases are expanded: a small file whose
#: anchors are reused many times over (an "alias bomb") would otherwise make a resolver run for minutes.
MAX_NODES = 100_000


def load_yaml_mapping(path: str | Path) -> dict[str, Any]:
    """Read ``path`` with the hardened safe YAML loader and return its top-level mapping.

    Raises DataFileError when the file is missing, not a regular file, larger than MAX_FILE_BYTES, empty,
    not valid YAML (with line and column; a key given twice included), its top level is not a mapping, or
    it holds more than MAX_NODES values once aliases are expanded.
    """

    text = read_text(path, max_bytes=MAX_FILE_BYTES)
    if not text.strip():
        raise DataFileError(f"{path}: the file is empty; it must be a mapping of fields (see docs/tcg-resolvers.md)")
    data = parse_yaml(text, path, max_nodes=MAX_NODES)
    if not isinstance(data, dict):
        raise DataFileError(f"{path}: the top level must be a mapping of fields, got {_kind(data)}")
    return data


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (only comments or an empty document)"
    return {list: "a list", str: "text", int: "a number", float: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__
    )


def derangement_named(word: str) -> str:
    """The :class:`stkit.tcg.vocab.Derangement` value ``word`` names (case, spaces and hyphens folded).

    Raises InvalidValue ``derangement '<word>' is not one the rules list; did you mean <closest>? (allowed:
    ...)`` (Equinox Update, "Special Abilities: Derangements")."""

    known = {fold_name(d.value): d.value for d in Derangement}
    value = known.get(fold_name(word))
    if value is None:
        from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

        best = process.extractOne(fold_name(word), list(known), scorer=fuzz.ratio, score_cutoff=60)
        hint = f"did you mean {known[best[0]].title()}? " if best else ""
        allowed = ", ".join(d.value.title() for d in Derangement)
        raise InvalidValue(f"derangement {_show(word)} is not one the rules list; {hint}(allowed: {allowed})")
    return value


def _key(key: str) -> str:
    """A key read from the file, quoted when it looks like a field name, else not shown (file content)."""

    return repr(key) if shown_key(key) == key else shown_key(key)


class Fields:
    """Typed access to one mapping of an input file, with errors naming ``where`` (file and path)."""

    def __init__(self, data: Any, where: str, allowed: set[str] | None = None) -> None:
        if not isinstance(data, dict):
            raise DataFileError(f"{where}: expected a mapping of fields, got {_show(data)}")
        self.data = data
        self.where = where
        if allowed is not None:
            unknown = sorted(str(k) for k in data if k not in allowed)
            if unknown:
                raise DataFileError(
                    f"{where}: unknown field {_key(unknown[0])} (allowed: {', '.join(sorted(allowed))})"
                )

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def integer(self, key: str, default: int | None = None, low: int | None = 0, high: int | None = None) -> int:
        if not self.has(key):
            if default is None:
                raise DataFileError(f"{self.where}: missing required field {key!r}")
            return default
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataFileError(f"{self.where}.{key}: must be a whole number, got {_show(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{low if low is not None else '-inf'} to {high if high is not None else 'no limit'}"
            raise DataFileError(f"{self.where}.{key}: {value} is out of range ({span})")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        if not self.has(key):
            if default is None:
                raise DataFileError(f"{self.where}: missing required field {key!r}")
            return default
        value = self.data[key]
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise DataFileError(f"{self.where}.{key}: must be text, got {_show(value)}")
        _refuse_control(str(value), f"{self.where}.{key}")
        return str(value).strip()

    def flag(self, key: str, default: bool = False) -> bool:
        if not self.has(key):
            return default
        value = self.data[key]
        if not isinstance(value, bool):
            raise DataFileError(f"{self.where}.{key}: must be true or false, got {_show(value)}")
        return value

    def text_list(self, key: str) -> list[str]:
        if not self.has(key):
            return []
        value = self.data[key]
        if isinstance(value, str):
            value = [part for part in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
            raise DataFileError(f"{self.where}.{key}: must be a list of words, got {_show(value)}")
        for v in value:
            _refuse_control(str(v), f"{self.where}.{key}")
        return [str(v).strip() for v in value if str(v).strip()]

    def derangements(self, key: str = "derangements") -> list[str]:
        """The derangements listed under ``key``, as :class:`stkit.tcg.vocab.Derangement` values (case,
        spaces and hyphens folded). A name the rules do not list is an error with the closest one."""

        out = []
        for word in self.text_list(key):
            try:
                out.append(derangement_named(word))
            except InvalidValue as exc:
                raise DataFileError(f"{self.where}.{key}: {exc}") from None
        return out

    def items(self, key: str, required: bool = True) -> list[Any]:
        if not self.has(key):
            if required:
                raise DataFileError(f"{self.where}: missing required list {key!r}")
            return []
        value = self.data[key]
        if not isinstance(value, list):
            raise DataFileError(f"{self.where}.{key}: must be a list, got {_show(value)}")
        return value


def _refuse_control(text: str, where: str) -> None:
    """Names and card text are printed to the terminal: an ESC or BEL in them would drive it (clear the
    screen, change its title), so a control character is a DataFileError. Tabs and line breaks are fine."""

    try:
        check_text(text, where, limit=len(text), multiline=True)
    except InvalidValue as exc:
        raise DataFileError(str(exc)) from None


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
