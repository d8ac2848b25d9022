"""Foundry VTT "World of Darkness 20th" (system ``worldofdarkness``) actors: import and export.

Pure Python over plain dicts (the caller reads and writes the JSON). An actor is Foundry's *Export Data*
file: ``{"name", "type", "system": {...}, "items": [...], "flags": {...}}``.

Import (:func:`from_foundry`) first brings an actor of any layout the system has written (legacy 2.x,
flattened 3.1+, keyed 4.1+, the ``PC`` data model's items; :mod:`stkit.formats.foundry_layouts`) into the
legacy shape, then takes every value the sheet can hold, and names every other value it finds
by its path in the file (``system.appearance``, ``items[3] (type Feature)``) in the warnings: nothing is
dropped unannounced. Values that Foundry works out from others (totals, soak, initiative, the health
levels' penalties), presentation fields (labels, maxima, visibility) and Foundry's bookkeeping (ids,
images, ownership, timestamps) are not values of the character and are not listed; empty texts, zeros and
switched-off flags are not listed either. docs/characters.md ("Foundry VTT") lists what goes where.

Actor types: ``Werewolf`` (a Garou, or a Fera when ``system.changingbreed`` names one), ``Changing Breed``
(a Fera), ``Mortal`` and ``PC`` (its ``Splat`` says what it is; an older template ``PC`` is a mortal, or
Kinfolk when it names a tribe or a Changing Breed, with Rage and Gnosis only when its settings switch them
on). Any other type is refused by name.

Export (:func:`to_foundry`) writes the ``PC`` actor of the current system (7.x) by default, or the legacy
2.x actor (a Werewolf, ``PC`` for Kinfolk and mortals) for older installs; what Foundry's sheet has no place
for (player, chronicle, Storyteller notes, the Changing Breed kind, experience totals and dates, and in the
legacy layout custom Abilities) goes in ``flags.stkit``, which Foundry keeps and :func:`from_foundry` reads
back, so an export imports as the same sheet.

Errors are DataFileError naming the source and the field, with the allowed range.
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import json
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue, RuleRefusal
from stkit.formats import foundry_splats as FS
from stkit.formats.foundry_layouts import (
    ADVANTAGE_IDS,
    CURRENT_VERSION,
    FERA_GROUP_NAMES,
    LAYOUT_VERSIONS,
    name_key,
    normalise,
)
from stkit.formats.htmltext import round_trips, text_to_html
from stkit.formats.imported import LoadedFile
from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.forms import FORM_NAMES, form_label, form_slots, lookup_form
from stkit.sheet.sheet import HEALTH_LEVELS, MAX_XP, Sheet, drop_low_specialties, xp_log_warnings
from stkit.text import harmless_line, shown_value

#: The actor types stkit reads, and the creature each becomes.
SUPPORTED_TYPES = ("Werewolf", "Changing Breed", "Mortal", "PC")

#: Foundry's ability keys by group, and whether its Werewolf sheet shows them (from a W20 Werewolf actor
#: exported by system version 2.x/3.x). Keys not in the Revised sheet become custom Abilities.
FOUNDRY_ABILITIES: dict[str, tuple[tuple[str, bool], ...]] = {
    "talent": (
        ("alertness", True),
        ("art", False),
        ("athletics", True),
        ("awareness", False),
        ("brawl", True),
        ("dodge", False),
        ("empathy", True),
        ("expression", True),
        ("intimidation", True),
        ("intuition", False),
        ("kenning", False),
        ("leadership", True),
        ("primalurge", True),
        ("streetwise", True),
        ("subterfuge", True),
    ),
    "skill": (
        ("animalken", True),
        ("craft", True),
        ("demolitions", False),
        ("drive", True),
        ("etiquette", True),
        ("firearms", True),
        ("larceny", True),
        ("martialarts", False),
        ("meditation", False),
        ("melee", True),
        ("performance", True),
        ("research", False),
        ("security", False),
        ("stealth", True),
        ("survival", True),
        ("technology", False),
    ),
    "knowledge": (
        ("academics", True),
        ("bureaucracy", False),
        ("computer", True),
        ("cosmology", False),
        ("enigmas", True),
        ("esoterica", False),
        ("finance", False),
        ("gremayre", False),
        ("investigation", True),
        ("law", True),
        ("linguistics", False),
        ("medicine", True),
        ("occult", True),
        ("politics", False),
        ("religion", False),
        ("rituals", True),
        ("science", True),
        ("technology", True),
    ),
}
#: Foundry ability keys whose label is not the key capitalised.
FOUNDRY_LABELS = {
    "animalken": "Animal Ken",
    "primalurge": "Primal-Urge",
    "craft": "Crafts",
    "martialarts": "Martial Arts",
}
#: Revised Abilities placed in a Foundry group other than the Revised sheet's (Foundry's W20 layout).
_ATTRIBUTE_TYPES = {a: g.lower() for g, names in T.ATTRIBUTE_GROUPS.items() for a in names}
#: Chronicles-of-Darkness style extras Foundry keeps hidden on a W20 sheet.
IGNORED_ATTRIBUTES = {"composure", "resolve"}
#: Keys that are presentation, derived values or Foundry bookkeeping wherever they appear.
_QUIET_KEYS = {
    "label",
    "max",
    "isvisible",
    "total",
    "roll",
    "iscreated",
    "version",
    "parentid",
    "settings",
    "image",
    "game",
    "groupname",
    "_id",
    "img",
    "sort",
    "folder",
    "ownership",
    "_stats",
    "sourceId",
    "perturn",
}
#: Derived values and display switches (movement is worked out from Dexterity; ``isactive`` there only says
#: which speeds the sheet shows).
_QUIET_SYSTEM = {"traits", "settings", "soak", "initiative", "isequipped", "movement", "favoriterolls", "player"}
_ADVANTAGES = ("rage", "gnosis", "willpower")


class UnsupportedActor(DataFileError):
    """A Foundry actor of a type stkit does not keep (a spirit, a vampire): a folder import skips it."""


def _label(key: str) -> str:
    return FOUNDRY_LABELS.get(key, key.capitalize())


def _filled(value: object) -> bool:
    """True for a value worth naming as dropped: non-empty text, a non-zero number, True, or a container
    holding one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        return bool(value.strip()) and value.strip() not in ("0",)
    if isinstance(value, dict):
        return any(_filled(v) for k, v in value.items() if k not in _QUIET_KEYS)
    if isinstance(value, list):
        return any(_filled(v) for v in value)
    return value is not None


def _leaves(value: object, path: str) -> list[str]:
    """The paths under ``path`` that hold a filled value (see :func:`_filled`), presentation keys skipped."""
    if isinstance(value, dict):
        out: list[str] = []
        for k, v in value.items():
            if k not in _QUIET_KEYS:
                out += _leaves(v, f"{path}.{k}")
        return out
    return [path] if _filled(value) else []


