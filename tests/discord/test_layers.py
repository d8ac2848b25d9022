"""The Discord door is a door: only the `stkit discord` command group and the table server's app import it,
and it imports neither of the other doors."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2] / "stkit"


def _importers(pattern: str) -> set[str]:
    found = re.compile(rf"^\s*(from {pattern}|import {pattern})", re.M)
    return {str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if found.search(p.read_text())}


def test_only_its_command_group_and_the_server_import_the_discord_door():
    outside = {p for p in _importers(r"stkit\.discord") if not p.startswith("discord/")}
    assert outside == {"cli/discord.py", "web/app.py"}


def test_the_discord_door_imports_no_other_door():
    assert {p for p in _importers(r"stkit\.(cli|web)") if p.startswith("discord/")} == set()
