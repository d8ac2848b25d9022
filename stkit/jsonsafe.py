"""Strict JSON reading for files a user hands stkit (character sheets, Foundry actors, card lists).

Standard library only. Python's :func:`json.loads` keeps the last of two equal keys in one object without a
word (RFC 8259, section 4, leaves the meaning of duplicate names undefined) and reads ``NaN``, ``Infinity``
and ``-Infinity``, which are not JSON (RFC 8259, section 6): :func:`loads` refuses both, as
:mod:`stkit.yamlsafe` refuses a YAML key written twice.
"""

from __future__ import annotations

import json

from stkit.text import shown_key


class JsonRefusal(ValueError):
    """A JSON text that Python's parser reads but stkit refuses: the message is the reason, in the words of
    an error line (no value of the file is quoted but a key that looks like a field name)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            shown = f"'{shown_key(key)}'" if shown_key(key) == str(key) else shown_key(key)
            raise JsonRefusal(f"the key {shown} appears twice")
        data[key] = value
    return data


def _no_constant(word: str) -> object:
    raise JsonRefusal(f"{word} is not a JSON number; write a number")


def loads(text: str) -> object:
    """``text`` parsed as strict JSON. Raises :class:`JsonRefusal` (a ValueError) for a key given twice in one
    object and for NaN / Infinity / -Infinity; otherwise what :func:`json.loads` raises (JSONDecodeError,
    RecursionError, ValueError for a number of thousands of digits)."""
    return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
