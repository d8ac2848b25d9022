"""`stkit saved add|list|roll|rm`: saved rolls, a named pool kept on a character's sheet.

A group of its own rather than `stkit roll save`: `stkit roll POOL` takes free pool text as its first
argument, so a word like "save" there would be a pool term to one reader and a command to another. The
rules are :mod:`stkit.store.saved`; rolling goes through the same sheet roll as `stkit roll --char`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.options import ChronicleOpt, DbOpt, JsonOpt, SeedOpt, rule_options, rule_overrides

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway

saved_app = typer.Typer(help="Saved rolls: name a pool once, roll it by name.", no_args_is_help=True)

CharOpt = Annotated[str, typer.Option("--char", "-c", help="Whose sheet keeps the saved roll.", show_default=False)]
NameArg = Annotated[str, typer.Argument(help="The saved roll's name, e.g. claws.", show_default=False)]


def _print_rolls(character: str, rolls: list, json_out: bool) -> None:
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json({"character": character, "saved_rolls": [r.to_dict() for r in rolls]})
        return
    if not rolls:
        render.print_text(
            f"{render.safe(character)} has no saved rolls; add one with: stkit saved add NAME POOL -c NAME"
        )
        return
    for r in rolls:
        render.print_text(render.safe(r.label))


@saved_app.command("add")
def saved_add(
    name: NameArg,
    pool: Annotated[str, typer.Argument(help='The pool, e.g. "Dexterity + Brawl".', show_default=False)],
    char: CharOpt,
    difficulty: Annotated[int, typer.Option("--difficulty", "-d", help="Its difficulty, 2 to 10.")] = 6,
    spec: Annotated[bool, typer.Option("--spec", help="The roll uses a specialty of its Traits.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an earlier saved roll of the same name.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Save a roll on a character's sheet.

    An earlier saved roll of the same name is kept unless --force replaces it.
    Example: `stkit saved add claws "Dexterity + Brawl" -c Shadow --spec`.
    """
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.saved import save_roll  # lazy: start-up (loaded when the command runs)

    done = run(
        db,
        lambda gw: save_roll(
            gw, char, name, pool, difficulty=difficulty, spec=spec, chronicle=chronicle, replace=force
        ),
    )
    if json_out:
        render.print_json({"character": char, "saved_roll": done.to_dict(), "replaced": done.replaced})
    else:
        render.print_text(f"{'Replaced' if done.replaced else 'Saved'} {render.safe(done.label)}")


@saved_app.command("list")
def saved_list(char: CharOpt, chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List a character's saved rolls.

    Example: `stkit saved list -c Shadow`.
    """
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.saved import list_saved  # lazy: start-up (loaded when the command runs)

    character, rolls = run(db, lambda gw: list_saved(gw, char, chronicle=chronicle), readonly=True)
    _print_rolls(character, rolls, json_out)


@saved_app.command("roll")
@rule_options
def saved_roll(
    name: NameArg,
    char: CharOpt,
    willpower: Annotated[bool, typer.Option("--willpower", "-w", help="Spend 1 Willpower for one success.")] = False,
    secret: Annotated[bool, typer.Option("--secret", help="Show it on the Storyteller's table screen only.")] = False,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll a saved roll by name.

    Logged like any roll from the sheet. Example: `stkit saved roll claws -c Shadow`.
    """
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import print_outcome, run  # lazy: start-up (loaded when the command runs)
    from stkit.store.saved import roll_saved  # lazy: start-up (loaded when the command runs)

    overrides = rule_overrides()  # the scoring-rule options given on this command

    def work(gw: Gateway):
        return roll_saved(
            gw,
            char,
            name,
            chronicle=chronicle,
            overrides=overrides,
            willpower=willpower,
            secret=secret,
            seed=seed,
        )

    done = run(db, work)
    if json_out:
        render.print_json({"roll": done.roll.to_dict(), **done.to_dict(), **({"secret": True} if secret else {})})
        return
    # the same lines as `stkit roll -c` (house rules, forgiven botch, the scene and turn it was logged in)
    print_outcome(done, json_out=False, need=None, logged=True, secret=secret)


@saved_app.command("rm")
def saved_rm(
    name: NameArg, char: CharOpt, chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False
) -> None:
    """Remove a saved roll.

    Example: `stkit saved rm claws -c Shadow`.
    """
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.saved import remove_saved  # lazy: start-up (loaded when the command runs)

    done = run(db, lambda gw: remove_saved(gw, char, name, chronicle=chronicle))
    if json_out:
        render.print_json({"character": char, "removed": done.to_dict()})
    else:
        render.print_text(f"Removed saved roll {render.safe(done.name)}")


def register(app: typer.Typer) -> None:
    """Add the `saved` group to the root app."""
    app.add_typer(saved_app, name="saved")