class _Reader:
    """One actor being read: the error and warning helpers, and the checked numbers."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[str] = []

    def fail(self, where: str, message: str) -> DataFileError:
        return DataFileError(f"{self.source}: {where}: {message}")

    def num(self, value: Any, where: str, lo: int, hi: int) -> int:
        if value is None or value == "":
            value = 0
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str) and not value.strip().lstrip("+-").isascii():
            value = value.strip()  # int() would read other scripts' digits ('٣'): refused below
            n = None
            raise self.fail(where, f"{shown_value(value)} is not a whole number written with the digits 0 to 9")
        try:
            n = int(value) if not isinstance(value, (bool, float)) else None  # Foundry keeps some numbers as text
        except (TypeError, ValueError):
            n = None
        if n is None:
            raise self.fail(where, f"{shown_value(value)} is not a whole number; allowed: {lo} to {hi}")
        if not lo <= n <= hi:
            raise self.fail(where, f"{shown_value(n)} is outside the allowed range {lo} to {hi}")
        return n

    def block(self, obj: object, where: str) -> dict:
        if obj is None:
            return {}
        if not isinstance(obj, dict):
            raise self.fail(where, f"expected an object, got {type(obj).__name__}")
        return obj

    def text(self, obj: object, where: str, *, strip: bool = True) -> str:
        if obj is None:
            return ""
        if isinstance(obj, (dict, list)):
            raise self.fail(where, "expected text")
        return str(obj).strip() if strip else str(obj)

    def drop(self, value: object, path: str, why: str = "not kept") -> None:
        """Name every filled value under ``path`` as dropped (one warning per path)."""
        for leaf in _leaves(value, path):
            self.warnings.append(f"{leaf}: {why}")

    def drop_rest(self, block: dict, path: str, kept: set[str]) -> None:
        for k, v in block.items():
            if k not in kept and k not in _QUIET_KEYS:
                self.drop(v, f"{path}.{k}")


#: The actor's free texts stkit's sheet has no place for, and what each is (``appearance`` is the text
#: describing the character's looks, not the Appearance Attribute, which is read from system.attributes).
_UNKEPT_TEXTS = {
    "appearance": "the description of the character's looks (the Appearance Attribute is kept)",
    "derangement": "the derangement text",
    "gear": "the gear text (weapons and fetishes come from the items)",
    "name": "the system's name field (the actor's name is used)",
    "worldanvil": "the World Anvil link",
}


def from_foundry(data: object, *, source: str = "Foundry actor") -> LoadedFile:
    """Translate a Foundry VTT WoD20 actor export (a dict) into a sheet.

    Returns a LoadedFile (format ``foundry``) whose warnings name, by path, every value not kept and every
    disagreement between the experience entries and their totals. Raises DataFileError naming the field for
    a bad value, and for an actor type other than :data:`SUPPORTED_TYPES`. Every message and warning quotes
    the file's values bounded and escaped (:func:`stkit.text.shown_value`) and is itself made harmless
    (:func:`stkit.text.harmless_line`): the file's keys are in the paths."""
    try:
        loaded = _from_foundry(data, source)
    except DataFileError as exc:
        raise type(exc)(harmless_line(str(exc))) from None
    loaded.warnings[:] = [harmless_line(w) for w in loaded.warnings]
    return loaded


