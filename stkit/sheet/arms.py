"""The packaged weapon and armour table (``data/arms.yaml``): the Revised values with their public sources,
and :func:`arm`, which puts a weapon or a piece of armour from it on a sheet (`stkit char arm`). Pure: no
store, no terminal."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from stkit import yamlsafe
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.sheet import ARMOR_FIELDS, WEAPON_FIELDS, Sheet
from stkit.sheet.traits import did_you_mean, norm

ARMS_FILE = "arms.yaml"


@cache
def arms_data() -> dict[str, Any]:
    """The packaged table: ``weapons`` and ``armour``, each name -> fields, each with its ``source``.
    Raises DataFileError if the file is damaged."""
    data: dict[str, Any] = yamlsafe.load_packaged("stkit.sheet", ARMS_FILE)
    return data


def weapon_names() -> tuple[str, ...]:
    return tuple(k for k in arms_data()["weapons"] if k != "source")


def armour_names() -> tuple[str, ...]:
    return tuple(k for k in arms_data()["armour"] if k != "source")


def _find(table: str, name: str, what: str) -> tuple[str, dict[str, Any]]:
    rows = {k: v for k, v in arms_data()[table].items() if k != "source"}
    hit = next((k for k in rows if norm(k) == norm(name or "")), None)
    if hit is None:
        raise InvalidValue(
            f"unknown {what} {name!r}{did_you_mean(name or '', tuple(rows))}; allowed: {', '.join(rows)}"
        )
    return hit, dict(rows[hit])


def weapon_entry(name: str) -> dict[str, Any]:
    """The sheet's weapon entry (:data:`stkit.sheet.sheet.WEAPON_FIELDS`) of the table's weapon ``name``,
    equipped. Raises InvalidValue for a name the table lacks (naming the nearest)."""
    hit, row = _find("weapons", name, "weapon")
    entry = {k: spec[1] for k, spec in WEAPON_FIELDS.items()}
    entry.update(row)
    entry["name"] = hit.title()
    entry["equipped"] = True
    return entry


def armour_entry(name: str) -> dict[str, Any]:
    """The sheet's armour entry (:data:`stkit.sheet.sheet.ARMOR_FIELDS`) of the table's armour ``name``,
    worn (in Homid). Raises InvalidValue for a name the table lacks."""
    hit, row = _find("armour", name, "armour")
    row.pop("note", None)
    entry = {k: (list(spec[1]) if isinstance(spec[1], tuple) else spec[1]) for k, spec in ARMOR_FIELDS.items()}
    entry.update(row)
    entry["name"] = hit.title()
    entry["equipped"] = True
    return entry


def arm(
    sheet: Sheet,
    *,
    weapons: Sequence[str] = (),
    armour: Sequence[str] = (),
    drop: Sequence[str] = (),
) -> list[str]:
    """Put the table's ``weapons`` and ``armour`` on ``sheet`` (equipped; a piece of armour put on takes
    the place of the armour worn before) and take off the entries named in ``drop``. Returns one line per
    change. Raises InvalidValue (a name the table lacks), RuleRefusal (a weapon already held, a name to
    drop the sheet does not hold); the sheet is unchanged then."""
    new_weapons = [weapon_entry(w) for w in weapons]
    new_armour = [armour_entry(a) for a in armour]
    held = {norm(str(w.get("name") or "")) for w in sheet.weapons}
    for w in new_weapons:
        if norm(w["name"]) in held:
            raise RuleRefusal(f"{sheet.name} already holds {w['name']}")
    keys = [norm(d) for d in drop]
    for key, name in zip(keys, drop, strict=True):
        if not any(norm(str(e.get("name") or "")) == key for e in [*sheet.weapons, *sheet.armor]):
            raise RuleRefusal(f"{sheet.name} holds no {name!r} to put down")
    lines = []
    if drop:
        sheet.weapons = [w for w in sheet.weapons if norm(str(w.get("name") or "")) not in keys]
        sheet.armor = [a for a in sheet.armor if norm(str(a.get("name") or "")) not in keys]
        lines += [f"puts down {d}" for d in drop]
    for w in new_weapons:
        sheet.weapons.append(w)
        damage = " + ".join(p for p in (w["damage_attribute"], str(w["damage_bonus"])) if p and p != "0")
        lines.append(
            f"takes up {w['name']}: {w['attack_attribute']} + {w['attack_ability']} at {w['difficulty']}, "
            f"damage {damage} {w['damage_type']}"
        )
    for a in new_armour:
        for worn in sheet.armor:
            worn["equipped"] = False
        sheet.armor.append(a)
        lines.append(
            f"puts on {a['name']}: +{a['bashing']} soak against bashing and lethal, "
            f"-{a['dexterity_penalty']} Dexterity dice"
        )
    return lines
