"""Text from users and files: the one place that checks it on the way in, makes it harmless on the way out,
folds names for matching, and range-checks numbers.

Pure standard library (the dice engine and fast CLI paths import it). Why: a sheet's text is written back
to players' terminals and pages; an escape sequence stored in a note could retitle or clear a terminal.

- :func:`check_text` refuses control characters (C0, DEL, C1, undecodable bytes, bidirectional overrides,
  the line and paragraph separators U+2028 / U+2029, and in names the invisible format characters), more
  than MAX_COMBINING combining marks on one character, and over-long text, naming the field.
- :func:`printable` shows any such character as an escape (``\\x1b``), for text that must be displayed.
  The CLI adds rich-markup escaping on top (``stkit.cli.render``), the web layer HTML escaping.
- :func:`fold_name` is the one key used to match names of characters, traits, cards and rule entries.
- :func:`check_range` is the one integer range check with the one message.
- :func:`find_by_prefix` is the one short-name match: exact, folded, else a unique prefix.
- :func:`shown_key`, :func:`value_kind` and :func:`without_quotes` keep a file's content out of error
  lines: a line names the file and the field, and says what kind of value is wrong, never what it holds
  (a character file that is a link to ``/etc/shadow`` must not print its lines).
- :func:`shown_value` quotes a short value read from another tool's file (``'three' is not a whole
  number``) bounded and escaped, and :func:`harmless_line` makes a whole message built from such a file
  harmless for every door: control characters as escapes, rich markup tags escaped, a bounded length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from stkit.errors import InvalidValue

if TYPE_CHECKING:
    from fractions import Fraction

# The regular expressions here are kept as text and compiled on first use (re's own cache keeps them): a
# command compiles only the ones it uses, not all of them at start-up.

#: Longest text allowed per kind of field (characters).
MAX_NAME = 100  # character, chronicle, scene, extended action and contest names
MAX_SHORT_TEXT = 200  # player, concept, nature, demeanor, tribe, pack, entry names, xp reasons
MAX_NOTES = 10_000  # notes and storyteller notes

#: Bidirectional-override characters: they reorder what a terminal shows ("Trojan Source").
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


#: The Unicode line and paragraph separators: terminals print them raw (no new line), pages ignore them;
#: they are control characters here, in multi-line text too (write a newline instead).
_SEPARATORS = frozenset("\u2028\u2029")
#: Most combining marks one character may carry (real scripts stack two or three: Vietnamese, Thai,
#: pointed Hebrew); more is the stacking that spills over the lines above and below.
MAX_COMBINING = 4


def _is_control(ch: str, multiline: bool) -> bool:
    if multiline and ch in "\n\t":
        return False
    # Cs: bytes that were not UTF-8
    return unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI or ch in _SEPARATORS


# The same characters as _is_control, as one pattern: a long text (an odds table's exact fractions run to
# megabytes) is scanned in C, not one character at a time.
_CONTROL_ONE_LINE = "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_CONTROL_MULTILINE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]"


def _has_control(text: str, multiline: bool) -> bool:
    """True when ``text`` holds a character :func:`_is_control` flags (same answer, one scan in C).
    Every such character is one :meth:`str.isprintable` refuses (categories Cc, Cs, Cf, Zl, Zp), so
    printable text (newlines and tabs aside when ``multiline``) needs no pattern at all."""
    if text.isprintable() or (multiline and text.replace("\n", "").replace("\t", "").isprintable()):
        return False
    return re.search(_CONTROL_MULTILINE if multiline else _CONTROL_ONE_LINE, text) is not None


def _overstacked(value: str) -> list[bool]:
    """For each character of ``value``: True for a combining mark beyond the MAX_COMBINING-th in a row."""
    out, run = [], 0
    for ch in value:
        run = run + 1 if unicodedata.combining(ch) else 0
        out.append(run > MAX_COMBINING)
    return out


def is_invisible(ch: str) -> bool:
    """True for a format character that prints as nothing (zero-width space and joiners, soft hyphen,
    word joiner, BOM): two names differing only by one would look identical."""
    return unicodedata.category(ch) == "Cf"


def check_text(value: str, field: str, *, limit: int = MAX_SHORT_TEXT, multiline: bool = False) -> str:
    """``value`` unchanged when it holds no control character (C0, DEL, C1, bidi overrides, undecodable
    bytes; newline and tab
    are allowed when ``multiline``) and has at most ``limit`` characters. Raises InvalidValue naming
    ``field``, the offending character and the allowed range."""
    for i, ch in enumerate(value):
        if not multiline and is_invisible(ch) and ch not in _BIDI:
            raise InvalidValue(
                f"{field} contains the invisible character U+{ord(ch):04X} at position {i + 1}; "
                "only visible text is allowed"
            )
        if "\udc80" <= ch <= "\udcff":  # a byte of a command line or variable that was not UTF-8
            raise InvalidValue(
                f"{field} contains the byte 0x{ord(ch) - 0xDC00:02x} at position {i + 1}, which is not UTF-8 "
                "text; give the value in UTF-8"
            )
        if _is_control(ch, multiline):
            allowed = " (newline and tab are allowed)" if multiline else ""
            raise InvalidValue(
                f"{field} contains the control character {ch!r} at position {i + 1}; "
                f"only printable text is allowed{allowed}"
            )
    if any(over := _overstacked(value)):
        i = over.index(True)
        raise InvalidValue(
            f"{field} stacks more than {MAX_COMBINING} combining marks on one character at position {i + 1}; "
            f"allowed: at most {MAX_COMBINING}"
        )
    if len(value) > limit:
        raise InvalidValue(f"{field} is {len(value)} characters long; allowed: at most {limit}")
    return value


def printable(value: object, *, multiline: bool = False) -> str:
    """``str(value)`` with every control character shown as an escape (``\\x1b``), for text stored before
    it was checked: nothing read from the store reaches a terminal raw."""
    text = str(value)
    if text.isascii() and not _has_control(text, multiline):  # no combining mark in ASCII
        return text
    over = _overstacked(text)
    if not any(over) and not _has_control(text, multiline):
        return text
    return "".join(
        f"\\u{ord(ch):04x}" if o else repr(ch)[1:-1] if _is_control(ch, multiline) else ch
        for ch, o in zip(text, over, strict=True)
    )


def escape_json_controls(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every control character that
    ``json.dumps`` leaves raw (DEL, C1, bidi overrides, lone surrogates) written as a ``\\uXXXX`` escape: the
    same JSON value, and nothing on a terminal that could move the cursor or reorder the text. Such
    characters only occur inside JSON strings, where the escape is valid."""
    if not _has_control(text, True):
        return text
    return "".join(f"\\u{ord(ch):04x}" if _is_control(ch, True) and ch not in "\n\t" else ch for ch in text)


