"""`stkit chronicle new|list|show|rm`: the chronicles of one store (the use cases are
:mod:`stkit.store.chronicles`)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from stkit.cli.options import DbOpt, JsonOpt, YesOpt
from stkit.dice.house import parse_house_value
from stkit.errors import InvalidValue
from stkit.text import MAX_NAME, check_text, counted, printable

chronicle_app = typer.Typer(help="The chronicles of one store: start, list, show, remove.", no_args_is_help=True)

NameArg = Annotated[str, typer.Argument(help="The chronicle's name.", show_default=False)]


def _emit(data: object) -> None:
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.print_json(data)


def _say(text: str, style: str | None = None) -> None:
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.print_text(text, style=style)


@chronicle_app.command("new")
def chronicle_new(
    name: NameArg,
    house: Annotated[
        list[str] | None,
        typer.Option("--house", help="A house rule KEY=VALUE, repeatable (as `stkit house set` takes them)."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option("--public-url", help="The server's address for the link (default: http://127.0.0.1:8000)."),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Start a chronicle with its house rules and Storyteller link.

    Example: `stkit chronicle new "Glass Walkers of Lyon" --house specialty=double`. Characters join it
    with `stkit char new NAME --chronicle CHRONICLE`; `stkit serve --all` serves it beside the others."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.cli.serve import check_public_url  # lazy: start-up (loaded when the command runs)
    from stkit.store.chronicles import new_chronicle  # lazy: start-up (loaded when the command runs)

    check_text(name, "chronicle", limit=MAX_NAME)
    rules: dict[str, str] = {}
    for item in house or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidValue(f"--house {printable(item)[:60]!r} is not KEY=VALUE (e.g. specialty=double)")
        parse_house_value(key.strip(), value.strip())  # refused before the store is opened
        rules[key.strip()] = value.strip()
    base = check_public_url(public_url) if public_url is not None else "http://127.0.0.1:8000"
    link = run(db, lambda gw: new_chronicle(gw, name, rules))
    url = f"{base}/join/{link.token}"
    if json_out:
        _emit({"chronicle": name, "house_rules": rules, "storyteller": url})
        return
    _say(f"Chronicle {printable(name)} started.", style="bold")
    _say(f"Storyteller: {url}")


@chronicle_app.command("list")
def chronicle_list(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the chronicles of the store."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.chronicles import list_chronicles  # lazy: start-up (loaded when the command runs)

    found = run(db, list_chronicles, readonly=True)
    if json_out:
        _emit({"chronicles": [c.to_dict() for c in found]})
        return
    if not found:
        _say("No chronicles in this store yet: start one with `stkit chronicle new NAME`.")
        return
    for c in found:
        _say(
            f"{printable(c.name)}: {counted(len(c.characters), 'character')}, "
            f"{counted(len(c.house_rules), 'house rule')} set, {counted(c.links, 'link')}, {counted(c.rolls, 'roll')}"
            + (f", scene {printable(c.open_scene)} open" if c.open_scene else "")
        )


@chronicle_app.command("show")
def chronicle_show(name: NameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Show one chronicle: characters, house rules, links, rolls."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.chronicles import chronicle_summary  # lazy: start-up (loaded when the command runs)

    c = run(db, lambda gw: chronicle_summary(gw, name), readonly=True)
    if json_out:
        _emit(c.to_dict())
        return
    _say(f"Chronicle {printable(c.name)}", style="bold")
    _say("Characters: " + (", ".join(printable(n) for n in c.characters) or "none yet"))
    rules = ", ".join(f"{k} {printable(v)}" for k, v in c.house_rules.items())
    _say("House rules set: " + (rules or "none (the rules as written)"))
    _say(f"Join links in force: {c.links}; rolls logged: {c.rolls}")
    if c.open_scene:
        _say(f"Open scene: {printable(c.open_scene)}")


@chronicle_app.command("rm")
def chronicle_rm(
    name: NameArg,
    yes: YesOpt = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Remove a chronicle and everything of it (asks first).

    Its characters, logged rolls, scenes, house rules and join links go; open pages stop."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.chronicles import (  # lazy: start-up (loaded when the command runs)
        chronicle_summary,
        remove_chronicle,
    )

    if not yes:
        held = run(db, lambda gw: chronicle_summary(gw, name), readonly=True)
        from stkit.cli.ask import confirm  # lazy: start-up (loaded when the command runs)

        question = (
            f"Remove chronicle {printable(name)} with {counted(len(held.characters), 'character')} and "
            f"{counted(held.rolls, 'logged roll')}? This cannot be undone"
        )
        if not confirm(question, command="chronicle rm"):
            sys.stderr.write("Nothing removed.\n")
            raise typer.Exit(1)
    gone = run(db, lambda gw: remove_chronicle(gw, name))
    if json_out:
        _emit({"removed": gone.to_dict()})
        return
    _say(
        f"Removed chronicle {printable(name)} "
        f"({counted(len(gone.characters), 'character')}, {counted(gone.rolls, 'roll')})."
    )


def register(app: typer.Typer) -> None:
    """Add the `chronicle` group to the root app."""
    app.add_typer(chronicle_app, name="chronicle")
