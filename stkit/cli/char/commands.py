"""`stkit char ...` (the character store) and `stkit log` (the roll log).

Only typer and the standard library at module level: the store (sqlmodel), rich and YAML are imported
inside the commands. Every command is one database transaction.
"""

from __future__ import annotations

import copy
import enum
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.cells import csv_cell as _csv_cell
from stkit.cli.cells import local_iso, local_time
from stkit.cli.common import run
from stkit.cli.complete import CharacterNameArg as NameArg
from stkit.cli.complete import complete_character
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import ChronicleOpt as NewChronicleOpt
from stkit.cli.options import (
    DamageOnesCancelOpt,
    DbOpt,
    ForceOpt,
    JsonOpt,
    OnesDontCancelOpt,
    SeedOpt,
    YesOpt,
    rule_options,
)
from stkit.errors import InvalidValue
from stkit.sheet.vocab import DamageType, Power
from stkit.text import check_range, counted, printable

if TYPE_CHECKING:  # pragma: no cover
    from stkit.sheet.sheet import Sheet
    from stkit.store.db.gateway import Gateway

#: The most points or health levels one command spends, regains, marks or heals (Traits and health
#: tracks are far smaller; a larger number is a typing slip).
MAX_COUNT = 100


def _power(value: str) -> str:
    """'willpower', 'rage' or 'gnosis' from what was typed: any case, or a sheet's short form ('wp', as
    :data:`stkit.sheet.traits.ABBREVIATIONS` lists it). A usage error (exit 2) names anything else."""
    from stkit.sheet.traits import ABBREVIATIONS, norm  # lazy: start-up (loaded when the command runs)

    key = norm(value)
    key = norm(ABBREVIATIONS.get(key, key))
    if key not in {p.value for p in Power}:
        raise typer.BadParameter(f"{value!r} is not willpower (or wp), rage or gnosis")
    return key


def _complete_power(incomplete: str) -> list[str]:
    return [p.value for p in Power if p.value.startswith(incomplete.casefold())]


PowerArg = Annotated[
    str,
    typer.Argument(
        help="willpower (or wp), rage or gnosis.",
        callback=_power,
        autocompletion=_complete_power,
        show_default=False,
    ),
]


class FoundryLayout(enum.StrEnum):
    """Which Foundry VTT WoD20 actor layout `char export --format foundry` writes."""

    current = "current"
    legacy = "legacy"


class FormatChoice(enum.StrEnum):
    yaml = "yaml"
    json = "json"
    foundry = "foundry"


class XpAction(enum.StrEnum):
    award = "award"
    spend = "spend"
    log = "log"
    undo = "undo"


char_app = typer.Typer(
    name="char",
    help="Werewolf characters in the store: create, show, edit, wound.",
    no_args_is_help=True,
)


# ----- helpers -------------------------------------------------------------------------------------------
def load_sheet(db: str | None, name: str, chronicle: str | None) -> tuple[Sheet, int]:
    """(sheet, id) of the stored character ``name``; NotFound / InvalidValue as find_character raises."""
    from stkit.store.characters import find_character  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> tuple[Sheet, int]:
        row = find_character(gw, name, chronicle)
        return row.to_sheet(), row.id

    return run(db, work, readonly=True)


def emit_json(data: object) -> None:
    from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

    print_json(data)


def print_edit(edit, json_out: bool) -> None:
    """One edit's summary line (and warnings in yellow), or its JSON."""
    if json_out:
        emit_json(edit.to_dict())
        return

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = render.console()
    out.print(render.safe_text(edit.summary, style="bold", multiline=True))
    for w in edit.warnings:
        out.print(render.safe_text(f"Warning: {w}", style="yellow"))


def printable_sheet(sheet):
    """A copy of ``sheet`` whose text shows control characters as escapes (``\x1b``): rows stored before
    text was checked must not write raw escape sequences to a terminal."""

    s = copy.deepcopy(sheet)
    for f in ("name", "chronicle", "player", "concept", "nature", "demeanor", "tribe", "pack", "totem", "deformity"):
        setattr(s, f, printable(getattr(s, f)))
    s.notes = printable(s.notes, multiline=True)
    s.biography = printable(s.biography, multiline=True)
    s.specialties = {printable(k): printable(v) for k, v in s.specialties.items()}
    for section in ("fetishes", "weapons", "armor"):
        for e in getattr(s, section):
            for k, v in e.items():
                if isinstance(v, str):
                    e[k] = printable(v)
    s.storyteller_notes = printable(s.storyteller_notes, multiline=True)
    for section in ("gifts", "rites", "merits", "flaws"):
        for e in getattr(s, section):
            e["name"] = printable(e["name"])
    s.custom_abilities = {printable(k): v for k, v in s.custom_abilities.items()}
    s.backgrounds = {printable(k): v for k, v in s.backgrounds.items()}
    s.specialties = {printable(k): printable(v) for k, v in s.specialties.items()}
    for e in s.xp_log:
        e["reason"], e["at"] = printable(e.get("reason", "")), printable(e.get("at", ""))
    return s


def dots(n: int, maximum: int = 5) -> str:
    """'●●●○○' for 3 of 5 (more dots than the maximum are all shown)."""
    return "●" * n + "○" * max(maximum - n, 0)


def boxes(n: int, maximum: int) -> str:
    """'■■■□□' for 3 points of 5 (points above the rating are all shown)."""
    return "■" * n + "□" * max(maximum - n, 0)


def sheet_json(sheet, *, player_view: bool = False, char_id: int | None = None) -> dict:
    """The sheet's file shape plus derived values (form-adjusted Attributes, wound penalty...)."""
    from stkit.sheet.forms import in_form  # lazy: start-up (loaded when the command runs)

    data = sheet.to_dict(player_view=player_view)
    data["id"] = char_id
    data["derived"] = {
        "attributes_in_form": {a: in_form(sheet, a, v) for a, v in sheet.attributes.items()},
        "health_level": sheet.health_level,
        "health_boxes": sheet.health_boxes(),
        "wound_penalty": sheet.wound_penalty,
        "incapacitated": sheet.incapacitated,
        "experience_available": sheet.xp_available,
        "next_rank": next_rank(sheet),
    }
    return data


def next_rank(sheet) -> dict | None:
    """What the sheet's next Rank needs (stkit.sheet.ranks.next_rank), or None."""
    from stkit.sheet.ranks import next_rank as needs  # lazy: start-up (loaded when the command runs)

    return needs(sheet)


