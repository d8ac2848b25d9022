"""`stkit char ...` (the character store) and `stkit log` (the roll log).

Only typer and the standard library at module level: the store (sqlmodel), rich and YAML are imported
inside the commands. Every command is one database transaction.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.common import run
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import ChronicleOpt as NewChronicleOpt
from stkit.cli.options import DbOpt, JsonOpt
from stkit.store.vocab import DamageType, Power

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.gateway import Gateway
    from stkit.store.sheet import Sheet

#: The most points or health levels one command spends, regains, marks or heals (Traits and health
#: tracks are far smaller; a larger number is a typing slip).
MAX_COUNT = 100


NameArg = Annotated[str, typer.Argument(help="The character's name (case-insensitive).", show_default=False)]


PowerArg = Annotated[Power, typer.Argument(help="willpower, rage or gnosis.", case_sensitive=False)]


class FormatChoice(enum.StrEnum):
    yaml = "yaml"
    json = "json"


class XpAction(enum.StrEnum):
    award = "award"
    spend = "spend"
    log = "log"


char_app = typer.Typer(
    name="char",
    help="Werewolf characters in the store: create, show, edit, wound.",
    no_args_is_help=True,
)


# ----- helpers -------------------------------------------------------------------------------------------
def load_sheet(db: str | None, name: str, chronicle: str | None) -> tuple[Sheet, int]:
    """(sheet, id) of the stored character ``name``; NotFound / InvalidValue as find_character raises."""
    from stkit.store.characters import find_character

    def work(gw: Gateway) -> tuple[Sheet, int]:
        row = find_character(gw, name, chronicle)
        return row.to_sheet(), row.id

    return run(db, work, readonly=True)


def emit_json(data: object) -> None:
    from stkit.cli.render import print_json

    print_json(data)


def print_edit(edit, json_out: bool) -> None:
    """One edit's summary line (and warnings in yellow), or its JSON."""
    if json_out:
        emit_json(edit.to_dict())
        return

    from stkit.cli import render

    out = render.console()
    out.print(render.safe_text(edit.summary, style="bold", multiline=True))
    for w in edit.warnings:
        out.print(render.safe_text(f"Warning: {w}", style="yellow"))


def printable_sheet(sheet):
    """A copy of ``sheet`` whose text shows control characters as escapes (``\x1b``): rows stored before
    text was checked must not write raw escape sequences to a terminal."""
    import copy

    from stkit.text import printable

    s = copy.deepcopy(sheet)
    for f in ("name", "chronicle", "player", "concept", "nature", "demeanor", "tribe", "pack"):
        setattr(s, f, printable(getattr(s, f)))
    s.notes = printable(s.notes, multiline=True)
    s.storyteller_notes = printable(s.storyteller_notes, multiline=True)
    for section in ("gifts", "rites", "merits", "flaws"):
        for e in getattr(s, section):
            e["name"] = printable(e["name"])
    s.custom_abilities = {printable(k): v for k, v in s.custom_abilities.items()}
    s.backgrounds = {printable(k): v for k, v in s.backgrounds.items()}
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
    from stkit.store.forms import apply_form

    data = sheet.to_dict(player_view=player_view)
    data["id"] = char_id
    data["derived"] = {
        "attributes_in_form": {a: apply_form(sheet.form, a, v) for a, v in sheet.attributes.items()},
        "health_level": sheet.health_level,
        "health_boxes": sheet.health_boxes(),
        "wound_penalty": sheet.wound_penalty,
        "incapacitated": sheet.incapacitated,
        "experience_available": sheet.xp_available,
    }
    return data


