"""The actor layouts the Foundry VTT WoD20 system (``worldofdarkness``) has written, and how each is read.

Pure Python over plain dicts. The layouts and the steps between them follow the system's own source
(github JohanFalt/Foundry_WoD20, v7.2.5): ``module/migration.js`` (``updateActor``, one block per
``system.settings.version``), ``template.json`` (the template actor types) and
``module/actor/datamodel/`` with ``module/items/datamodel/`` (the ``PC`` data model and its items):

- **legacy** (2.x / 3.0): Abilities grouped under ``system.abilities.talent / skill / knowledge``, breed
  and auspice as plain names. Before 2.2.0 Rage, Gnosis and Willpower sat at ``system.rage`` etc. (2.2.0
  moved them under ``system.advantages``); before 1.5.0 the switches were ``visible`` / ``active`` (1.5.0
  renamed them ``isvisible`` / ``isactive``); 1.6.0 turned a Werewolf's tribe into a key
  (``wod.bio.werewolf.fianna``) and 2.1.0 back into its name.
- **flattened** (3.1+): 3.1.0 copied each visible Ability to ``system.abilities.<key>`` with its group in
  ``type`` (the grouped copies stay in the data, stale), and the Werewolf tribe became a key again, or
  ``custom`` with the name in ``system.custom.tribe``; 3.2.0 spelt the Changing Breed ``Mokole``.
- **keyed** (4.1+): breed and auspice became keys (``wod.bio.breedname.homid``,
  ``wod.bio.auspicename.ragabash``, a Bastet's ``wod.bio.pryioname.night``, a Bastet tribe
  ``wod.bio.tribename.khan``); 4.2.0 and 6.0.6 added the shapes' Attribute changes as ``Bonus`` items.
- **pc** (the ``PC`` data model, 5.x-7.x): no Abilities, Advantages, Renown or breed in ``system``; the
  creature is a ``Splat`` item (and ``system.settings.splat / game / variant``), each Ability an ``Ability``
  item (``system.id``, ``value``, ``speciality``), Rage / Gnosis / Willpower / Renown / rank ``Advantage``
  items (``system.id``, ``group`` ``renown``, ``permanent``, ``temporary``), the forms ``Trait`` items of
  type ``wod.types.shapeform`` (``isactive``), breed / auspice / tribe / pack / totem in
  ``system.bio.splatfields.<key>.value``, and the texts HTML under ``system.bio``.

:func:`normalise` turns any of them into the legacy shape the reader in :mod:`stkit.formats.foundry`
understands, consuming what it translates and naming what it cannot.
"""

from __future__ import annotations

import copy
from typing import Any

from stkit.formats.foundry_splats import ability_names
from stkit.formats.htmltext import html_to_text
from stkit.sheet import breeds as B
from stkit.sheet.traits import norm
from stkit.text import shown_value

LAYOUTS = ("legacy", "flattened", "keyed", "pc")
#: The system version each layout starts at (``system.settings.version``).
LAYOUT_VERSIONS = {"legacy": "2.2.0", "flattened": "3.1.0", "keyed": "4.1.0", "pc": "7.2.5"}
#: The version stkit writes for the current layout (the system release read for this module).
CURRENT_VERSION = "7.2.5"

