"""Command-line options shared by several command modules, declared once.

Only typer, the standard library and the dice engine's vocabulary here (this module is imported at
start-up by `stkit roll`); what the options turn into (HouseRules, a seeded random.Random) is built inside
functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stkit.dice.model import Specialty  # standard library only, light to import

if TYPE_CHECKING:
    import random

    from stkit.dice import HouseRules


#: What a 10 does on a specialised roll: the dice engine's own vocabulary, offered as the --specialty choices.
SpecialtyChoice = Specialty


# ---- dice -------------------------------------------------------------------------------------------------
DifficultyOpt = Annotated[
    int, typer.Option("--difficulty", "-d", help="Difficulty, 2 to 10 (Chapter Five: default 6).")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed the dice so the roll can be replayed exactly.")]
SpecialtyOpt = Annotated[
    Specialty,
    typer.Option(
        "--specialty",
        case_sensitive=False,
        # A short metavar: the choices are in the help, and the long '[none|double|reroll]' squeezed the
        # option names of the help table at 80 columns.
        metavar="RULE",
        help="HOUSE RULE for 10s, off by default (none). 'double': a 10 counts two successes "
        "(20th-anniversary style). 'reroll': each 10 rolls one extra die, which must reach the difficulty "
        "itself and may roll 10 again.",
    ),
]
ExtraOnesOpt = Annotated[
    bool,
    typer.Option(
        "--extra-ones-cancel",
        help="HOUSE RULE, with --specialty reroll: a 1 on an extra die cancels a success too (off: it does not).",
    ),
]
OnesDontCancelOpt = Annotated[
    bool,
    typer.Option(
        "--ones-dont-cancel",
        help="HOUSE RULE: 1s never cancel successes (they still botch a roll with no success).",
    ),
]

# ---- output and storage -------------------------------------------------------------------------------------
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the table.")]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        # the variable's name stands on its own (no comma after it): rich cannot break it in a narrow column
        help="Database file or SQLAlchemy URL. Default: $STKIT_DATABASE_URL if set, else stkit.sqlite in the "
        "user data folder.",
    ),
]
# Two meanings of --chronicle: where a new thing goes (scenes, new characters) ...
ChronicleOpt = Annotated[
    str | None, typer.Option("--chronicle", help="Chronicle (default: $STKIT_CHRONICLE, else 'default').")
]
# ... and where to look a character up by name.
ChronicleLookupOpt = Annotated[
    str | None,
    typer.Option("--chronicle", help="The character's chronicle (default: any chronicle holding the name)."),
]


def make_rules(specialty: Specialty, extra_ones_cancel: bool, ones_dont_cancel: bool) -> HouseRules:
    """HouseRules from the house-rule flags.

    Raises InvalidValue for --extra-ones-cancel without --specialty reroll (there are no extra dice then)."""
    from stkit.dice import HouseRules
    from stkit.errors import InvalidValue

    if extra_ones_cancel and specialty is not Specialty.REROLL:
        raise InvalidValue("--extra-ones-cancel only applies with --specialty reroll")
    return HouseRules(specialty=specialty, extra_ones_cancel=extra_ones_cancel, ones_cancel=not ones_dont_cancel)


def make_rng(seed: int | None) -> tuple[random.Random, int]:
    """(random.Random seeded with ``seed``, the seed used): a fresh seed when None, reported in JSON so
    that any roll can be replayed."""
    import random

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    return random.Random(seed), seed
