"""`stkit tcg`: the Rage card game adjudicator. Sub-modules each add their commands to `tcg_app`."""

from __future__ import annotations

import typer

tcg_app = typer.Typer(help="Rage card game: rules search, cards, deck legality and resolvers.", no_args_is_help=True)


def register(app) -> None:
    """Attach `stkit tcg` to the root app, with every tcg sub-module's commands."""
    from stkit.cli.tcg import cards_cmds, resolver_cmds  # noqa: F401  (each registers on import)

    app.add_typer(tcg_app, name="tcg")
