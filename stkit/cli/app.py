"""The root `stkit` command: wires every command group and turns StkitError into one line + exit 1."""

from __future__ import annotations

import sys

import typer
from typer.core import TyperGroup

from stkit import __version__
from stkit.errors import StkitError


def print_error(message: str) -> None:
    """One line on stderr, no traceback, no markup."""
    sys.stderr.write(f"Error: {message}\n")
    sys.stderr.flush()


class StkitGroup(TyperGroup):
    """The root group: the single place where library errors become a message and an exit code."""

    def invoke(self, ctx):  # noqa: ANN001 - typer's signature
        try:
            return super().invoke(ctx)
        except StkitError as exc:
            print_error(str(exc))
            raise typer.Exit(1) from None


app = typer.Typer(
    cls=StkitGroup,
    name="stkit",
    help="The Storyteller toolkit: d10 dice pools, exact odds, Werewolf characters, scenes and the Rage card game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"stkit {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """The Storyteller toolkit."""


# Each module registers its commands on `app`; they import nothing heavy at module level.
from stkit.cli import roll as _roll  # noqa: E402
from stkit.cli import odds as _odds  # noqa: E402
from stkit.cli import char as _char  # noqa: E402
from stkit.cli import scene as _scene  # noqa: E402
from stkit.cli import tcg as _tcg  # noqa: E402

for _module in (_roll, _odds, _char, _scene, _tcg):
    _module.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
