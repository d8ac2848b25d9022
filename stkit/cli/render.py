"""Rendering of dice results for people (rich) and scripts (JSON). Imported only when output is printed.

Output safety lives here, once for the whole CLI: :func:`safe` (a string for rich markup) and
:func:`safe_text` (a rich ``Text``) show user or file text literally, with control characters made visible
by :func:`stkit.text.printable`; and every console this module makes (:func:`console`,
:func:`new_console`) passes what it writes through the same function and drops hyperlinks, so that even text
that missed a call reaches the terminal as visible escapes, never as raw C0, C1 or bidirectional bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console
    from rich.text import Text

    from stkit.dice import RollResult

_console: Console | None = None


def safe(value: object, *, multiline: bool = False) -> str:
    """``value`` as a string fit for rich markup: control characters shown as escapes
    (:func:`stkit.text.printable`), then square brackets escaped, so ``'[link=...]x[/link]'`` or
    ``'zzqq[/bold]'`` print as typed. Use inside f-strings that carry stkit's own markup."""
    from rich.markup import escape  # lazy: start-up (loaded when the command runs)

    from stkit.text import printable  # lazy: start-up (loaded when the command runs)

    return escape(printable(value, multiline=multiline))


def safe_text(value: object, *, style: str = "", multiline: bool = False) -> Text:
    """``value`` as a rich ``Text`` (never read as markup) with control characters shown as escapes."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.text import printable  # lazy: start-up (loaded when the command runs)

    return Text(printable(value, multiline=multiline), style=style)


def _safe_console_class() -> type[Console]:
    """A rich Console whose rendered segments pass through :func:`stkit.text.printable` (newlines and tabs
    kept) and carry no hyperlink: the last guard before bytes reach the terminal. rich's own control
    segments (cursor moves, styles) are left alone; rich adds the colour codes after this step. A reader
    that went away (``| head``) raises BrokenPipeError, which :mod:`stkit.cli.app` ends quietly."""
    global _SafeConsole
    if _SafeConsole is None:
        from rich.console import Console  # lazy: start-up (loaded when the command runs)
        from rich.segment import Segment  # lazy: start-up (loaded when the command runs)

        from stkit.text import printable  # lazy: start-up (loaded when the command runs)

        class SafeConsole(Console):
            def _render_buffer(self, buffer: Iterable[Segment]) -> str:
                cleaned = []
                for segment in buffer:
                    text, style, control = segment
                    if not control:
                        if style is not None and style.link:
                            style = style.update_link(None)
                        segment = Segment(printable(text, multiline=True), style, control)
                    cleaned.append(segment)
                return super()._render_buffer(cleaned)

            def on_broken_pipe(self) -> None:
                # rich would exit 1 here; the root command turns this into the shell's quiet 141
                raise BrokenPipeError(32, "Broken pipe")

        _SafeConsole = SafeConsole
    return _SafeConsole


_SafeConsole: type[Console] | None = None


def new_console(*, stderr: bool = False) -> Console:
    """A console sized now (for tables fitted to the terminal), on stdout or stderr.

    Rich honours NO_COLOR and a non-terminal stream by itself; highlighting is off so that numbers and
    names in output keep the colours stkit gives them (or none); emoji codes (``:smile:``) are never
    replaced. Output passes the guard of :func:`_safe_console_class`."""
    return _safe_console_class()(stderr=stderr, highlight=False, emoji=False)


def console() -> Console:
    """The shared stdout console for line output (soft-wrapped: long lines are not cut or re-wrapped)."""
    global _console
    if _console is None:
        _console = _safe_console_class()(highlight=False, soft_wrap=True, emoji=False)
    return _console


def print_json(data: Any, *, indent: int | None = 2) -> None:
    """One JSON object on stdout (``indent=None``: on one line). Text is written as UTF-8, not \\u escapes,
    except control characters (:func:`stkit.text.escape_json_controls`); dates and paths become strings."""
    import json  # lazy: start-up (only for --json)

    from stkit.text import escape_json_controls  # lazy: start-up (loaded when the command runs)

    text = json.dumps(data, indent=indent, ensure_ascii=False, default=str)
    sys.stdout.write(escape_json_controls(text) + "\n")  # C1 and bidi characters as \u escapes


def print_text(text: str, *, style: str | None = None, stderr: bool = False) -> None:
    """Print ``text`` literally: square brackets in names (a character called '[bold]') are never markup,
    control characters are shown as escapes."""
    (new_console(stderr=True) if stderr else console()).print(safe_text(text, style=style or ""))


#: The rich style of each die mark (:class:`stkit.dice.marks.DieMark`); struck dice are the rule of one's pairs.
_MARK_STYLES = {
    "success": "green bold",
    "success cancelled": "green bold strike",
    "one": "red bold",
    "one cancelling": "red bold strike",
    "": "dim",
}


def dice_text(roll: RollResult) -> Text:
    """The dice in roll order: successes bracketed and green, 1s in angle brackets and red, dice the rule
    of one pairs off struck through (:func:`stkit.dice.marks.die_marks`); extra dice from a re-rolled 10
    after a '+'."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.dice.marks import die_marks  # lazy: start-up (loaded when the command runs)

    text = Text()
    for i, (face, mark) in enumerate(zip(roll.dice, die_marks(roll), strict=True)):
        if i == roll.pool and i:
            text.append(" + ", style="dim")
        elif i:
            text.append(" ")
        shown = f"[{face}]" if mark.is_success else f"<{face}>" if mark.is_one else str(face)
        text.append(shown, style=_MARK_STYLES[mark.value])
    return text


