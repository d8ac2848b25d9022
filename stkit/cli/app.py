"""The root `stkit` command: wires every command group and turns StkitError into one line + exit 1."""

from __future__ import annotations

import errno
import sys

import typer
from typer.core import TyperGroup

from stkit import __version__
from stkit.errors import StkitError


def print_error(message: str) -> None:
    """One line on stderr, no traceback, no markup."""
    sys.stderr.write(f"Error: {message}\n")
    sys.stderr.flush()


# Command groups loaded only when named (or when the full help is shown), so that a plain `stkit roll`
# does not build, or import, the character store, the odds engine or the card game. Name -> module; each
# module has `register(app)` adding its commands to a Typer.
LAZY_COMMANDS: dict[str, str] = {
    "odds": "stkit.cli.odds",
    "char": "stkit.cli.char",
    "log": "stkit.cli.char",
    "scene": "stkit.cli.scene",
    "extended": "stkit.cli.scene",
    "contest": "stkit.cli.scene",
    "tcg": "stkit.cli.tcg",
    "serve": "stkit.cli.serve",
    "table": "stkit.cli.serve",
}
_loaded_modules: dict[str, dict] = {}


def load_module_commands(module_name: str) -> dict:
    """Import a command module and build its commands: {name: click command}."""
    if module_name not in _loaded_modules:
        import importlib

        import typer.main

        module = importlib.import_module(module_name)
        holder = typer.Typer()
        module.register(holder)
        _loaded_modules[module_name] = dict(typer.main.get_group(holder).commands)
    return _loaded_modules[module_name]


class StkitGroup(TyperGroup):
    """The root group: loads command groups lazily, and is the single place where library errors become
    a message and an exit code."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS:
            command = load_module_commands(LAZY_COMMANDS[cmd_name]).get(cmd_name)
        return command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except StkitError as exc:
            print_error(str(exc))
            raise typer.Exit(1) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise  # typer's own handling: quiet exit when the reader (e.g. `head`) goes away
            # A full disk or an unwritable output: one line, not a traceback.
            print_error(f"cannot write: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
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
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """The Storyteller toolkit."""


# Dice commands are registered eagerly (they are the common case); the rest load lazily (LAZY_COMMANDS).
from stkit.cli import roll as _roll  # noqa: E402

_roll.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