def without_surrogates(text: str) -> str:
    """``text`` without lone surrogates (bytes of a command line that were not UTF-8): a database cannot
    store them, so a lookup key drops them."""
    return "".join(ch for ch in text if not "\ud800" <= ch <= "\udfff")


def fold_accents(text: str) -> str:
    """'Zoë' -> 'Zoe', 'Ärchibald' -> 'Archibald': NFKD, then the combining marks dropped. Letters that are
    not a base letter plus marks ('ß', 'ø') are kept as they are."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


#: A '+' or '-' directly before a digit is a sign and part of a name ("Gauntlet Flux (+1)" and "(-1)" are
#: different cards); any other punctuation or white space separates words only.
_SIGNED = r"[+-](?=\d)"


def fold_name(text: str) -> str:
    """The matching key of a name: invisible characters dropped, accents folded, case folded, curly quotes
    straightened and dropped, and every run of white space or punctuation removed, except a sign before a
    digit. ``"Shadow-in-the-Wood"``, ``"shadow in the wood"`` and ``"ShadowInTheWood"`` give
    ``"shadowinthewood"``; ``"Gaia's Claws"`` and ``"Gaia\u2019s Claws"`` give ``"gaiasclaws"``;
    ``"Gauntlet Flux (+1)"`` gives ``"gauntletflux+1"``. Lone surrogates are dropped."""
    text = without_surrogates("".join(ch for ch in str(text) if not is_invisible(ch)))
    text = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch.isalnum() or (ch in "+-" and re.compile(_SIGNED).match(text, i)):
            out.append(ch)
    return "".join(out)


def check_range(value: int, what: str, low: int, high: int | None = None) -> int:
    """``value`` unchanged when ``low <= value <= high`` (no upper bound when ``high`` is None); else
    InvalidValue "<what> <value> is outside the allowed range <low> to <high>" (a huge value is shortened
    so the message stays one line)."""
    if value < low or (high is not None and value > high):
        shown = (
            str(value) if abs(value) < 10**30 else "(" + ("-" if value < 0 else "") + "a number of more than 30 digits)"
        )
        allowed = f"{low} to {high}" if high is not None else f"{low} or more"
        raise InvalidValue(f"{what} {shown} is outside the allowed range {allowed}")
    return value


def find_by_prefix(typed: str, names: Iterable[str], what: str, *, key: Callable[[str], str] = fold_name) -> str | None:
    """The one of ``names`` that ``typed`` names: the exact name, else the one whose ``key`` (default
    :func:`fold_name`: case, accents, spaces and punctuation ignored) equals typed's, else the only one
    whose key starts with typed's. None when nothing matches (the caller says what exists).

    Raises InvalidValue "<what> 'st' could be Stamina, Stealth, Strength or Streetwise; type more of the
    name" when several names share the prefix (candidates sorted, at most 10 listed)."""
    pool = list(dict.fromkeys(names))
    if typed in pool:
        return typed
    want = key(typed)
    if not want:
        return None
    same = [n for n in pool if key(n) == want]
    if len(same) == 1:
        return same[0]
    candidates = same or [n for n in pool if key(n).startswith(want)]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        return None
    shown = sorted(candidates, key=fold_name)
    listed = ", ".join(shown[:-1][:9]) + (f" or {shown[-1]}" if len(shown) <= 10 else f", ... ({len(shown)} names)")
    raise InvalidValue(f"{what} {printable(typed)!r} could be {listed}; type more of the name")


