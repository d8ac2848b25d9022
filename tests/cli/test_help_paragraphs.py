"""Every command's --help reads as paragraphs: on a terminal wide enough for any paragraph, no sentence is
broken by a docstring's hard line break (typer's rich help keeps single newlines; stkit joins them)."""

from __future__ import annotations

import itertools
import re

from typer.main import get_command
from typer.testing import CliRunner

from stkit.cli.app import app, unwrap_help


def _paths(cmd, path, ctx):
    import click

    yield path
    if hasattr(cmd, "list_commands"):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not getattr(sub, "hidden", False):
                yield from _paths(sub, [*path, name], click.Context(sub, parent=ctx, info_name=name))


def test_no_help_sentence_is_broken_by_a_source_line_break():
    import click

    root = get_command(app)
    runner = CliRunner()
    broken = []
    paths = list(_paths(root, [], click.Context(root, info_name="stkit")))
    assert len(paths) > 60
    for path in paths:
        out = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "2000", "NO_COLOR": "1"}).stdout
        lines = [ln.rstrip() for ln in out.splitlines() if "│" not in ln and "─" not in ln]
        for raw_a, raw_b in itertools.pairwise(lines):
            a, b = raw_a.strip(), raw_b.strip()
            indented = len(raw_b) - len(b) > len(raw_a) - len(a)  # a list's own layout, kept as written
            run_on = a and b and re.match(r"[a-z(]", b) and not a.endswith((".", ":", ";"))
            if run_on and not indented and not a.startswith("Usage"):
                broken.append(f"stkit {' '.join(path)}: {a[-40:]!r} / {b[:30]!r}")
    assert broken == []


def test_unwrap_help_joins_paragraph_lines_and_keeps_lists():
    text = "First line.\n\nA sentence that\nruns on.\n\nTwo ways:\n\n  stkit odds 5\n      one roll\n\n- a\n- b"
    assert (
        unwrap_help(text)
        == "First line.\n\nA sentence that runs on.\n\nTwo ways:\n\n  stkit odds 5\n      one roll\n\n- a\n- b"
    )
