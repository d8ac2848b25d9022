"""Free text kept in the store: refuse terminal control characters and absurd lengths on the way in, make
stored text harmless on the way out, and fold accents in name keys.

Pure standard library (imported by fast CLI paths). Why: a sheet's text is written back to players'
terminals by `char show`; an escape sequence stored in a note could retitle or clear the terminal.
"""

from __future__ import annotations

import unicodedata

from stkit.errors import InvalidValue

#: Longest text allowed per kind of field (characters).
MAX_NAME = 100  # character, chronicle, scene, extended action and contest names
MAX_SHORT_TEXT = 200  # player, concept, nature, demeanor, tribe, pack, entry names, xp reasons
MAX_NOTES = 10_000  # notes and storyteller notes

#: Bidirectional-override characters: they reorder what a terminal shows ("Trojan Source").
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_control(ch: str, multiline: bool) -> bool:
    if multiline and ch in "\n\t":
        return False
    return unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI  # Cs: bytes that were not UTF-8


def check_text(value: str, field: str, *, limit: int = MAX_SHORT_TEXT, multiline: bool = False) -> str:
    """``value`` unchanged when it holds no control character (C0, DEL, C1, bidi overrides, undecodable
    bytes; newline and tab
    are allowed when ``multiline``) and has at most ``limit`` characters. Raises InvalidValue naming
    ``field``, the offending character and the allowed range."""
    for i, ch in enumerate(value):
        if _is_control(ch, multiline):
            allowed = " (newline and tab are allowed)" if multiline else ""
            raise InvalidValue(
                f"{field} contains the control character {ch!r} at position {i + 1}; "
                f"only printable text is allowed{allowed}"
            )
    if len(value) > limit:
        raise InvalidValue(f"{field} is {len(value)} characters long; allowed: at most {limit}")
    return value


def printable(value: object, *, multiline: bool = False) -> str:
    """``str(value)`` with every control character shown as an escape (``\\x1b``), for text stored before
    it was checked: nothing read from the store reaches a terminal raw."""
    text = str(value)
    if not any(_is_control(ch, multiline) for ch in text):
        return text
    return "".join(repr(ch)[1:-1] if _is_control(ch, multiline) else ch for ch in text)


def without_surrogates(text: str) -> str:
    """``text`` without lone surrogates (bytes of a command line that were not UTF-8): a database cannot
    store them, so a lookup key drops them."""
    return "".join(ch for ch in text if not "\ud800" <= ch <= "\udfff")


def fold_accents(text: str) -> str:
    """'Zoë' -> 'Zoe', 'Ärchibald' -> 'Archibald': NFKD, then the combining marks dropped. Letters that are
    not a base letter plus marks ('ß', 'ø') are kept as they are."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))