def render_sheet(sheet, *, player_view: bool = False) -> None:
    """A readable character sheet with dots. Built from rich Text lines in fixed columns (no rich Table:
    `char show` must start fast)."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    sheet = printable_sheet(sheet)
    lines = _identity_lines(sheet) + _trait_lines(sheet) + _track_lines(sheet) + _note_lines(sheet, player_view)
    out = render.console()
    out.print(Text("\n").join(lines), crop=False, overflow="ignore")


def _identity_lines(sheet) -> list:
    """The name line and the label/value pairs (Player, Concept ... Form), two a line."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    head = Text(sheet.name, style="bold")
    head.append(f"  ({sheet.chronicle})", style="dim")
    lines = [head]
    pairs = [
        ("Player", sheet.player),
        ("Concept", sheet.concept),
        ("Nature", sheet.nature),
        ("Demeanor", sheet.demeanor),
        ("Breed", sheet.breed),
        ("Auspice", sheet.auspice),
        ("Tribe", sheet.tribe),
        ("Pack", sheet.pack),
        ("Totem", sheet.totem),
        ("Rank", str(sheet.rank)),
    ]
    if sheet.has_forms:
        pairs.append(("Form", sheet.form))
    if sheet.deformity:
        pairs.insert(pairs.index(("Tribe", sheet.tribe)) + 1, ("Deformity", sheet.deformity))
    if sheet.fera != "Garou" or sheet.creature != "shapeshifter":
        kind = {"shapeshifter": sheet.fera, "mortal": "Mortal"}.get(sheet.creature, f"Kinfolk of the {sheet.fera}")
        pairs.insert(0, ("Creature", kind))
    for i in range(0, len(pairs), 2):
        row = Text()
        for label, value in pairs[i : i + 2]:
            row.append(f"{label:<9}", style="dim")
            row.append(f"{value or '-':<27}")
        lines.append(row)
    return lines


def _cell(sheet, name: str, rating: int, shown: int | None = None, width: int = 27):
    """One Trait in a fixed-width column: name, dots, and the form's rating when it differs."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    t = Text(f"{name:<14}")
    t.append(dots(rating), style="bold")
    extra = f" {shown} in {sheet.form}" if shown is not None and shown != rating else ""
    t.append(extra, style="cyan")
    t.append(" " * max(width - 14 - 5 - len(extra), 1))
    return t


def _header(*titles: str, width: int = 27):
    """Column titles, underlined, each padded to ``width``."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    t = Text()
    for title in titles:
        t.append(title, style="bold underline" if title else "")
        t.append(" " * (width - len(title)))
    return t


def _trait_lines(sheet) -> list:
    """Attributes (with the form's ratings), Abilities, Specialties and the named lists (Backgrounds ...)."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.sheet import traits as T  # lazy: start-up (loaded when the command runs)
    from stkit.sheet.forms import in_form  # lazy: start-up (loaded when the command runs)

    lines = [Text(""), _header("Physical", "Social", "Mental", width=32)]
    groups = list(T.ATTRIBUTE_GROUPS.values())
    for i in range(3):
        t = Text()
        for g in groups:
            a = g[i]
            t.append_text(_cell(sheet, a, sheet.attributes[a], in_form(sheet, a), width=32))
        lines.append(t)
    lines += [Text(""), _header("Talents", "Skills", "Knowledges")]
    for i in range(10):
        t = Text()
        for g in (T.TALENTS, T.SKILLS, T.KNOWLEDGES):
            t.append_text(_cell(sheet, g[i], sheet.abilities.get(g[i], 0)))
        lines.append(t)
    others = {**{a: v for a, v in sheet.abilities.items() if a in T.SECONDARY_ABILITIES}, **sheet.custom_abilities}
    if others:
        lines.append(
            Text("Other abilities: ", style="bold") + Text(", ".join(f"{k} {dots(v)}" for k, v in others.items()))
        )
    if sheet.specialties:
        lines.append(
            Text("Specialties: ", style="bold") + Text(", ".join(f"{k} ({v})" for k, v in sheet.specialties.items()))
        )
    lines.append(Text(""))
    for label, items in (
        ("Backgrounds", [f"{k} {dots(v)}" for k, v in sheet.backgrounds.items()]),
        ("Fetishes", [f"{f['name']} (level {f['level']}, Gnosis {f['gnosis']})" for f in sheet.fetishes]),
        ("Weapons", [_weapon_text(w) for w in sheet.weapons]),
        ("Armour", [_armor_text(a) for a in sheet.armor]),
        ("Gifts", [f"{g['name']} ({g['level']})" for g in sheet.gifts]),
        ("Rites", [f"{r['name']} ({r['level']})" for r in sheet.rites]),
        ("Merits", [f"{m['name']} ({m['points']})" for m in sheet.merits]),
        ("Flaws", [f"{f['name']} ({f['points']})" for f in sheet.flaws]),
    ):
        if items or label in ("Backgrounds", "Gifts", "Rites"):
            lines.append(Text(f"{label:<13}", style="bold") + Text(", ".join(items) or "-"))
    return lines


def _track_lines(sheet) -> list:
    """Rage, Gnosis, Willpower and Renown (rating and points), the next Rank and the health track."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.sheet.sheet import HEALTH_LEVELS  # lazy: start-up (loaded when the command runs)

    lines = [Text(""), _header("", "Rating", "Points")]
    for p in sheet.shown_powers():
        tr = sheet.powers[p]
        t = Text(f"{p:<27}{dots(tr.permanent, 10)} {tr.permanent:<16}")
        t.append(
            f"{boxes(tr.temporary, tr.permanent)} {tr.temporary}", style="yellow" if tr.temporary > tr.permanent else ""
        )
        lines.append(t)
    for r, label in sheet.shown_renown():
        tr = sheet.renown[r]
        lines.append(
            Text(f"{label:<27}{dots(tr.permanent, 10)} {tr.permanent:<16}{boxes(tr.temporary, 10)} {tr.temporary}")
        )
    nxt = next_rank(sheet)
    if nxt:
        lines.append(Text(f"Next Rank: {nxt['rank']} ({nxt['title']}) needs {nxt['text']}", style="dim"))
    lines += [Text(""), Text("Health", style="bold underline")]
    marks = {"bashing": "/", "lethal": "X", "aggravated": "*", "": " "}
    for (level, pen), box in zip(HEALTH_LEVELS, sheet.health_boxes(), strict=True):
        style = {"aggravated": "red bold", "lethal": "red", "bashing": "yellow"}.get(box, "dim")
        pen_text = "cannot act" if pen is None else (str(pen) if pen else "")
        lines.append(Text(f"{level:<15}") + Text(f"[{marks[box]}]", style=style) + Text(f"  {pen_text}", style="dim"))
    if sheet.wound_penalty or sheet.incapacitated:
        msg = (
            "Incapacitated: cannot act"
            if sheet.incapacitated
            else f"Wound penalty: {counted(-sheet.wound_penalty, 'die', 'dice')}"
        )
        lines.append(Text(msg, style="red bold"))
    return lines


