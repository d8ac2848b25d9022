"""`stkit tcg` resolvers: umbra-cost, umbra-track, frenzy, combat, battlefield, moot, alpha-order, victory, regen.

Each command answers one table question, explains the steps and names the rule ids it rests on
(`stkit tcg rules show ID` prints a rule). Only typer and the standard library at module level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from stkit.cli.tcg.app import safe, tcg_app
from stkit.text import counted

JsonOpt = Annotated[bool, typer.Option("--json", help='Print one JSON object (answer fields plus "rules").')]
FileArg = Annotated[Path, typer.Argument(help="YAML file describing the situation (format: docs/tcg-resolvers.md).")]


def print_json(data, *, indent: int | None = None) -> None:
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.print_json(data, indent=indent)


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()] if text else []


def _emit(resolution, as_json: bool, headline: str) -> None:
    """Print the resolution: JSON, or a headline, the numbered reasoning and the rule ids."""
    if as_json:
        print_json(resolution.as_json(), indent=None)
        return

    from stkit.cli.render import new_console  # lazy: start-up (loaded when the command runs)

    console = new_console()
    console.print(f"[bold]{safe(headline)}[/bold]")
    for number, line in enumerate(resolution.explanation, start=1):
        console.print(f"  {number}. {safe(line)}")
    console.print(f"[dim]Rules: {safe(', '.join(resolution.rules))}[/dim]")


@tcg_app.command("umbra-cost")
def umbra_cost(
    gnosis: Annotated[int, typer.Option("--gnosis", "-g", help="The alpha's Gnosis (0 to 100).")],
    level: Annotated[int | None, typer.Option("--level", "-l", help="Umbra level, 1 to 5.")] = None,
    points: Annotated[
        int | None, typer.Option("--points", "-p", help="Umbra marker position, 1 to 25 (instead of --level).")
    ] = None,
    last_minute: Annotated[
        bool, typer.Option("--last-minute", help="Moved right before the alpha acts: Gnosis does not reduce the cost.")
    ] = False,
    human: Annotated[
        bool, typer.Option("--human", help="The character is a Human (humans cannot enter the Umbra).")
    ] = False,
    spirit: Annotated[
        bool, typer.Option("--spirit", help="The character is a Spirit (free when picked as alpha).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Sept cards an alpha discards to step sideways into the Umbra.

    The same cost applies to stepping out of it.

    Example: stkit tcg umbra-cost --level 4 --gnosis 5   (3 cards, minus 1 for Gnosis 4-6: 2)
    """
    from stkit.tcg.resolvers.umbra import resolve_umbra_cost  # lazy: start-up (loaded when the command runs)

    r = resolve_umbra_cost(
        level=level, points=points, gnosis=gnosis, last_minute=last_minute, human=human, spirit=spirit
    )
    _emit(r, as_json, f"Discard {counted(r['cards'], 'Sept card')} (Umbra level {r['level']}).")


@tcg_app.command("umbra-track")
def umbra_track(
    events: Annotated[
        list[str] | None,
        typer.Argument(
            help="Events in order: wyrm-enemy-played, spirit-killed, garou-killed, wyrm-enemy-killed, "
            "alpha-pass, points:+N, points:-N, level:+N, level:-N."
        ),
    ] = None,
    start: Annotated[int, typer.Option("--start", help="Marker position to start from, 1 to 25 (game start: 7).")] = 7,
    as_json: JsonOpt = False,
) -> None:
    """Move the Umbra marker through a list of game events.

    The marker never leaves the 1-25 chart.

    Example: stkit tcg umbra-track wyrm-enemy-played garou-killed alpha-pass
    """
    from stkit.tcg.resolvers.umbra import resolve_umbra_track  # lazy: start-up (loaded when the command runs)

    r = resolve_umbra_track(list(events or []), start=start)
    _emit(r, as_json, f"The Umbra marker is on {r['points']} (level {r['level']}).")


