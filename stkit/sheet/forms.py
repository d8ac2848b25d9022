"""The forms of the Changing Breeds and what each does to the Attributes: data tables.

Pure Python. The Garou table is the Revised sheet's five forms (Werewolf: The Apocalypse Revised); the
rules chapter itself only says that the forms' Attribute changes can lift a werewolf's dice pools
(Chapter Five: Rules, "Ratings"). The Fera tables (which of the five form slots each breed has, their
names, and their Attribute changes, by Bastet tribe, Mokole varna and Ratkin breed) are packaged data in
``fight_rules.yaml`` (``fera_forms``), read from the Foundry VTT WoD20 system's ``totals.js`` and shift
templates (github JohanFalt/Foundry_WoD20). Every breed's forms sit in the same five slots (Homid,
Glabro, Crinos, Hispo, Lupus), so a stored form is always one of :data:`FORM_NAMES`; a Fera's own name
for a slot (Corvid for the Corax's Lupus slot) is accepted and shown.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.breeds import get_changing_breed
from stkit.sheet.fight_data import rules_data
from stkit.sheet.traits import did_you_mean, norm

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
GAROU = "Garou"
#: Breeds whose breed form is the war form and who regenerate in every form (Revised: metis).
METIS_BREEDS = frozenset({"Metis", "Ahi", "Shinju"})


def _changes(raw: dict[str, str]) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for attribute, text in raw.items():
        t = str(text).replace(" ", "")
        out[attribute] = ("=", int(t[1:])) if t.startswith("=") else ("+", int(t))
    return out


@cache
def fera_tables() -> dict[str, dict[str, Any]]:
    """{Changing Breed: {"forms": {slot: (name, changes)}, "variant_by": "tribe" | "breed" | "",
    "variants": {variant key: {slot: changes}}}} from the packaged ``fera_forms`` table."""

    out: dict[str, dict[str, Any]] = {}
    for fera, row in rules_data()["fera_forms"].items():
        if fera == "source":
            continue
        forms = {slot: (str(v["name"]), _changes(v.get("changes") or {})) for slot, v in row["forms"].items()}
        variants = {
            norm(str(k)): {slot: _changes(ch or {}) for slot, ch in v.items()}
            for k, v in (row.get("variants") or {}).items()
        }
        out[fera] = {"forms": forms, "variant_by": str(row.get("variant_by") or ""), "variants": variants}
    return out


def form_slots(fera: str = GAROU) -> tuple[str, ...]:
    """The form slots the Changing Breed ``fera`` has, in order (the Garou: all five)."""
    if not fera or fera == GAROU:
        return FORM_NAMES
    row = fera_tables().get(fera)
    return FORM_NAMES if row is None else tuple(s for s in FORM_NAMES if s in row["forms"])


def form_label(form: str, fera: str = GAROU) -> str:
    """The breed's own name for a form slot: 'Corvid' for the Corax's Lupus; the slot's name otherwise."""
    row = fera_tables().get(fera) if fera and fera != GAROU else None
    if row is None or form not in row["forms"]:
        return form
    return row["forms"][form][0]


def lookup_form(text: str, fera: str = GAROU) -> str:
    """'crinos' -> 'Crinos'; a Fera's own name ('corvid' for the Corax) -> its slot ('Lupus').

    Raises InvalidValue (with a suggestion) for an unknown form, RuleRefusal naming the breed's forms for a
    form ``fera`` lacks (the Corax have no Hispo)."""
    key = norm(text or "")
    hit = {norm(f): f for f in FORMS}.get(key)
    slots = form_slots(fera)
    if fera and fera != GAROU:
        by_name = {norm(form_label(s, fera)): s for s in slots}
        hit = by_name.get(key, hit)
    if hit is None:
        names = [form_label(s, fera) for s in slots]
        raise InvalidValue(f"unknown form {text!r}{did_you_mean(text or '', names)}; allowed: {', '.join(names)}")
    if hit not in slots:
        own = ", ".join(form_label(s, fera) for s in slots)
        raise RuleRefusal(f"form: the {fera} have no {hit} form ({text!r}); their forms are {own}")
    return hit


def variant_of(fera: str, tribe: str = "", breed: str = "") -> str:
    """The key that picks a Fera's variant table: the tribe (Bastet tribe, Mokole varna) or the breed
    (Ratkin), folded; '' for a breed without variants."""
    row = fera_tables().get(fera) if fera and fera != GAROU else None
    if row is None:
        return ""
    return norm({"tribe": tribe, "breed": breed}.get(row["variant_by"], ""))


def _op(form: str, attribute: str, fera: str, variant: str) -> tuple[str, int] | None:
    if not fera or fera == GAROU:
        return FORMS[lookup_form(form)].get(attribute)
    row = fera_tables().get(fera)
    if row is None:
        return FORMS[lookup_form(form)].get(attribute)
    if form not in row["forms"]:
        return None
    table = row["variants"].get(variant, {}).get(form)
    if table is None:
        table = row["forms"][form][1]
    return table.get(attribute)


def apply_form(form: str, attribute: str, rating: int, *, fera: str = GAROU, variant: str = "") -> int:
    """The rating of ``attribute`` in ``form`` of the Changing Breed ``fera`` (never below 0). E.g. Garou
    Crinos: Strength 2 -> 6, Appearance 3 -> 0; Corax Corvid (Lupus): Strength 2 -> 1."""
    op = _op(form, attribute, fera, variant)
    if op is None:
        return rating
    kind, n = op
    return max(0, n if kind == "=" else rating + n)


def form_change_text(form: str, attribute: str, *, fera: str = GAROU, variant: str = "") -> str:
    """How ``form`` changes ``attribute`` for display: '+4', '-3', '= 0', or ''."""
    op = _op(form, attribute, fera, variant)
    if op is None:
        return ""
    kind, n = op
    return f"= {n}" if kind == "=" else f"{n:+d}"


def in_form(sheet: Any, attribute: str, rating: int | None = None) -> int:
    """``sheet``'s ``attribute`` (or ``rating``) in its current form, with its breed's table."""
    value = sheet.attributes[attribute] if rating is None else rating
    return apply_form(
        sheet.form, attribute, value, fera=sheet.fera, variant=variant_of(sheet.fera, sheet.tribe, sheet.breed)
    )


def breed_form(fera: str, breed: str) -> str | None:
    """The form a character of ``breed`` was born in: Homid for the first (human) breed, Lupus for the
    animal breed; None for a metis (born in the war form) or an unknown breed. Revised: breed forms."""

    if not breed or breed in METIS_BREEDS:
        return None
    breeds = get_changing_breed(fera or GAROU).breeds
    if breed not in breeds:
        return None
    return "Homid" if breed == breeds[0] else "Lupus"