_WHOLE_NUMBER = r"[+-]?[0-9]+"


def parse_whole_number(text: str, what: str, low: int, high: int | None = None) -> int:
    """The whole number typed in ``text`` (ASCII digits, an optional sign, spaces around), range-checked by
    :func:`check_range` before Python converts it: a 5,000-digit number gets the range message, never
    Python's int-string limit error. Raises InvalidValue naming ``what`` for anything else ('\u0663',
    '1_000', '5.0')."""
    body = str(text).strip()
    if not re.fullmatch(_WHOLE_NUMBER, body):
        raise InvalidValue(f"{what} {printable(text)!r} is not a whole number; use the digits 0 to 9")
    digits = body.lstrip("+-").lstrip("0")
    sign = -1 if body.startswith("-") else 1
    value = sign * int(digits or "0") if len(digits) <= 40 else sign * 10**40  # shown as "more than 30 digits"
    return check_range(value, what, low, high)


#: A key read from a file that an error line may name: a letter first, then letters, digits, spaces and
#: the punctuation of trait and card names, at most 60 characters. Anything else (``root:$6$...``) is
#: content, not a field name.
_FIELD_LIKE = r"[^\W\d_][\w '\u2019().,+\-\[\]]{0,59}"


def shown_key(key: object) -> str:
    """``key`` (a mapping key or field path part read from a file) as an error line may show it: itself
    when it looks like a field name, else ``(a key that is not a field name)``."""
    text = str(key)
    return text if re.fullmatch(_FIELD_LIKE, text) else "(a key that is not a field name)"


def shown_path(where: str) -> str:
    """A dotted field path (``attributes.Strength``, ``gifts[2].name``) with each part through
    :func:`shown_key`."""
    return ".".join(shown_key(part) for part in where.split("."))