#: Werewolf tribe keys (``wod.bio.werewolf.<key>``, assets/data/sheet/bio.js) and their names (lang/en.json).
WEREWOLF_TRIBES = {
    "blackfuries": "Black Furies",
    "bonegnawer": "Bone Gnawers",
    "childrenofgaia": "Children of Gaia",
    "fianna": "Fianna",
    "getoffenris": "Get of Fenris",
    "glasswalker": "Glass Walkers",
    "redtalon": "Red Talons",
    "shadowlord": "Shadow Lords",
    "silentstrider": "Silent Striders",
    "silverfang": "Silver Fangs",
    "stargazer": "Stargazers",
    "uktena": "Uktena",
    "wendigo": "Wendigo",
    "blackspiraldancer": "Black Spiral Dancers",
    "skindancer": "Skin Dancers",
    "bunyip": "Bunyip",
    "croatan": "Croatan",
    "whitehowler": "White Howlers",
}
#: Fera tribe / varna / faction keys whose name is not the key capitalised (lang/en.json).
FERA_GROUP_NAMES = {
    "forestwalkers": "Forest Walkers",
    "icestalkers": "Ice Stalkers",
    "mountainguardians": "Mountain Guardians",
    "riverkeepers": "River Keepers",
    "swiftlight": "Hermetic Order of Swift Light",
    "gulls": "The Gulls of Battle",
    "morrigan": "The Morrigan",
    "gaughters": "Murder's Daughters",
    "sunlost": "The Sun-Lost",
}
#: Auspice keys whose stkit name is not found by folding (the system's spelling differs).
AUSPICE_ALIASES = {
    "eclipsedsun": "Solar Eclipse",
    "brightwaters": "Brightwater",
    "engineers": "Engineer",
    "plaguelords": "Plague Lord",
    "twitchers": "Twitcher",
}
#: The key group the system writes each Changing Breed's auspice under (migration.js, 4.1.0).
AUSPICE_GROUPS = {"Bastet": "pryioname", "Ananasi": "aspectname", "Ratkin": "aspectname", "Kitsune": "pathname"}
#: Where a ``Splat``'s bio fields put the breed, auspice, tribe, pack and totem (packs/splats).
SPLAT_FIELDS = {
    "breed": ("breed",),
    "auspice": ("auspice", "pryio", "aspect", "path"),
    "tribe": ("tribe", "varna", "faction"),
    "packname": ("pack", "packname"),
    "packtotem": ("totem", "packtotem"),
}
#: Advantage item ids that are Rage, Gnosis, Willpower; Renown ids stkit keeps.
ADVANTAGE_IDS = ("rage", "gnosis", "willpower")
RENOWN_IDS = ("glory", "honor", "wisdom")
_GROUPS = ("talent", "skill", "knowledge")
#: Every Changing Breed's Renown ids (folded), Garou's among them.
_FERA_RENOWN = {norm(n) for names in B.RENOWN_NAMES.values() for n in names}
_FORM_KEYS = ("glabro", "crinos", "hispo", "lupus")
#: Quiet fields of the items the PC layout translates (bookkeeping, derived values, presentation).
_ITEM_QUIET = {
    "settings",
    "id",
    "type",
    "label",
    "total",
    "max",
    "roll",
    "group",
    "reference",
    "iscreated",
    "isvisible",
    "isremovable",
    "order",
    "version",
    "parentid",
    "itemuuid",
    "icon",
    "bonuslist",
    "dice1",
    "dice2",
    "difficulty",
    "level",
    "value",
    "isrollable",
    "isfavorited",
    "ismeleeweapon",
    "israngedeweapon",
    "ispower",
    "property",
    "perturn",
}


def _version_tuple(text: object) -> tuple[int, ...]:
    parts = []
    for p in str(text or "").split("."):
        digits = "".join(ch for ch in p if "0" <= ch <= "9")
        parts.append(int(digits[:6]) if digits else 0)
    return tuple(parts)


def _is_flat(abilities: object) -> bool:
    """True when ``system.abilities`` holds Ability entries directly (3.1+), not groups of them."""
    return isinstance(abilities, dict) and any(
        isinstance(v, dict) and "value" in v and not isinstance(v.get("value"), dict) for v in abilities.values()
    )


def _items(data: dict) -> list:
    items = data.get("items")
    return items if isinstance(items, list) else []


def detect_layout(data: dict) -> str:
    """Which of :data:`LAYOUTS` an actor dict is written in, from its type, its items, the shape of
    ``system.abilities``, its keyed values and ``system.settings.version``."""
    sysd: dict = data["system"] if isinstance(data.get("system"), dict) else {}
    settings: dict = sysd["settings"] if isinstance(sysd.get("settings"), dict) else {}
    item_types = {str(i.get("type")) for i in _items(data) if isinstance(i, dict)}
    version = _version_tuple(settings.get("version"))
    if data.get("type") == "PC" and (
        item_types & {"Splat", "Ability", "Advantage"} or ("abilities" not in sysd and "advantages" not in sysd)
    ):
        return "pc"
    keyed = any(str(sysd.get(f) or "").startswith("wod.bio.") for f in ("breed", "auspice"))
    if keyed or version >= (4, 1):
        return "keyed"
    if _is_flat(sysd.get("abilities")) or version >= (3, 1):
        return "flattened"
    return "legacy"