@tcg_app.command("frenzy")
def frenzy(
    health: Annotated[int, typer.Option("--health", help="Base (printed) Crinos or metis Health, 1 to 100.")],
    wounds: Annotated[int, typer.Option("--wounds", help="Wounds taken in this one round of combat, 0 to 100.")],
    frenzy_number: Annotated[
        int | None, typer.Option("--frenzy", help="The character's Frenzy number (none: it cannot frenzy).")
    ] = None,
    derangement: Annotated[str | None, typer.Option("--derangement", help="Hysterical or Melancholic.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Does a Garou frenzy after a round's wounds?

    And if so, how many Combat cards does it draw.

    Example: stkit tcg frenzy --health 5 --wounds 3 --frenzy 2   (Janus: frenzies, draws 2)
    """
    from stkit.tcg.resolvers.frenzy import resolve_frenzy  # lazy: start-up (loaded when the command runs)

    r = resolve_frenzy(health=health, wounds=wounds, frenzy=frenzy_number, derangement=derangement)
    if r["frenzies"]:
        head = f"Frenzy! Draw {counted(r['cards_drawn'], 'Combat card')} (Trigger Damage {r['threshold']})."
    elif r["must_pass_next_round"]:
        head = f"No frenzy: Hysterical, it must pass next round (Trigger Damage {r['threshold']})."
    else:
        head = f"No frenzy (Trigger Damage {r['threshold']})."
    _emit(r, as_json, head)


@tcg_app.command("battlefield")
def battlefield(
    renown: Annotated[int, typer.Option("--renown", help="The Battlefield's Renown, 1 to 100.")],
    defender_keywords: Annotated[
        str | None,
        typer.Option("--defender-keywords", help="Keywords on its Defender requirements, comma-separated."),
    ] = None,
    buy: Annotated[
        str | None,
        typer.Option("--buy", help="Keywords the Defending Player buys, comma-separated (1 Rage/Gnosis/Health each)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rage, Gnosis and Health of a Battlefield defending itself.

    Counted after the Defending Player buys Keywords.

    Example: stkit tcg battlefield --renown 10 --defender-keywords "Wyrm,Black Spiral Dancer" --buy Kailindo,Spirit
    """
    from stkit.tcg.resolvers.battlefield import resolve_battlefield  # lazy: start-up (loaded when the command runs)

    r = resolve_battlefield(renown=renown, defender_keywords=_split(defender_keywords), buy=_split(buy))
    kw = ", ".join(r["keywords"]) or "no Keywords"
    _emit(r, as_json, f"Rage {r['rage']}, Gnosis {r['gnosis']}, Health {r['health']}; {kw}.")


@tcg_app.command("combat")
def combat(
    file: FileArg,
    cards_db: Annotated[
        str | None,
        typer.Option(
            "--cards-db",
            help="Card database for plays naming a card (default: $STKIT_CARDS_DB or the user data folder).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Resolve a combat from a YAML file, round by round.

    Each round is narrated step by step.

    Example: stkit tcg combat combat.yaml   (file format and a full example: docs/tcg-resolvers.md)
    """
    from stkit.tcg.cards import Card  # lazy: start-up (loaded when the command runs)
    from stkit.tcg.db import CardDB, check_db_path  # lazy: start-up (loaded when the command runs)
    from stkit.tcg.resolvers.combat import load_combat, resolve_combat  # lazy: start-up (loaded when the command runs)

    if cards_db is not None:
        check_db_path(cards_db)  # a bad path is refused even when no play names a card
    opened: list[CardDB] = []

    def lookup(name: str) -> Card:  # the card database is opened only when a play names a card
        if not opened:
            opened.append(CardDB(cards_db))
        return opened[0].exact(name)

    try:
        setup = load_combat(file, lookup)
    finally:
        for db in opened:
            db.close()
    r = resolve_combat(setup)
    if as_json:
        out = r.as_json()
        out.pop("log", None)  # the same lines are in each round's "log"
        print_json(out, indent=None)
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    from stkit.cli.render import new_console  # lazy: start-up (loaded when the command runs)

    console = new_console()
    console.print(f"[bold]{safe(r['hunter'])} (Hunter) against {safe(r['prey'])} (Prey)[/bold]")
    in_rounds = sum(len(x["log"]) for x in r["rounds"])
    prelude = 0
    while prelude < len(r["log"]) and not r["log"][prelude].startswith("Round "):
        prelude += 1
    for line in r["log"][:prelude]:
        console.print(f"  {safe(line)}")
    for rnd in r["rounds"]:
        console.print(f"[bold cyan]{safe(rnd['log'][0])}[/bold cyan]")
        for line in rnd["log"][1:]:
            console.print(f"    {safe(line)}")
        state = "; ".join(
            f"{s['name']}: {counted(s['wounds'], 'wound')}, Rage {s['rage_available']}, {counted(s['hand'], 'card')}"
            + (f", {s['form']}" if s["form"] else "")
            + (", DEAD" if s["dead"] else "")
            for s in rnd["state"].values()
        )
        console.print(f"    [dim]State: {safe(state)}[/dim]")
    for line in r["log"][prelude + in_rounds :]:
        console.print(f"  {safe(line)}")
    table = Table(title="After combat")
    for col in ("", "form", "wounds", "Rage left", "dead"):
        table.add_column(col)
    for role, s in r["final"].items():
        table.add_row(
            safe(f"{s['name']} ({role})"),
            safe(s["form"] or "-"),
            str(s["wounds"]),
            str(s["rage_available"]),
            "yes" if s["dead"] else "no",
        )
    console.print(table)
    verdict = (
        f"Winner: {r['winner']}."
        if r["winner"]
        else ("Combat over, nobody died." if r["ended"] and not r["deaths"] else "")
    )
    if r["deaths"] and not r["winner"]:
        verdict = "Both combatants died."
    if not r["ended"]:
        verdict = "Combat not finished: the file has no more rounds."
    console.print(f"[bold]{safe(verdict)}[/bold]")
    console.print(f"[dim]Rules: {safe(', '.join(r.rules))}[/dim]")


@tcg_app.command("moot")
def moot(file: FileArg, as_json: JsonOpt = False) -> None:
    """Count the votes on the Moots of a turn.

    The YAML file lists the characters and the Moots with their votes.

    Example: stkit tcg moot moot.yaml   (file format: docs/tcg-resolvers.md)
    """
    from stkit.tcg.resolvers.moot import load_moots, resolve_moots  # lazy: start-up (loaded when the command runs)

    characters, moots = load_moots(file)
    r = resolve_moots(characters, moots)
    head = "; ".join(
        f"{m['name']}: {'passes' if m['passed'] else 'fails'} {m['for']}-{m['against']}" for m in r["moots"]
    )
    _emit(r, as_json, head or "No Moots.")


@tcg_app.command("alpha-order")
def alpha_order(file: FileArg, as_json: JsonOpt = False) -> None:
    """Order of alpha actions, from a YAML file.

    Renown first, then Tribe Fury, then cards that act first.

    Example: stkit tcg alpha-order alphas.yaml   (file format: docs/tcg-resolvers.md)
    """
    from stkit.tcg.resolvers.alpha import (  # lazy: start-up (loaded when the command runs)
        load_alphas,
        resolve_alpha_order,
    )

    alphas, effects = load_alphas(file)
    r = resolve_alpha_order(alphas, effects)
    _emit(r, as_json, "Alpha order: " + ", ".join(a["name"] for a in r["order"]) + ".")


@tcg_app.command("victory")
def victory(file: FileArg, as_json: JsonOpt = False) -> None:
    """Has anyone won? Victory Piles against the Renown level.

    Read from a YAML file.

    Example: stkit tcg victory victory.yaml   (file format: docs/tcg-resolvers.md)
    """
    from stkit.tcg.resolvers.victory import (  # lazy: start-up (loaded when the command runs)
        load_victory,
        resolve_victory,
    )

    r = resolve_victory(load_victory(file))
    if r["winner"]:
        head = f"{r['winner']} wins."
    elif r["tied"]:
        head = f"No winner yet: {', '.join(r['tied'])} are tied."
    else:
        head = f"No winner yet (Renown level {r['renown_level']})."
    _emit(r, as_json, head)


@tcg_app.command("regen")
def regen(
    paw: Annotated[
        str, typer.Option("--paw", help="Edge of the card the paw print is on: right, bottom, left or top.")
    ] = "bottom",
    turned: Annotated[int, typer.Option("--turned", help="Quarter-turns already made since it was set.")] = 0,
    rite: Annotated[
        bool, typer.Option("--rite", help="A Rite in progress rather than a regenerating character.")
    ] = False,
    stalled: Annotated[
        int,
        typer.Option(
            "--stalled", help="Rites only: turns lost because its shapeshifter fought or went to the Hunting Grounds."
        ),
    ] = 0,
    wounds: Annotated[int, typer.Option("--wounds", help="The character's wounds (at least 1 to regenerate).")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Turns until a regenerating character or a Rite is upright.

    Counted in quarter-turns (Start of Turn Phases).

    Example: stkit tcg regen --paw bottom   (2 turns)
    """
    from stkit.tcg.resolvers.regen import resolve_regen  # lazy: start-up (loaded when the command runs)

    r = resolve_regen(paw=paw, turned=turned, rite=rite, stalled=stalled, wounds=wounds)
    _emit(r, as_json, f"Upright after {counted(r['turns'], 'Start of Turn Phase')}.")
