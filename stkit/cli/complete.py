"""Shell completion from the store: character names, trait names in a dice pool, open extended actions
and contests.

These run only when a shell asks for completions (typer calls them with the word being completed), never
on a plain roll; each imports what it needs inside. A store that does not exist yet completes nothing
(and is not created); any error completes nothing, since a completion must never print a traceback into
someone's prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway

#: How many names one Tab offers at most.
MAX_COMPLETIONS = 50


def _as_typed(incomplete: str, names: list[str]) -> list[str]:
    """``names`` fitted to what was typed: typer offers only words that start with the typed text, case
    included, so 'sha' completes to 'shadow-in-the-Wood' (lookups ignore case) rather than to nothing."""
    out = []
    for name in names:
        if name.startswith(incomplete):
            out.append(name)
        elif name.casefold().startswith(incomplete.casefold()):
            out.append(incomplete + name[len(incomplete) :])
    return out


def _read(work: Callable[[Gateway], list[str]]) -> list[str]:
    """``work(gateway)`` on the configured store, read-only; [] when there is no store or anything fails."""
    try:
        from stkit.cli.common import store  # lazy: start-up (only a completion reads the store)

        handle = store(None)
        if not handle.exists():
            return []
        return handle.read(work)[:MAX_COMPLETIONS]
    except Exception:
        return []


def complete_character(incomplete: str) -> list[str]:
    """Character names starting with ``incomplete`` (case, accents, hyphens folded as in lookups)."""
    from stkit.store.completion import character_names_starting  # lazy: start-up (loaded when the command runs)

    return _as_typed(incomplete, _read(lambda gw: character_names_starting(gw, incomplete, limit=MAX_COMPLETIONS)))


#: The character-name argument of the `char` commands: a name, case-insensitive, a unique prefix allowed,
#: completed from the store.
CharacterNameArg = Annotated[
    str,
    typer.Argument(
        help="The character's name (case-insensitive; a unique prefix will do).",
        show_default=False,
        autocompletion=complete_character,
    ),
]


def complete_pool(incomplete: str) -> list[str]:
    """The pool typed so far with its last Trait completed: 'dex+br' -> 'dex+Brawl'. Attributes,
    Abilities, Rage/Gnosis/Willpower and Renown (no store needed)."""

    from stkit.sheet import traits as T  # lazy: start-up (loaded when the command runs)
    from stkit.text import fold_name  # lazy: start-up (loaded when the command runs)

    head, last = re.match(r"(.*?[+-]?\s*)([^+-]*)$", incomplete, re.S).groups()  # type: ignore[union-attr]
    want = fold_name(last)
    if want.isascii() and want.isdigit():
        return []
    names = T.ATTRIBUTES + T.ABILITIES + T.POWERS + T.RENOWN
    return _as_typed(incomplete, [head + n for n in names if fold_name(n).startswith(want)])


def _tracked(kind: str, incomplete: str) -> list[str]:
    from stkit.store.completion import open_tracked  # lazy: start-up (loaded when the command runs)
    from stkit.text import fold_name  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> list[str]:
        rows = open_tracked(gw, kind)
        if incomplete.isascii() and incomplete.isdigit():
            return [str(i) for i, _ in rows if str(i).startswith(incomplete)]
        want = fold_name(incomplete)
        return [name for _, name in rows if fold_name(name).startswith(want)]

    return _as_typed(incomplete, _read(work))


def complete_extended(incomplete: str) -> list[str]:
    """Open extended actions, by name (or by id when digits are typed)."""
    return _tracked("extended", incomplete)


def complete_contest(incomplete: str) -> list[str]:
    """Open contests, by name (or by id when digits are typed)."""
    return _tracked("contest", incomplete)


def complete_house_key(incomplete: str) -> list[str]:
    """`stkit house` keys starting with ``incomplete`` (no store needed)."""
    from stkit.dice.house import HOUSE_KEYS  # lazy: start-up (loaded when the command runs)

    return _as_typed(incomplete, list(HOUSE_KEYS))


def complete_house_value(ctx: typer.Context, incomplete: str) -> list[str]:
    """The words the house rule named before the value allows ('on', 'off'; 'none', 'double', 'reroll');
    nothing for a number range such as the difficulty's '2 to 10', or an unknown key."""

    from stkit.dice.house import HOUSE_KEYS  # lazy: start-up (loaded when the command runs)

    key = str(ctx.params.get("key") or "").strip().casefold().replace("_", "-")
    if key not in HOUSE_KEYS:
        return []
    allowed = HOUSE_KEYS[key][1]
    if re.fullmatch(r"\d+ to \d+", allowed):
        return []
    return _as_typed(incomplete, [w for w in re.split(r", | or ", allowed) if w])
