"""`stkit char use NAME POWER`: a Gift or a fetish from the sheet (its roll, its cost, logged).

Registered into the `char` group by :func:`register` (called from stkit.cli.char.commands). Only typer and the
standard library at module level; the store is imported inside the command.
"""

from __future__ import annotations

from typing import Annotated

import typer

from stkit.cli.common import run
from stkit.cli.complete import CharacterNameArg as NameArg
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import DbOpt, JsonOpt, SeedOpt

#: `char use --spend-gnosis`: a fetish activated by a Gnosis point, no roll.
SpendGnosisOpt = Annotated[
    bool, typer.Option("--spend-gnosis", help="Activate a fetish by spending one Gnosis instead of rolling.")
]


def use(
    name: NameArg,
    power: Annotated[str, typer.Argument(help="The Gift or fetish, as named on the sheet.", show_default=False)],
    difficulty: Annotated[
        int | None,
        typer.Option(
            "--difficulty", "-d", help="The difficulty, 2 to 10, where the Gift leaves it to the Storyteller."
        ),
    ] = None,
    spend_gnosis: SpendGnosisOpt = False,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Use a Gift or fetish: pay, roll and log it.

    A fetish rolls Gnosis against the fetish's Gnosis (or --spend-gnosis); a Gift uses stkit's table of
    common Gifts (pool, difficulty, cost). Example: stkit char use Marrow "Fang Dagger\""""
    from stkit.cli.render import print_json, print_text  # lazy: start-up (loaded when the command runs)
    from stkit.store.powers import use_power  # lazy: start-up (loaded when the command runs)

    done = run(
        db,
        lambda gw: use_power(
            gw, name, power, chronicle=chronicle, difficulty=difficulty, spend_gnosis=spend_gnosis, seed=seed
        ),
    )
    if json_out:
        print_json(done.to_dict())
        return
    print_text(done.summary)
    if done.outcome is not None:
        from rich.text import Text  # lazy: start-up (loaded when the command runs)

        from stkit.cli.render import console, dice_text  # lazy: start-up (loaded when the command runs)

        # the marks of every other roll: [success], <1>, struck-through pairs
        seed_note = f" (seed {done.outcome.seed})" if done.outcome.seed is not None else ""
        console().print(Text("Dice: ") + dice_text(done.outcome.roll) + Text(seed_note))
    if done.duration:
        print_text(f"Lasts: {done.duration}")


def register(char_app: typer.Typer) -> None:
    """Add `use` to the `char` group (once)."""
    if any(c.name == "use" for c in char_app.registered_commands):
        return
    char_app.command("use")(use)