def key_name(value: str, fera: str, what: str) -> str:
    """The name behind a system key ('wod.bio.breedname.homid' -> 'Homid'; 'wod.bio.werewolf.fianna' ->
    'Fianna'); text that is not a key is returned as it is, for the caller's own check."""
    if not value.startswith("wod.bio."):
        return value
    key = value.rsplit(".", 1)[-1]
    if what == "tribe":
        if ".werewolf." in value and key in WEREWOLF_TRIBES:
            return WEREWOLF_TRIBES[key]
        return FERA_GROUP_NAMES.get(key, key.capitalize())
    try:
        row = B.get_changing_breed(fera)
    except Exception:  # an unknown Changing Breed: the reader names it
        return key.capitalize()
    choices = row.breeds if what == "breed" else row.auspices
    if what == "auspice" and key in AUSPICE_ALIASES:
        return AUSPICE_ALIASES[key]
    for c in choices:
        if norm(c) == key:
            return c
    return key.capitalize()


def name_key(name: str, fera: str, what: str) -> str:
    """The system key of a breed or auspice name (the reverse of :func:`key_name`); '' stays ''."""
    if not name:
        return ""
    if what == "breed":
        return f"wod.bio.breedname.{norm(name)}"
    back = {v: k for k, v in AUSPICE_ALIASES.items()}
    return f"wod.bio.{AUSPICE_GROUPS.get(fera, 'auspicename')}.{back.get(name, norm(name))}"


def normalise(data: dict) -> tuple[dict, str, list[str]]:
    """A copy of the actor ``data`` in the legacy layout, the layout it was written in, and the warnings for
    what the translation could not carry (named by their path in the original file). The caller's dict is
    not changed."""
    out = copy.deepcopy(data)
    layout = detect_layout(data)
    warnings: list[str] = []
    sysd = out.get("system")
    if not isinstance(sysd, dict):
        return out, layout, warnings
    if layout == "pc":
        _from_pc(out, sysd, warnings)
    _old_spellings(sysd)
    items = _items(out)
    for i, item in enumerate(items):
        isys = item.get("system") if isinstance(item, dict) else None
        if isinstance(isys, dict) and item.get("type") == "Bonus" and str(isys.get("parentid")) in _FORM_KEYS:
            items[i] = None  # a form's Attribute change (4.2.0, 6.0.6): stkit's forms table holds them
    abilities = sysd.get("abilities")
    if _is_flat(abilities):
        assert isinstance(abilities, dict)
        grouped: dict[str, dict] = {g: {} for g in _GROUPS}
        for key, entry in abilities.items():
            if key in _GROUPS and not (isinstance(entry, dict) and "value" in entry):
                continue  # the grouped copy 3.1.0 left behind; the flat entry is the live one
            group = str(entry.get("type")) if isinstance(entry, dict) else ""
            grouped[group if group in _GROUPS else "talent"][str(key)] = (
                {k: v for k, v in entry.items() if k != "type"} if isinstance(entry, dict) else entry
            )
        sysd["abilities"] = grouped
    fera = str(sysd.get("changingbreed") or "")
    fera = "Mokole" if fera in ("Mokolé", "Mokolé") else fera
    if fera:
        sysd["changingbreed"] = fera
    for f in ("breed", "auspice", "tribe"):
        value = sysd.get(f)
        if isinstance(value, str) and value.startswith("wod.bio."):
            sysd[f] = key_name(value, fera, f)
    custom = sysd.get("custom")
    if isinstance(custom, dict):
        if sysd.get("tribe") == "custom":
            sysd["tribe"] = str(custom.get("tribe") or "")
        rest = {k: v for k, v in custom.items() if k != "tribe" and v}
        for k in rest:
            warnings.append(f"system.custom.{k}: not kept")
        del sysd["custom"]
    for f in ("background", "notes"):
        if isinstance(sysd.get(f), str):
            sysd[f] = html_to_text(sysd[f])
    bio = sysd.get("bio")
    if isinstance(bio, dict):
        for k in ("background", "biography", "notes", "appearance", "roleplaytip"):
            if isinstance(bio.get(k), str):
                bio[k] = html_to_text(bio[k])
    return out, layout, warnings


