"""`stkit char arm NAME --weapon KNIFE --armour "class three"`: weapons and armour from the packaged table
(:mod:`stkit.sheet.arms`, the Revised values with their sources) put on a sheet without editing YAML.

Registered into the `char` group by :func:`register` (called from stkit.cli.char.commands). Only typer and the
standard library at module level.
"""

from __future__ import annotations

from typing import Annotated

import typer

from stkit.cli.common import run
from stkit.cli.complete import CharacterNameArg as NameArg
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import DbOpt, JsonOpt


def arm(
    name: NameArg,
    weapon: Annotated[
        list[str] | None,
        typer.Option("--weapon", "-w", help="A weapon from the table (knife, sword, heavy pistol...). Repeatable."),
    ] = None,
    armour: Annotated[
        list[str] | None,
        typer.Option("--armour", "--armor", "-a", help="Armour from the table (class one .. class five)."),
    ] = None,
    drop: Annotated[
        list[str] | None, typer.Option("--drop", help="Put down a weapon or armour the sheet holds. Repeatable.")
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="Show the table's weapons and armour, and exit.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Arm a character from the packaged weapon and armour table.

    The weapon is equipped and usable at once (`stkit attack NAME TARGET
    --weapon knife`, or the page's Attack); armour put on replaces the armour
    worn before. Example: `stkit char arm Maria --weapon "heavy pistol"
    --armour "class three"`; `stkit char arm x --list` shows the table."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.sheet import arms  # lazy: start-up (loaded when the command runs)

    if list_:
        table = {
            "weapons": {n: arms.weapon_entry(n) for n in arms.weapon_names()},
            "armour": {n: arms.armour_entry(n) for n in arms.armour_names()},
            "sources": {k: arms.arms_data()[k]["source"] for k in ("weapons", "armour")},
        }
        if json_out:
            render.print_json(table)
            return
        out = render.console()
        for n, w in table["weapons"].items():
            damage = " + ".join(p for p in (w["damage_attribute"], str(w["damage_bonus"])) if p and p != "0")
            out.print(render.safe_text(f"weapon {n}: {w['attack_ability']}, damage {damage} {w['damage_type']}"))
        for n, a in table["armour"].items():
            out.print(render.safe_text(f"armour {n}: +{a['bashing']} soak, -{a['dexterity_penalty']} Dexterity"))
        return
    if not (weapon or armour or drop):
        raise typer.BadParameter("give --weapon, --armour or --drop (or --list to see the table)")
    from stkit.store.characters import Edit, edit_character  # lazy: start-up (loaded when the command runs)

    def change(sheet):
        lines = arms.arm(sheet, weapons=list(weapon or []), armour=list(armour or []), drop=list(drop or []))
        return Edit(sheet, f"{sheet.name} " + "; ".join(lines), [], {"changes": lines})

    edit = run(db, lambda gw: edit_character(gw, name, chronicle, change))
    if json_out:
        render.print_json(edit.to_dict())
    else:
        render.console().print(render.safe_text(edit.summary, style="bold", multiline=True))


def register(char_app: typer.Typer) -> None:
    """Add `arm` to the `char` group (once)."""
    if any(c.name == "arm" for c in char_app.registered_commands):
        return
    char_app.command("arm")(arm)
