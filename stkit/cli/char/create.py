"""`stkit char create`: guided creation in the terminal (prompt_toolkit), one step at a time, the totals
left shown under the prompt, `undo` and `quit`; the sheet is stored only when it is finished.

The steps and their rules are :mod:`stkit.sheet.guided`'s; this module only asks and prints.
"""

from __future__ import annotations

import sys
from typing import Any


def run_wizard(
    name: str | None,
    chronicle: str | None,
    db: str | None,
    json_out: bool,
    *,
    input: Any = None,
    output: Any = None,
) -> None:
    """Ask the creation steps until the sheet is finished (then store it) or the player types `quit` (or
    ends the input): nothing is stored then, exit 1 (130 after Ctrl-C). ``input`` / ``output``:
    prompt_toolkit's, for tests."""

    import typer  # lazy: start-up (loaded when the command runs)
    from prompt_toolkit import PromptSession  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.errors import InvalidValue  # lazy: start-up (loaded when the command runs)
    from stkit.sheet.guided import new_draft  # lazy: start-up (loaded when the command runs)
    from stkit.store.characters import create_character  # lazy: start-up (loaded when the command runs)
    from stkit.text import MAX_NAME, check_text  # lazy: start-up (loaded when the command runs)

    if name is not None:
        check_text(name, "character name", limit=MAX_NAME)
    chron = default_chronicle(chronicle)
    if input is None and not sys.stdin.isatty():
        raise InvalidValue("`char create` asks its questions in a terminal; stdin is not one")
    draft = new_draft(name, chron)
    out = render.console()
    session: PromptSession = PromptSession(input=input, output=output)
    out.print(render.safe_text("Guided character creation: `undo` takes an answer back, `quit` stops", style="bold"))
    shown_step = -1
    while not draft.finished:
        if draft.step != shown_step:
            out.print(render.safe_text(draft.prompt(), style="cyan"))
            shown_step = draft.step
        try:
            line = session.prompt("> ", bottom_toolbar=lambda: " | ".join(draft.status()))
        except KeyboardInterrupt:
            render.print_text("Error: creation interrupted (Ctrl-C); nothing stored", stderr=True)
            raise typer.Exit(130) from None
        except EOFError:
            render.print_text("Error: the input ended before the character was finished; nothing stored", stderr=True)
            raise typer.Exit(1) from None
        if line.strip().casefold() == "quit":
            render.print_text("Error: creation stopped; nothing stored", stderr=True)
            raise typer.Exit(1)
        try:
            for msg in draft.answer(line):
                out.print(render.safe_text(msg))
        except InvalidValue as exc:
            out.print(render.safe_text(f"Refused: {exc}", style="red"))
    sheet = draft.sheet
    char_id = run(db, lambda gw: create_character(gw, sheet).id)
    if json_out:
        render.print_json(sheet.to_dict() | {"id": char_id})
        return
    out.print(
        render.safe_text(
            f"Created {sheet.name} in chronicle {sheet.chronicle!r}; it passes `char check`", style="green bold"
        )
    )
