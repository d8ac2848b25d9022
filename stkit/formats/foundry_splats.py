"""The Foundry VTT WoD20 system's own Splat items for the creatures stkit writes: data, read once.

``data/foundry_splats.json`` beside this package holds, for the Garou ("Werewolf [modern]"), Kinfolk,
mortals and each modern Changing Breed (by Bastet tribe, Mokole varna and Ratkin breed), the Splat's soak
switches, its Advantage items (Rage, Gnosis, Willpower, the breed's Renown, rank) and its shapeform Trait
items (Attribute changes in ``bonuslist``, shift dice and difficulty) exactly as the system's compendium
stores them (github JohanFalt/Foundry_WoD20 v7.2.5, ``packs/splats``; rebuilt by tools/foundry_splats.py).
An export copies these items, so a character leaves stkit as Foundry itself would have built it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from stkit.sheet import breeds as B
from stkit.sheet.forms import form_label, form_slots
from stkit.sheet.traits import norm
from stkit.text import fold_accents

SPLATS_FILE = "foundry_splats.json"
GAROU_SPLAT = "Werewolf [modern]"
KINFOLK_SPLAT = "Kinfolk [modern]"
MORTAL_SPLAT = "Mortal [modern]"


@cache
def splats() -> dict[str, dict[str, Any]]:
    """{Splat item name: {"settings", "advantages", "shapeforms", "abilities"}} from the packaged file."""
    text = files("stkit.formats").joinpath("data", SPLATS_FILE).read_text(encoding="utf-8")
    data: dict[str, dict[str, Any]] = json.loads(text)["splats"]
    return data


def ability_names() -> dict[str, str]:
    """Foundry's name of each Ability key ('primalurge' -> 'Primal Urge', 'craft' -> 'Craft')."""
    out: dict[str, str] = {}
    for row in splats().values():
        for key, name in row["abilities"].items():
            out.setdefault(key, name)
    return out


def splat_name(creature: str, fera: str, tribe: str = "", breed: str = "") -> str:
    """The Splat a sheet installs: the Garou's, Kinfolk's or mortal's; a Fera's by its breed, and by tribe
    (Bastet), varna (Mokole) or breed (a Ratkin metis), else the first of its breed's."""
    if creature == "kinfolk":
        return KINFOLK_SPLAT
    if creature == "mortal":
        return MORTAL_SPLAT
    if not fera or fera == B.GAROU:
        return GAROU_SPLAT
    variant = norm(fold_accents(fera))
    names = sorted(
        n
        for n, row in splats().items()
        if row["settings"]["id"] == "changingbreed" and norm(fold_accents(row["settings"]["variant"])) == variant
    )
    if not names:
        return GAROU_SPLAT
    for n in names:
        tail = norm(n.split(" - ", 1)[1]) if " - " in n else ""
        if tail and tail in (norm(tribe), norm(breed)):
            return n
    base = [n for n in names if " - " not in n]
    return base[0] if base else names[0]


def shape_slot(item: dict, fera: str) -> str | None:
    """The stkit form slot of one of a Splat's shapeform items ('Khan - Sokto', label wod.shapes.sokto ->
    'Glabro' for the Bastet), or None when the breed's table has no such form."""
    key = str(item.get("system", {}).get("label") or "").rsplit(".", 1)[-1]
    name = str(item.get("name") or "").rsplit(" - ", 1)[-1]
    for slot in form_slots(fera):
        if norm(form_label(slot, fera)) in (norm(key), norm(name)) or norm(slot) in (norm(key), norm(name)):
            return slot
    return None