def _from_foundry(data: object, source: str) -> LoadedFile:
    r = _Reader(source)
    if not isinstance(data, dict) or not isinstance(data.get("system"), dict):
        raise DataFileError(f"{source}: not a Foundry actor (no system block)")
    if data.get("type") in SUPPORTED_TYPES:
        data, _layout, r.warnings = normalise(data)
    kind = data.get("type")
    if kind not in SUPPORTED_TYPES:
        raise UnsupportedActor(
            f"{source}: type: "
            f"{shown_value(kind)} is not supported; stkit reads Werewolf, Changing Breed, Mortal and PC actors "
            "(Garou, Fera, Kinfolk and mortals)"
        )
    sysd: dict = data["system"]
    flags = r.block(r.block(data.get("flags"), "flags").get("stkit"), "flags.stkit")
    name = r.text(data.get("name"), "name")
    if not name:
        raise r.fail("name", "the actor has no name")
    settings = r.block(sysd.get("settings"), "system.settings")
    out: dict[str, Any] = {"name": name}
    if flags.get("chronicle"):
        out["chronicle"] = r.text(flags.get("chronicle"), "flags.stkit.chronicle")
    for f in ("player", "storyteller_notes"):
        out[f] = r.text(flags.get(f), f"flags.stkit.{f}", strip=False)
    if not out["player"]:
        out["player"] = r.text(sysd.get("player"), "system.player")
    for f in ("biography", "notes"):  # the exact text, where the HTML could not carry it
        if f in flags:
            out[f"_exact_{f}"] = r.text(flags.get(f), f"flags.stkit.{f}", strip=False)

    # --- what kind of creature -------------------------------------------------------------------------
    fera_text = r.text(sysd.get("changingbreed"), "system.changingbreed") or r.text(
        flags.get("fera"), "flags.stkit.fera"
    )
    try:
        fera = B.get_changing_breed(fera_text).name
    except InvalidValue as exc:
        raise r.fail("system.changingbreed", str(exc)) from None
    if kind == "Changing Breed" and fera == B.GAROU and not fera_text:
        raise r.fail(
            "system.changingbreed", f"a Changing Breed actor names its breed; allowed: {', '.join(B.FERA_NAMES[1:])}"
        )
    if kind in ("Werewolf", "Changing Breed"):
        creature = "shapeshifter"
    else:
        kin = (
            bool(fera_text or r.text(sysd.get("tribe"), "system.tribe"))
            or "kinfolk" in str(settings.get("variant") or "").lower()
        )
        creature = r.text(flags.get("creature"), "flags.stkit.creature") or ("kinfolk" if kin else "mortal")
        try:
            creature = B.lookup_creature(creature)
        except InvalidValue as exc:
            raise r.fail("flags.stkit.creature", str(exc)) from None
    out["fera"], out["creature"] = fera, creature

    # --- identity ----------------------------------------------------------------------------------------
    for f, key in (
        ("nature", "nature"),
        ("demeanor", "demeanor"),
        ("concept", "concept"),
        ("tribe", "tribe"),
        ("pack", "packname"),
        ("totem", "packtotem"),
        ("biography", "background"),
        ("notes", "notes"),
    ):
        out[f] = r.text(sysd.get(key), f"system.{key}", strip=False)
    for f in ("biography", "notes"):
        if f"_exact_{f}" in out:
            out[f] = out.pop(f"_exact_{f}")
    bio = r.block(sysd.get("bio"), "system.bio")  # newer system versions group the texts under bio
    for f, key in (("biography", "background"), ("biography", "biography"), ("concept", "concept")):
        if not out[f] and bio.get(key):
            out[f] = r.text(bio.get(key), f"system.bio.{key}")
            bio = {k: v for k, v in bio.items() if k != key}
    r.drop(bio, "system.bio")
    for key, what in _UNKEPT_TEXTS.items():
        r.drop(sysd.get(key), f"system.{key}", f"not kept: {what}")
    for f in ("breed", "auspice"):
        value = r.text(sysd.get(f), f"system.{f}")
        try:
            out[f] = B.lookup_breed(value, fera) if f == "breed" else B.lookup_auspice(value, fera)
        except InvalidValue as exc:
            raise r.fail(f"system.{f}", str(exc)) from None

    # --- Attributes and Abilities with their specialties -----------------------------------------------
    specialties: dict[str, str] = {}
    attrs: dict[str, int] = {}
    for key, v in r.block(sysd.get("attributes"), "system.attributes").items():
        where = f"system.attributes.{key}"
        v = r.block(v, where)
        a = T.lookup_attribute(key)
        if a is None or v.get("isvisible") is False:
            if key not in IGNORED_ATTRIBUTES and v.get("isvisible") is not False:
                r.drop(v, where, "not a Werewolf Revised Attribute; not kept")
            continue
        attrs[a] = r.num(v.get("value"), f"{where}.value", 0, T.MAX_DOTS)
        if spec := r.text(v.get("speciality"), f"{where}.speciality"):
            specialties[a] = spec
        r.drop_rest(v, where, {"value", "speciality", "type"})
    out["attributes"] = attrs
    abilities: dict[str, int] = {}
    custom: dict[str, int] = {}
    for group, entries in r.block(sysd.get("abilities"), "system.abilities").items():
        for key, v in r.block(entries, f"system.abilities.{group}").items():
            where = f"system.abilities.{group}.{key}"
            v = r.block(v, where)
            n = r.num(v.get("value", 0), f"{where}.value", 0, T.MAX_DOTS)
            alt = r.text(v.get("altlabel"), f"{where}.altlabel")
            label = alt or _label(key)
            known = T.lookup_ability(label)
            spec = r.text(v.get("speciality"), f"{where}.speciality")
            if known:
                abilities[known] = max(n, abilities.get(known, 0))
            elif n:
                custom[label] = n
            elif spec:
                r.warnings.append(f"{where}.speciality: not kept: the Ability has no dots")
                spec = ""
            if spec:
                specialties[known or label] = spec
            r.drop_rest(v, where, {"value", "speciality", "altlabel"})
    for k, v in r.block(flags.get("abilities"), "flags.stkit.abilities").items():  # stkit's own, from an export
        n = r.num(v, f"flags.stkit.abilities.{k}", 0, T.MAX_DOTS)
        if T.lookup_ability(k):
            abilities[T.lookup_ability(k) or k] = n
        else:
            custom[k] = n
    for k, v in r.block(flags.get("specialties"), "flags.stkit.specialties").items():
        specialties[k] = r.text(v, f"flags.stkit.specialties.{k}")
    out["abilities"] = {k: v for k, v in abilities.items() if v}
    out["custom_abilities"] = custom
    out["specialties"] = specialties
    drop_low_specialties(out, r.warnings)

    # --- Rage, Gnosis, Willpower -----------------------------------------------------------------------
    adv = r.block(sysd.get("advantages"), "system.advantages")
    for p in _ADVANTAGES:
        where = f"system.advantages.{p}"
        track = r.block(adv.get(p), where)
        if creature != "shapeshifter" and p != "willpower" and settings.get(f"has{p}") is not True:
            r.drop(track, where, f"not kept: the actor's settings give it no {p.capitalize()}")
            out[p] = {"permanent": 0, "temporary": 0}
            continue
        if not track and p != "willpower" and creature == "shapeshifter":
            continue
        perm = r.num(track.get("permanent", 0), f"{where}.permanent", 0, T.MAX_POWER)
        temp = r.num(track.get("temporary", perm), f"{where}.temporary", 0, 99 if p == "rage" else perm)
        out[p] = {"permanent": perm, "temporary": temp}
        r.drop_rest(track, where, {"permanent", "temporary"})
    for k, v in adv.items():
        if k not in _ADVANTAGES:
            r.drop(v, f"system.advantages.{k}", "not kept: not a Werewolf trait")

    # --- Renown, rank ------------------------------------------------------------------------------------
    ren = r.block(sysd.get("renown"), "system.renown")
    out["renown"] = {}
    for key in ("glory", "honor", "wisdom"):
        where = f"system.renown.{key}"
        b = r.block(ren.get(key), where)
        out["renown"][key.capitalize()] = {
            "permanent": r.num(b.get("permanent", 0), f"{where}.permanent", 0, T.MAX_POWER),
            "temporary": r.num(b.get("temporary", 0), f"{where}.temporary", 0, 99),
        }
        r.drop_rest(b, where, {"permanent", "temporary"})
    for key, b in r.block(flags.get("renown"), "flags.stkit.renown").items():  # stkit's own, from an export
        slot = T.lookup_renown(str(key))
        if slot is None:
            raise r.fail(f"flags.stkit.renown.{key}", "unknown Renown; allowed: Glory, Honor, Wisdom")
        b = r.block(b, f"flags.stkit.renown.{key}")
        out["renown"][slot] = {
            k: r.num(b.get(k, 0), f"flags.stkit.renown.{key}.{k}", 0, T.MAX_POWER if k == "permanent" else 99)
            for k in ("permanent", "temporary")
        }
    out["rank"] = r.num(ren.get("rank", 0), "system.renown.rank", 0, T.MAX_RANK)
    r.drop_rest(ren, "system.renown", {"glory", "honor", "wisdom", "rank"})

    # --- health and form ---------------------------------------------------------------------------------
    health = r.block(sysd.get("health"), "system.health")
    dmg = r.block(health.get("damage"), "system.health.damage")
    out["health"] = {
        d: r.num(dmg.get(d, 0), f"system.health.damage.{d}", 0, len(HEALTH_LEVELS)) for d in T.DAMAGE_TYPES
    }
    if sum(out["health"].values()) > len(HEALTH_LEVELS):
        raise r.fail("system.health.damage", f"more than {len(HEALTH_LEVELS)} health levels of damage in all")
    levels = r.block(sysd.get("traits"), "system.traits").get("health")
    total_levels = r.block(r.block(levels, "system.traits.health").get("totalhealthlevels"), "system.traits.health")
    if total_levels.get("max") not in (None, len(HEALTH_LEVELS), str(len(HEALTH_LEVELS))):
        r.warnings.append(
            f"system.traits.health.totalhealthlevels: {total_levels.get('max')} health levels; "
            f"not kept: stkit's track has {len(HEALTH_LEVELS)}"
        )
    out["form"] = "Homid"
    for key, shape in r.block(sysd.get("shapes"), "system.shapes").items():
        if isinstance(shape, dict) and shape.get("isactive"):
            try:
                form: str | None = lookup_form(key, fera)
            except (InvalidValue, RuleRefusal):
                form = None
            if form is None:
                r.warnings.append(
                    f"system.shapes.{key}: the active form; not kept: the {fera}'s forms are "
                    f"{', '.join(form_label(f, fera) for f in form_slots(fera))}"
                )
            elif creature != "shapeshifter" and form != "Homid":
                r.warnings.append(f"system.shapes.{key}: the active form; not kept: a {creature} is in Homid form")
            else:
                out["form"] = form
    conditions = r.block(sysd.get("conditions"), "system.conditions")
    r.drop(conditions, "system.conditions", "not kept: stkit tracks no conditions")
    for key in sysd:
        if key not in _KNOWN_SYSTEM and key not in _QUIET_SYSTEM:
            r.drop(sysd[key], f"system.{key}")

    # --- items -------------------------------------------------------------------------------------------
    _read_items(r, data.get("items"), out)
    xp_flags = r.block(flags.get("experience"), "flags.stkit.experience")
    log = out["experience"]["log"]
    earned = sum(e["amount"] for e in log if e["kind"] == "award")
    spent = sum(e["amount"] for e in log if e["kind"] == "spend")
    out["experience"]["total"] = r.num(xp_flags.get("total", earned), "flags.stkit.experience.total", 0, MAX_XP)
    out["experience"]["spent"] = r.num(
        xp_flags.get("spent", spent), "flags.stkit.experience.spent", 0, out["experience"]["total"]
    )
    r.drop(data.get("effects"), "effects", "not kept: stkit applies no active effects")
    sheet = Sheet.from_dict(out, source=source)
    r.warnings += xp_log_warnings(sheet)
    return LoadedFile(sheet, Path(source), "foundry", r.warnings)


