"""`stkit tcg`: the Rage card game adjudicator. Sub-modules each add their commands to `tcg_app`
(defined in :mod:`stkit.cli.tcg.app`, which imports none of them)."""

from __future__ import annotations

from typing import Any


def register(app: Any) -> None:
    """Attach `stkit tcg` to the root app, with every tcg sub-module's commands."""
    from stkit.cli.tcg import cards_cmds, resolver_cmds  # lazy: start-up (tcg commands built only for `stkit tcg`)
    from stkit.cli.tcg.app import tcg_app  # lazy: start-up (tcg commands built only for `stkit tcg`)

    del cards_cmds, resolver_cmds  # imported for the commands they register on tcg_app
    app.add_typer(tcg_app, name="tcg")