def value_kind(value: object) -> str:
    """What kind of value ``value`` is, for an error line that must not quote it: 'a text', 'a decimal
    number', 'a whole number', 'true or false', 'a list', 'a mapping', 'a date', 'nothing'."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a text" if value.strip() else "an empty text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "a date" if hasattr(value, "isoformat") else "a value of another kind"


#: Every quoted piece, paired left to right (so ``',' or ']'`` is two pieces, not ``' or '``).
_QUOTED = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""


def _hidden(match: re.Match[str]) -> str:
    inner = match.group(0)[1:-1]
    return match.group(0) if len(inner) < 3 or inner.startswith("<") else "(not shown)"


def without_quotes(message: str) -> str:
    """A library's message about a file (a parser's, a lookup's) with every quoted piece of three or more
    characters replaced by ``(not shown)``: such pieces are the file's content. Single characters and
    escapes (``'\\t'``, ``':'``) stay, they say what the problem is, and so do a parser's token names
    (``'<stream end>'``)."""
    return re.sub(_QUOTED, _hidden, message)


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number: ``counted(1, "die", "dice")`` is '1 die', ``counted(3,
    "success")`` '3 successes' (``many`` defaults to ``one`` + 's', or + 'es' after s, x, z, ch, sh)."""
    if n == 1 or n == -1:
        return f"{n} {one}"
    if many is None:
        many = one + ("es" if one.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{n} {many}"


def plural_word(n: int, one: str, many: str | None = None) -> str:
    """The noun alone in the number ``n`` calls for (:func:`counted` without the number): ``plural_word(2,
    "field")`` is 'fields', for a line that shows the count another way."""
    return counted(n, one, many).split(" ", 1)[1]


def with_article(noun: str) -> str:
    """``noun`` after 'a' or 'an' by its first letter: 'a Garou', 'an Ajaba', 'an Equipment card'."""
    return f"{'an' if noun[:1].casefold() in 'aeiou' and noun[:1] else 'a'} {noun}"


def dice_text(pool: object) -> str:
    """A dice pool as words: ``'1 die'``, ``'5 dice'``, ``'3+2 dice'`` (``pool``: a number or a typed sum)."""
    return "1 die" if str(pool).strip() == "1" else f"{pool} dice"


def percent(p: Fraction | float) -> str:
    """A chance (0 to 1) as a percentage people read, the same wherever stkit shows one: one decimal in the
    middle, two near 0% and 100%, never a false 0% or 100% for something merely unlikely or nearly
    certain ('<0.01%', '>99.99%')."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    x = float(p) * 100
    if x < 0.01:
        return "<0.01%"
    if x > 99.99:
        return ">99.99%"
    if x < 1 or x > 99:
        return f"{x:.2f}%"
    return f"{x:.1f}%"


#: Longest value read from a file that a message quotes (characters, after escaping); a longer one is cut.
MAX_SHOWN_VALUE = 40
#: Longest message or warning line built from a file's content (characters).
MAX_MESSAGE = 1000
#: A rich markup tag (``[red]``, ``[/]``, ``[link=...]``): the pattern of ``rich.markup.escape``.
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def shown_value(value: object, limit: int = MAX_SHOWN_VALUE) -> str:
    """A value read from a file as a message quotes it: text in quotes with control and invisible
    characters as escapes (:func:`printable`, :func:`is_invisible`), cut after ``limit`` characters with
    its length named (``'AAAA…' (100000 characters)``); a number as written (one of more than about 60
    digits by its length); a list, mapping or other value by its kind (:func:`value_kind`), never its
    content."""
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 200:  # str() of a 4,300-digit integer raises; its size is what matters
            return f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return str(value)
    if not isinstance(value, str):
        return value_kind(value)
    text = printable(value)
    if not text.isascii():  # a quoted name shows its invisible characters too ('Bob\\u200b')
        text = "".join(f"\\u{ord(ch):04x}" if is_invisible(ch) else ch for ch in text)
    if len(text) <= limit:
        return f"'{text}'"
    return f"'{text[:limit]}…' ({len(value)} characters)"


def escape_markup(text: str) -> str:
    """``text`` with every rich markup tag escaped by a backslash (``[red]`` -> ``\\[red]``), as
    ``rich.markup.escape`` does (source: rich/markup.py), without importing rich."""
    escaped = _MARKUP_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    return escaped + "\\" if escaped.endswith("\\") and not escaped.endswith("\\\\") else escaped


def harmless_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """A message or warning built from a file's content, harmless for every door that shows it: control
    characters (newlines too) as escapes, rich markup tags escaped (:func:`escape_markup`), at most
    ``limit`` characters (cut with '…')."""
    shown = escape_markup(printable(text))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