_KNOWN_SYSTEM = {
    "nature",
    "demeanor",
    "concept",
    "tribe",
    "packname",
    "packtotem",
    "background",
    "notes",
    "bio",
    "appearance",
    "derangement",
    "gear",
    "name",
    "breed",
    "auspice",
    "changingbreed",
    "attributes",
    "abilities",
    "advantages",
    "renown",
    "health",
    "shapes",
    "conditions",
    "worldanvil",
}
#: Item bookkeeping keys inside ``system`` (besides _QUIET_KEYS).
_ITEM_QUIET = {"type", "value", "isrollable", "combat", "iscounted"}


def _item_at(item: dict) -> str:
    """An Experience entry's date: stkit's own (flags.stkit.at) or Foundry's creation time, else today."""
    flags: dict = item["flags"] if isinstance(item.get("flags"), dict) else {}
    own: dict = flags["stkit"] if isinstance(flags.get("stkit"), dict) else {}
    at = own.get("at")
    if at:
        return str(at)
    stats: dict = item["_stats"] if isinstance(item.get("_stats"), dict) else {}
    created = stats.get("createdTime")
    if isinstance(created, (int, float)) and 0 < created < 1e14:
        return _dt.datetime.fromtimestamp(created / 1000, _dt.UTC).replace(microsecond=0).isoformat()
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def _read_items(r: _Reader, items: object, out: dict[str, Any]) -> None:
    """Gifts, Rites, Backgrounds, Merits, Flaws, fetishes, weapons, armour and experience from the actor's
    items into ``out``; every other item, and every filled field of a kept item that stkit has no place
    for, is named in the warnings."""
    if items is None:
        items = []
    if not isinstance(items, list):
        raise r.fail("items", "expected a list")
    gifts: list[dict] = []
    rites: list[dict] = []
    merits: list[dict] = []
    flaws: list[dict] = []
    fetishes: list[dict] = []
    weapons: list[dict] = []
    armor: list[dict] = []
    backgrounds: dict[str, int] = {}
    log: list[dict] = []
    for i, item in enumerate(items):
        if item is None:  # translated already by the layout reader
            continue
        if not isinstance(item, dict):
            r.warnings.append(f"items[{i}]: not an item; not kept")
            continue
        itype = str(item.get("type") or "")
        iname = r.text(item.get("name"), f"items[{i}].name")
        isys = r.block(item.get("system"), f"items[{i}].system")
        sub = str(isys.get("type") or "")
        where = f"items[{i}]"
        label = f"{where} ({itype} {shown_value(iname)})"
        kept: set[str] = set()
        if not iname:
            r.warnings.append(f"{where} (type {itype}): has no name; not kept")
            continue
        if itype == "Power" and sub in ("wod.types.gift", "wod.types.rite"):
            level = r.num(isys.get("level") or 1, f"{where}.system.level", 1, 6)
            (gifts if sub.endswith("gift") else rites).append({"name": iname, "level": level})
            kept = {"level"}
        elif itype == "Feature" and sub in ("wod.types.background", "wod.types.merit", "wod.types.flaw"):
            # newer system versions keep a Feature's dots in level, older ones in value
            key = "level" if str(isys.get("level") or "").strip() else "value"
            n = r.num(isys.get(key, 0), f"{where}.system.{key}", 0, T.MAX_DOTS if sub.endswith("background") else 7)
            own = r.block(r.block(item.get("flags"), f"{where}.flags").get("stkit"), f"{where}.flags.stkit")
            if sub.endswith("flaw") and own.get("deformity") is True:
                out["deformity"] = iname
            elif sub.endswith("background"):
                backgrounds[iname] = n
            else:
                (merits if sub.endswith("merit") else flaws).append({"name": iname, "points": n})
            kept = {"level"}
        elif itype == "Fetish" or (itype == "Power" and sub == "wod.types.fetish"):
            fetishes.append(
                {
                    "name": iname,
                    "level": r.num(isys.get("level") or 1, f"{where}.system.level", 1, 6),
                    "gnosis": r.num(isys.get("gnosis", 0), f"{where}.system.gnosis", 0, T.MAX_POWER),
                }
            )
            kept = {"level", "gnosis"}
        elif itype in ("Melee Weapon", "Ranged Weapon"):
            weapons.append(_weapon(r, iname, isys, where, itype == "Ranged Weapon"))
            kept = {"attack", "damage", "difficulty", "isnatural", "istwohanded", "isequipped", "conceal"}
            kept |= {"range", "rate", "clip", "isweapon"}
        elif itype == "Armor":
            armor.append(_armor(r, iname, isys, where))
            kept = {"soak", "dexpenalty", "isequipped", "forms"}
        elif itype == "Experience":
            at = _item_at(item)
            own = r.block(r.block(item.get("flags"), f"{where}.flags").get("stkit"), f"{where}.flags.stkit")
            if "reason" in own:
                iname = r.text(own.get("reason"), f"{where}.flags.stkit.reason", strip=False)
            amount = r.num(isys.get("amount", isys.get("value", 0)), f"{where}.system.amount", 1, MAX_XP)
            spend = "spent" in sub.lower() or "spend" in sub.lower()
            # Foundry counts a spend only once it is ticked as spent (isspent; "spent" in older versions)
            ticked = isys.get("isspent", isys.get("spent", True))
            if spend and ticked is False:
                r.warnings.append(f"{label}: a spend not ticked as spent (Foundry does not count it); not kept")
                continue
            log.append({"at": at, "kind": "spend" if spend else "award", "amount": amount, "reason": iname})
            kept = {"amount", "isspent", "spent"}
            if str(isys.get("description") or "").strip() == str(item.get("name") or "").strip():
                kept.add("description")  # Foundry copies the entry's name into its description
        else:
            what = sub.replace("wod.types.", "") if sub else ""
            r.warnings.append(f"{where} (type {itype}{' ' + what if what else ''}) {shown_value(iname)}: not kept")
            continue
        dropped = [
            leaf
            for k, v in isys.items()
            if k not in kept and k not in _ITEM_QUIET and k not in _QUIET_KEYS
            for leaf in _leaves(v, f"system.{k}")
        ]
        if item.get("effects"):
            dropped.append("effects")
        if dropped:
            r.warnings.append(f"{label}: not kept: {', '.join(dropped)}")
    out.update(
        gifts=gifts,
        rites=rites,
        merits=merits,
        flaws=flaws,
        fetishes=fetishes,
        weapons=weapons,
        armor=armor,
        backgrounds={k: v for k, v in backgrounds.items() if v},
        experience={"log": log},
    )


