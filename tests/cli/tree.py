"""The real click command tree of ``stkit``, walked the way click resolves a command line.

Each group is asked for its commands with ``list_commands`` / ``get_command`` and a context of its own, so
groups that load their commands lazily (the root's ``LAZY_COMMANDS``, or any nested lazy group) are walked
as fully as eager ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

# typer ships its own click; a group is whatever answers list_commands / get_command.
Command = Any


def is_group(command: Command) -> bool:
    return hasattr(command, "list_commands") and hasattr(command, "get_command")


def walk(command: Command, path: list[str], parent: typer.Context | None = None) -> Iterator[tuple[list[str], Command]]:
    """(path, command) for ``command`` and everything under it, depth first, names sorted."""
    yield path, command
    if is_group(command):
        ctx = typer.Context(command, info_name=path[-1] if path else "stkit", parent=parent)
        for name in sorted(command.list_commands(ctx)):
            sub = command.get_command(ctx, name)
            assert sub is not None, f"{' '.join([*path, name])} is listed but cannot be loaded"
            yield from walk(sub, [*path, name], ctx)


def all_commands() -> list[tuple[list[str], Command]]:
    """Every group and command below the root ``stkit`` group (the root itself left out)."""
    import typer.main

    from stkit.cli.app import app

    return [(p, c) for p, c in walk(typer.main.get_command(app), []) if p]


def leaf_commands() -> list[tuple[list[str], Command]]:
    """Every command that runs something (no subcommands)."""
    return [(p, c) for p, c in all_commands() if not is_group(c)]


def missing_help(commands: list[tuple[list[str], Command]]) -> list[str]:
    """The paths of commands whose help text (docstring or ``help=``) is empty."""
    return [" ".join(p) for p, c in commands if not (c.help or "").strip() and not (c.short_help or "").strip()]
