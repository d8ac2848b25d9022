"""Dice pools built from a character sheet: "Dexterity + Brawl + 2 - 1".

Pure Python. Rules source: Chapter Five: Rules, "Ratings" (one die per dot; an Attribute alone or plus one
Ability; never more than two Traits; a Trait rated up to 10 such as Rage or Willpower is rolled alone; the
forms' Attribute changes count). The form table and the wound penalties are the Revised sheet's
(stkit.sheet.forms, stkit.sheet.sheet).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from stkit.dice.expr import eval_pool_sum
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet import traits as T
from stkit.sheet.forms import form_change_text, form_label, in_form, variant_of
from stkit.sheet.sheet import Sheet
from stkit.text import find_by_prefix

_TERM = re.compile(r"\s*([+-]?)\s*([^+-]+)")
#: A hyphen inside a name ("Primal-Urge"): letters right on both sides. Kept out of the split on signs.
_NAME_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_HELD = "\x00"


def pool_terms(text: str) -> list[tuple[str, str]]:
    """``text`` split into (sign, term) pairs on '+' and '-', a hyphen inside a name ('Primal-Urge') kept
    in the name. The one reading of a pool's text: every door's pool goes through it."""
    held = _NAME_HYPHEN.sub(_HELD, text)
    return [(sign, term.replace(_HELD, "-")) for sign, term in _TERM.findall(held)]


def pool_trait_names(sheet: Sheet, expression: str) -> list[str]:
    """The canonical names of the Traits ``expression`` rolls ('dex+firearms' -> ['Dexterity',
    'Firearms']), read as :func:`build_pool` reads them; numbers and unreadable terms left out (build_pool
    says what is wrong with those)."""
    names = []
    for _sign, term in pool_terms(expression or ""):
        term = term.strip()
        if not term or (term.isascii() and term.isdigit()):
            continue
        points = points_trait(sheet, term)
        if points is not None:
            names.append(points[0])
            continue
        try:
            names.append(resolve_pool_trait(sheet, term)[0])
        except InvalidValue:
            continue
    return names


@dataclass(frozen=True)
class PoolPart:
    """One Trait in a pool: its display name, the sheet's rating, and the rating used after the form."""

    name: str
    rating: int
    used: int
    form_change: str = ""  # e.g. '+1' (Crinos Dexterity), '= 0' (Crinos Appearance)


@dataclass(frozen=True)
class PoolBreakdown:
    """How a pool was built. ``dice`` = sum of parts' ``used`` + ``extra`` - ``wound_penalty`` (may be < 1
    only when :attr:`possible` is False)."""

    expression: str
    parts: tuple[PoolPart, ...]
    extra: tuple[int, ...] = field(default=())
    wound_penalty: int = 0
    form: str = "Homid"
    dice: int = 0

    @property
    def possible(self) -> bool:
        return self.dice >= 1

    @property
    def text(self) -> str:
        """'Dexterity 3 + Drive 2 - 1 wound = 4 dice' (form changes shown as 'Dexterity 4 (3 +1 Crinos)')."""
        bits = []
        for i, p in enumerate(self.parts):
            s = f"{p.name} {p.used}"
            if p.form_change.startswith("="):
                s += f" ({p.rating}, {self.form} makes it {p.used})"
            elif p.form_change:
                s += f" ({p.rating} {p.form_change} {self.form})"
            bits.append(s if i == 0 else f"+ {s}")
        for n in self.extra:
            if not bits:
                bits.append(str(n))
            else:
                bits.append(f"+ {n}" if n >= 0 else f"- {-n}")
        if self.wound_penalty:
            bits.append(f"- {self.wound_penalty} wound")
        return f"{' '.join(bits)} = {self.dice} {'die' if self.dice == 1 else 'dice'}"

    def to_dict(self) -> dict:
        return {
            "expression": self.expression,
            "parts": [
                {"trait": p.name, "rating": p.rating, "used": p.used, "form_change": p.form_change} for p in self.parts
            ],
            "extra": list(self.extra),
            "wound_penalty": self.wound_penalty,
            "form": self.form,
            "dice": self.dice,
            "text": self.text,
        }


