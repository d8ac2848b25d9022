"""`stkit char check | raise | renown | history | create` and `char xp NAME undo`: a character's life by the
book (creation checked, experience spent at its price, Renown into Rank, the sheet's history).

Registered into the `char` group by :func:`register` (called from stkit.cli.char.commands). Only typer and the
standard library at module level; the store and rich are imported inside the commands.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.common import run
from stkit.cli.complete import CharacterNameArg as NameArg
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import DbOpt, JsonOpt
from stkit.errors import InvalidValue
from stkit.text import check_range, printable

if TYPE_CHECKING:  # pragma: no cover
    from stkit.sheet.lifebook import CreationCheck


class HistoryFormat(enum.StrEnum):
    """How `char history` prints: a table, CSV or JSON."""

    table = "table"
    csv = "csv"
    json = "json"


def _out():
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    return render.console()


def print_check(result: CreationCheck) -> None:
    """The verdict of `char check` for people: pass or fail, each deviation with its rule, the freebie
    reading, what was not checked, notes."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = _out()
    if result.kind is None:
        out.print(render.safe_text(f"{result.name}: not checked", style="yellow bold"))
    elif result.passed:
        out.print(
            render.safe_text(f"{result.name} passes character creation ({result.kind} rules)", style="green bold")
        )
    else:
        n = len(result.deviations)
        out.print(
            render.safe_text(
                f"{result.name} breaks character creation ({result.kind} rules): {n} deviation{'s' if n != 1 else ''}",
                style="red bold",
            )
        )
    for d in result.deviations:
        out.print(render.safe_text(f"  {d.rule}: {d.message}", style="red"))
    if result.kind is not None:
        out.print(render.safe_text(f"Freebie points: {result.spent} of {result.available} spent"))
        for s in result.spends:
            out.print(
                render.safe_text(
                    f"  {s.what}: {s.detail}; {s.dots} dot{'s' if s.dots != 1 else ''}, "
                    f"{s.points} point{'s' if s.points != 1 else ''}"
                )
            )
        for what, groups in result.priorities.items():
            shown = ", ".join(f"{g} {p}" for g, p in groups.items())
            out.print(render.safe_text(f"  {what.capitalize()}: {shown}", style="dim"))
    for line in result.not_checked:
        out.print(render.safe_text(f"Not checked: {line}", style="yellow"))
    for line in result.notes:
        out.print(render.safe_text(f"Note: {line}", style="dim"))


