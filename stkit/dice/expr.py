"""Dice expressions typed by people: a number of dice ("5", "3+2", "7 - 1"), a list of faces rolled by
hand ("4,7,5,8,1"), and one difficulty for several rolls or one each.

Pure standard library. Every function raises InvalidValue with one line naming the text and what is
allowed; none of them rolls anything. Trait names ("Dexterity + Brawl") need a character sheet and are
parsed by the store (``stkit.sheet.pools``), not here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stkit.dice.model import DEFAULT_DIFFICULTY, MAX_POOL, validate_difficulty
from stkit.errors import InvalidValue
from stkit.text import counted, dice_text

#: Digits joined by + and -, with an optional leading sign and any spaces.
_POOL_SUM = re.compile(r"^\s*[+-]?\s*\d+(\s*[+-]\s*\d+)*\s*$", re.ASCII)
_POOL_TERM = re.compile(r"([+-]?)\s*(\d+)", re.ASCII)
#: A term with more significant digits than this is far beyond any pool; refusing it early also keeps
#: ``int()`` away from huge digit strings.
_MAX_TERM_DIGITS = 6

#: Automatic successes written in a pool: '+2s' (BCDice's '+y', Tzimisce's autos).
_AUTO_TERM = re.compile(r"\s*\+\s*(\d{1,4})\s*s\s*(?=$|[+-])", re.ASCII | re.IGNORECASE)

__all__ = [
    "check_typed_pool",
    "eval_pool_sum",
    "is_pool_sum",
    "parse_faces",
    "parse_pool_number",
    "pick_difficulties",
    "split_automatic",
]


def split_automatic(text: str) -> tuple[str, int]:
    """(``text`` without its '+Ns' terms, the automatic successes they add): '5 + 2s' -> ('5', 2),
    'Dexterity + Brawl +1s' -> ('Dexterity + Brawl', 1). Text without such a term comes back as it is."""
    found = [int(n) for n in _AUTO_TERM.findall(text)]
    if not found:
        return text, 0
    return _AUTO_TERM.sub("", text).strip(), sum(found)


def parse_pool_number(text: str, what: str = "dice pool") -> int:
    """The number of dice in ``text``: a whole number or a sum of them ('5', '3+2', '7 - 1').

    The result is not range-checked (a sum may come to 0 or less, which the caller refuses with the dice
    pool's own message, see :func:`stkit.dice.model.validate_pool`). ``what`` names the value in the
    message. Raises InvalidValue when ``text`` is not such a sum.
    """
    if not _POOL_SUM.match(text):
        raise InvalidValue(
            f"{what} {text!r} is not a number of dice (1 to {MAX_POOL}); trait names like "
            f"'Dexterity + Brawl' need a character: --char NAME"
        )
    return eval_pool_sum(text)


def is_pool_sum(text: str) -> bool:
    """True when ``text`` is digits joined by + and - ('5', '-5', '3 + 2'): a pool typed as a number."""
    return bool(_POOL_SUM.match(text))


def check_typed_pool(text: str | None, what: str) -> None:
    """A pool as typed (None: not given): empty text, or a plain number ('-5', '0', '3 - 4') that does not
    come to 1 to MAX_POOL dice, is a slip, never a pool; Trait pools ('Dexterity + Dodge') are checked
    against the sheet elsewhere. Raises InvalidValue naming ``what`` (an option such as ``--dodge``), the
    text and what is allowed."""
    if text is None:
        return
    allowed = f"allowed: 1 to {MAX_POOL} dice, or Traits like 'Dexterity + Brawl'"
    if not text.strip():
        raise InvalidValue(f"{what} is empty; {allowed}")
    if is_pool_sum(text) and not 1 <= eval_pool_sum(text) <= MAX_POOL:
        raise InvalidValue(f"{what} {text.strip()!r} is not a pool; {allowed}")


def pool_sum_note(text: str) -> str | None:
    """A line saying how a typed sum with a subtraction was read (``'3-1'`` -> "'3-1' is read as 3 - 1 = 2
    dice"), since '3-1' may have been meant as something else (a range, a penalty already counted); None
    for a plain number or a sum of additions, which need no explaining."""
    body = text.strip()
    if not is_pool_sum(body) or "-" not in body:
        return None
    terms = [f"{sign or '+'} {int(digits)}" for sign, digits in _POOL_TERM.findall(body.replace(" ", ""))]
    written = " ".join(terms).removeprefix("+ ")
    if written.startswith("- "):
        written = "-" + written[2:]
    return f"{body!r} is read as {written} = {dice_text(eval_pool_sum(body))}"


def eval_pool_sum(text: str) -> int:
    """The value of '3 + 2 - 1', ``text`` being digits joined by + and - (as :func:`parse_pool_number`
    checks). Raises InvalidValue for a term with more than six significant digits."""
    total = 0
    for sign, digits in _POOL_TERM.findall(text.replace(" ", "")):
        if len(digits.lstrip("0")) > _MAX_TERM_DIGITS:
            shown = digits[:12] + ("..." if len(digits) > 12 else "")
            raise InvalidValue(f"dice pool term {shown} is larger than stkit's limit of {MAX_POOL} dice")
        total += -int(digits) if sign == "-" else int(digits)
    return total


def parse_faces(text: str) -> list[int]:
    """The faces of dice rolled by hand: '4,7,5,8,1' or '4 7 5 8 1' -> [4, 7, 5, 8, 1]; a face typed as 0 is
    10, as a physical d10 prints ten ('0,3' -> [10, 3]).

    Only the syntax is checked here; a face outside 1..10 or a count that does not fit the pool is refused
    when the faces are scored (:class:`stkit.dice.request.RollRequest`). Raises InvalidValue for a part
    that is not a whole number, or for no faces at all.
    """
    faces: list[int] = []
    for part in (p for p in re.split(r"[,\s]+", text.strip()) if p):
        try:
            if not (part.isascii() and part.lstrip("+-").isdigit()):
                raise ValueError(part)  # int() would also take other scripts' digits (fullwidth, Arabic-Indic)
            face = int(part)
            faces.append(10 if face == 0 and part.lstrip("+-") == part else face)
        except ValueError:
            raise InvalidValue(f"die face {part!r} in --dice is not a number; allowed: 1 to 10") from None
    if not faces:
        raise InvalidValue("--dice is empty; give the faces rolled, e.g. --dice 4,7,5,8,1")
    return faces


def pick_difficulties(values: Sequence[int], count: int, what: str) -> list[int]:
    """One difficulty per roll: ``values`` empty gives the default (6) for all, one value is used for all
    ``count`` rolls, else there must be exactly ``count`` values, in order. ``what`` names the rolls in
    the message ('actions', 'participants'). Each must be 2..10 (Chapter Five, "Difficulties").

    Raises InvalidValue for another number of values or a difficulty out of range.
    """
    picked = list(values) or [DEFAULT_DIFFICULTY]
    if len(picked) == 1:
        picked = picked * count
    if len(picked) != count:
        raise InvalidValue(
            f"{len(picked)} difficulties given for {counted(count, what.removesuffix('s'), what)}; "
            "give one for all, or one each"
        )
    for value in picked:
        validate_difficulty(value)
    return picked