def _sheet_of(obj: object) -> Sheet:
    if isinstance(obj, Sheet):
        return obj
    to_sheet = getattr(obj, "to_sheet", None)
    if to_sheet is None:
        raise TypeError(f"build_pool needs a Sheet or a stored Character, got {type(obj).__name__}")
    return to_sheet()


def resolve_pool_trait(sheet: Sheet, text: str) -> tuple[str, bool]:
    """A pool term -> (display name, rated to 10?). Attributes, Abilities (also this sheet's custom ones),
    Backgrounds, Rage/Gnosis/Willpower, Glory/Honor/Wisdom; by full name (case, spaces and hyphens
    ignored), by the usual abbreviation (``traits.ABBREVIATIONS``: 'dex', 'str', 'wp') or by a prefix only
    one of them has ('mel' is Melee). Raises InvalidValue listing the candidates for an ambiguous prefix
    ('st': Stamina, Stealth, Streetwise or Strength), or with a suggestion for an unknown name."""
    found = _exact_pool_trait(sheet, text)
    if found is not None:
        return found
    choices = (
        list(T.ATTRIBUTES)
        + list(T.ABILITIES)
        + list(sheet.custom_abilities)
        + list(sheet.backgrounds)
        + list(T.POWERS)
        + list(T.RENOWN)
    )
    short = T.ABBREVIATIONS.get(T.norm(text)) or find_by_prefix(text.strip(), choices, "trait")
    if short is not None and (found := _exact_pool_trait(sheet, short)) is not None:
        return found
    raise InvalidValue(f"unknown trait {text.strip()!r} in the dice pool{T.did_you_mean(text, choices)}")


def _exact_pool_trait(sheet: Sheet, text: str) -> tuple[str, bool] | None:
    key = T.norm(text)
    if (a := T.lookup_attribute(text)) is not None:
        return a, False
    if (a := T.lookup_ability(text)) is not None:
        return a, False
    for table in (sheet.custom_abilities, sheet.backgrounds):
        for name in table:
            if T.norm(name) == key:
                return name, False
    if (p := T.lookup_power(text)) is not None:
        return p, True
    if (r := sheet.renown_slot(text)) is not None:
        return r, True
    return None


#: Words that make a pool term the current points of a Trait rated to 10: "Rage points", "current Gnosis".
_POINTS_WORDS = ("points", "point", "current", "temporary", "temp")


def points_trait(sheet: Sheet, text: str) -> tuple[str, int] | None:
    """'Rage points' -> ('Rage', current Rage points); likewise Gnosis, Willpower and Renown (temporary).
    None when ``text`` does not name points. ("Game Terms": points are the temporary score, the rating the
    permanent one.)"""
    words = text.split()
    if len(words) < 2:
        return None
    if words[-1].casefold() in _POINTS_WORDS:
        core = " ".join(words[:-1])
    elif words[0].casefold() in _POINTS_WORDS:
        core = " ".join(words[1:])
    else:
        return None
    if (p := T.lookup_power(core)) is not None:
        return p, sheet.powers[p].temporary
    if (r := sheet.renown_slot(core)) is not None:
        return r, sheet.renown[r].temporary
    return None


def _empty_term(expression: str) -> str:
    """Why a pool expression has a '+'/'-' with nothing after it, said plainly."""

    two = re.search(r"[+-]\s*[+-]", expression)
    if two:
        return (
            f"dice pool {expression!r} has two signs in a row ({two.group(0)!r}); write one sign per term, "
            f"e.g. 'Dexterity - 2'"
        )
    if re.search(r"[+-]\s*$", expression):
        return f"dice pool {expression!r} ends with a sign and nothing after it; e.g. 'Dexterity + Brawl + 1'"
    return f"dice pool {expression!r} has a sign with no Trait or number after it; e.g. 'Dexterity + Brawl'"


