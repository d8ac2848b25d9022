"""The `stkit tcg` command group and the output helpers its command modules share.

A leaf module: the command modules import it, it imports none of them (so the package has no import
cycle), and only typer and the standard library are imported at module level.
"""

from __future__ import annotations

import typer

tcg_app = typer.Typer(help="Rage card game: rules search, cards, deck legality and resolvers.", no_args_is_help=True)


def safe(value: object) -> str:
    """User or file text ready for rich: control characters shown as escapes (``\\x1b``), then markup
    escaped, so ``[link=...]`` or ``[/bold]`` in a card name prints literally."""
    from rich.markup import escape  # lazy: start-up (loaded when the command runs)

    from stkit.text import printable  # lazy: start-up (loaded when the command runs)

    return escape(printable(value, multiline=True))