def render_sheet(sheet, *, player_view: bool = False) -> None:
    """A readable character sheet with dots. Built from rich Text lines in fixed columns (no rich Table:
    `char show` must start fast)."""
    from rich.text import Text

    from stkit.cli import render
    from stkit.store import traits as T
    from stkit.store.forms import apply_form
    from stkit.store.sheet import HEALTH_LEVELS

    sheet = printable_sheet(sheet)
    lines: list[Text] = []
    head = Text(sheet.name, style="bold")
    head.append(f"  ({sheet.chronicle})", style="dim")
    lines.append(head)
    pairs = [
        ("Player", sheet.player),
        ("Concept", sheet.concept),
        ("Nature", sheet.nature),
        ("Demeanor", sheet.demeanor),
        ("Breed", sheet.breed),
        ("Auspice", sheet.auspice),
        ("Tribe", sheet.tribe),
        ("Pack", sheet.pack),
        ("Rank", str(sheet.rank)),
        ("Form", sheet.form),
    ]
    for i in range(0, len(pairs), 2):
        row = Text()
        for label, value in pairs[i : i + 2]:
            row.append(f"{label:<9}", style="dim")
            row.append(f"{value or '-':<27}")
        lines.append(row)

    def cell(name: str, rating: int, shown: int | None = None, width: int = 27) -> Text:
        t = Text(f"{name:<14}")
        t.append(dots(rating), style="bold")
        extra = f" {shown} in {sheet.form}" if shown is not None and shown != rating else ""
        t.append(extra, style="cyan")
        t.append(" " * max(width - 14 - 5 - len(extra), 1))
        return t

    def header(*titles: str, width: int = 27) -> Text:
        t = Text()
        for title in titles:
            t.append(title, style="bold underline" if title else "")
            t.append(" " * (width - len(title)))
        return t

    lines += [Text(""), header("Physical", "Social", "Mental", width=32)]
    groups = list(T.ATTRIBUTE_GROUPS.values())
    for i in range(3):
        t = Text()
        for g in groups:
            a = g[i]
            t.append_text(cell(a, sheet.attributes[a], apply_form(sheet.form, a, sheet.attributes[a]), width=32))
        lines.append(t)
    lines += [Text(""), header("Talents", "Skills", "Knowledges")]
    for i in range(10):
        t = Text()
        for g in (T.TALENTS, T.SKILLS, T.KNOWLEDGES):
            t.append_text(cell(g[i], sheet.abilities.get(g[i], 0)))
        lines.append(t)
    others = {**{a: v for a, v in sheet.abilities.items() if a in T.SECONDARY_ABILITIES}, **sheet.custom_abilities}
    if others:
        lines.append(
            Text("Other abilities: ", style="bold") + Text(", ".join(f"{k} {dots(v)}" for k, v in others.items()))
        )
    lines.append(Text(""))
    for label, items in (
        ("Backgrounds", [f"{k} {dots(v)}" for k, v in sheet.backgrounds.items()]),
        ("Gifts", [f"{g['name']} ({g['level']})" for g in sheet.gifts]),
        ("Rites", [f"{r['name']} ({r['level']})" for r in sheet.rites]),
        ("Merits", [f"{m['name']} ({m['points']})" for m in sheet.merits]),
        ("Flaws", [f"{f['name']} ({f['points']})" for f in sheet.flaws]),
    ):
        if items or label in ("Backgrounds", "Gifts", "Rites"):
            lines.append(Text(f"{label:<13}", style="bold") + Text(", ".join(items) or "-"))
    lines += [Text(""), header("", "Rating", "Points")]
    for p in T.POWERS:
        tr = sheet.powers[p]
        t = Text(f"{p:<27}{dots(tr.permanent, 10)} {tr.permanent:<16}")
        t.append(
            f"{boxes(tr.temporary, tr.permanent)} {tr.temporary}", style="yellow" if tr.temporary > tr.permanent else ""
        )
        lines.append(t)
    for r in T.RENOWN:
        tr = sheet.renown[r]
        lines.append(
            Text(f"{r:<27}{dots(tr.permanent, 10)} {tr.permanent:<16}{boxes(tr.temporary, 10)} {tr.temporary}")
        )
    lines += [Text(""), Text("Health", style="bold underline")]
    marks = {"bashing": "/", "lethal": "X", "aggravated": "*", "": " "}
    for (level, pen), box in zip(HEALTH_LEVELS, sheet.health_boxes(), strict=True):
        style = {"aggravated": "red bold", "lethal": "red", "bashing": "yellow"}.get(box, "dim")
        pen_text = "cannot act" if pen is None else (str(pen) if pen else "")
        lines.append(Text(f"{level:<15}") + Text(f"[{marks[box]}]", style=style) + Text(f"  {pen_text}", style="dim"))
    if sheet.wound_penalty or sheet.incapacitated:
        msg = "Incapacitated: cannot act" if sheet.incapacitated else f"Wound penalty: -{sheet.wound_penalty} dice"
        lines.append(Text(msg, style="red bold"))
    lines.append(Text(""))
    lines.append(
        Text(f"Experience: {sheet.xp_total} earned, {sheet.xp_spent} spent, {sheet.xp_available} unspent", style="dim")
    )
    if sheet.notes:
        lines.append(Text("Notes: ", style="bold") + Text(sheet.notes))
    if sheet.storyteller_notes and not player_view:
        lines.append(Text("Storyteller notes: ", style="bold magenta") + Text(sheet.storyteller_notes))
    out = render.console()
    out.print(Text("\n").join(lines), crop=False, overflow="ignore")