def _trait_name(r: _Reader, text: str, where: str, lookup) -> str:
    """The Revised display name of a weapon's Attribute or Ability key ('brawl' -> 'Brawl'); any other
    text is kept as written."""
    if not text:
        return ""
    return lookup(text) or lookup(_label(text)) or text


def _weapon(r: _Reader, name: str, isys: dict, where: str, ranged: bool) -> dict:
    attack = r.block(isys.get("attack"), f"{where}.system.attack")
    damage = r.block(isys.get("damage"), f"{where}.system.damage")
    clip = r.block(isys.get("clip"), f"{where}.system.clip")
    dtype = r.text(damage.get("type"), f"{where}.system.damage.type").lower() or "bashing"
    if dtype not in T.DAMAGE_TYPES:
        raise r.fail(f"{where}.system.damage.type", f"{shown_value(dtype)}; allowed: {', '.join(T.DAMAGE_TYPES)}")
    for k, v in attack.items():
        if k not in ("attribute", "ability", "accuracy", "isrollable"):
            r.drop(v, f"{where}.system.attack.{k}")
    for k, v in damage.items():
        if k not in ("attribute", "bonus", "type", "isrollable"):
            r.drop(v, f"{where}.system.damage.{k}")
    if ranged:
        r.drop(isys.get("mode"), f"{where}.system.mode")
    return {
        "name": name,
        "kind": "ranged" if ranged else "melee",
        "attack_attribute": _trait_name(
            r,
            r.text(attack.get("attribute"), f"{where}.system.attack.attribute"),
            f"{where}.system.attack.attribute",
            T.lookup_attribute,
        ),
        "attack_ability": _trait_name(
            r,
            r.text(attack.get("ability"), f"{where}.system.attack.ability"),
            f"{where}.system.attack.ability",
            T.lookup_ability,
        ),
        "accuracy": r.num(attack.get("accuracy", 0), f"{where}.system.attack.accuracy", -10, 10),
        "damage_attribute": _trait_name(
            r,
            r.text(damage.get("attribute"), f"{where}.system.damage.attribute"),
            f"{where}.system.damage.attribute",
            T.lookup_attribute,
        ),
        "damage_bonus": r.num(damage.get("bonus", 0), f"{where}.system.damage.bonus", 0, 20),
        "damage_type": dtype,
        "difficulty": r.num(isys.get("difficulty") or 6, f"{where}.system.difficulty", 2, 10),
        "natural": bool(isys.get("isnatural")),
        "two_handed": bool(isys.get("istwohanded")),
        "equipped": bool(isys.get("isequipped")),
        "conceal": r.text(isys.get("conceal"), f"{where}.system.conceal"),
        "range": r.num(isys.get("range", 0), f"{where}.system.range", 0, 10_000),
        "rate": r.num(isys.get("rate", 0), f"{where}.system.rate", 0, 100),
        "clip": r.num(clip.get("max", 0), f"{where}.system.clip.max", 0, 1000),
        "loaded": r.num(clip.get("value", 0), f"{where}.system.clip.value", 0, 1000),
    }


def _armor(r: _Reader, name: str, isys: dict, where: str) -> dict:
    soak = r.block(isys.get("soak"), f"{where}.system.soak")
    r.drop(soak.get("chimerical"), f"{where}.system.soak.chimerical", "not kept: chimerical soak is a Changeling trait")
    forms = r.block(isys.get("forms"), f"{where}.system.forms")
    worn = [f for f in FORM_NAMES if forms.get(f"has{f.lower()}")]
    return {
        "name": name,
        **{d: r.num(soak.get(d, 0), f"{where}.system.soak.{d}", 0, 10) for d in ("bashing", "lethal", "aggravated")},
        "dexterity_penalty": -r.num(isys.get("dexpenalty", 0), f"{where}.system.dexpenalty", -5, 0),
        "equipped": bool(isys.get("isequipped")),
        "forms": worn if forms else ["Homid"],
    }


# ----- export -------------------------------------------------------------------------------------------
def _foundry_id(*parts: str) -> str:
    """A stable 16-character Foundry document id from ``parts`` (the same sheet exports the same file)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(alphabet[b % len(alphabet)] for b in digest[:16])


def _foundry_key(ability: str) -> tuple[str, str] | None:
    """(group, key) of ``ability`` on Foundry's sheet, or None when Foundry has no slot for it."""
    for group, keys in FOUNDRY_ABILITIES.items():
        for key, _visible in keys:
            if T.norm(_label(key)) == T.norm(ability):
                return group, key
    return None


def _item(sheet: Sheet, kind: str, name: str, system: dict, index: int) -> dict:
    return {"_id": _foundry_id(sheet.name, kind, name, str(index)), "name": name, "type": kind, "system": system}


def to_foundry(sheet: Sheet, layout: str = "current") -> dict:
    """The Foundry VTT WoD20 actor dict of ``sheet`` in ``layout``: ``current`` (default) is the ``PC`` data
    model of system 5.x-7.x (see :func:`_to_current`); ``legacy`` the template actors of 2.x / 3.0. Raises
    InvalidValue for another layout name."""
    if layout not in ("current", "legacy"):
        raise InvalidValue(f"Foundry layout {shown_value(layout)}; allowed: current, legacy")
    legacy = _to_legacy(sheet)
    return _to_current(sheet, legacy) if layout == "current" else legacy


#: The shift difficulty of each form in the template actors (template.json, ``Actor.templates.werewolf.shapes``).
_LEGACY_SHIFT_DIFFICULTY = {"Homid": 6, "Glabro": 7, "Crinos": 6, "Hispo": 7, "Lupus": 6}


