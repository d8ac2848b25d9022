"""Every command has a docs entry; the lazy command map covers what each module registers. (That every
command has help is checked in test_output_and_help.py.)"""

import pathlib
import re

import typer
import typer.main
from typer.testing import CliRunner

from stkit.cli.app import LAZY_COMMANDS
from tests.cli.tree import all_commands

ROOT = pathlib.Path(__file__).resolve().parents[2]
runner = CliRunner()


def _all_commands():
    return all_commands()


def test_lazy_map_matches_what_modules_register():
    import importlib

    for module_name in sorted(set(LAZY_COMMANDS.values())):
        holder = typer.Typer()
        importlib.import_module(module_name).register(holder)
        names = set(typer.main.get_group(holder).commands)
        expected = {name for name, mod in LAZY_COMMANDS.items() if mod == module_name}
        assert names == expected, module_name


def test_every_command_is_in_the_docs():
    docs = "\n".join(p.read_text() for p in (ROOT / "docs").glob("*.md"))
    missing = [
        " ".join(path)
        for path, command in _all_commands()
        if not getattr(command, "commands", None)  # leaf commands
        and not re.search(r"stkit " + re.escape(" ".join(path)) + r"\b", docs)
    ]
    assert missing == []