def _old_spellings(sysd: dict) -> None:
    """Versions before 2.2.0 and 1.5.0: the advantages at the top of ``system``, ``visible`` / ``active``."""
    adv = sysd.setdefault("advantages", {}) if "advantages" in sysd or any(k in sysd for k in ADVANTAGE_IDS) else None
    if isinstance(adv, dict):
        for k in ADVANTAGE_IDS:
            if isinstance(sysd.get(k), dict):
                adv.setdefault(k, sysd.pop(k))
    for block in ("attributes", "shapes"):
        entries = sysd.get(block)
        if isinstance(entries, dict):
            for v in entries.values():
                if isinstance(v, dict):
                    for old, new in (("visible", "isvisible"), ("active", "isactive")):
                        if old in v:
                            v.setdefault(new, v.pop(old))
    abilities = sysd.get("abilities")
    if isinstance(abilities, dict):
        for group in abilities.values():
            if isinstance(group, dict):
                for v in group.values():
                    if isinstance(v, dict) and "visible" in v:
                        v.setdefault("isvisible", v.pop("visible"))


def _leftovers(item_sys: dict, kept: set[str]) -> list[str]:
    """The paths (``system.<key>``) of the filled values of a translated item that nothing keeps."""
    out = []
    for k, v in item_sys.items():
        if k in kept or k in _ITEM_QUIET:
            continue
        if (
            (isinstance(v, str) and v.strip() and html_to_text(v).strip())
            or (isinstance(v, bool) and v)
            or (isinstance(v, (int, float)) and not isinstance(v, bool) and v)
        ):
            out.append(f"system.{k}")
    return out