def check(name: NameArg, chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Check a sheet against character creation.

    Attributes 7/5/3, Abilities 13/9/5 (none above 3 before freebies), 5 Backgrounds, three level-one
    Gifts, Rage, Gnosis, Willpower and Renown by auspice, breed and tribe, Rank 1, 15 freebie points;
    Kinfolk and mortals by theirs. Recorded raises and Renown awards are taken back first. Exit 1 when
    the sheet breaks a rule. Example: `stkit char check Archibald`."""
    from stkit.store.growth import check_character  # lazy: start-up (loaded when the command runs)

    result, _ = run(db, lambda gw: check_character(gw, name, chronicle), readonly=True)
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(result.to_dict())
    else:
        print_check(result)
    if not result.passed:
        from stkit.cli.render import print_text  # lazy: start-up (loaded when the command runs)

        n = len(result.deviations)
        print_text(
            f"Error: {result.name} does not pass character creation: {n} deviation{'s' if n != 1 else ''}", stderr=True
        )
        raise typer.Exit(1)


def entry_words(words: list[str]) -> list[str]:
    """The traits of a command line, with a Gift's or Rite's name typed without quotes kept whole:
    ``['gift:Razor', 'Claws', 'Brawl']`` -> ``['gift:Razor Claws', 'Brawl']``. After a ``gift:``/``rite:``
    word with no ``=N``, each next word that is not a trait on its own (no ``:``, and its name before any
    ``=`` not a trait :func:`stkit.sheet.traits.resolve_settable` knows) is a further word of that name."""
    from stkit.sheet.traits import resolve_settable  # lazy: start-up (loaded when the command runs)

    def is_trait(word: str) -> bool:
        try:
            resolve_settable(word.partition("=")[0])
        except InvalidValue:
            return False
        return True

    out: list[str] = []
    for word in words:
        last = out[-1] if out else ""
        open_name = last.partition(":")[0].strip().casefold() in ("gift", "rite") and "=" not in last
        if open_name and ":" not in word and not is_trait(word):
            out[-1] = f"{last} {word.strip()}"
        else:
            out.append(word)
    return out


def raise_(
    name: NameArg,
    traits: Annotated[
        list[str],
        typer.Argument(
            help="Traits to raise: Brawl, Brawl=3, Willpower, 'gift:Razor Claws' (=LEVEL), 'rite:Rite of Cleansing=2'.",
            show_default=False,
        ),
    ],
    to: Annotated[
        int | None, typer.Option("--to", help="The new rating (Gifts and Rites: the level) of a trait without =N.")
    ] = None,
    outside: Annotated[
        bool, typer.Option("--outside", help="The Gifts are from outside the breed, auspice and tribe (level x5).")
    ] = False,
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why (kept in the experience log).")] = "",
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Raise traits with experience, at the table's price.

    Attribute: current x4; Ability: current x2 (new: 3); Gift: level x3 (outside: x5, never above Rank);
    Rite: level; Rage, Willpower: current; Gnosis: current x2. All or nothing, one transaction; undo
    with `char xp NAME undo`. Example: `stkit char raise Weston Brawl Athletics=2`."""
    from stkit.store.growth import parse_raise, raise_traits  # lazy: start-up (loaded when the command runs)

    if to is not None:
        check_range(to, "--to", 0, 10)
    items = [parse_raise(t, to) for t in entry_words(traits)]
    done = run(db, lambda gw: raise_traits(gw, name, items, chronicle=chronicle, outside=outside, reason=reason))
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(done.to_dict())
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = _out()
    for p in done.purchases:
        out.print(render.safe_text(f"{p.label}: {' + '.join(p.steps)} = {p.cost} experience"))
    s = done.sheet
    out.print(
        render.safe_text(
            f"{s.name} spends {done.cost} experience (spend #{done.spend_id}): "
            f"{s.xp_available} of {s.xp_total} unspent",
            style="bold",
        )
    )


def renown(
    name: NameArg,
    which: Annotated[
        str, typer.Argument(help="Glory, Honor or Wisdom (a Fera: its own, e.g. Ferocity).", show_default=False)
    ],
    points: Annotated[int, typer.Argument(help="Temporary Renown points, -10 to 10 (negative: a loss).")],
    reason: Annotated[str, typer.Option("--reason", "-r", help="The deed.")] = "",
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Award temporary Renown; ten points become one permanent dot.

    The Rank rises when the permanent Renown meets the auspice's next Rank, and the line says so.
    Example: `stkit char renown Weston Glory 4 -r "held the bridge"`."""
    from stkit.store.growth import give_renown  # lazy: start-up (loaded when the command runs)

    edit = run(db, lambda gw: give_renown(gw, name, which, points, reason, chronicle=chronicle))
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(edit.to_dict())
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = _out()
    out.print(render.safe_text(edit.summary, style="bold"))
    nxt = edit.data.get("next_rank")
    if nxt:
        out.print(render.safe_text(f"Next: Rank {nxt['rank']} ({nxt['title']}) needs {nxt['text']}", style="dim"))
    for w in edit.warnings:
        out.print(render.safe_text(f"Warning: {w}", style="yellow"))


def history(
    name: NameArg,
    fmt: Annotated[
        HistoryFormat, typer.Option("--format", "-f", help="table, csv or json.", case_sensitive=False)
    ] = HistoryFormat.table,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every change to a sheet, with its date and source.

    From the experience log and the table events: edits, damage, raises, Renown, undos, Willpower spent on
    rolls. Export: `stkit char history Weston --format csv > weston.csv`."""
    from stkit.cli.cells import local_iso  # lazy: start-up (loaded when the command runs)
    from stkit.store.growth import HISTORY_COLUMNS  # lazy: start-up (loaded when the command runs)
    from stkit.store.growth import history as read_history  # lazy: start-up (loaded when the command runs)

    sheet, rows = run(db, lambda gw: read_history(gw, name, chronicle), readonly=True)
    rows = [r | {"at": local_iso(r["at"])} for r in rows]
    if json_out or fmt is HistoryFormat.json:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json({"name": sheet.name, "chronicle": sheet.chronicle, "history": rows})
        return
    if fmt is HistoryFormat.csv:
        import csv  # lazy: start-up (loaded when the command runs)
        import sys  # lazy: start-up (loaded when the command runs)

        from stkit.cli.cells import csv_cell  # lazy: start-up (loaded when the command runs)

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(HISTORY_COLUMNS)
        for r in rows:
            writer.writerow([csv_cell(r[c]) for c in HISTORY_COLUMNS])
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli.cells import local_time  # lazy: start-up (loaded when the command runs)

    out = _out()
    out.print(Text(f"History of {printable(sheet.name)} ({printable(sheet.chronicle)})", style="bold"))
    for r in rows:
        line = Text(f"{local_time(r['at'])}  ")
        line.append(f"{r['source']:<8}", style="cyan")
        line.append(f"  {printable(r['change'])}")
        out.print(line)


def xp_undo(name: str, chronicle: str | None, db: str | None, json_out: bool) -> None:
    """`char xp NAME undo`: take back the last `char raise` as a whole (see growth.undo_spend)."""
    from stkit.store.growth import undo_spend  # lazy: start-up (loaded when the command runs)

    edit = run(db, lambda gw: undo_spend(gw, name, chronicle=chronicle))
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(edit.to_dict())
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    _out().print(render.safe_text(edit.summary, style="bold"))


def create(
    name: Annotated[str | None, typer.Argument(help="The new character's name (asked when left out).")] = None,
    chronicle: Annotated[str | None, typer.Option("--chronicle", help="The chronicle to create it in.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Make a character step by step, by the creation rules.

    Asks for the concept, then Attributes, Abilities, Backgrounds, Gifts and freebies, showing what is
    left; `undo` takes the last answer back, `quit` stops with nothing stored. The finished sheet passes
    `char check` and is stored only at the end. Example: `stkit char create`."""
    from stkit.cli.char.create import run_wizard  # lazy: start-up (loaded when the command runs)

    run_wizard(name, chronicle, db, json_out)


def register(char_app: typer.Typer) -> None:
    """Add check, raise, renown, history and create to the `char` group (once)."""
    if any(c.name == "check" for c in char_app.registered_commands):
        return
    char_app.command("check")(check)
    char_app.command("raise")(raise_)
    char_app.command("renown")(renown)
    char_app.command("history")(history)
    char_app.command("create")(create)