# ----- commands ------------------------------------------------------------------------------------------
@char_app.command("new")
def new(
    name: NameArg,
    chronicle: NewChronicleOpt = None,
    player: Annotated[str, typer.Option("--player", help="The player's name.")] = "",
    concept: Annotated[str, typer.Option("--concept")] = "",
    nature: Annotated[str, typer.Option("--nature")] = "",
    demeanor: Annotated[str, typer.Option("--demeanor")] = "",
    breed: Annotated[str, typer.Option("--breed", help="Homid, Metis or Lupus.")] = "",
    auspice: Annotated[str, typer.Option("--auspice", help="Ragabash, Theurge, Philodox, Galliard or Ahroun.")] = "",
    tribe: Annotated[str, typer.Option("--tribe")] = "",
    pack: Annotated[str, typer.Option("--pack")] = "",
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
    from stkit.config import default_chronicle
    from stkit.errors import InvalidValue
    from stkit.store.sheet import Sheet
    from stkit.store.traits import lookup_auspice, lookup_breed

    if not name.strip():
        raise InvalidValue("a character needs a name")
    sheet = Sheet(
        name=name.strip(),
        chronicle=default_chronicle(chronicle),
        player=player,
        concept=concept,
        nature=nature,
        demeanor=demeanor,
        breed=lookup_breed(breed),
        auspice=lookup_auspice(auspice),
        tribe=tribe,
        pack=pack,
    )
    pairs: list[tuple[str, str | int]] = []
    for item in sets or []:
        trait, sep, value = item.partition("=")
        if not sep:
            raise InvalidValue(f"--set {item!r} needs the form TRAIT=VALUE, e.g. --set Dexterity=3")
        pairs.append((trait, value.strip()))
    warnings = sheet.set_new_traits(pairs)  # a rating set here comes with full points

    from stkit.store.characters import create_character

    char_id = run(db, lambda gw: create_character(gw, sheet).id)
    if json_out:
        emit_json(sheet_json(sheet, char_id=char_id) | {"warnings": warnings})
        return

    from stkit.cli import render

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


@char_app.command("list")
def list_(
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the characters (of one chronicle, or all)."""

    from stkit.store.characters import list_characters

    rows = run(db, lambda gw: [(c.id, c.to_sheet()) for c in list_characters(gw, chronicle)], readonly=True)
    if json_out:
        emit_json(
            {
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
                        "willpower": s.powers["Willpower"].to_dict(),
                        "rage": s.powers["Rage"].to_dict(),
                        "gnosis": s.powers["Gnosis"].to_dict(),
                    }
                    for i, s in rows
                ]
            }
        )
        return
    from stkit.cli import render

    if not rows:
        render.console().print("No characters yet: `stkit char new NAME` or `stkit char import characters/`.")
        return
    rows = [(i, printable_sheet(s)) for i, s in rows]  # no raw control characters to the terminal
    # A console of its own, sized now: the shared one keeps the width it was created with.
    console = render.new_console()
    table = character_table(rows, console)
    if table is not None:
        console.print(table)
        return
    from rich.text import Text

    for _, s in rows:  # too narrow for any table: three short lines per character
        console.print(Text(s.name, style="bold") + Text(f" ({s.chronicle})", style="dim"))
        console.print(f"  {s.form}, {s.health_level or 'unhurt'}", markup=False)
        console.print(
            "  "
            + "  ".join(f"{p} {s.powers[p].temporary}/{s.powers[p].permanent}" for p in ("Rage", "Gnosis", "Willpower"))
        )


def character_table(rows: list, console):
    """The `char list` table, fitted to the console's width without ever cutting a name; None when even
    the narrowest table (name, health and points) is too wide.

    The chronicle gets a column only when the characters come from several (else it is in the title).
    Names, health and points never wrap; the Breed / Auspice / Tribe column wraps first, and when the
    table still does not fit, the least needed columns are left out: Breed / Auspice / Tribe, then Player,
    then Form, then Chronicle."""
    from rich import box
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    chronicles = sorted({s.chronicle for _, s in rows})
    cells = []
    for _, s in rows:
        cells.append(
            {
                "Name": s.name,
                "Chronicle": s.chronicle,
                "Player": s.player or "-",
                "Breed / Auspice / Tribe": " / ".join(x for x in (s.breed, s.auspice, s.tribe) if x) or "-",
                "Form": s.form,
                "Health": s.health_level or "unhurt",
                **{p: f"{s.powers[p].temporary}/{s.powers[p].permanent}" for p in ("Rage", "Gnosis", "Willpower")},
            }
        )
    columns = [
        "Name",
        "Chronicle",
        "Player",
        "Breed / Auspice / Tribe",
        "Form",
        "Health",
        "Rage",
        "Gnosis",
        "Willpower",
    ]
    if len(chronicles) == 1:
        columns.remove("Chronicle")
    title = Text(f"Chronicle: {chronicles[0]}") if len(chronicles) == 1 else None

    def build(cols: list[str]) -> Table:
        t = Table(
            title=title,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            header_style="bold",
            pad_edge=False,
            collapse_padding=True,
            show_edge=False,
        )
        for c in cols:
            if c == "Breed / Auspice / Tribe":  # wraps between words
                t.add_column(c, min_width=max(len(w) for r in cells for w in r[c].split()))
            else:  # never cut: as wide as the longest entry (folded only if the terminal is narrower still)
                t.add_column(c, no_wrap=True, min_width=max(len(c), *(len(r[c]) for r in cells)), overflow="fold")
        for r in cells:
            t.add_row(*(Text(r[c]) for c in cols))  # names are user text: never read as markup
        return t

    unclamped = console.options.update_width(10_000)  # Measurement.get clamps to the width it is given
    for drop in ("Breed / Auspice / Tribe", "Player", "Form", "Chronicle", None):
        table = build(columns)
        if Measurement.get(console, unclamped, table).minimum <= console.width:
            return table
        if drop in columns:
            columns.remove(drop)
    return None


@char_app.command("set", context_settings={"ignore_unknown_options": True})  # `set X Rage -1` reaches our range check
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
    from stkit.store import characters

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
    from stkit.store import characters
    from stkit.text import check_range

    check_range(points, "points", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.spend(s, name, power.value, points, chronicle=chronicle)), json_out)


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
    from stkit.store import characters
    from stkit.text import check_range

    check_range(points, "points", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.regain(s, name, power.value, points, chronicle=chronicle)), json_out)


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
    from stkit.store import characters
    from stkit.text import check_range

    check_range(levels, "health levels", 1, MAX_COUNT)
    print_edit(run(db, lambda s: characters.damage(s, name, levels, kind.value, chronicle=chronicle)), json_out)


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
    from stkit.store import characters
    from stkit.text import check_range

    check_range(levels, "health levels", 1, MAX_COUNT)
    print_edit(
        run(db, lambda s: characters.heal(s, name, levels, kind.value if kind else None, chronicle=chronicle)), json_out
    )


@char_app.command("shift")
def shift(
    name: NameArg,
    form: Annotated[str, typer.Argument(help="homid, glabro, crinos, hispo or lupus.")],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Change form (homid, glabro, crinos, hispo, lupus).

    The form's Attribute changes apply to every pool rolled from the sheet."""
    from stkit.store import characters

    print_edit(run(db, lambda s: characters.shift(s, name, form, chronicle=chronicle)), json_out)


@char_app.command("xp")
def xp(
    name: NameArg,
    action: Annotated[
        XpAction, typer.Argument(help="award, spend, or log (show the log).", case_sensitive=False)
    ] = XpAction.log,
    amount: Annotated[int, typer.Argument(help="Experience points (1 or more) for award/spend.")] = 0,
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why (kept in the experience log).")] = "",
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Award or spend experience, or show the experience log.

    Examples: `stkit char xp NAME award 3 -r "session 4"`, `stkit char xp NAME spend 2 -r "Brawl 3"`."""
    from stkit.store import characters

    if action is XpAction.log:
        sheet = run(db, lambda s: characters.get_character(s, name, chronicle).to_sheet(), readonly=True)
        if json_out:
            emit_json(
                {
                    "name": sheet.name,
                    "total": sheet.xp_total,
                    "spent": sheet.xp_spent,
                    "available": sheet.xp_available,
                    "log": sheet.xp_log,
                }
            )
            return
        from rich.table import Table
        from rich.text import Text

        from stkit.cli import render

        shown = printable_sheet(sheet)
        t = Table(
            title=Text(f"{shown.name}: {sheet.xp_total} earned, {sheet.xp_spent} spent, {sheet.xp_available} unspent")
        )
        for col in ("When", "Kind", "Points", "Reason"):
            t.add_column(col)
        for e in shown.xp_log:  # Text cells: a reason like '[bold]' is printed as typed, never as markup
            t.add_row(Text(e["at"]), Text(e["kind"]), str(e["amount"]), Text(e["reason"]))
        render.console().print(t)
        return
    print_edit(
        run(db, lambda s: characters.experience(s, name, action.value, amount, reason, chronicle=chronicle)), json_out
    )


@char_app.command("delete")
def delete(
    name: NameArg,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation (for scripts).")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Delete a character (asks first).

    Its logged rolls are kept, under its name."""
    from stkit.store import characters

    if not yes:
        found = run(db, lambda s: characters.get_character(s, name, chronicle).name, readonly=True)
        from stkit.text import printable

        if not typer.confirm(f"Delete {printable(found)}? This cannot be undone", default=False):
            sys.stderr.write("Nothing deleted.\n")
            raise typer.Exit(1)
    deleted = run(db, lambda s: characters.delete_character(s, name, chronicle=chronicle))
    if json_out:
        emit_json({"deleted": deleted})
    else:
        from stkit.cli import render
        from stkit.text import printable

        render.print_text(f"Deleted {printable(deleted)}.")


@char_app.command("import")
def import_(
    paths: Annotated[
        list[Path], typer.Argument(help="Character files (.yaml, .yml, .json, Foundry actor .json) or folders.")
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
    """Import character files (YAML, JSON, Foundry): all or nothing.

    Any bad file (malformed, unknown trait, value out of range, duplicate name) imports nothing and the
    error names the file, the field and the allowed range."""
    from stkit.store.files import import_files

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
    from rich.text import Text

    from stkit.cli import render

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
        FormatChoice, typer.Option("--format", "-f", help="yaml or json.", case_sensitive=False)
    ] = FormatChoice.yaml,
    player_view: Annotated[bool, typer.Option("--player-view", help="Leave the Storyteller-only notes out.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    """Export a character as a YAML or JSON character file.

    The file re-imports without loss."""
    from stkit.store.files import dump

    sheet, _ = load_sheet(db, name, chronicle)
    text = dump(sheet, fmt.value, player_view=player_view)
    if output is None:
        sys.stdout.write(text)
    else:
        from stkit.store.files import write_file
        from stkit.text import printable

        write_file(output, text)  # all or nothing: a temporary file renamed into place
        sys.stderr.write(f"Wrote {printable(output)}\n")


def log(
    char: Annotated[str | None, typer.Option("--char", "-c", help="Only this character's rolls.")] = None,
    chronicle: ChronicleOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many of the newest rolls (1 to 10000).")] = 20,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The roll log, newest first.

    Every roll made with --char (or --log)."""
    from stkit.store.rolls import check_log_limit, recent_log

    check_log_limit(limit)  # before opening (and perhaps creating) the store
    entries = run(db, lambda gw: recent_log(gw, name=char, chronicle=chronicle, limit=limit), readonly=True)
    if json_out:
        emit_json({"rolls": entries})
        return
    from rich.text import Text

    from stkit.cli import render

    if not entries:
        render.console().print("No rolls logged yet.")
        return
    # Plain aligned lines rather than a rich Table: `stkit log` must start fast.
    rows = []
    for e in entries:
        res = e["outcome"] if e["outcome"] != "success" else f"{e['result']} success{'es' if e['result'] != 1 else ''}"
        if e["willpower"]:
            res += " +WP"
        who = e["character"] or "-"
        if e.get("scene_id"):
            who += f" (scene {e['scene_id']}/{e['turn']})"
        rows.append(
            (
                str(e["id"]),
                str(e["created_at"])[:19].replace("T", " "),
                who,
                f"{e['expression']} = {e['pool']}",
                str(e["difficulty"]),
                " ".join(map(str, e["dice"])),
                res,
                e["outcome"],
            )
        )
    heads = ("#", "When (UTC)", "Character", "Pool", "Diff", "Dice", "Result")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    lines = [Text("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip(), style="bold")]
    for r in rows:
        t = Text("  ".join(c.ljust(w) for c, w in zip(r[:6], widths[:6], strict=True)) + "  ")
        t.append(r[6], style={"botch": "red bold", "failure": "yellow", "success": "green"}.get(r[7], ""))
        lines.append(t)
    render.console().print(Text("\n").join(lines), crop=False, overflow="ignore")


def register(app: typer.Typer) -> None:
    """Add the `char` group and the `log` command to the root app."""
    app.add_typer(char_app, name="char")
    app.command("log")(log)