def _to_legacy(sheet: Sheet) -> dict:
    """The legacy (2.x / 3.0) actor of ``sheet``: type ``Werewolf`` for a shapeshifter (``PC`` for
    Kinfolk and mortals), Attributes and Abilities with specialties, Rage/Gnosis/Willpower, Renown, rank,
    health damage, the active form, and items for Gifts, Rites, Backgrounds, Merits, Flaws, fetishes,
    weapons, armour and experience entries; the rest in ``flags.stkit``. :func:`from_foundry` reads it
    back as the same sheet."""
    attributes = {}
    for a in T.ATTRIBUTES:
        attributes[a.lower()] = {
            "value": sheet.attributes.get(a, 1),
            "bonus": 0,
            "max": T.MAX_DOTS,
            "type": _ATTRIBUTE_TYPES[a],
            "label": f"wod.attributes.{a.lower()}",
            "speciality": sheet.specialties.get(a, ""),
            "isvisible": True,
        }
    abilities: dict[str, dict] = {}
    placed: set[str] = set()
    for group, keys in FOUNDRY_ABILITIES.items():
        abilities[group] = {}
        for key, visible in keys:
            label = _label(key)
            known = T.lookup_ability(label)
            # a custom Ability in Foundry's slot of the same name, whatever its case ("ART" in "art"); its
            # own spelling rides in altlabel, which the reader prefers
            own = (
                None
                if known
                else next((c for c in sheet.custom_abilities if T.norm(c) == T.norm(label) and c not in placed), None)
            )
            if known and known not in placed:
                value = sheet.abilities.get(known, 0)
                placed.add(known)
            elif own is not None:
                value = sheet.custom_abilities[own]
                placed.add(own)
            else:
                value, known = 0, None
            name = known or own or label
            abilities[group][key] = {
                "value": value,
                "max": T.MAX_DOTS,
                "label": f"wod.abilities.{key}",
                "altlabel": own if own is not None and own != label else "",
                "speciality": sheet.specialties.get(name, "") if value or known else "",
                "isvisible": visible or bool(value),
            }
    extra_abilities = {a: n for a, n in {**sheet.abilities, **sheet.custom_abilities}.items() if a not in placed}
    extra_specialties = {k: v for k, v in sheet.specialties.items() if k not in T.ATTRIBUTES and k not in placed}
    kin = sheet.creature != "shapeshifter"
    advantages = {
        p: {
            "permanent": sheet.powers[p.capitalize()].permanent,
            "temporary": sheet.powers[p.capitalize()].temporary,
            "max": T.MAX_POWER,
            "label": f"wod.advantages.{p}",
        }
        for p in _ADVANTAGES
    }
    system: dict[str, Any] = {
        "settings": {
            "hasrage": not kin or sheet.powers["Rage"].permanent + sheet.powers["Rage"].temporary > 0,
            "hasgnosis": not kin or sheet.powers["Gnosis"].permanent > 0,
            "haswillpower": sheet.powers["Willpower"].permanent > 0,
            "version": LAYOUT_VERSIONS["legacy"],
            # module/scripts/create-helpers.js: a werewolf soaks all three kinds, a mortal only bashing
            "soak": {
                d: {"bonus": 0, "isrollable": d == "bashing" or not kin} for d in ("bashing", "lethal", "aggravated")
            },
        },
        "nature": sheet.nature,
        "demeanor": sheet.demeanor,
        "concept": sheet.concept,
        "background": text_to_html(sheet.biography),
        "notes": text_to_html(sheet.notes),
        "attributes": attributes,
        "abilities": abilities,
        "advantages": advantages,
        "health": {
            "damage": {**{d: sheet.health[d] for d in ("bashing", "lethal", "aggravated")}},
        },
        "changingbreed": "" if sheet.fera == B.GAROU else sheet.fera,
        "breed": sheet.breed,
        "auspice": sheet.auspice,
        "tribe": sheet.tribe,
        "packname": sheet.pack,
        "packtotem": sheet.totem,
        "renown": {
            **{
                r.lower(): {"permanent": t.permanent, "temporary": t.temporary, "max": T.MAX_POWER}
                for r, t in sheet.renown.items()
            },
            "rank": sheet.rank,
        },
    }
    if not kin:
        system["shapes"] = {
            f.lower(): {
                "label": f"wod.shapes.{f.lower()}",
                "diff": _LEGACY_SHIFT_DIFFICULTY[f],
                "isactive": f == sheet.form,
            }
            for f in FORM_NAMES
        }
    items: list[dict] = []
    for section, sub in (("gifts", "gift"), ("rites", "rite")):
        for e in getattr(sheet, section):
            items.append(
                _item(sheet, "Power", e["name"], {"type": f"wod.types.{sub}", "level": str(e["level"])}, len(items))
            )
    for bg, n in sheet.backgrounds.items():
        system_b = {"type": "wod.types.background", "value": n, "level": n}
        items.append(_item(sheet, "Feature", bg, system_b, len(items)))
    for section, sub in (("merits", "merit"), ("flaws", "flaw")):
        for e in getattr(sheet, section):
            items.append(
                _item(
                    sheet,
                    "Feature",
                    e["name"],
                    {"type": f"wod.types.{sub}", "value": e["points"], "level": e["points"]},
                    len(items),
                )
            )
    if sheet.deformity:
        # Foundry's data model has no deformity field: a metis's deformity goes with the Flaws, at 0
        # points, marked in the item's flags so that it reads back as the deformity
        entry = _item(sheet, "Feature", sheet.deformity, {"type": "wod.types.flaw", "value": 0, "level": 0}, len(items))
        entry["flags"] = {"stkit": {"deformity": True}}
        items.append(entry)
    for f in sheet.fetishes:
        system_f = {"type": "wod.types.fetish", "level": str(f["level"]), "gnosis": f["gnosis"]}
        items.append(_item(sheet, "Fetish", f["name"], system_f, len(items)))
    for w in sheet.weapons:
        items.append(
            _item(
                sheet,
                "Ranged Weapon" if w["kind"] == "ranged" else "Melee Weapon",
                w["name"],
                _weapon_system(w),
                len(items),
            )
        )
    for piece in sheet.armor:
        system_a = {
            "soak": {d: piece[d] for d in ("bashing", "lethal", "aggravated")},
            "dexpenalty": -piece["dexterity_penalty"],
            "isequipped": piece["equipped"],
            "forms": {f"has{f.lower()}": f in piece["forms"] for f in FORM_NAMES},
        }
        items.append(_item(sheet, "Armor", piece["name"], system_a, len(items)))
    for e in sheet.xp_log:
        sub = "wod.types.expspent" if e["kind"] == "spend" else "wod.types.expgained"
        system_x: dict[str, Any] = {"type": sub, "amount": e["amount"]}
        if e["kind"] == "spend":
            system_x["isspent"] = True  # Foundry counts a spend only when ticked
        entry = _item(sheet, "Experience", e["reason"].strip() or e["kind"], system_x, len(items))
        entry["flags"] = {"stkit": {"at": e["at"], "reason": e["reason"]}}
        items.append(entry)
    flags: dict[str, Any] = {
        "chronicle": sheet.chronicle,
        "player": sheet.player,
        "storyteller_notes": sheet.storyteller_notes,
        "fera": sheet.fera,
        "creature": sheet.creature,
        "experience": {"total": sheet.xp_total, "spent": sheet.xp_spent},
    }
    for text_field in ("biography", "notes"):
        if not round_trips(getattr(sheet, text_field)):
            flags[text_field] = getattr(sheet, text_field)  # the exact text: the HTML above cannot carry its spacing
    if extra_abilities:
        flags["abilities"] = extra_abilities
    if extra_specialties:
        flags["specialties"] = extra_specialties
    return {
        "_id": _foundry_id(sheet.chronicle, sheet.name),
        "name": sheet.name,
        "type": "PC" if kin else "Werewolf",
        "img": "icons/svg/mystery-man.svg",
        "system": system,
        "items": items,
        "effects": [],
        "folder": None,
        "flags": {"stkit": flags},
    }