def summary_text(roll: RollResult) -> Text:
    """One line: '2 successes (marginal)', 'Failure', or a loud 'BOTCH'."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    if roll.automatic:
        return Text("1 success (marginal), automatic: no dice rolled", style="green bold")
    if roll.outcome.value == "botch":
        # assembled, not added: an added Text would inherit the white-on-red of the first part
        return Text.assemble(
            (" BOTCH! ", "bold white on red"), (" no die reached the difficulty and a 1 showed", "red bold")
        )
    if roll.outcome.value == "failure":
        why = " (the 1s cancelled every success)" if roll.successes_rolled else ""
        return Text("Failure: no successes" + why, style="yellow bold")
    label = "success" if roll.final_successes == 1 else "successes"
    return Text(f"{roll.final_successes} {label} ({roll.degree})", style="green bold")


def spared_reason(roll: RollResult) -> str | None:
    """Why ``roll`` is not the botch its dice would make (:func:`stkit.dice.score.botch_spared`): Willpower
    spent, or the house rule ``specialty-botch no`` on a specialised roll; None when it was no botch anyway
    (or is one)."""
    from stkit.dice.score import botch_spared, may_botch  # lazy: start-up (loaded when the command runs)

    if roll.automatic or roll.botch:
        return None
    if not botch_spared(roll.dice, roll.difficulty, max(roll.net, 0), may_botch(roll.rules, roll.willpower)):
        return None
    if roll.willpower:
        return "Willpower was spent, and its success cannot be cancelled"
    return "house rule specialty-botch no: a roll with a specialty does not botch"


def spared_text(reason: str) -> Text:
    """The line under a roll whose botch was forgiven (``reason`` from :func:`spared_reason`)."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    return Text(f"No botch ({reason}): no die reached the difficulty and a 1 showed", style="yellow")


def roll_lines(roll: RollResult, *, title: str | None = None, kind: str | None = None) -> list[Text]:
    """Lines describing one roll for people; ``kind`` "damage" or "soak" for those rolls, whose 1s not
    cancelling is their default rather than a house rule."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    lines: list[Text] = []
    head = title + ": " if title else ""
    diff = f"difficulty {roll.difficulty}"
    if roll.retry:
        diff += f" (try again #{roll.retry}: raised from {roll.base_difficulty})"
    lines.append(Text(f"{head}{roll.pool} {'die' if roll.pool == 1 else 'dice'} at {diff}", style="bold"))
    if roll.automatic:
        lines.append(summary_text(roll))
        return lines
    lines.append(Text("Dice: ") + dice_text(roll))
    notes = []
    if roll.cancelled:
        notes.append(f"rule of one: {roll.cancelled} success{'es' if roll.cancelled != 1 else ''} cancelled by 1s")
    elif roll.ones and not roll.rules.ones_cancel:
        why = f"a {kind} roll" if kind in ("damage", "soak") else "house rule"
        notes.append(f"{'a 1' if roll.ones == 1 else f'{roll.ones} 1s'} not cancelling ({why})")
    if roll.willpower:
        notes.append("+1 success from Willpower")
    if roll.automatic_successes:
        n = roll.automatic_successes
        notes.append(f"+{n} automatic success{'es' if n != 1 else ''}")
    if roll.extra_dice:
        notes.append(
            f"{len(roll.extra_dice)} extra {'die' if len(roll.extra_dice) == 1 else 'dice'} from re-rolled 10s"
        )
    if notes:
        lines.append(Text("; ".join(notes), style="dim"))
    lines.append(summary_text(roll))
    spared = spared_reason(roll)
    if spared:
        lines.append(spared_text(spared))
    return lines


def print_roll(roll: RollResult, *, title: str | None = None, kind: str | None = None) -> None:
    out = console()
    for line in roll_lines(roll, title=title, kind=kind):
        out.print(line)
