"""Command-line options shared by several command modules, declared once.

Only typer, the standard library and the dice engine's vocabulary here (this module is imported at
start-up by `stkit roll`); the per-roll house-rule options turn into one :class:`RuleOverrides`
(:func:`rule_overrides`), which the store's roll use case lays over the chronicle's house rules.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any

import typer

from stkit.dice.house import RuleOverrides  # standard library only, light to import
from stkit.dice.model import ScoringRules, Specialty, scoring_keys

if TYPE_CHECKING:
    from collections.abc import Iterable

    from stkit.dice.combat import CombatRules


#: What a 10 does on a specialised roll: the dice engine's own vocabulary, offered as the --specialty choices.
SpecialtyChoice = Specialty


# ---- dice -------------------------------------------------------------------------------------------------
DifficultyOpt = Annotated[
    int, typer.Option("--difficulty", "-d", help="Difficulty, 2 to 10 (Chapter Five: default 6).")
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", help="Seed the dice (0 or more) so the roll can be replayed exactly.")
]
SpecialtyOpt = Annotated[
    Specialty | None,
    typer.Option(
        "--specialty",
        case_sensitive=False,
        # A short metavar: the choices are in the help, and the long '[none|double|reroll]' squeezed the
        # option names of the help table at 80 columns.
        metavar="RULE",
        help="HOUSE RULE for 10s on this roll (default: the chronicle's; 'none' switches it off). "
        "'double': a 10 counts two successes "
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
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace the output file if it exists (its permissions are kept).")
]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation (for scripts).")]
# Two meanings of --chronicle: where a new thing goes (scenes, new characters) ...
ChronicleOpt = Annotated[
    str | None, typer.Option("--chronicle", help="Chronicle (default: $STKIT_CHRONICLE, else 'default').")
]
# ... and where to look a character up by name.
ChronicleLookupOpt = Annotated[
    str | None,
    typer.Option("--chronicle", help="The character's chronicle (default: any chronicle holding the name)."),
]


def make_combat_rules(
    damage_ones_cancel: bool = False, rage_cap: int | None = None, unsoakable: Iterable[str] = ()
) -> CombatRules:
    """CombatRules from the combat house-rule flags (their defaults are stkit.dice.combat.CombatRules')."""
    from stkit.dice.combat import CombatRules  # lazy: start-up (loaded when the command runs)

    names: frozenset[str] = frozenset()
    if unsoakable:
        from stkit.sheet.sheet import damage_type  # lazy: start-up (loaded when the command runs)

        names = frozenset(damage_type(t) for t in unsoakable)
    return CombatRules(damage_ones_cancel=damage_ones_cancel, rage_cap=rage_cap, unsoakable=names)


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


SuccessesOpt = Annotated[
    int,
    typer.Option(
        "--successes",
        help="Automatic successes added to the dice's (0 to 1000); 1s cancel them. '+2s' in the pool says the same.",
    ),
]


# ---- the per-roll scoring-rule bundle ---------------------------------------------------------------------
@dataclasses.dataclass
class _Bundle:
    """One command run's scoring-rule choices (field -> value) and whether they reached its overrides."""

    chosen: dict[str, Any]
    taken: bool = False


class BundleNotApplied(RuntimeError):
    """A command given per-roll scoring-rule options built its overrides without them (a defect of the
    command, not of the user's input): it must build them with :func:`rule_overrides` or
    :func:`flag_overrides` (or pass them through :func:`chosen_rules`)."""


#: This command's scoring-rule choices, set by :func:`rule_options` for the command's run.
_CHOSEN: ContextVar[_Bundle | None] = ContextVar("stkit_rule_choices", default=None)
#: The parameter-name prefix of the bundle's options in a command's signature.
_PREFIX = "rule_"


def _bundle_params() -> list[inspect.Parameter]:
    """One keyword parameter per scoring rule that has a per-roll option of the bundle (``RuleKey.option``),
    typed and helped from the rule's one definition (:class:`stkit.dice.model.ScoringRules`)."""
    hints = typing.get_type_hints(ScoringRules)
    out = []
    for key, (name, rule) in scoring_keys().items():
        if not rule.option:
            continue
        kind = hints[name]
        help_text = f"HOUSE RULE {key}: {rule.help} (default: the chronicle's, see stkit house)."
        if kind is bool:
            option = typer.Option(rule.option, help=help_text, show_default=False, rich_help_panel=HOUSE_PANEL)
        else:
            option = typer.Option(
                rule.option,
                case_sensitive=False,
                metavar="RULE",
                help=help_text,
                show_default=False,
                rich_help_panel=HOUSE_PANEL,
            )
        annotation = Annotated[kind | None, option]  # type: ignore[valid-type]
        out.append(
            inspect.Parameter(_PREFIX + name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation)
        )
    return out


def rule_options(func: Any) -> Any:
    """Give a rolling command the per-roll scoring-rule options (``--tens``, ``--tens-cancel-ones``,
    ``--specialty-botch``, ``--willpower-rule``: one per scoring rule whose ``RuleKey.option`` names one),
    declared once from the rules' definition. The command's :func:`rule_overrides` and
    :func:`flag_overrides` lay the choices over the chronicle's house rules, so they reach the roll and
    its exact odds alike. Put it under ``@app.command``.

    A command that was given a choice and ends without having taken it into its overrides raises
    :class:`BundleNotApplied`: a command building its overrides by hand cannot drop the options silently."""
    signature = inspect.signature(func, eval_str=True)
    added = _bundle_params()
    names = [p.name for p in added]

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        chosen = {n[len(_PREFIX) :]: kwargs.pop(n) for n in names if n in kwargs}
        bundle = _Bundle({k: v for k, v in chosen.items() if v is not None})
        token = _CHOSEN.set(bundle)
        try:
            out = func(*args, **kwargs)
        except typer.Exit as done:
            if done.exit_code == 0:
                _check_taken(func, bundle)
            raise
        finally:
            _CHOSEN.reset(token)
        _check_taken(func, bundle)
        return out

    run.__signature__ = signature.replace(parameters=[*signature.parameters.values(), *added])  # type: ignore[attr-defined]
    return run


def _check_taken(func: Any, bundle: _Bundle) -> None:
    """Raise BundleNotApplied when ``bundle`` holds choices the command ``func`` never took."""
    if bundle.chosen and not bundle.taken:
        raise BundleNotApplied(
            f"{func.__name__} was given {', '.join(sorted(bundle.chosen))} but built its rule overrides "
            "without them (use rule_overrides or flag_overrides)"
        )


def chosen_rules(overrides: RuleOverrides) -> RuleOverrides:
    """``overrides`` with this command's scoring-rule options (:func:`rule_options`) on top."""
    bundle = _CHOSEN.get()
    if bundle is None:
        return overrides
    bundle.taken = True
    return dataclasses.replace(overrides, **bundle.chosen) if bundle.chosen else overrides


def rule_overrides(
    specialty: Specialty | None = None,
    extra_ones_cancel: bool | None = None,
    ones_cancel: bool | None = None,
    difficulty: int | None = None,
    free_botch: bool | None = None,
    **scoring: Any,
) -> RuleOverrides:
    """This roll's house-rule options (None: the chronicle's) as one value, with the command's scoring-rule
    bundle (:func:`rule_options`) on top; ``scoring``: any other scoring rule by its field name
    (:class:`RuleOverrides`). Raises InvalidValue for a difficulty outside 2..10."""
    return chosen_rules(
        RuleOverrides(
            specialty=specialty,
            extra_ones_cancel=extra_ones_cancel,
            ones_cancel=ones_cancel,
            difficulty=difficulty,
            free_botch=free_botch,
            **scoring,
        )
    )


def flag_overrides(specialty: Specialty | None, extra_ones_cancel: bool, ones_dont_cancel: bool) -> RuleOverrides:
    """The overrides of the on-only house-rule flags (--specialty, --extra-ones-cancel, --ones-dont-cancel):
    a flag not given keeps the chronicle's setting; ``--specialty none`` given switches a chronicle's
    specialty rule off for this roll. The command's scoring-rule bundle (:func:`rule_options`) goes on top."""
    return chosen_rules(
        RuleOverrides(
            specialty=specialty,
            extra_ones_cancel=True if extra_ones_cancel else None,
            ones_cancel=False if ones_dont_cancel else None,
        )
    )