def _weapon_key(trait: str) -> str:
    """Foundry's key for a weapon's Attribute or Ability ('Primal-Urge' -> 'primalurge'); other text as is."""
    if T.lookup_attribute(trait):
        return trait.lower()
    found = _foundry_key(trait) if T.lookup_ability(trait) else None
    return found[1] if found else trait


def _weapon_system(w: dict) -> dict:
    system: dict[str, Any] = {
        "attack": {
            "attribute": _weapon_key(w["attack_attribute"]),
            "ability": _weapon_key(w["attack_ability"]),
            "accuracy": w["accuracy"],
        },
        "damage": {
            "attribute": _weapon_key(w["damage_attribute"]),
            "bonus": w["damage_bonus"],
            "type": w["damage_type"],
        },
        "difficulty": w["difficulty"],
        "istwohanded": w["two_handed"],
        "isequipped": w["equipped"],
        "conceal": w["conceal"],
    }
    if w["kind"] == "melee" or w["natural"]:  # template.json gives only melee weapons isnatural
        system["isnatural"] = w["natural"]
    if w["kind"] == "ranged":
        system |= {"range": w["range"], "rate": w["rate"], "clip": {"value": w.get("loaded", 0), "max": w["clip"]}}
    return system


def dump_foundry(sheet: Sheet, layout: str = "current") -> str:
    """:func:`to_foundry` as JSON text (two-space indent, UTF-8 kept)."""

    return json.dumps(to_foundry(sheet, layout), indent=2, ensure_ascii=False) + "\n"


#: The Attributes of the PC data model in its order (module/actor/datamodel/base/actor_attributes.js);
#: composure and resolve are the other game lines' and hidden.
_PC_ATTRIBUTES = (
    ("strength", "physical"),
    ("dexterity", "physical"),
    ("stamina", "physical"),
    ("charisma", "social"),
    ("manipulation", "social"),
    ("appearance", "social"),
    ("composure", "social"),
    ("perception", "mental"),
    ("intelligence", "mental"),
    ("wits", "mental"),
    ("resolve", "mental"),
)
#: The splat a sheet's creature installs (the ``Splat`` items of packs/splats: settings id, game, variant,
#: variantsheet): Garou "Werewolf [modern]", a Fera its breed's, Kinfolk "Kinfolk [modern]", a mortal
#: "Mortal [modern]".
_FERA_TRIBE_FIELD = {"Mokole": "varna", "Ananasi": "faction"}
_FERA_AUSPICE_FIELD = {"Bastet": "pryio", "Ananasi": "aspect", "Kitsune": "path"}
#: Bastet and Gurahl tribes the system keeps as keys (wod.bio.tribename.<key>, migration.js 4.1.0).
_KEYED_FERA_TRIBES = {
    "Bastet": ("bagheera", "balam", "bubasti", "ceilican", "khan", "pumonca", "qualmi", "simba", "swara"),
    "Gurahl": ("forestwalkers", "icestalkers", "mountainguardians", "riverkeepers"),
}


def _splat(sheet: Sheet) -> tuple[str, dict]:
    if sheet.creature == "shapeshifter" and sheet.fera == B.GAROU:
        return "Werewolf [modern]", {
            "id": "werewolf",
            "game": "werewolf",
            "variant": "general",
            "variantsheet": "werewolf",
        }
    if sheet.creature == "shapeshifter":
        return sheet.fera, {
            "id": "changingbreed",
            "game": "werewolf",
            "variant": sheet.fera.lower(),
            "variantsheet": "changingbreed",
        }
    if sheet.creature == "kinfolk":
        return "Kinfolk [modern]", {"id": "mortal", "game": "werewolf", "variant": "kinfolk", "variantsheet": "mortal"}
    return "Mortal [modern]", {"id": "mortal", "game": "mortal", "variant": "general", "variantsheet": "mortal"}


def _splat_field(label: str, value: str, listdata: str = "") -> dict:
    return {
        "label": label,
        "value": value,
        "type": "select" if listdata else "input",
        "listdata": listdata,
        "isremovable": False,
        "isvisible": True,
    }


def _splatfields(sheet: Sheet) -> dict:
    """``system.bio.splatfields`` of ``sheet``: the keyed breed and auspice (a Garou's lists are the "v2"
    ones), the tribe (a Bastet's or Gurahl's as its key), pack and totem; empty fields left out."""
    garou = sheet.fera == B.GAROU
    fields: dict[str, dict] = {}
    if sheet.breed:
        key = name_key(sheet.breed, sheet.fera, "breed")
        fields["breed"] = _splat_field("wod.bio.breed", key, "BreedListv2" if garou else "BreedList")
    if sheet.auspice:
        field_key = _FERA_AUSPICE_FIELD.get(sheet.fera, "auspice")
        key = name_key(sheet.auspice, sheet.fera, "auspice")
        fields[field_key] = _splat_field(f"wod.bio.{field_key}", key, "AuspiceListv2" if garou else "AuspiceList")
    if sheet.tribe:
        field_key = _FERA_TRIBE_FIELD.get(sheet.fera, "tribe")
        value = sheet.tribe
        keyed = _KEYED_FERA_TRIBES.get(sheet.fera, ())
        if T.norm(value) in keyed and FERA_GROUP_NAMES.get(T.norm(value), T.norm(value).capitalize()) == value:
            value = f"wod.bio.tribename.{T.norm(value)}"
        fields[field_key] = _splat_field(f"wod.bio.{field_key}", value, "TribeList" if keyed else "")
    if sheet.pack:
        fields["pack"] = _splat_field("wod.bio.packname", sheet.pack)
    if sheet.totem:
        fields["totem"] = _splat_field("wod.bio.packtotem", sheet.totem)
    return fields


def _advantage(sheet: Sheet, aid: str, name: str, permanent: int, temporary: int, order: int, group: str = "") -> dict:
    system = {
        "settings": {
            "usepermanent": True,
            "usetemporary": aid != "rank",
            "useroll": aid in ADVANTAGE_IDS,
            "order": order,
            "isremovable": False,
        },
        "id": aid,
        "type": "wod.advantages.advantages",
        "group": group,
        "label": f"wod.advantages.{aid}",
        "permanent": permanent,
        "temporary": temporary,
        "max": 6 if aid == "rank" else T.MAX_POWER,
    }
    return _item(sheet, "Advantage", name, system, order)


def _from_template(sheet: Sheet, template: dict, index: int, **values: Any) -> dict:
    """A copy of one of a Splat's items (an Advantage or a shapeform) with ``values`` set in its system."""
    system = copy.deepcopy(template["system"])
    system.update(values)
    return _item(sheet, template["type"], template["name"], system, index)


