"""How foundry-pc-bastet-v7.json and foundry-pc-ratkin-v7.json were made (kept for the record; not run by tests).

Each is a ``PC`` actor as Foundry VTT's WoD20 system (v7.2.5) builds one when a Splat is dropped on a new
actor: the actor's ``system`` block is that of foundry-pc-werewolf-v7.json (a 7.2.4 export) with the
Splat's settings, and its items are the Splat item itself and copies of the Splat's own Ability,
Advantage and shapeform Trait items, taken from the system's compendium (github JohanFalt/Foundry_WoD20
v7.2.5, ``packs/splats``: "Bastet - Khan" and "Ratkin - metis", read with tools/foundry_splats.py's
LevelDB reader), then given values as a player would on the sheet.

Usage: python make_foundry_fera.py PATH/TO/Foundry_WoD20
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[2] / "tools"))
import foundry_splats  # noqa: E402


def build(docs: dict, splat_name: str, name: str, values: dict, fields: dict) -> dict:
    splat = next(d for d in docs.values() if d.get("type") == "Splat" and d.get("name") == splat_name)
    base = json.loads((HERE / "foundry-pc-werewolf-v7.json").read_text(encoding="utf-8"))
    actor = {k: copy.deepcopy(v) for k, v in base.items() if k != "items"}
    actor["_id"] = f"Fera{name[:12]:x<12}"
    actor["name"] = name
    st = splat["system"]["settings"]
    sysd = actor["system"]
    for k in ("game", "variant", "variantsheet"):
        sysd["settings"][k] = st[k]
    sysd["settings"]["splat"] = st["id"]
    sysd["settings"]["soak"] = copy.deepcopy(st["soak"])
    sysd["bio"]["splatfields"] = {
        f["key"]: {k: f.get(k, "") for k in ("label", "value", "type", "listdata")}
        | {"isremovable": False, "isvisible": True}
        for f in splat["system"]["bio"]
    }
    for key, value in fields.items():
        sysd["bio"]["splatfields"][key]["value"] = value
    items = [{k: copy.deepcopy(v) for k, v in splat.items() if k not in ("folder", "_stats")}]
    for section in ("abilities", "advantages", "features"):
        for it in splat["system"][section]:
            items.append(copy.deepcopy(it))
    for i, it in enumerate(items):
        it["_id"] = f"{name[:4]}{it['type'][:4]}{i:08d}"
        key = it["name"]
        if key in values:
            it["system"].update(values[key])
    actor["items"] = items
    for a, v in values.get("attributes", {}).items():
        sysd["attributes"][a]["value"] = v
    return actor


def main() -> None:
    docs = foundry_splats.documents(Path(sys.argv[1]) / "packs" / "splats")
    bastet = build(
        docs,
        "Bastet - Khan",
        "Burns-Like-Noon",
        {
            "Brawl": {"value": 3},
            "Primal Urge": {"value": 2},
            "Craft": {"value": 1, "speciality": ""},
            "Rage": {"permanent": 4, "temporary": 3},
            "Gnosis": {"permanent": 3, "temporary": 3},
            "Willpower": {"permanent": 5, "temporary": 4},
            "Renown - Ferocity": {"permanent": 3, "temporary": 1},
            "Renown - Honor": {"permanent": 2, "temporary": 0},
            "Renown - Cunning": {"permanent": 1, "temporary": 2},
            "Rank [5]": {"permanent": 1},
            "Khan - Chatro": {"isactive": True},
        },
        {"breed": "wod.bio.breedname.feline", "pryio": "wod.bio.pryioname.night"},
    )
    ratkin = build(
        docs,
        "Ratkin - metis",
        "Gnaws-the-Wire",
        {
            "Stealth": {"value": 3},
            "Primal Urge": {"value": 1},
            "Rage": {"permanent": 2, "temporary": 2},
            "Gnosis": {"permanent": 4, "temporary": 1},
            "Willpower": {"permanent": 4, "temporary": 4},
            "Renown - Infamy": {"permanent": 2, "temporary": 1},
            "Renown - Obligation": {"permanent": 1, "temporary": 0},
            "Renown - Cunning": {"permanent": 3, "temporary": 3},
            "Rank [5]": {"permanent": 1},
            "Crinos - metis": {"isactive": True},
        },
        {"breed": "wod.bio.breedname.metis", "auspice": "wod.bio.aspectname.engineers"},
    )
    for fname, actor in (("foundry-pc-bastet-v7.json", bastet), ("foundry-pc-ratkin-v7.json", ratkin)):
        (HERE / fname).write_text(json.dumps(actor, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