def _from_pc(out: dict, sysd: dict, warnings: list[str]) -> None:
    """Translate a ``PC`` data-model actor in place: its Splat, Ability, Advantage and shapeform items and
    its ``bio`` into the legacy ``system`` fields; each translated item becomes None in ``items`` (so the
    other items keep their index in the warnings)."""
    items = _items(out)
    settings = sysd.setdefault("settings", {}) if isinstance(sysd.get("settings"), dict) else {}
    sysd["settings"] = settings
    splat = {k: settings.get("splat" if k == "id" else k) for k in ("id", "game", "variant", "variantsheet")}
    abilities: dict[str, dict] = {g: {} for g in _GROUPS}
    advantages: dict[str, dict] = {}
    renown: dict[str, Any] = {}
    shapes: dict[str, dict] = {}
    fera_renown: dict[str, tuple[dict, str]] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        itype = str(item.get("type") or "")
        isys: dict = item["system"] if isinstance(item.get("system"), dict) else {}
        name = str(item.get("name") or "")
        where = f"items[{i}] ({itype} {shown_value(name)})"
        kept: set[str] = set()
        if itype == "Splat":
            st: dict = isys["settings"] if isinstance(isys.get("settings"), dict) else {}
            splat = {k: st.get(k) or splat.get(k) for k in ("id", "game", "variant", "variantsheet")}
            kept = {"bio", "abilities", "advantages", "features", "powers", "health", "description"}
        elif itype == "Ability":
            group = str(isys.get("type") or "").rsplit(".", 1)[-1]
            key = str(isys.get("id") or "") or name  # a custom Ability by its own name: "N" and "n" are two
            entry = {"value": isys.get("value", 0), "speciality": isys.get("speciality", "")}
            # a name that is not Foundry's own for the key ("ART" in the slot "art") is the Ability's own
            if not isys.get("id") or norm(name) != key or name not in (ability_names().get(key), key.capitalize()):
                entry["altlabel"] = name
            abilities[group if group in _GROUPS else "talent"][key] = entry
            kept = {"speciality"}
        elif itype == "Advantage":
            aid = str(isys.get("id") or "") or norm(name)
            track = {"permanent": isys.get("permanent", 0), "temporary": isys.get("temporary", 0)}
            if aid in ADVANTAGE_IDS:
                advantages[aid] = track
            elif aid in RENOWN_IDS:
                renown[aid] = track
            elif aid == "rank":
                renown["rank"] = isys.get("permanent", 0)
            elif aid in _FERA_RENOWN:
                fera_renown[aid] = (track, where)
            elif isys.get("permanent") or isys.get("temporary"):
                warnings.append(f"{where}: not kept: not a Werewolf Revised trait")
                items[i] = None
                continue
            else:  # an empty row of another game's trait (the Ananasi's blood pool): nothing to keep
                items[i] = None
                continue
            kept = {"permanent", "temporary", "bearingtext"}
        elif itype == "Trait" and isys.get("type") == "wod.types.shapeform":
            key = str(isys.get("label") or "").rsplit(".", 1)[-1] or norm(name)
            shapes[key] = {"isactive": bool(isys.get("isactive"))}
            kept = {"isactive", "details", "description", "speciality", "worldanvil"}
        else:
            continue
        dropped = _leftovers(isys, kept)
        if dropped:
            warnings.append(f"{where}: not kept: {', '.join(sorted(set(dropped)))}")
        items[i] = None
    sid, variant, sheet = (str(splat.get(k) or "").lower() for k in ("id", "variant", "variantsheet"))
    # the splat's sheet says what the creature is: "werewolf" a Garou, "changingbreed" a Fera of the variant
    if sid in ("werewolf", "changingbreed") or sheet in ("werewolf", "changingbreed"):
        out["type"] = "Changing Breed" if "changingbreed" in (sid, sheet) else "Werewolf"
        if out["type"] == "Changing Breed":
            sysd["changingbreed"] = "Mokole" if variant in ("mokole", "mokolé") else variant.capitalize()
    elif variant == "kinfolk":
        settings["variant"] = "kinfolk"
    # a Fera's own Renown goes to the sheet's slot for it (breeds.RENOWN_NAMES: a Bastet's Ferocity in Glory)
    try:
        slots = B.renown_names(str(sysd.get("changingbreed") or B.GAROU)) if out.get("type") != "PC" else {}
    except Exception:  # an unknown Changing Breed: the reader names it
        slots = {}
    by_name = {norm(n): slot.lower() for slot, n in slots.items()}
    for aid, (track, where) in fera_renown.items():
        if aid in by_name and by_name[aid] not in renown:
            renown[by_name[aid]] = track
        else:
            warnings.append(f"{where}: not kept: not a Renown of this breed")
    if advantages.get("rage"):
        settings["hasrage"] = True
    if advantages.get("gnosis"):
        settings["hasgnosis"] = True
    sysd["abilities"] = abilities
    sysd["advantages"] = advantages
    sysd["renown"] = renown
    if shapes:
        sysd["shapes"] = shapes
    bio: dict = sysd["bio"] if isinstance(sysd.get("bio"), dict) else {}
    fields = bio.pop("splatfields", None)
    if isinstance(fields, dict):
        for target, keys in SPLAT_FIELDS.items():
            for k in keys:
                f = fields.pop(k, None)
                if isinstance(f, dict) and f.get("value") not in (None, "") and not sysd.get(target):
                    sysd[target] = f.get("value")
        for k, f in fields.items():
            if isinstance(f, dict) and str(f.get("value") or "").strip():
                warnings.append(f"system.bio.splatfields.{k}.value: not kept")
    for k in ("nature", "demeanor", "concept"):
        if k in bio:
            sysd[k] = bio.pop(k)
    for k in ("background", "notes"):
        if k in bio:
            sysd[k] = bio.pop(k)
    for k in ("splatfields",):
        bio.pop(k, None)
    sysd["bio"] = bio
    for k in ("movement", "favoriterolls", "soak", "initiative"):
        sysd.pop(k, None)  # worked out by Foundry from the sheet, or display settings
    gear = sysd.get("gear")
    if isinstance(gear, dict):
        money: dict = gear["money"] if isinstance(gear.get("money"), dict) else {}
        if not any(money.values()) and not html_to_text(str(gear.get("notes") or "")).strip():
            sysd.pop("gear")
        else:
            sysd["gear"] = {"notes": html_to_text(str(gear.get("notes") or "")), "money": money}