def _to_current(sheet: Sheet, legacy: dict) -> dict:
    """The ``PC`` actor a 7.x install keeps of ``sheet``: only the fields of the PC data model
    (module/actor/datamodel/pc-actor-datamodel.js) in ``system``; the creature as a ``Splat`` item, every
    Ability an ``Ability`` item, Willpower (when the sheet has it), Rage and Gnosis (a shapeshifter's, or
    when not zero), Renown and rank (a shapeshifter's) ``Advantage`` items, a shapeshifter's five forms as
    ``Trait`` shapeform items with the current one active; the other items as in :func:`_to_legacy`."""
    lsys = legacy["system"]
    shifter = sheet.creature == "shapeshifter"
    splat_name = FS.splat_name(sheet.creature, sheet.fera, sheet.tribe, sheet.breed)
    splat = {k: FS.splats()[splat_name]["settings"][k] for k in ("id", "game", "variant", "variantsheet")}
    p = sheet.powers
    items: list[dict] = [
        _item(
            sheet,
            "Splat",
            splat_name,
            {
                "settings": {
                    **splat,
                    "era": "modern",
                    "version": CURRENT_VERSION,
                    "soak": copy.deepcopy(FS.splats()[splat_name]["settings"]["soak"]),
                },
                "bio": [],
                "abilities": [],
                "advantages": [],
                "features": [],
                "powers": [],
                "description": "",
            },
            0,
        )
    ]
    for group, keys in FOUNDRY_ABILITIES.items():
        for key, visible in keys:
            entry = lsys["abilities"][group][key]
            if not (visible or entry["value"]):
                continue
            system_a = {
                "settings": {"isremovable": False},
                "id": key,
                "type": f"wod.abilities.{group}",
                "label": f"wod.abilities.{key}",
                "value": entry["value"],
                "max": T.MAX_DOTS,
                "speciality": entry["speciality"],
            }
            shown = entry.get("altlabel") or FS.ability_names().get(key, _label(key))  # a custom Ability's own case
            items.append(_item(sheet, "Ability", shown, system_a, len(items)))
    placed = {T.norm(i["name"]) for i in items if i["type"] == "Ability"}
    for name, n in {**sheet.abilities, **sheet.custom_abilities}.items():
        if T.norm(name) in placed or _foundry_key(name):
            continue
        system_c = {
            "settings": {"isremovable": True},
            "id": "",
            "type": "wod.abilities.talent",
            "label": name,
            "value": n,
            "max": T.MAX_DOTS,
            "speciality": sheet.specialties.get(name, ""),
        }
        items.append(_item(sheet, "Ability", name, system_c, len(items)))
    has = {
        "rage": shifter or p["Rage"].permanent + p["Rage"].temporary > 0,
        "gnosis": shifter or p["Gnosis"].permanent + p["Gnosis"].temporary > 0,
        "willpower": p["Willpower"].permanent + p["Willpower"].temporary > 0,
    }
    template = FS.splats()[splat_name]
    slot_of = {T.norm(n): slot for slot, n in B.renown_names(sheet.fera).items()} if shifter else {}
    written: set[str] = set()
    for adv in template["advantages"]:
        aid = str(adv["system"]["id"])
        if aid in ADVANTAGE_IDS and not has[aid]:
            continue
        if aid in ADVANTAGE_IDS:
            t = p[aid.capitalize()]
            perm, temp = t.permanent, t.temporary
        elif aid == "rank":
            perm, temp = sheet.rank, 0
        elif aid in slot_of:
            t = sheet.renown[slot_of[aid]]
            perm, temp = t.permanent, t.temporary
        else:  # an Advantage stkit has no value for (the Ananasi's blood pool): empty, as on a new actor
            perm, temp = 0, 0
        asys = adv["system"]
        item = _advantage(sheet, aid, adv["name"], perm, temp, int(asys["settings"].get("order", 0)), asys["group"])
        item["system"]["max"] = asys.get("max", item["system"]["max"])
        items.append(item)
        written.add(aid)
    order = len(template["advantages"])
    for aid in ADVANTAGE_IDS:
        if has[aid] and aid not in written:
            t = p[aid.capitalize()]
            items.append(_advantage(sheet, aid, aid.capitalize(), t.permanent, t.temporary, order))
            order += 1
    renowned = shifter or sheet.rank > 0 or any(t.permanent or t.temporary for t in sheet.renown.values())
    if renowned and not shifter:
        for r, t in sheet.renown.items():
            items.append(_advantage(sheet, r.lower(), f"Renown - {r}", t.permanent, t.temporary, order, "renown"))
            order += 1
        items.append(_advantage(sheet, "rank", "Rank", sheet.rank, 0, order, "renown"))
    if shifter:
        for shape in template["shapeforms"]:
            slot = FS.shape_slot(shape, sheet.fera)
            items.append(_from_template(sheet, shape, len(items), isactive=slot == sheet.form))
    items += legacy["items"]
    attributes = {}
    for sort, (key, kind) in enumerate(_PC_ATTRIBUTES, start=1):
        a = T.lookup_attribute(key)
        value = sheet.attributes.get(a, 1) if a else 1
        attributes[key] = {
            "value": value,
            "bonus": 0,
            "total": value,
            "max": T.MAX_DOTS,
            "type": kind,
            "label": f"wod.attributes.{key}",
            "speciality": sheet.specialties.get(a, "") if a else "",
            "sort": sort,
            "isvisible": a is not None,
            "isfavorited": False,
        }
    settings = {
        "iscreated": True,
        "haswillpower": has["willpower"],
        "hasgnosis": has["gnosis"],
        "hasrenown": renowned,
        "hasgifts": shifter or bool(sheet.gifts),
        "hasrites": shifter or bool(sheet.rites),
        "hasshapes": shifter,
        "version": CURRENT_VERSION,
        "era": "wod.era.modern",
        "splat": splat["id"],
        "game": splat["game"],
        "variant": splat["variant"],
        "variantsheet": splat["variantsheet"],
        "soak": copy.deepcopy(FS.splats()[splat_name]["settings"]["soak"]),
    }
    system = {
        "settings": settings,
        "bio": {
            "nature": sheet.nature,
            "demeanor": sheet.demeanor,
            "concept": sheet.concept,
            "splatfields": _splatfields(sheet),
            "background": lsys["background"],
            "notes": lsys["notes"],
        },
        "attributes": attributes,
        "health": {"damage": dict(lsys["health"]["damage"])},
    }
    flags = copy.deepcopy(legacy["flags"])
    if shifter:  # Renown the breed's Splat has no row for (the Nagah have none)
        homeless = {
            r: t.to_dict()
            for r, t in sheet.renown.items()
            if r not in slot_of.values() and (t.permanent or t.temporary)
        }
        if homeless:
            flags["stkit"]["renown"] = homeless
    flags["stkit"].pop("abilities", None)
    flags["stkit"].pop("specialties", None)
    return {**legacy, "type": "PC", "system": system, "items": items, "flags": flags}
