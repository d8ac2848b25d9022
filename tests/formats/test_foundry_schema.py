"""The export of every example character checked against the fields of the Foundry VTT WoD20 system itself.

The field lists below are written by hand from the system's source (github JohanFalt/Foundry_WoD20, v7.2.5),
not from stkit's writer:

- the ``PC`` actor: ``module/actor/datamodel/pc-actor-datamodel.js`` with ``base/actor_settings.js``,
  ``base/actor_traits.js``, ``base/actor_attributes.js`` and ``base/actor_health.js``;
- the ``Ability``, ``Advantage`` and ``Splat`` items: ``module/items/datamodel/ability-item-datamodel.js``,
  ``advantage-item-datamodel.js``, ``spalt-item-datamodel.js`` and ``base/item_base_settings.js``;
- the other item types: ``template.json`` (``Item.types`` and each type's templates).

A data model drops every field it does not define and refuses a value of the wrong kind (an integer field
given text, a negative value where ``min: 0``), so an export passes when each of its fields is defined there
with the right kind of value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stkit.formats.foundry import to_foundry
from stkit.store.files import load_file, load_files

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("data")

UINT, INT, STR, BOOL, HTML, OBJ, LIST = "uint", "int", "str", "bool", "html", "object", "list"

_SOAK_SETTING = {"bonus": INT, "isrollable": BOOL}
_DAMAGES = {"bashing": UINT, "lethal": UINT, "aggravated": UINT}
_MAXVALUE = {"defaultmaxvalue": INT}
PC_SETTINGS = {
    **dict.fromkeys(
        [
            "iscreated",
            "isupdated",
            "isshapecreated",
            "usechimerical",
            "usesplatfont",
            "haswillpower",
            "hasgnosis",
            "hasvirtue",
            "hasrenown",
            "hasquintessence",
            "hasdisciplines",
            "hascombinationdisciplines",
            "hasrituals",
            "hasgifts",
            "hasrites",
            "hasshapes",
            "hasapocalypticforms",
            "hasspheres",
            "hasrotes",
            "hasresonances",
            "hasnuminas",
            "hasrealms",
            "haslores",
            "hasedges",
        ],
        BOOL,
    ),
    **dict.fromkeys(["version", "era", "splat", "game", "variant", "variantsheet", "dicesetting"], STR),
    "attributes": _MAXVALUE,
    "abilities": _MAXVALUE,
    "powers": _MAXVALUE,
    "soak": {
        "bashing": _SOAK_SETTING,
        "lethal": _SOAK_SETTING,
        "aggravated": _SOAK_SETTING,
        "chimerical": {"bashing": _SOAK_SETTING, "lethal": _SOAK_SETTING, "aggravated": _SOAK_SETTING},
    },
}
_ATTRIBUTE = {
    "value": UINT,
    "bonus": INT,
    "total": INT,
    "max": UINT,
    "type": STR,
    "label": STR,
    "speciality": STR,
    "sort": INT,
    "isvisible": BOOL,
    "isfavorited": BOOL,
}
_LEVEL = {"value": UINT, "total": UINT, "penalty": INT, "label": STR}
_HEALTH = {
    "damage": {**_DAMAGES, "woundlevel": STR, "woundpenalty": INT, "chimerical": _DAMAGES},
    **{level: _LEVEL for level in ("bruised", "hurt", "injured", "wounded", "mauled", "crippled", "incapacitated")},
}
_SPEED = {"value": UINT, "isactive": BOOL}
PC_SYSTEM = {
    "settings": PC_SETTINGS,
    "traits": {"health": {"totalhealthlevels": {"value": INT, "max": INT}}},
    "bio": {
        **dict.fromkeys(["worldanvil", "name", "nature", "demeanor", "derangement", "concept"], STR),
        "splatfields": OBJ,
        **dict.fromkeys(["appearance", "background", "notes", "roleplaytip"], HTML),
    },
    "attributes": {
        a: _ATTRIBUTE
        for a in [
            "strength",
            "dexterity",
            "stamina",
            "charisma",
            "manipulation",
            "appearance",
            "composure",
            "perception",
            "intelligence",
            "wits",
            "resolve",
        ]
    },
    "soak": {**_DAMAGES, "chimerical": _DAMAGES},
    "health": _HEALTH,
    "initiative": {"base": UINT, "bonus": UINT, "total": UINT},
    "conditions": {"isignoringpain": BOOL, "isstunned": BOOL, "isfrenzy": BOOL},
    "movement": {s: _SPEED for s in ("walk", "jog", "run", "fly", "vjump", "hjump")},
    "gear": {"notes": HTML, "money": {"carried": INT, "bank": INT}},
    "favoriterolls": LIST,
}
ITEM_SETTINGS = {
    **dict.fromkeys(["iscreated", "isupdated", "isactive", "isvisible", "isremovable"], BOOL),
    "version": STR,
    "order": UINT,
}
ABILITY_ITEM = {
    "settings": {
        **ITEM_SETTINGS,
        "itemuuid": STR,
        **dict.fromkeys(["alwaysspeciality", "isfavorited", "ismeleeweapon", "israngedeweapon", "ispower"], BOOL),
    },
    **dict.fromkeys(["id", "reference", "type", "label"], STR),
    "value": UINT,
    "bonus": INT,
    "total": UINT,
    "max": UINT,
    "speciality": STR,
    "description": HTML,
}
ADVANTAGE_ITEM = {
    "settings": {
        **ITEM_SETTINGS,
        "itemuuid": STR,
        **dict.fromkeys(["usepermanent", "usetemporary", "useroll", "usebothrolls", "highertemporary"], BOOL),
    },
    **dict.fromkeys(["id", "reference", "type", "group", "label"], STR),
    **dict.fromkeys(["permanent", "temporary", "max", "roll", "perturn"], UINT),
    "bearing": INT,
    "bearingtext": STR,
    "imbalance": UINT,
    "description": HTML,
}
SPLAT_ITEM = {
    "settings": {
        **ITEM_SETTINGS,
        **dict.fromkeys(["id", "game", "era", "variant", "variantsheet"], STR),
        "usechimerical": BOOL,
        "attributes": _MAXVALUE,
        "abilities": _MAXVALUE,
        "powers": _MAXVALUE,
        "soak": PC_SETTINGS["soak"],
    },
    "reference": STR,
    "description": HTML,
    **dict.fromkeys(["bio", "abilities", "advantages", "features", "powers"], LIST),
    "health": _HEALTH,
}
DATA_MODEL_ITEMS = {"Ability": ABILITY_ITEM, "Advantage": ADVANTAGE_ITEM, "Splat": SPLAT_ITEM}
#: template.json: Item.types, and the fields of the types stkit writes, each the union of its templates
#: ("settings", "base", "feature", "object", "weapon", "power") and its own fields.
_T = {
    "settings": {"iscreated", "isactive", "isvisible", "isremovable", "order", "version", "parentid", "itemuuid"},
    "base": {"worldanvil", "reference", "description", "details", "property", "bonuslist"},
    "feature": {"type", "level", "value", "max", "placement", "isrollable"},
    "object": {"era", "container", "iscontainer", "isequipped", "ismagical", "isweapon"},
    "weapon": {"attack", "damage", "conceal", "difficulty", "istwohanded", "minstrength", "piercing"},
    "power": {"game", "dice1", "dice2", "difficulty", "bonus", "secondaryabilityid", "arttype", "charmtype"}
    | {"category", "spendblood", "spendglamour", "spendgnosis", "spendrage", "spendwillpower"},
}
TEMPLATE_ITEMS = {
    "Power": _T["settings"] | _T["base"] | _T["feature"] | _T["power"],
    "Feature": _T["settings"] | _T["base"] | _T["feature"],
    "Trait": _T["settings"]
    | _T["base"]
    | _T["feature"]
    | {"label", "speciality", "dice1", "dice2", "bonus", "difficulty", "icon", "isfavorited", "ismeleeweapon"}
    | {"israngedeweapon", "israngedweapon", "ispower", "soak", "tokenimage", "usesoaksettings"},
    "Fetish": _T["settings"] | _T["base"] | _T["object"] | _T["feature"] | {"gnosis", "difficulty"},
    "Melee Weapon": _T["settings"] | _T["base"] | _T["object"] | _T["weapon"] | {"isnatural"},
    "Ranged Weapon": _T["settings"] | _T["base"] | _T["object"] | _T["weapon"] | {"range", "rate", "clip", "mode"},
    "Armor": _T["settings"] | _T["base"] | _T["object"] | {"soak", "dexpenalty", "forms"},
    # the system's own code reads an entry's kind from system.type (module/scripts/item-helpers.js)
    "Experience": _T["settings"] | _T["base"] | {"isspent", "amount", "type"},
}
ITEM_TYPES = {
    "Splat",
    "Ability",
    "Advantage",
    "Sphere",
    "Realm",
    "Armor",
    "Bonus",
    "Experience",
    "Feature",
    "Fetish",
    "Item",
    "Melee Weapon",
    "Ranged Weapon",
    "Power",
    "Rote",
    "Trait",
}


def _problems(value: object, schema: object, path: str) -> list[str]:
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return [f"{path}: expected an object"]
        out = []
        for k, v in value.items():
            if k not in schema:
                out.append(f"{path}.{k}: not a field of the data model")
            else:
                out += _problems(v, schema[k], f"{path}.{k}")
        return out
    ok = {
        UINT: isinstance(value, int) and not isinstance(value, bool) and value >= 0,
        INT: isinstance(value, int) and not isinstance(value, bool),
        STR: isinstance(value, str),
        HTML: isinstance(value, str),
        BOOL: isinstance(value, bool),
        OBJ: isinstance(value, dict),
        LIST: isinstance(value, list),
    }[str(schema)]
    return [] if ok else [f"{path}: {value!r} is not a {schema} value"]


def problems(actor: dict) -> list[str]:
    """Every field of the exported ``actor`` that the current system does not define or would refuse."""
    out = [] if actor["type"] == "PC" else [f"type: {actor['type']!r} is not the PC data model"]
    out += _problems(actor["system"], PC_SYSTEM, "system")
    for i, item in enumerate(actor["items"]):
        where = f"items[{i}] ({item['type']} {item['name']!r}).system"
        if item["type"] not in ITEM_TYPES:
            out.append(f"{where}: {item['type']!r} is not an item type of the system")
        elif item["type"] in DATA_MODEL_ITEMS:
            out += _problems(item["system"], DATA_MODEL_ITEMS[item["type"]], where)
        else:
            out += [
                f"{where}.{k}: not a field of the template"
                for k in item["system"]
                if k not in TEMPLATE_ITEMS[item["type"]]
            ]
    return out


def _example_sheets():
    sheets = [load_file(p).sheet for p in sorted((REPO / "characters").glob("*.yaml"))]
    sheets += [load_file(DATA / n).sheet for n in sorted(p.name for p in DATA.glob("foundry-*.json"))]
    sheets += [lf.sheet for lf in load_files(DATA / "grapevine-troupe.gex")]
    return sheets


@pytest.mark.parametrize("sheet", _example_sheets(), ids=lambda s: s.name)
def test_the_export_holds_only_fields_the_current_data_model_defines(sheet):
    actor = json.loads(json.dumps(to_foundry(sheet)))
    assert problems(actor) == []
    kinds = {i["type"] for i in actor["items"]}
    assert {"Splat", "Ability"} <= kinds
    if sheet.creature == "shapeshifter":
        assert {"Advantage", "Trait"} <= kinds


def test_the_check_catches_what_the_data_model_would_drop():
    sheet = load_file(REPO / "characters" / "archibald.yaml").sheet
    legacy = json.loads(json.dumps(to_foundry(sheet, "legacy")))
    found = problems(legacy)
    assert "type: 'Werewolf' is not the PC data model" in found
    assert "system.abilities: not a field of the data model" in found
    assert "system.advantages: not a field of the data model" in found
    bad = json.loads(json.dumps(to_foundry(sheet)))
    bad["system"]["attributes"]["wits"]["value"] = "3"
    bad["items"][1]["system"]["value"] = -1
    assert problems(bad) == [
        "system.attributes.wits.value: '3' is not a uint value",
        "items[1] (Ability 'Alertness').system.value: -1 is not a uint value",
    ]