def _note_lines(sheet, player_view: bool) -> list:
    """Experience, Biography, Notes and (unless ``player_view``) the Storyteller's notes."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    lines = [
        Text(""),
        Text(f"Experience: {sheet.xp_total} earned, {sheet.xp_spent} spent, {sheet.xp_available} unspent", style="dim"),
    ]
    if sheet.biography:
        lines.append(Text("Biography: ", style="bold") + Text(sheet.biography))
    if sheet.notes:
        lines.append(Text("Notes: ", style="bold") + Text(sheet.notes))
    if sheet.storyteller_notes and not player_view:
        lines.append(Text("Storyteller notes: ", style="bold magenta") + Text(sheet.storyteller_notes))
    return lines


def _weapon_text(w: dict) -> str:
    """'Klaive (Dexterity + Melee, diff 6, Strength +3 aggravated)'."""
    attack = " + ".join(x for x in (w["attack_attribute"], w["attack_ability"]) if x)
    damage = f"{w['damage_attribute']} +{w['damage_bonus']}" if w["damage_attribute"] else str(w["damage_bonus"])
    return f"{w['name']} ({attack}, diff {w['difficulty']}, {damage} {w['damage_type']})"


def _armor_text(a: dict) -> str:
    """'Leather Jacket (soak 1/1/0)'."""
    return f"{a['name']} (soak {a['bashing']}/{a['lethal']}/{a['aggravated']})"


# ----- commands ------------------------------------------------------------------------------------------
def _new_sheet(name: str, chronicle: str | None, sets: list[str], **fields: str) -> tuple[Sheet, list[str]]:
    """(sheet, warnings) of `char new`: the identity ``fields`` (player ... pack, and fera, creature, breed,
    auspice looked up in the book's lists) and the TRAIT=VALUE ``sets``, a rating set with full points.
    InvalidValue for an empty name, an unknown breed/auspice/fera/creature or a --set not TRAIT=VALUE."""
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.sheet import breeds  # lazy: start-up (loaded when the command runs)
    from stkit.sheet.lifebook import check_tribe  # lazy: start-up (loaded when the command runs)
    from stkit.sheet.sheet import KIN_POWERS, Sheet, Track  # lazy: start-up (loaded when the command runs)

    if not name.strip():
        raise InvalidValue("a character needs a name")
    kind = breeds.get_changing_breed(fields["fera"]).name
    tribe, tribe_warnings = check_tribe(fields["tribe"], kind)
    sheet = Sheet(
        name=name.strip(),
        chronicle=default_chronicle(chronicle),
        player=fields["player"],
        concept=fields["concept"],
        nature=fields["nature"],
        demeanor=fields["demeanor"],
        fera=kind,
        creature=breeds.lookup_creature(fields["creature"]),
        breed=breeds.lookup_breed(fields["breed"], kind),
        auspice=breeds.lookup_auspice(fields["auspice"], kind),
        tribe=tribe,
        pack=fields["pack"],
    )
    if sheet.creature != "shapeshifter":
        sheet.powers = {p: Track(v, v) for p, v in KIN_POWERS.items()}
    pairs: list[tuple[str, str | int]] = []
    for item in sets:
        trait, sep, value = item.partition("=")
        if not sep:
            raise InvalidValue(f"--set {item!r} needs the form TRAIT=VALUE, e.g. --set Dexterity=3")
        pairs.append((trait, value.strip()))
    warnings = tribe_warnings + sheet.set_new_traits(pairs)  # a rating set here comes with full points
    from stkit.sheet.guided import creation_defaults  # lazy: start-up (loaded when the command runs)

    given = any(trait.strip().casefold() == "rank" for trait, _ in pairs)
    warnings += creation_defaults(sheet, rank_given=given)
    warnings += _set_deformity(sheet, fields.get("deformity", ""))
    return sheet, warnings


def _set_deformity(sheet: Sheet, text: str) -> list[str]:
    """Put the deformity ``text`` on a new sheet; returns the warnings: a name not in the book's list, a
    deformity on a character that is not a metis, or a Garou metis left without one (`char check` flags
    it). InvalidValue for text with control characters."""
    from stkit.sheet import deformity as D  # lazy: start-up (loaded when the command runs)

    sheet.deformity, warnings = D.lookup_deformity(text)
    metis = sheet.breed == "Metis"
    if sheet.deformity and not metis:
        warnings.append(f"{sheet.name} is not a metis; the deformity {sheet.deformity!r} is kept all the same")
    if not sheet.deformity and D.needs_deformity(sheet.fera, sheet.creature, sheet.breed):
        warnings.append(
            f"{sheet.name} is a metis and every metis has a deformity: give one with --deformity NAME "
            f"(the book's: {', '.join(D.deformity_list()[0])}), or `char set {sheet.name} deformity NAME`"
        )
    return warnings


@char_app.command("new")
def new(
    name: NameArg,
    chronicle: NewChronicleOpt = None,
    player: Annotated[str, typer.Option("--player", help="The player's name.")] = "",
    concept: Annotated[str, typer.Option("--concept")] = "",
    nature: Annotated[str, typer.Option("--nature")] = "",
    demeanor: Annotated[str, typer.Option("--demeanor")] = "",
    breed: Annotated[str, typer.Option("--breed", help="Homid, Metis or Lupus (a Fera: its own breeds).")] = "",
    auspice: Annotated[str, typer.Option("--auspice", help="Ragabash, Theurge, Philodox, Galliard or Ahroun.")] = "",
    fera: Annotated[str, typer.Option("--fera", help="The Changing Breed: Garou (default), Bastet, Corax...")] = "",
    creature: Annotated[str, typer.Option("--creature", help="shapeshifter (default), kinfolk or mortal.")] = "",
    tribe: Annotated[str, typer.Option("--tribe")] = "",
    pack: Annotated[str, typer.Option("--pack")] = "",
    deformity: Annotated[
        str,
        typer.Option(
            "--deformity", help="A metis's deformity, e.g. Horns, No Tail, Hunchback (char check lists them)."
        ),
    ] = "",
    sets: Annotated[
        list[str] | None,
        typer.Option("--set", help="TRAIT=VALUE, repeatable: --set Dexterity=3 --set Drive=2 --set Willpower=5."),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Create a character.

    Attributes start at 1, everything else at 0 except Rage 1, Gnosis 1, Willpower 3, with full points:
    --set Willpower=5 gives 5 points too (unless --set "Willpower points"=N).
    Example: `stkit char new Archibald --player Kyle --set Dexterity=3 --set Drive=2`."""
    from stkit.store.characters import create_character  # lazy: start-up (loaded when the command runs)

    sheet, warnings = _new_sheet(
        name,
        chronicle,
        sets or [],
        player=player,
        concept=concept,
        nature=nature,
        demeanor=demeanor,
        tribe=tribe,
        pack=pack,
        fera=fera,
        creature=creature,
        breed=breed,
        auspice=auspice,
        deformity=deformity,
    )
    char_id = run(db, lambda gw: create_character(gw, sheet).id)
    if json_out:
        emit_json(sheet_json(sheet, char_id=char_id) | {"warnings": warnings})
        return

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(
        render.safe_text(f"Created {sheet.name} in chronicle {sheet.chronicle!r}", style="green bold")
    )
    for w in warnings:
        render.console().print(render.safe_text(f"Warning: {w}", style="yellow"))


@char_app.command("show")
def show(
    name: NameArg,
    chronicle: ChronicleOpt = None,
    player_view: Annotated[bool, typer.Option("--player-view", help="Leave the Storyteller-only notes out.")] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a character sheet.

    Dots, health boxes and the current form's Attributes."""
    sheet, char_id = load_sheet(db, name, chronicle)
    if json_out:
        emit_json(sheet_json(sheet, player_view=player_view, char_id=char_id))
    else:
        render_sheet(sheet, player_view=player_view)


def _screen_rows() -> int:
    """How many characters fit the terminal's height under the table's header (at least 5)."""

    return max(5, shutil.get_terminal_size((100, 24)).lines - 8)


@char_app.command("list")
def list_(
    chronicle: ChronicleOpt = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            "-n",
            help="Show at most N characters (1 to 10000; default: a screenful, all with --json).",
            show_default=False,
        ),
    ] = None,
    offset: Annotated[int, typer.Option("--offset", help="Skip the first N (the next page).")] = 0,
    name: Annotated[str | None, typer.Option("--name", help="Only names containing this.")] = None,
    breed: Annotated[str | None, typer.Option("--breed", help="Only this breed.")] = None,
    auspice: Annotated[str | None, typer.Option("--auspice", help="Only this auspice.")] = None,
    tribe: Annotated[str | None, typer.Option("--tribe", help="Only this tribe.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the characters, a screenful at a time.

    Of one chronicle, or of all.

    Example: `stkit char list --tribe "Glass Walkers" --limit 50 --offset 50`."""

    from stkit.store.characters import count_characters, list_sheets  # lazy: start-up (loaded when the command runs)

    if chronicle is not None:
        from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)

        chronicle = default_chronicle(chronicle)  # the one check every stored name gets
    from stkit.config import DEFAULT_CHRONICLE  # lazy: start-up (loaded when the command runs)

    if limit is not None:
        check_range(limit, "--limit", 1, 10_000)
    check_range(offset, "--offset", 0, 10**9)
    shown = limit if limit is not None else (None if json_out else _screen_rows())
    filters = {"name": name, "breed": breed, "auspice": auspice, "tribe": tribe}

    def work(gw):
        from stkit.store.fight.fates import is_dead  # lazy: start-up (loaded when the command runs)

        if chronicle is not None and chronicle != DEFAULT_CHRONICLE:
            from stkit.store.chronicles import require_chronicle  # lazy: start-up (loaded when the command runs)

            require_chronicle(gw, chronicle)  # a mistyped name is no empty chronicle
        found = list_sheets(gw, chronicle, limit=shown, offset=offset, **filters)
        total = count_characters(gw, chronicle, **filters) if shown is not None else len(found) + offset
        return found, total, {c.id for c in found if is_dead(gw, c.id)}

    listed, total, dead = run(db, work, readonly=True)
    rows = [(c.id, c.sheet) for c in listed if c.sheet is not None]
    damaged = [c for c in listed if c.sheet is None]
    if json_out:
        emit_json(_list_json(rows, damaged, total, offset, paged=limit is not None or bool(offset), dead=dead))
        return
    _print_list(rows, damaged, total, offset, filtered=any(filters.values()), dead=dead)


def _list_json(rows: list, damaged: list, total: int, offset: int, *, paged: bool, dead: set | None = None) -> dict:
    """The `char list --json` object: characters, plus total/offset when paged and damaged rows if any."""
    return (
        ({"total": total, "offset": offset} if paged else {})
        | {
            "characters": [
                {
                    "id": i,
                    "name": s.name,
                    "chronicle": s.chronicle,
                    "player": s.player,
                    "breed": s.breed,
                    "auspice": s.auspice,
                    "tribe": s.tribe,
                    "form": s.form,
                    "health_level": s.health_level,
                    "dead": i in (dead or set()),
                    "willpower": s.powers["Willpower"].to_dict(),
                    "rage": s.powers["Rage"].to_dict(),
                    "gnosis": s.powers["Gnosis"].to_dict(),
                }
                for i, s in rows
            ],
        }
        # the key appears only when there is something to say
        | (
            {"damaged": [{"id": c.id, "name": c.name, "chronicle": c.chronicle, "problem": c.problem} for c in damaged]}
            if damaged
            else {}
        )
    )


def _print_list(rows: list, damaged: list, total: int, offset: int, *, filtered: bool, dead: set | None = None) -> None:
    """The `char list` text: warnings for unreadable rows, then the table (or short lines when narrow)."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    for c in damaged:  # one bad row must not hide the rest
        render.console().print(
            Text(
                f"Warning: {printable(c.name)} ({printable(c.chronicle)}) cannot be read: {printable(c.problem)}; "
                "re-import it with `char import --replace` or delete it",
                style="yellow",
            )
        )
    if not rows:
        if damaged:
            return
        if total or filtered:
            render.print_text(f"No characters here ({total} in all); try a smaller --offset or other filters.")
            return
        render.console().print("No characters yet: `stkit char new NAME` or `stkit char import characters/`.")
        return
    # A console of its own, sized now: the shared one keeps the width it was created with.
    console = render.new_console()
    more = total - offset - len(rows)
    footer = (
        f"{offset + 1}-{offset + len(rows)} of {total} characters; the next page: --offset {offset + len(rows)}"
        if more > 0
        else None
    )
    lines = character_table(rows, console.width, dead=dead)
    if lines is not None:
        text = Text()
        for line, style in lines:
            text.append(line, style=style)
            text.append("\n")
        text.rstrip()
        console.print(text, no_wrap=True, overflow="ignore", crop=False)
        if footer:
            render.print_text(footer, style="dim")
        return
    for i, s in ((i, printable_sheet(s)) for i, s in rows):  # too narrow for any table: three short lines each
        console.print(Text(s.name, style="bold") + Text(f" ({s.chronicle})", style="dim"))
        health = "dead" if i in (dead or set()) else s.health_level or "unhurt"
        console.print(f"  {s.form + ', ' if s.has_forms else ''}{health}", markup=False)
        console.print(
            "  " + "  ".join(f"{p} {s.powers[p].temporary}/{s.powers[p].permanent}" for p in s.shown_powers())
        )


def _character_cells(s, dead: bool = False) -> dict[str, str]:
    """One `char list` row: column title -> text, in the table's column order (``dead``: Health says so).
    Stored text is shown with its control characters as escapes (:func:`stkit.text.printable`)."""

    return {
        "Name": printable(s.name),
        "Chronicle": printable(s.chronicle),
        "Player": printable(s.player) or "-",
        "Breed / Auspice / Tribe": printable(" / ".join(x for x in (s.breed, s.auspice, s.tribe) if x)) or "-",
        "Form": printable(s.form) if s.has_forms else "-",
        "Health": "dead" if dead else s.health_level or "unhurt",
        **{
            p: f"{s.powers[p].temporary}/{s.powers[p].permanent}" if p in s.shown_powers() else "-"
            for p in ("Rage", "Gnosis", "Willpower")
        },
    }


#: The one column that wraps (between words) when the table is wider than the terminal.
_WRAPPING = "Breed / Auspice / Tribe"
#: Cells between two columns.
_GAP = 2


def character_table(rows: list, width: int, *, dead: set | None = None) -> list[tuple[str, str]] | None:
    """The `char list` table as (line, rich style) pairs, fitted to ``width`` terminal cells without ever
    cutting a name; None when even the narrowest table (name, health and points) is too wide.

    Columns are as wide as their widest entry (in terminal cells) with two cells between them. The
    chronicle gets a column only when the characters come from several (else it is in the title, the
    first line). Only the Breed / Auspice / Tribe column wraps (between words, never inside one); when
    the table does not fit even so, the least needed columns are left out: Breed / Auspice / Tribe, then
    Player, then Form, then Chronicle. Drawn here rather than by rich's Table: a screenful through rich's
    measuring and padding cost as much as the rest of the command."""
    from rich.cells import cell_len  # lazy: start-up (loaded when the command runs)

    chronicles = sorted({s.chronicle for _, s in rows})
    cells = [_character_cells(s, i in (dead or set())) for i, s in rows]
    columns = list(cells[0])
    title = None
    if len(chronicles) == 1:
        columns.remove("Chronicle")
        title = f"Chronicle: {cells[0]['Chronicle']}"
    full = {c: max(cell_len(c), *(cell_len(r[c]) for r in cells)) for c in columns}
    words = [w for r in cells for w in (*r[_WRAPPING].split(), *_WRAPPING.split())]
    narrowest = max(map(cell_len, words))
    for drop in (_WRAPPING, "Player", "Form", "Chronicle", None):
        fixed = sum(full[c] for c in columns if c != _WRAPPING) + _GAP * (len(columns) - 1)
        if _WRAPPING not in columns and fixed <= width:
            widths = {c: full[c] for c in columns}
            break
        if _WRAPPING in columns and fixed + narrowest <= width:
            widths = {c: full[c] for c in columns} | {_WRAPPING: min(full[_WRAPPING], width - fixed)}
            break
        if drop in columns:
            columns.remove(drop)
    else:
        return None
    lines: list[tuple[str, str]] = [(title, "italic")] if title else []
    lines += [(ln, "bold") for ln in _table_row({c: c for c in columns}, widths, cell_len)]
    lines.append(("\u2500" * (sum(widths.values()) + _GAP * (len(widths) - 1)), ""))
    for r in cells:
        lines += [(ln, "") for ln in _table_row(r, widths, cell_len)]
    return lines


def _table_row(cells: dict[str, str], widths: dict[str, int], cell_len) -> list[str]:
    """One table row as its lines: each cell padded to its column's width, the wrapping column's text
    broken between words onto as many lines as it needs (the other cells on the first line)."""
    stacks = {c: _wrap_words(cells[c], w, cell_len) if c == _WRAPPING else [cells[c]] for c, w in widths.items()}
    height = max(map(len, stacks.values()))
    gap = " " * _GAP
    return [
        gap.join(
            (stack[k] if k < len(stack) else "") + " " * (widths[c] - cell_len(stack[k] if k < len(stack) else ""))
            for c, stack in stacks.items()
        ).rstrip()
        for k in range(height)
    ]


def _wrap_words(text: str, width: int, cell_len) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` cells (a longer word keeps its own line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and cell_len(lines[-1]) + 1 + cell_len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


@char_app.command("set")
def set_(
    name: NameArg,
    trait: Annotated[
        str,
        typer.Argument(
            help="Trait (Dexterity, Primal-Urge, Willpower, 'Willpower points', "
            "'temporary Glory', player, breed...) or background:NAME, "
            "gift:NAME, rite:NAME, merit:NAME, flaw:NAME, ability:NAME."
        ),
    ],
    value: Annotated[str, typer.Argument(help="New rating (0 removes an Ability, Background or entry) or text.")],
    custom: Annotated[bool, typer.Option("--custom", help="Accept an unknown name as a custom Ability.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set one trait (or a background, Gift, Rite, Merit or Flaw).

    Names are forgiving about case, spaces and hyphens; unknown names get a suggestion.
    Example: `stkit char set Archibald "primal urge" 2`."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    print_edit(
        run(db, lambda s: characters.set_trait(s, name, trait, value, chronicle=chronicle, custom=custom)), json_out
    )


@char_app.command("spend")
def spend(
    name: NameArg,
    power: PowerArg,
    points: Annotated[int, typer.Argument(help="Points to spend (1 or more).")] = 1,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Spend temporary points of Willpower, Rage or Gnosis.

    Refused, with nothing spent, when the character has too few points."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    check_range(points, "points", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.spend(s, name, power, points, chronicle=chronicle)), json_out)


@char_app.command("regain")
def regain(
    name: NameArg,
    power: PowerArg,
    points: Annotated[int, typer.Argument(help="Points regained (1 or more).")] = 1,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Regain temporary points of Willpower, Rage or Gnosis.

    Willpower and Gnosis stop at the rating; Rage may go above it (with a warning)."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    check_range(points, "points", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.regain(s, name, power, points, chronicle=chronicle)), json_out)


@char_app.command("damage")
def damage(
    name: NameArg,
    levels: Annotated[int, typer.Argument(help="Health levels of damage (1 or more).")],
    kind: Annotated[
        DamageType, typer.Option("--type", "-t", help="bashing, lethal or aggravated.", case_sensitive=False)
    ] = DamageType.bashing,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Mark damage on the seven health levels.

    The worst damage is kept first; the deepest marked level sets the wound penalty."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    check_range(levels, "health levels", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.damage(s, name, levels, kind.value, chronicle=chronicle)), json_out)


@char_app.command("hit", context_settings={"ignore_unknown_options": True})
@rule_options
def hit(
    name: NameArg,
    levels: Annotated[int, typer.Argument(help="Health levels the hit deals (1 or more), before soak.")],
    kind: Annotated[
        DamageType | None,
        typer.Option(
            "--type", "-t", help="bashing, lethal or aggravated (default bashing, said so).", case_sensitive=False
        ),
    ] = None,
    soak: Annotated[
        bool, typer.Option("--soak", help="Roll soak first (Stamina, with the form's change; it never botches).")
    ] = False,
    soak_pool: Annotated[
        str | None, typer.Option("--soak-pool", help="Soak with this pool, e.g. 'Stamina + 2' (implies --soak).")
    ] = None,
    difficulty: Annotated[
        int | None,
        typer.Option(
            "--difficulty",
            "-d",
            help="The soak roll's difficulty, 2 to 10 (default: the chronicle's house rule, else 6).",
            show_default=False,
        ),
    ] = None,
    dice: Annotated[str | None, typer.Option("--dice", help="Physical dice of the soak roll, e.g. 2,1,8,9.")] = None,
    unsoakable: Annotated[
        list[str] | None,
        typer.Option("--unsoakable", help="HOUSE RULE: this damage type may not be soaked (repeat; off: every type)."),
    ] = None,
    damage_ones_cancel: DamageOnesCancelOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    silver: Annotated[
        bool, typer.Option("--silver", help="A silver weapon: a shapeshifter soaks it only in the breed form.")
    ] = False,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Take a hit: soak it (--soak), mark what is left.

    With --soak the character's soak roll takes its successes off the levels
    first and is logged; without it the levels go straight on the health
    track. Example: `stkit char hit Weston 3 --type lethal --soak`."""
    from stkit.cli.combat import hit_command  # lazy: start-up (loaded when the command runs)

    hit_command(
        name,
        levels,
        damage_type=(kind or DamageType.bashing).value,
        type_given=kind is not None,
        soak=soak,
        soak_pool=soak_pool,
        difficulty=difficulty,
        dice=dice,
        unsoakable=unsoakable,
        damage_ones_cancel=damage_ones_cancel,
        ones_dont_cancel=ones_dont_cancel,
        seed=seed,
        chronicle=chronicle,
        db=db,
        json_out=json_out,
        silver=silver,
    )


@char_app.command("heal")
def heal(
    name: NameArg,
    levels: Annotated[int, typer.Argument(help="Health levels to heal (1 or more).")] = 1,
    kind: Annotated[
        DamageType | None,
        typer.Option("--type", "-t", help="Heal only this kind (default: lightest first).", case_sensitive=False),
    ] = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Heal health levels.

    The lightest damage heals first unless --type is given."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    check_range(levels, "health levels", 1, MAX_COUNT)
    print_edit(
        run(db, lambda s: characters.heal(s, name, levels, kind.value if kind else None, chronicle=chronicle)), json_out
    )


DiceOpt = Annotated[str | None, typer.Option("--dice", help="Physical dice of the roll, e.g. 8,6,3.")]


def _fight_rule(use_case: str, db: str | None, dice: str | None, seed: int | None, json_out: bool, **args) -> None:
    """Run the fight rule ``use_case`` (a function of :mod:`stkit.store.fight.night`) with ``args`` and print it
    (:func:`stkit.cli.combat.power_command`: one transaction, the seed chosen once). A rule that rolls no
    dice (moonrise) is given neither ``dice`` nor ``seed``."""
    from stkit.cli.combat import power_command  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight import night as fight  # lazy: start-up (loaded when the command runs)

    work = getattr(fight, use_case)
    rolls = use_case != "moonrise"
    power_command(
        db,
        lambda gw, faces, seed_: work(gw, **args, faces=faces, seed=seed_) if rolls else work(gw, **args),
        dice=dice,
        seed=seed,
        json_out=json_out,
    )


@char_app.command("shift")
def shift(
    name: NameArg,
    form: Annotated[str, typer.Argument(help="homid, glabro, crinos, hispo, lupus, or the breed's own name.")],
    rage: Annotated[bool, typer.Option("--rage", help="Spend a Rage point: the shift is instant, no roll.")] = False,
    instant: Annotated[
        bool, typer.Option("--instant", help="The Storyteller's shift: no roll, no cost (between scenes, a Gift).")
    ] = False,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Change form: a Stamina + Primal-Urge roll, or a Rage point.

    The roll is at the starting form's difficulty; fewer successes stop
    partway. --rage spends a Rage point for an instant shift; the breed form
    is always instant. Example: `stkit char shift Weston crinos --dice 8,7,2`."""
    _fight_rule(
        "shift_form", db, dice, seed, json_out, name=name, form=form, rage=rage, instant=instant, chronicle=chronicle
    )


@char_app.command("regen")
def regen(
    name: NameArg,
    calm: Annotated[bool, typer.Option("--calm", help="No stress: the level heals with no roll.")] = False,
    days: Annotated[
        int, typer.Option("--days", help="Days of rest: heal that many aggravated levels, one a day (no roll).")
    ] = 0,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Regenerate the worst bashing or lethal level (shapeshifters).

    Once a turn; under stress only on a success of Stamina at difficulty 8;
    never in the breed form unless metis. Example: `stkit char regen Weston`."""
    _fight_rule("regenerate", db, dice, seed, json_out, name=name, calm=calm, days=days, chronicle=chronicle)


@char_app.command("stay-active")
def stay_active(
    name: NameArg,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll Rage at difficulty 8 to fight on past Incapacitated.

    For a shapeshifter downed with lethal or worse: each success heals a
    level. Example: `stkit char stay-active Weston`."""
    _fight_rule("stay_active", db, dice, seed, json_out, name=name, chronicle=chronicle)


@char_app.command("rage")
def rage_roll(
    name: NameArg,
    difficulty: Annotated[
        int | None, typer.Option("--difficulty", "-d", help="Instead of the moon's difficulty (2 to 10).")
    ] = None,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll Rage and read the frenzy verdict (four or more successes).

    The difficulty is the chronicle's moon's (stkit scene moon PHASE).
    Example: `stkit char rage Weston`."""
    _fight_rule("rage_roll", db, dice, seed, json_out, name=name, difficulty=difficulty, chronicle=chronicle)


@char_app.command("moonrise")
def moonrise(
    name: NameArg,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Regain Rage at the first sight of the moon in a night.

    The phase's points; all of it under the auspice's own moon.
    Example: `stkit char moonrise Weston`."""
    _fight_rule("moonrise", db, None, None, json_out, name=name, chronicle=chronicle)


@char_app.command("xp")
def xp(
    name: NameArg,
    action: Annotated[
        XpAction,
        typer.Argument(help="award, spend, log (show the log), or undo (the last `char raise`).", case_sensitive=False),
    ] = XpAction.log,
    amount: Annotated[int | None, typer.Argument(help="Experience points (1 or more) for award/spend.")] = None,
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why (kept in the experience log).")] = "",
    again: Annotated[
        bool, typer.Option("--again", help="Award it even though the same award was made earlier tonight.")
    ] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Award or spend experience, or show the experience log.

    Examples: `stkit char xp NAME award 3 -r "session 4"`, `stkit char xp NAME spend 2 -r "Brawl 3"`."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    if action is XpAction.undo:
        from stkit.cli.char.life import xp_undo  # lazy: start-up (loaded when the command runs)

        xp_undo(name, chronicle, db, json_out)
        return
    if action is XpAction.log:
        sheet = run(db, lambda s: characters.get_character(s, name, chronicle).to_sheet(), readonly=True)
        if json_out:
            emit_json(
                {
                    "name": sheet.name,
                    "total": sheet.xp_total,
                    "spent": sheet.xp_spent,
                    "available": sheet.xp_available,
                    "log": [e | {"at": local_iso(e["at"])} if "at" in e else e for e in sheet.xp_log],
                }
            )
            return
        from rich.table import Table  # lazy: start-up (loaded when the command runs)
        from rich.text import Text  # lazy: start-up (loaded when the command runs)

        from stkit.cli import render  # lazy: start-up (loaded when the command runs)

        shown = printable_sheet(sheet)
        t = Table(
            title=Text(f"{shown.name}: {sheet.xp_total} earned, {sheet.xp_spent} spent, {sheet.xp_available} unspent")
        )
        for col in ("When", "Kind", "Points", "Reason"):
            t.add_column(col)
        for e in shown.xp_log:  # Text cells: a reason like '[bold]' is printed as typed, never as markup
            t.add_row(Text(local_time(e["at"])), Text(e["kind"]), str(e["amount"]), Text(e["reason"]))
        render.console().print(t)
        return
    if amount is None:  # a usage slip, not the value 0: name what is missing, as for a missing argument
        raise typer.BadParameter(
            f"char xp {action.value} needs the number of points: stkit char xp NAME {action.value} N",
            param_hint="'AMOUNT'",
        )
    print_edit(
        run(
            db,
            lambda s: characters.experience(s, name, action.value, amount, reason, chronicle=chronicle, again=again),
        ),
        json_out,
    )


@char_app.command("delete")
def delete(
    name: NameArg,
    yes: YesOpt = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Delete a character (asks first).

    Its logged rolls are kept, under its name."""
    from stkit.store import characters  # lazy: start-up (loaded when the command runs)

    if not yes:
        found = run(db, lambda s: characters.get_character(s, name, chronicle).name, readonly=True)
        from stkit.cli.ask import confirm  # lazy: start-up (loaded when the command runs)
        from stkit.text import printable  # lazy: start-up (loaded when the command runs)

        if not confirm(f"Delete {printable(found)}? This cannot be undone", command="char delete"):
            sys.stderr.write("Nothing deleted.\n")
            raise typer.Exit(1)
    deleted = run(db, lambda s: characters.delete_character(s, name, chronicle=chronicle))
    if json_out:
        emit_json({"deleted": deleted})
    else:
        from stkit.cli import render  # lazy: start-up (loaded when the command runs)
        from stkit.text import printable  # lazy: start-up (loaded when the command runs)

        render.print_text(f"Deleted {printable(deleted)}.")


@char_app.command("import")
def import_(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Character files (.yaml, .yml, .json, Foundry actor .json, Grapevine .gex) or folders."),
    ],
    chronicle: Annotated[
        str | None, typer.Option("--chronicle", help="Put every imported character in this chronicle.")
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Overwrite characters already stored under the same name.")
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Import YAML, JSON, Foundry or Grapevine files: all or nothing.

    Any bad file (malformed, unknown trait, value out of range, duplicate name) imports nothing and the
    error names the file, the field and the allowed range."""
    from stkit.store.files import import_files  # lazy: start-up (loaded when the command runs)

    loaded = run(db, lambda s: import_files(s, paths, chronicle=chronicle, replace=replace))
    if json_out:
        emit_json(
            {
                "imported": [
                    {
                        "name": lf.sheet.name,
                        "chronicle": lf.sheet.chronicle,
                        "file": str(lf.path),
                        "format": lf.format,
                        "warnings": lf.warnings,
                    }
                    for lf in loaded
                ]
            }
        )
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = render.console()
    for lf in loaded:
        out.print(render.safe_text(f"Imported {lf.sheet.name} ({lf.sheet.chronicle}) from {lf.path}"))
        for w in lf.warnings:
            out.print(render.safe_text(f"Warning: {w}", style="yellow"))
    out.print(Text(f"{len(loaded)} character{'s' if len(loaded) != 1 else ''} imported", style="green bold"))


@char_app.command("export")
def export(
    name: NameArg,
    fmt: Annotated[
        FormatChoice,
        typer.Option(
            "--format", "-f", help="yaml, json, or foundry (a Foundry VTT WoD20 actor).", case_sensitive=False
        ),
    ] = FormatChoice.yaml,
    player_view: Annotated[bool, typer.Option("--player-view", help="Leave the Storyteller-only notes out.")] = False,
    foundry_layout: Annotated[
        FoundryLayout,
        typer.Option(
            "--foundry-layout",
            help="With --format foundry: current (the PC actor of system 5.x-7.x) or legacy (2.x / 3.0 installs).",
            case_sensitive=False,
        ),
    ] = FoundryLayout.current,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout ('-': stdout).")
    ] = None,
    force: ForceOpt = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Export a character: YAML, JSON, or a Foundry VTT actor.

    The file re-imports without loss. Example: stkit char export Archibald --format foundry -o archibald.json"""
    from stkit.store.files import dump  # lazy: start-up (loaded when the command runs)

    sheet, _ = load_sheet(db, name, chronicle)
    text = dump(sheet, fmt.value, player_view=player_view, foundry_layout=foundry_layout.value)
    to_file = output is not None and str(output) != "-"  # '-' is stdout, as for most command-line tools
    if output is not None and to_file:
        from stkit.store.files import write_file  # lazy: start-up (loaded when the command runs)

        write_file(output, text, force=force)  # all or nothing: a temporary file renamed into place
    if json_out:
        shown = {"character": sheet.name, "chronicle": sheet.chronicle, "format": fmt.value}
        emit_json(shown | ({"output": str(output)} if to_file else {"output": None, "text": text}))
    elif to_file:
        from stkit.text import printable  # lazy: start-up (loaded when the command runs)

        sys.stderr.write(f"Wrote {printable(output)}\n")
    else:
        sys.stdout.write(text)


class LogFormat(enum.StrEnum):
    """How `stkit log` prints: the aligned table, CSV or JSON."""

    table = "table"
    csv = "csv"
    json = "json"


#: The `stkit log --format csv` columns, in order.
LOG_CSV_COLUMNS = (
    "id",
    "time",
    "chronicle",
    "character",
    "expression",
    "pool",
    "difficulty",
    "dice",
    "outcome",
    "result",
    "willpower",
    "scene_id",
    "turn",
    "task",
    "note",
)


def log(
    char: Annotated[
        str | None,
        typer.Option("--char", "-c", help="Only this character's rolls.", autocompletion=complete_character),
    ] = None,
    chronicle: ChronicleOpt = None,
    scene: Annotated[str | None, typer.Option("--scene", help="Only this scene's rolls (id or name).")] = None,
    task: Annotated[str | None, typer.Option("--task", help="Only the rolls of this task.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many of the newest rolls (1 to 10000).")] = 20,
    fmt: Annotated[
        LogFormat,
        typer.Option(
            "--format",
            "-f",
            help="table (local time), csv or json (local time with its UTC offset).",
            case_sensitive=False,
        ),
    ] = LogFormat.table,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The roll log, newest first, in local time.

    Every roll made with --char (or --log, or --note). Export: `stkit log --format csv -n 10000 > rolls.csv`."""
    from stkit.store.rolling import check_log_limit, recent_log  # lazy: start-up (loaded when the command runs)

    check_log_limit(limit)  # before opening (and perhaps creating) the store
    entries = run(
        db,
        lambda gw: recent_log(gw, name=char, chronicle=chronicle, limit=limit, scene=scene, task=task),
        readonly=True,
    )
    if json_out or fmt is LogFormat.json:
        emit_json({"rolls": [e | {"created_at": local_iso(e["created_at"])} for e in entries]})
        return
    if fmt is LogFormat.csv:
        _log_csv(entries)
        return
    _print_log(entries, filtered=bool(scene or task))


def _log_csv(entries: list[dict]) -> None:
    """The roll log as CSV on stdout, one row an entry, in LOG_CSV_COLUMNS order."""
    import csv  # lazy: start-up (loaded when the command runs)

    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(LOG_CSV_COLUMNS)
    for e in entries:
        cells = [
            e["id"],
            local_iso(e["created_at"]),
            e["chronicle"],
            e["character"] or "",
            e["expression"],
            e["pool"],
            e["difficulty"],
            " ".join(map(str, e["dice"])),
            e["outcome"],
            e["result"],
            "yes" if e["willpower"] else "no",
            e["scene_id"] if e["scene_id"] is not None else "",
            e["turn"] if e["turn"] is not None else "",
            e["task"] or "",
            e["detail"].get("note", "") if isinstance(e["detail"], dict) else "",
        ]
        # a spreadsheet must not run a cell as a formula, and no raw control character reaches it
        writer.writerow([_csv_cell(c) for c in cells])


def _log_row(e: dict) -> tuple[str, ...]:
    """One `stkit log` line's cells: id, local time, who, pool, difficulty, dice, result, outcome."""
    detail = e["detail"] if isinstance(e["detail"], dict) else {}
    res = e["outcome"] if e["outcome"] != "success" else counted(e["result"], "success")
    if e["willpower"]:
        res += " +WP"
    spared = _log_spared(e, detail)
    if spared:
        res += f" (no botch: {spared})"
    if detail.get("secret"):
        res += " (secret)"
    who = e["character"] or "-"
    if e.get("scene_id"):
        who += f" (scene {e['scene_id']}/{e['turn']})"
    # the pool as the sheet names it ('Dexterity 3 + Brawl 2 = 5'), not as it was typed ('dex+brawl')
    breakdown = str(detail.get("breakdown") or "")
    pool = (
        breakdown.removesuffix(" dice").removesuffix(" die") if "=" in breakdown else f"{e['expression']} = {e['pool']}"
    )
    return (
        str(e["id"]),
        local_time(e["created_at"]),
        who,
        pool,
        str(e["difficulty"]),
        " ".join(map(str, e["dice"])),
        res,
        e["outcome"],
    )


#: How the roll log's ``house_rules_in_force`` names the two readings :func:`_log_spared` needs (the
#: phrases of :mod:`stkit.dice.house`).
_NO_SPECIALTY_BOTCH = "no botch with a specialty"
_WILLPOWER_DICE = "Willpower buys three dice"


def _log_spared(e: dict, detail: dict) -> str | None:
    """Why a logged roll is not the botch its dice would make ('Willpower', 'specialty'), or None: the rule
    of :func:`stkit.dice.score.botch_spared`, read from the entry (its dice, difficulty, result, Willpower,
    the specialty used and the house rules in force)."""
    from stkit.dice.score import botch_spared  # lazy: start-up (loaded when the command runs)

    if e["outcome"] == "botch" or not e["dice"] or detail.get("automatic"):
        return None
    in_force = detail.get("house_rules_in_force") or []
    willpower = bool(e["willpower"])
    left = int(e["result"]) - (1 if willpower and _WILLPOWER_DICE not in in_force else 0)
    no_specialty_botch = bool(detail.get("specialty_used")) and _NO_SPECIALTY_BOTCH in in_force
    if not botch_spared(e["dice"], int(e["difficulty"]), left, not (willpower or no_specialty_botch)):
        return None
    return "Willpower" if willpower else "specialty"


def _print_log(entries: list[dict], *, filtered: bool) -> None:
    """The roll log as aligned lines, the result coloured by outcome."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if not entries:
        render.console().print("No rolls logged yet." if not filtered else "No rolls match.")
        return
    # Plain aligned lines rather than a rich Table: `stkit log` must start fast.
    rows = [_log_row(e) for e in entries]
    heads = ("#", "When", "Character", "Pool", "Diff", "Dice", "Result")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    lines = [Text("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip(), style="bold")]
    for r in rows:
        t = Text("  ".join(c.ljust(w) for c, w in zip(r[:6], widths[:6], strict=True)) + "  ")
        t.append(r[6], style={"botch": "red bold", "failure": "yellow", "success": "green"}.get(r[7], ""))
        lines.append(t)
    render.console().print(Text("\n").join(lines), crop=False, overflow="ignore")


def register(app: typer.Typer) -> None:
    """Add the `char` group and the `log` command to the root app."""
    from stkit.cli.char import arm, life, printout, use  # lazy: start-up (loaded when the command runs)

    life.register(char_app)
    arm.register(char_app)
    printout.register(char_app)
    use.register(char_app)
    app.add_typer(char_app, name="char")
    app.command("log")(log)
