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
    from collections.abc import Iterable

    from stkit.dice import HouseRules
    from stkit.dice.combat import CombatRules
    from stkit.dice.house import ChronicleRules


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
DamageOnesCancelOpt = Annotated[
    bool,
    typer.Option(
        "--damage-ones-cancel",
        help="HOUSE RULE: 1s cancel successes on damage and soak rolls too (off: they do not; those rolls never "
        "botch either way).",
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


def make_combat_rules(
    damage_ones_cancel: bool = False, rage_cap: int | None = None, unsoakable: Iterable[str] = ()
) -> CombatRules:
    """CombatRules from the combat house-rule flags (their defaults are stkit.dice.combat.CombatRules')."""
    from stkit.dice.combat import CombatRules

    names: frozenset[str] = frozenset()
    if unsoakable:
        from stkit.store.sheet import damage_type  # only the store's commands take --no-soak

        names = frozenset(damage_type(t) for t in unsoakable)
    return CombatRules(damage_ones_cancel=damage_ones_cancel, rage_cap=rage_cap, unsoakable=names)


def make_rng(seed: int | None) -> tuple[random.Random, int]:
    """(random.Random seeded with ``seed``, the seed used): a fresh seed when None, reported in JSON so
    that any roll can be replayed."""
    import random

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    return random.Random(seed), seed


# ---- house rules, per roll ------------------------------------------------------------------------------
# The rolling commands take the chronicle's house rules (`stkit house`) and these flags override them for
# one roll; None means "as the chronicle says".
RollDifficultyOpt = Annotated[
    int | None,
    typer.Option(
        "--difficulty",
        "-d",
        help="Difficulty, 2 to 10 (default: the chronicle's house rule, else 6 as in Chapter Five).",
        show_default=False,
    ),
]
#: The help panel of the per-roll house-rule flags (a table of its own, so the option names fit 80 columns).
HOUSE_PANEL = "House rules (default: the chronicle's, see stkit house)"
HouseSpecialtyOpt = Annotated[
    Specialty | None,
    typer.Option(
        "--specialty",
        case_sensitive=False,
        metavar="RULE",
        help="HOUSE RULE for 10s (default: the chronicle's, else none). 'double': a 10 counts two successes "
        "(20th-anniversary style). 'reroll': each 10 rolls one extra die, which must reach the difficulty "
        "itself and may roll 10 again.",
        show_default=False,
        rich_help_panel=HOUSE_PANEL,
    ),
]
HouseExtraOnesOpt = Annotated[
    bool | None,
    typer.Option(
        "--extra-ones-cancel/--no-extra-ones",
        help="HOUSE RULE, with --specialty reroll: a 1 on an extra die cancels a success too.",
        show_default=False,
        rich_help_panel=HOUSE_PANEL,
    ),
]
HouseOnesOpt = Annotated[
    bool | None,
    typer.Option(
        "--ones-cancel/--ones-dont-cancel",
        help="HOUSE RULE: whether 1s cancel successes (they always botch a roll with no success).",
        show_default=False,
        rich_help_panel=HOUSE_PANEL,
    ),
]
FreeBotchOpt = Annotated[
    bool | None,
    typer.Option(
        "--free-botch/--no-free-botch",
        help="HOUSE RULE: the first botch of the night is forgiven (a failure), and recorded.",
        show_default=False,
        rich_help_panel=HOUSE_PANEL,
    ),
]


def house_rules_for(
    db: str | None,
    chronicle: str | None,
    *,
    specialty: Specialty | None = None,
    extra_ones_cancel: bool | None = None,
    ones_cancel: bool | None = None,
    difficulty: int | None = None,
    free_botch: bool | None = None,
) -> ChronicleRules:
    """The chronicle's house rules (read from the store when it exists; nothing is created) with this
    roll's flags on top. Raises InvalidValue for a difficulty outside 2..10, or --extra-ones-cancel
    when the rules in force have no extra dice (specialty other than reroll)."""
    from stkit.config import database_url, default_chronicle, sqlite_path

    path = sqlite_path(database_url(db))
    if path is not None and not path.is_file():  # no store yet: the rules as written, nothing imported
        from stkit.dice.house import STANDARD_CHRONICLE_RULES

        rules = STANDARD_CHRONICLE_RULES
    else:
        from stkit.store.house import load_house_rules

        rules = load_house_rules(db, default_chronicle(chronicle))
    return rules.override(
        specialty=specialty,
        extra_ones_cancel=extra_ones_cancel,
        ones_cancel=ones_cancel,
        difficulty=difficulty,
        free_botch=free_botch,
    )
