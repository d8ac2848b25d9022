"""`stkit char print NAME --pdf FILE | --html FILE [--all]`: characters on paper.

Registered into the `char` group by :func:`register` (called from stkit.cli.char.commands). Only typer and the
standard library at module level; the store, fpdf2 and rich are imported inside the command.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from stkit.cli.common import run
from stkit.cli.complete import complete_character
from stkit.cli.options import ChronicleLookupOpt as ChronicleOpt
from stkit.cli.options import DbOpt, JsonOpt
from stkit.text import printable


def print_sheet(
    name: Annotated[
        str | None,
        typer.Argument(
            help="The character's name (case-insensitive; a unique prefix will do). Leave out with --all.",
            show_default=False,
            autocompletion=complete_character,
        ),
    ] = None,
    pdf: Annotated[Path | None, typer.Option("--pdf", help="Write a PDF, one A4 page per character.")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Write an HTML page with print CSS.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every character of the chronicle (a troupe).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite a file that already exists.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Print a character sheet (PDF or HTML), one page each.

    Dots, health boxes, Renown, Gifts, Rites, fetishes, weapons, armour and notes. A file that exists is
    left alone unless --force. Example: stkit char print Archibald --pdf archibald.pdf"""
    if pdf is None and html is None:
        raise typer.BadParameter("give --pdf FILE or --html FILE (or both)")
    if name and every:
        raise typer.BadParameter("give a name or --all, not both")
    if pdf is not None and html is not None and os.path.realpath(pdf) == os.path.realpath(html):
        # one file for both: the second write would fail on the first's file, or replace it with --force
        raise typer.BadParameter(f"--pdf and --html name the same file ({printable(html)}); give two files")
    from stkit.formats import printsheet  # lazy: start-up (loaded when the command runs)
    from stkit.store.files import print_sheets, write_new_file  # lazy: start-up (loaded when the command runs)

    sheets = run(db, lambda gw: print_sheets(gw, name, chronicle, every=every), readonly=True)
    outputs: list[tuple[Path, bytes]] = []
    warnings: list[str] = []
    if pdf is not None:
        outputs.append((pdf, printsheet.to_pdf(sheets, warnings=warnings)))
    if html is not None:
        outputs.append((html, printsheet.to_html(sheets).encode("utf-8")))
    for path, _data in outputs:  # refuse before writing anything
        if path.exists() and not force and not path.is_dir():
            write_new_file(path, b"", force=False)
    for path, data in outputs:
        write_new_file(path, data, force=force)
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(
            {"characters": [s.name for s in sheets], "files": [str(p) for p, _ in outputs], "warnings": warnings}
        )
        return

    for w in warnings:
        sys.stderr.write(f"Warning: {printable(w)}\n")
    for path, _ in outputs:
        sys.stderr.write(f"Wrote {printable(path)} ({len(sheets)} page{'s' if len(sheets) != 1 else ''})\n")


def register(char_app: typer.Typer) -> None:
    """Add `print` to the `char` group (once)."""
    if any(c.name == "print" for c in char_app.registered_commands):
        return
    char_app.command("print")(print_sheet)
