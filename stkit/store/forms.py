"""The five forms of a Garou and what each does to the Attributes: one data table.

Pure Python. The table is the Revised sheet's five forms (Werewolf: The Apocalypse Revised); the
rules chapter itself only says that the forms' Attribute changes can lift a werewolf's dice pools
(Chapter Five: Rules, "Ratings").
"""

from __future__ import annotations

from stkit.errors import InvalidValue
from stkit.store.traits import did_you_mean, norm

#: form -> {Attribute: ("+", n) add n (may be negative) | ("=", n) the Attribute becomes n}.
FORMS: dict[str, dict[str, tuple[str, int]]] = {
    "Homid": {},
    "Glabro": {"Strength": ("+", 2), "Stamina": ("+", 2), "Manipulation": ("+", -2), "Appearance": ("+", -1)},
    "Crinos": {
        "Strength": ("+", 4),
        "Dexterity": ("+", 1),
        "Stamina": ("+", 3),
        "Manipulation": ("+", -3),
        "Appearance": ("=", 0),
    },
    "Hispo": {"Strength": ("+", 3), "Dexterity": ("+", 2), "Stamina": ("+", 3), "Manipulation": ("+", -3)},
    "Lupus": {"Strength": ("+", 1), "Dexterity": ("+", 2), "Stamina": ("+", 2), "Manipulation": ("+", -3)},
}
FORM_NAMES: tuple[str, ...] = tuple(FORMS)


def lookup_form(text: str) -> str:
    """'crinos' -> 'Crinos'. Raises InvalidValue (with a suggestion) for anything else."""
    hit = {norm(f): f for f in FORMS}.get(norm(text or ""))
    if hit is None:
        raise InvalidValue(
            f"unknown form {text!r}{did_you_mean(text or '', FORM_NAMES)}; allowed: {', '.join(FORM_NAMES)}"
        )
    return hit


def apply_form(form: str, attribute: str, rating: int) -> int:
    """The rating of ``attribute`` in ``form`` (never below 0). E.g. Crinos: Strength 2 -> 6, Appearance 3 -> 0."""
    op = FORMS[lookup_form(form)].get(attribute)
    if op is None:
        return rating
    kind, n = op
    return max(0, n if kind == "=" else rating + n)


def form_change_text(form: str, attribute: str) -> str:
    """How ``form`` changes ``attribute`` for display: '+4', '-3', '= 0', or ''."""
    op = FORMS[lookup_form(form)].get(attribute)
    if op is None:
        return ""
    kind, n = op
    return f"= {n}" if kind == "=" else f"{n:+d}"
