"""Every command has help and a docs entry; the lazy command map covers what each module registers."""

import pathlib
import re

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from stkit.cli.app import LAZY_COMMANDS, app

ROOT = pathlib.Path(__file__).resolve().parents[2]
runner = CliRunner()


def _walk(command, path):
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _walk(sub, [*path, name])


def _all_commands():
    root = typer.main.get_command(app)
    ctx = typer.Context(root)
    found = []
    for name in root.list_commands(ctx):
        found.extend(_walk(root.get_command(ctx, name), [name]))
    return found


def test_lazy_map_matches_what_modules_register():
    import importlib

    for module_name in sorted(set(LAZY_COMMANDS.values())):
        holder = typer.Typer()
        importlib.import_module(module_name).register(holder)
        names = set(typer.main.get_group(holder).commands)
        expected = {name for name, mod in LAZY_COMMANDS.items() if mod == module_name}
        assert names == expected, module_name


@pytest.mark.parametrize("path", [" ".join(p) for p, _ in _all_commands()])
def test_every_command_has_help(path):
    result = runner.invoke(app, [*path.split(), "--help"], env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.stdout


def test_every_command_is_in_the_docs():
    docs = "\n".join(p.read_text() for p in (ROOT / "docs").glob("*.md"))
    missing = [
        " ".join(path)
        for path, command in _all_commands()
        if not getattr(command, "commands", None)  # leaf commands
        and not re.search(r"stkit " + re.escape(" ".join(path)) + r"\b", docs)
    ]
    assert missing == []