def build_pool(character: object, expression: str, *, empty_ok: bool = False) -> PoolBreakdown:
    """Build a dice pool from a sheet (a :class:`Sheet` or a stored Character) and an expression.

    The expression is up to two Traits joined by '+', then any extra dice '+ 2' / '- 1' (a bare number
    of dice is allowed too: the wound penalty still applies). A Trait rated to
    10 (Rage, Gnosis, Willpower, Renown) must be alone: ``Rage`` rolls the rating, ``Rage points`` the
    current points (see :func:`points_trait`). The current form changes the
    Attributes; the wound penalty of the deepest damaged health level is taken off.

    Raises InvalidValue for a malformed expression or an unknown Trait, RuleRefusal when the character is
    Incapacitated or no dice are left.
    """
    sheet = _sheet_of(character)
    text = (expression or "").strip()
    if not text:
        raise InvalidValue("the dice pool is empty; write Traits like 'Dexterity + Brawl'")
    terms = pool_terms(text)
    if "".join(s + t for s, t in terms).replace(" ", "") != text.replace(" ", ""):
        raise InvalidValue(f"dice pool {expression!r} is not Traits and numbers joined by + and -")
    parts: list[PoolPart] = []
    extra: list[int] = []
    ten_rated: list[str] = []
    for sign, term in terms:
        term = term.strip()
        if not term:
            raise InvalidValue(_empty_term(expression))
        if term.isascii() and term.isdigit():
            extra.append(eval_pool_sum(sign + term))  # a 5,000-digit number gets the pool limit message
            continue
        if extra:
            raise InvalidValue(f"in {expression!r} write the Traits first, then the extra dice")
        if sign == "-":
            raise InvalidValue(f"a Trait cannot be taken away from a pool: '- {term}' in {expression!r}")
        points = points_trait(sheet, term)
        if points is not None:
            # the current points, not the rating: a Trait rated to 10, rolled alone
            ten_rated.append(f"{points[0]} points")
            parts.append(PoolPart(f"{points[0]} points", points[1], points[1]))
            continue
        name, tenner = resolve_pool_trait(sheet, term)
        if tenner:
            ten_rated.append(name)
        rating = sheet.rating(name)
        variant = variant_of(sheet.fera, sheet.tribe, sheet.breed)
        used = in_form(sheet, name, rating) if name in T.ATTRIBUTES else rating
        change = form_change_text(sheet.form, name, fera=sheet.fera, variant=variant) if name in T.ATTRIBUTES else ""
        parts.append(PoolPart(name, rating, used, change))
    if len(parts) > 2:
        raise InvalidValue(f"a dice pool adds at most two Traits; {expression!r} has {len(parts)}")
    if ten_rated and len(parts) > 1:
        raise InvalidValue(f"{ten_rated[0]} is rated to 10 and is rolled alone; no other Trait can be added")
    if sheet.incapacitated:
        raise RuleRefusal(f"{sheet.name} is Incapacitated and cannot act")
    penalty = sheet.wound_penalty
    dice = sum(p.used for p in parts) + sum(extra) - penalty
    pool = PoolBreakdown(text, tuple(parts), tuple(extra), penalty, form_label(sheet.form, sheet.fera), dice)
    if dice < 1 and not empty_ok:
        raise RuleRefusal(f"{sheet.name}: {pool.text}: no dice left, the action cannot be attempted")
    return pool


def unhurt_pool(sheet: Sheet, expression: str) -> PoolBreakdown:
    """A pool built from ``sheet`` without the wound penalty and without the Incapacitated refusal: soak and
    damage pools (stkit's reading, see :mod:`stkit.store.fight.hit`). Raises InvalidValue / RuleRefusal as
    :func:`build_pool` does for the expression itself (three Traits, no dice left)."""
    healthy = copy.deepcopy(sheet)
    healthy.health = {d: 0 for d in healthy.health}
    return build_pool(healthy, expression)
