"""`stkit odds`: exact chances for a roll, an extended action, a resisted action, teamwork, multiple actions.

Thin: parse, call stkit.dice.odds, render. Only typer and the standard library are imported at module top;
rich and the odds engine load inside the commands.
"""

from __future__ import annotations

import sys
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated

import typer
from typer.core import TyperGroup

from stkit.cli.options import (
    ChronicleLookupOpt,
    DamageOnesCancelOpt,
    DbOpt,
    ExtraOnesOpt,
    OnesDontCancelOpt,
    SpecialtyOpt,
    flag_overrides,
    make_combat_rules,
    rule_options,
)
from stkit.dice.model import Specialty
from stkit.errors import InvalidValue
from stkit.text import check_range, counted, dice_text, percent

DEFAULT_COMMAND = "roll"

ODDS_HELP = """Exact chances (not simulation) for every roll stkit makes.

Two ways to call it:

  stkit odds POOL -d D [--willpower] [--specialty double|reroll] [--ones-dont-cancel]
      one roll: botch / failure / success, P(at least k), the full distribution, the expected result.
  stkit odds POOL -d D --target T [--botch-ends] [--max-turns K] [--start S]
      an extended action: how many rolls to collect T successes.

  stkit odds POOL -d D --damage | --soak
      a damage or soak roll, which never botches.

and the subcommands below (attack, resisted, teamwork, multi). `stkit odds POOL ...` is short for
`stkit odds roll POOL ...`.
"""


class OddsGroup(TyperGroup):
    """`stkit odds`: a first argument that is not a subcommand name goes to the default `roll` command,
    so `stkit odds 5 -d 7` works beside `stkit odds resisted 6 7`."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.list_commands(ctx) and args[0] not in ctx.help_option_names:
            args = [DEFAULT_COMMAND, *args]
            ctx.meta["stkit.typed_path"] = ctx.command_path  # a usage error names `stkit odds`, as typed
        return super().parse_args(ctx, args)


odds_app = typer.Typer(
    cls=OddsGroup,
    name="odds",
    help=ODDS_HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


# ---- options of this group only (the house-rule ones are shared: stkit.cli.options) ---------------------

DifficultyOpt = Annotated[
    int | None,
    typer.Option(
        "--difficulty",
        "-d",
        help="Difficulty, 2 to 10 (default: the chronicle's house rule, else 6).",
        show_default=False,
    ),
]
HouseChronicleOpt = Annotated[
    str | None,
    typer.Option("--chronicle", help="Whose house rules apply (default: $STKIT_CHRONICLE, else 'default')."),
]
ExactOpt = Annotated[
    bool,
    typer.Option(
        "--exact", help="Also show every chance as an exact fraction (tables up to 300 dice; --json has them all)."
    ),
]

#: The most rows a table shows without --all-rows.
MAX_TABLE_ROWS = 25
AllRowsOpt = Annotated[
    bool,
    typer.Option("--all-rows", help=f"Show every row of a long table (else at most {MAX_TABLE_ROWS}, spread over it)."),
]
#: Whether the command running was given --all-rows (set once by each command, read by the tables).
_ALL_ROWS: ContextVar[bool] = ContextVar("stkit_odds_all_rows", default=False)
#: The chances at which a long "done within k rolls" table keeps its row.
_MILESTONES = (
    Fraction(1, 100),
    Fraction(5, 100),
    Fraction(1, 10),
    Fraction(1, 4),
    Fraction(1, 2),
    Fraction(3, 4),
    Fraction(9, 10),
    Fraction(95, 100),
    Fraction(99, 100),
    Fraction(999, 1000),
)

#: Bounds on the work the CLI asks of the exact odds engine, so that every answer it accepts comes within a
#: second (benchmarks/odds.py measures them). The largest pool whose exact fractions a table prints: they
#: run to thousands of digits each, and folding them into a terminal table is what takes the time.
MAX_EXACT_TABLE_DICE = 300
#: The largest product of the two pools of `odds resisted`, by the 10s' house rule: the margins are a
#: convolution of the two sides' distributions, whose lengths grow with the pools (doubled under 'double',
#: longer still under 'reroll').
MAX_RESISTED_WORK = {Specialty.NONE: 250_000, Specialty.DOUBLE: 160_000, Specialty.REROLL: 30_000}

#: The largest attack plus damage pool of `odds attack` under --specialty double (a 10 counting twice lengthens
#: the damage pool's range, and the composition grows with it); the engine's own bound covers the rest.
MAX_ATTACK_DOUBLE_DICE = 140


def _check_exact_table(exact: bool, as_json: bool, dice: int) -> None:
    """InvalidValue when ``--exact`` asks a table for the fractions of more than MAX_EXACT_TABLE_DICE dice."""

    if exact and not as_json and dice > MAX_EXACT_TABLE_DICE:
        raise InvalidValue(
            f"--exact with a pool of {dice} dice would fill the screen with thousand-digit fractions; allowed: "
            f"--exact up to {MAX_EXACT_TABLE_DICE} dice, or --json, which gives every exact fraction"
        )


def _check_resisted_work(pool_a: int, pool_b: int, specialty: Specialty) -> None:
    """InvalidValue when the two pools of `odds resisted` are beyond MAX_RESISTED_WORK for ``specialty``."""

    limit = MAX_RESISTED_WORK[specialty]
    if pool_a * pool_b > limit:
        rule = "" if specialty is Specialty.NONE else f" with --specialty {specialty.value}"
        raise InvalidValue(
            f"{pool_a} against {pool_b} dice{rule} is too large for exact resisted odds; allowed: pools whose "
            f"product is at most {limit:,} (e.g. {int(limit**0.5)} against {int(limit**0.5)})"
        )


JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


def _rules(handle, chronicle, specialty, extra_ones_cancel, ones_dont_cancel, difficulty=None):
    """The rules an odds answer is made under: the chronicle's house rules in the store ``handle`` (a
    :class:`stkit.store.db.gateway.StoreHandle`) with these flags on top (read through
    :func:`stkit.store.house.rules_in_force`, as every roll is)."""
    from stkit.cli.common import rules_in  # lazy: start-up (loaded when the command runs)

    overrides = flag_overrides(specialty, extra_ones_cancel, ones_dont_cancel).at_difficulty(difficulty)
    return rules_in(handle, chronicle, overrides)


def _rules_json(rules) -> dict:
    """The scoring rules the odds were counted under (every one, as a roll's ``house_rules`` has them)."""
    return {k: v for k, v in rules.to_dict().items() if k != "specialised"}


# ---- formatting -----------------------------------------------------------------------------------------------


def _exact(p: Fraction) -> str:
    """``"num/den"`` (whole numbers as ``"n/1"``); huge pools have thousand-digit denominators."""
    # Lift Python's digit limit for this conversion only: changing it for good would remove a guard that
    # other code (file readers refusing 5000-digit numbers) relies on.
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return f"{p.numerator}/{p.denominator}"
    finally:
        sys.set_int_max_str_digits(old)


_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(p: Fraction | float, top: Fraction | float, width: int = 30) -> str:
    """A horizontal bar of ``width`` cells for ``p`` relative to ``top`` (eighth-cell resolution)."""
    if not top or not p:
        return ""
    # the ratio of the exact values: two chances too small for a float would divide 0.0 by 0.0
    ratio = p / top if isinstance(p, Fraction) and isinstance(top, Fraction) else float(p) / float(top)
    eighths = round(float(ratio) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "") or "▏"


def _shown_range(probs: list[Fraction], floor: float = 1e-4) -> tuple[int, int]:
    """The rows worth showing: drop leading and trailing results whose chances together are below 0.01%."""
    lo, acc = 0, 0.0
    while lo < len(probs) - 1 and acc + float(probs[lo]) < floor:
        acc += float(probs[lo])
        lo += 1
    hi, acc = len(probs) - 1, 0.0
    while hi > lo and acc + float(probs[hi]) < floor:
        acc += float(probs[hi])
        hi -= 1
    return lo, hi


def _console():
    """The console odds print on: a rich console whose tables keep each exact fraction whole
    (:class:`_FractionsWhole`)."""
    from stkit.cli.render import new_console  # lazy: start-up (loaded when the command runs)

    return _FractionsWhole(new_console())


#: The headers of the columns that hold exact fractions.
_EXACT_HEADERS = frozenset({"Exact", "Success (exact)"})


class _FractionsWhole:
    """A console whose ``print`` never breaks an exact fraction across lines: a table with an exact column
    is printed as it is when its fractions fit the terminal whole (the column then never folds), else
    without its bar column, else with the fractions listed under it, one a line, never wrapped by stkit
    (a fraction wider than the terminal is then wrapped by the terminal alone, and copies whole)."""

    def __init__(self, console) -> None:
        self._console = console

    def __getattr__(self, name: str):
        return getattr(self._console, name)

    def print(self, *objects, **kwargs) -> None:
        for obj in objects:
            for part, soft in _fitted(self._console, obj):
                self._console.print(part, **({"soft_wrap": True} if soft else kwargs))


def _fitted(console, obj) -> list[tuple[object, bool]]:
    """``obj`` as (renderable, printed unwrapped) pairs: see :class:`_FractionsWhole`."""
    from rich.cells import cell_len  # lazy: start-up (loaded when the command runs)
    from rich.table import Table  # lazy: start-up (loaded when the command runs)
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    if not isinstance(obj, Table):
        return [(obj, False)]
    exact = [c for c in obj.columns if c.header in _EXACT_HEADERS]
    if not exact:
        return [(obj, False)]
    for column in exact:
        column.no_wrap, column.overflow = True, "ignore"

    def fits() -> bool:
        # a bound above rich's layout: a column that wraps as wide as its longest word, one that does not
        # as wide as its widest cell, each with 3 cells of padding and rule
        def need(text: object, wraps: bool) -> int:
            plain = Text.from_markup(text) if isinstance(text, str) else Text(str(text))
            words = plain.plain.split() if wraps else [plain.plain]
            return max((cell_len(w) for w in words), default=0)

        widths = [
            max(need(c.header, not c.no_wrap), *(need(cell, not c.no_wrap) for cell in c.cells)) + 3
            for c in obj.columns
        ]
        return sum(widths) + 1 <= console.width

    if fits():
        return [(obj, False)]
    obj.columns = [c for c in obj.columns if not (c.header == "" and c.no_wrap)]  # the bars go first
    if fits():
        return [(obj, False)]
    labels = [Text.from_markup(str(cell)).plain for cell in obj.columns[0].cells]
    obj.columns = [c for c in obj.columns if c.header not in _EXACT_HEADERS]
    out: list[tuple[object, bool]] = [(obj, False)]
    by = Text.from_markup(str(obj.columns[0].header)).plain or "row"
    for column in exact:
        out.append((Text(f"{column.header}, by {by}:", style="bold"), True))
        rows = zip(labels, column.cells, strict=False)
        out += [(Text(f"{label}: {cell}"), True) for label, cell in rows if str(cell).strip("- ")]
    return out


def _emit(obj: dict) -> None:
    from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

    print_json(obj, indent=None)


def _dist_json(probs, key: str = "successes", start: int = 0) -> list[dict]:
    return [{key: k, "p": float(p), "exact": _exact(p)} for k, p in enumerate(probs, start) if True]


def _distribution_table(
    title: str,
    probs: list[Fraction],
    at_least: list[Fraction] | None,
    exact: bool,
    label: str = "Successes",
    start: int = 0,
    tail: Fraction | None = None,
):
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    lo, hi = _shown_range(probs)
    table = Table(title=title, title_justify="left")
    table.add_column(label, justify="right")
    table.add_column("Exactly", justify="right")
    if at_least is not None:
        table.add_column("At least", justify="right")
    if exact:
        table.add_column("Exact", justify="left", overflow="fold")
    table.add_column("", justify="left", no_wrap=True)
    top = max(probs[lo : hi + 1]) if probs else 0
    step = 1
    if hi - lo + 1 > MAX_TABLE_ROWS and not _ALL_ROWS.get():
        step = -(-(hi - lo + 1) // MAX_TABLE_ROWS)
    for k in range(lo, hi + 1, step):
        row = [str(k + start), percent(probs[k])]
        if at_least is not None:
            row.append(percent(at_least[k]))
        if exact:
            row.append(_exact(probs[k]))
        row.append(f"[cyan]{bar(probs[k], top)}[/]")
        table.add_row(*row)
    notes = []
    if step > 1:
        notes.append(f"1 row in {step} of {hi - lo + 1} shown; --all-rows shows each")
    if lo > 0 and any(probs[:lo]):  # nothing to say about results that cannot happen (0 under Willpower)
        notes.append(f"below {lo + start}: {percent(sum(probs[:lo]))} together")
    if hi < len(probs) - 1 and any(probs[hi + 1 :]):
        notes.append(f"above {hi + start}: {percent(sum(probs[hi + 1 :]))} together")
    if tail:
        notes.append(
            f"above {len(probs) - 1 + start} (re-roll chains, not listed): {percent(tail)}"
            + (f" = {_exact(tail)}" if exact else "")
        )
    if notes:
        table.caption = "; ".join(notes)
        table.caption_justify = "left"
    return table


# ---- the default command: one roll, or an extended action ----------------------------------------------------


_WillpowerOpt = Annotated[
    bool, typer.Option("--willpower", "-w", help="Spend Willpower: one success the 1s cannot cancel (no botch).")
]
_ExtendedTargetOpt = Annotated[
    int | None,
    typer.Option(
        "--target",
        help="Extended action: successes to collect "
        "(1 to 100; pool x target at most 5000). Shows how many rolls it takes.",
    ),
]
_BotchEndsOpt = Annotated[
    bool,
    typer.Option("--botch-ends", help="Extended action: a botch ends the attempt (instead of wiping the tally to 0)."),
]
_MaxTurnsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-turns",
        "-k",
        help="Extended action: list the chance of being done within k rolls for k up to this (1 to 200).",
    ),
]


@odds_app.command(
    "roll",
    short_help="Odds of one roll, or of an extended action (--target).",
    help="Odds of one roll of POOL dice (the default: `stkit odds POOL` means this), or "
    "with --target of an extended action.",
)
@rule_options
def roll_cmd(
    pool: Annotated[
        str,
        typer.Argument(help="Dice in the pool, 1 to 1000; with --char a pool from the sheet or a saved roll's name."),
    ],
    difficulty: DifficultyOpt = None,
    willpower: _WillpowerOpt = False,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    target: _ExtendedTargetOpt = None,
    botch_ends: _BotchEndsOpt = False,
    max_turns: _MaxTurnsOpt = None,
    start: Annotated[int, typer.Option("--start", help="Extended action: successes already collected.")] = 0,
    damage: Annotated[bool, typer.Option("--damage", help="A damage roll: it never botches.")] = False,
    soak: Annotated[bool, typer.Option("--soak", help="A soak roll: it never botches.")] = False,
    damage_ones_cancel: DamageOnesCancelOpt = False,
    char: Annotated[
        str | None, typer.Option("--char", "-c", help="Build the pool from this character's sheet (its wounds count).")
    ] = None,
    exact: ExactOpt = False,
    all_rows: AllRowsOpt = False,
    as_json: JsonOpt = False,
    chronicle: HouseChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    _ALL_ROWS.set(all_rows)
    from stkit.cli.common import odds_in, store  # lazy: start-up (loaded when the command runs)
    from stkit.dice import odds as engine  # lazy: start-up (loaded when the command runs)
    from stkit.dice import parse_pool_number, validate_pool  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import RollOrder  # lazy: start-up (loaded when the command runs)

    handle = store(db)
    overrides = flag_overrides(specialty, extra_ones_cancel, ones_dont_cancel)
    if difficulty is not None:  # else the chronicle's (or a saved roll's) difficulty
        overrides = overrides.at_difficulty(difficulty)
    house = _rules(handle, chronicle, specialty, extra_ones_cancel, ones_dont_cancel, difficulty)
    rules, difficulty = house.dice_rules(), house.difficulty
    order = RollOrder(pool, character=char, chronicle=chronicle, overrides=overrides, willpower=willpower)
    answer = None
    if char is not None:
        answer = odds_in(handle, order)  # the sheet's pool (or saved roll) and its chronicle's house rules
        dice, rules, difficulty = answer.pool, answer.rules.dice_rules(), answer.rules.difficulty
    else:
        dice = validate_pool(parse_pool_number(pool))
    _check_exact_table(exact, as_json, dice)
    if damage or soak or damage_ones_cancel:
        combat = make_combat_rules(damage_ones_cancel)
        _kind_odds(damage, soak, dice, difficulty, rules, combat, willpower, target, exact, as_json)
        return
    if target is not None:
        how = dict(start=start, botch_ends=botch_ends, max_turns=max_turns, rules=rules, willpower=willpower)
        ext = engine.p_extended(dice, difficulty, target, **how)
        _show_extended(ext, exact, as_json)
        return
    if botch_ends or max_turns is not None or start:
        raise typer.BadParameter("--botch-ends, --max-turns and --start need --target (an extended action)")
    odds = (answer or odds_in(handle, order)).odds
    if as_json:
        _emit(_roll_json(odds, rules))
        return
    if answer is not None:
        from stkit.cli.render import safe_text  # lazy: start-up (loaded when the command runs)

        _console().print(safe_text(f"{answer.character}: {answer.label}", style="bold"))
    _show_roll(odds, exact)


def _roll_json(odds, rules) -> dict:
    """The `odds POOL --json` object of one roll."""
    return {
        "pool": odds.pool,
        "difficulty": odds.difficulty,
        "willpower": odds.willpower,
        "house_rules": _rules_json(rules),
        "p_botch": float(odds.p_botch),
        **_chances_json(odds),
    }


def _chances_json(odds) -> dict:
    """The chances every single-roll odds answer carries (a roll's, a damage or soak roll's), the tail
    beyond the listed results included when there is one."""
    out = {
        "p_failure": float(odds.p_failure),
        "p_success": float(odds.p_success),
        "expected": float(odds.expected),
        "distribution": _dist_json(odds.distribution),
        "at_least": _dist_json(odds.at_least),
    }
    if odds.tail_weight:
        out["tail"] = {"above": odds.max_result, "p": float(odds.tail), "exact": _exact(odds.tail)}
    return out


def _kind_odds(damage, soak, pool, difficulty, rules, combat, willpower, target, exact, as_json) -> None:
    """`stkit odds POOL --damage` / `--soak`: the roll's odds, no botch."""
    from stkit.dice.combat import RollPurpose, p_kind  # lazy: start-up (loaded when the command runs)

    if damage and soak:
        raise InvalidValue("--damage and --soak are two different rolls; give one of them")
    if not (damage or soak):
        raise InvalidValue("--damage-ones-cancel only applies with --damage or --soak")
    if target is not None:
        raise InvalidValue("--target is for extended actions; a damage or soak roll is a single roll")
    kind = RollPurpose.DAMAGE if damage else RollPurpose.SOAK
    odds = p_kind(kind, pool, difficulty, rules=rules, combat=combat, willpower=willpower)
    if as_json:
        out = {
            "pool": odds.pool,
            "difficulty": odds.difficulty,
            "kind": kind.value,
            "willpower": odds.willpower,
            "house_rules": _rules_json(odds.rules),
            "combat_rules": combat.to_dict(),
            "p_botch": 0.0,
            **_chances_json(odds),
        }
        _emit(out)
        return
    _show_roll(odds, exact, kind=kind.value)


def _rule_words(rules, willpower: bool) -> str:
    words = []
    if willpower:
        words.append("Willpower spent")
    if rules.specialty.value == "double":
        words.append("specialty: 10s count double")
    if rules.specialty.value == "reroll":
        words.append("specialty: 10s re-roll" + (" (1s on extra dice cancel)" if rules.extra_ones_cancel else ""))
    if not rules.ones_cancel:
        words.append("1s don't cancel")
    return ", ".join(words)


def _turns(mean) -> str:
    """A mean number of rolls: two decimals, or three significant figures when astronomically large."""
    value = float(mean)
    return f"{value:.2f}" if value < 1e6 else f"{value:.3g}"


def _show_roll(odds, exact: bool, kind: str | None = None) -> None:
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    extra = _rule_words(odds.rules, odds.willpower)
    if kind is not None:
        # a damage or soak roll's 1s not cancelling is its default, not a house rule
        extra = extra.replace("1s don't cancel", "").strip(", ")
        cancel = "1s cancel" if odds.rules.ones_cancel else "1s don't cancel"
        extra = f"a {kind} roll: never a botch, {cancel}" + (f"; {extra}" if extra else "")
    console.print(f"[bold]{dice_text(odds.pool)} at difficulty {odds.difficulty}[/]" + (f" ({extra})" if extra else ""))
    head = Table()
    head.add_column("Outcome")
    head.add_column("Chance", justify="right")
    if exact:
        head.add_column("Exact", overflow="fold")
    rows = [("[red]Botch[/]", odds.p_botch), ("Failure", odds.p_failure), ("[green]Success[/]", odds.p_success)]
    if kind is not None:
        rows = rows[1:]
    for name, p in rows:
        head.add_row(name, percent(p), *([_exact(p)] if exact else []))
    head.add_row(
        "Expected result", f"{float(odds.expected):.2f} successes", *([_exact(odds.expected)] if exact else [])
    )
    console.print(head)
    console.print(
        _distribution_table(
            "Final result (successes after the rule of one)" if kind is None else "Successes",
            list(odds.distribution),
            list(odds.at_least),
            exact,
            tail=odds.tail,
        )
    )


def _show_extended(ext, exact: bool, as_json: bool) -> None:
    """`odds POOL --target T`: the JSON object, or the summary and the by-roll table."""
    if as_json:
        _emit(_extended_json(ext))
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    extra = _rule_words(ext.rules, ext.willpower)
    title = (
        f"Extended action: {counted(ext.target, 'success')} with {dice_text(ext.pool)} at difficulty {ext.difficulty}"
        + (f", {ext.start} already collected" if ext.start else "")
        + (" (a botch ends it)" if ext.botch_ends else " (a botch wipes the tally)")
        + (f"; {extra}" if extra else "")
    )
    console.print(f"[bold]{title}[/]")
    console.print(_extended_summary(ext))
    head = Table()
    head.add_column("")
    head.add_column("Value", justify="right")
    if exact:
        head.add_column("Exact", overflow="fold")
    mean_label = "Mean rolls (when it finishes)" if ext.botch_ends else "Mean rolls"
    head.add_row(
        mean_label,
        _turns(ext.mean) if ext.mean is not None else "-",
        *([_exact(ext.mean) if ext.mean is not None else "-"] if exact else []),
    )
    if ext.median is not None:
        median = str(ext.median)
    elif 2 * (1 - ext.p_never) < 1:
        median = "none (under even odds to finish)"
    else:
        from stkit.dice.odds import MAX_TURNS  # lazy: start-up (loaded when the command runs)

        median = f"more than {MAX_TURNS}"
    head.add_row("Median rolls", median, *([""] if exact else []))
    if ext.botch_ends:
        head.add_row("[red]Never finishes[/]", percent(ext.p_never), *([_exact(ext.p_never)] if exact else []))
    head.add_row("Botch per roll", percent(ext.p_botch_per_roll), *([_exact(ext.p_botch_per_roll)] if exact else []))
    console.print(head)
    _show_by_turn(console, ext, exact)


def _extended_summary(ext) -> str:
    """The extended action's answer in one line: 'Done within 3 rolls half the time, within 4 rolls 9 times
    in 10 (mean 2.95).'"""
    turns = counted(len(ext.by_turn), "roll")
    nine = next((k for k, q in enumerate(ext.by_turn, 1) if 10 * q >= 9), None)
    if ext.median is None:
        line = f"Under even odds to be done within {turns}"
    elif nine is None:
        line = f"Done within {counted(ext.median, 'roll')} half the time, under 9 times in 10 within {turns}"
    else:
        line = f"Done within {counted(ext.median, 'roll')} half the time, within {counted(nine, 'roll')} 9 times in 10"
    if ext.mean is not None:
        line += f" (mean {_turns(ext.mean)})"
    if ext.botch_ends:
        line += f"; never done (a botch ends it): {percent(ext.p_never)}"
    return line + "."


def _extended_json(ext) -> dict:
    """The `odds POOL --target T --json` object."""
    out = {
        "pool": ext.pool,
        "difficulty": ext.difficulty,
        "target": ext.target,
        "start": ext.start,
        "willpower": ext.willpower,
        "house_rules": _rules_json(ext.rules),
        "mean_turns": float(ext.mean) if ext.mean is not None else None,
        "median_turns": ext.median,
    }
    if ext.botch_ends:
        out["p_never"] = float(ext.p_never)
    out["by_turn"] = [{"turn": k, "p_done_by": float(p)} for k, p in enumerate(ext.by_turn, 1)]
    return out


def _show_by_turn(console, ext, exact: bool) -> None:
    """The chance to be done within k rolls, from the first roll that can finish."""
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    table = Table(title="Chance to be done within k rolls", title_justify="left")
    table.add_column("Rolls", justify="right")
    table.add_column("Done by then", justify="right")
    if exact:
        table.add_column("Exact", overflow="fold")
    table.add_column("", no_wrap=True)
    # skip the leading rolls where finishing is impossible (exactly 0), and say so under the table
    first = next((i for i, p in enumerate(ext.by_turn) if p), len(ext.by_turn))
    shown: range | list[int] = range(first, len(ext.by_turn))
    thinned = len(shown) > MAX_TABLE_ROWS and not _ALL_ROWS.get()
    if thinned:  # the first roll that can finish, the rolls where the chance passes each milestone, the last
        picks = {first, len(ext.by_turn) - 1}
        picks |= {next(k for k in shown if ext.by_turn[k] >= m) for m in _MILESTONES if ext.by_turn[-1] >= m}
        shown = sorted(picks)
    for k in shown:
        p = ext.by_turn[k]
        table.add_row(str(k + 1), percent(p), *([_exact(p)] if exact else []), f"[cyan]{bar(p, 1)}[/]")
    console.print(table)
    if thinned:
        console.print(
            f"{len(shown)} of {len(ext.by_turn) - first} rows shown (the first, the last, and where the chance "
            "passes 1%, 5%, 10%, 25%, 50%, 75%, 90%, 95%, 99%, 99.9%); --all-rows shows each"
        )
    if first >= 1:  # printed below, not as a caption, so a narrow table does not wrap it
        span = "roll 1" if first == 1 else f"rolls 1 to {first}"
        console.print(f"{span}: no chance to be done yet")


# ---- resisted, teamwork, multi ------------------------------------------------------------------------------


_DifficultyAOpt = Annotated[
    int | None,
    typer.Option(
        "--difficulty",
        "-d",
        help="Side A's difficulty, 2 to 10 (default: the chronicle's, else 6).",
        show_default=False,
    ),
]
_DifficultyBOpt = Annotated[
    int | None, typer.Option("--difficulty-b", help="Side B's difficulty (default: the same as side A's).")
]


@odds_app.command(
    "resisted",
    short_help="Odds of a resisted action: who wins, and by how much.",
    help="Odds of a resisted action: POOL_A against POOL_B; the side with more "
    "successes wins by the margin, equal results mean nobody wins.",
)
@rule_options
def resisted_cmd(
    pool_a: Annotated[int, typer.Argument(help="Side A's dice pool, 1 to 1000.")],
    pool_b: Annotated[int, typer.Argument(help="Side B's dice pool, 1 to 1000.")],
    difficulty: _DifficultyAOpt = None,
    difficulty_b: _DifficultyBOpt = None,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    exact: ExactOpt = False,
    all_rows: AllRowsOpt = False,
    as_json: JsonOpt = False,
    chronicle: HouseChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    _ALL_ROWS.set(all_rows)
    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)
    from stkit.dice import odds as engine  # lazy: start-up (loaded when the command runs)

    _check_exact_table(exact, as_json, max(pool_a, pool_b))
    house = _rules(store(db), chronicle, specialty, extra_ones_cancel, ones_dont_cancel, difficulty)
    rules = house.dice_rules()
    _check_resisted_work(pool_a, pool_b, rules.specialty)
    res = engine.p_resisted(pool_a, pool_b, house.difficulty, difficulty_b=difficulty_b, rules=rules)
    margins_a = [res.p_margin("a", m) for m in range(1, len(res.margin_a))]
    margins_b = [res.p_margin("b", m) for m in range(1, len(res.margin_b))]
    if as_json:
        out = {
            "pool_a": pool_a,
            "pool_b": pool_b,
            "difficulty_a": res.a.difficulty,
            "difficulty_b": res.b.difficulty,
            "house_rules": _rules_json(rules),
            "p_a_wins": float(res.p_a_wins),
            "p_tie": float(res.p_tie),
            "p_b_wins": float(res.p_b_wins),
            "margin_a": _dist_json(margins_a, "margin", 1),
            "margin_b": _dist_json(margins_b, "margin", 1),
        }
        if res.unresolved_weight:
            out["p_unresolved"] = float(res.p_unresolved)
        _emit(out)
        return
    _show_resisted(res, pool_a, pool_b, margins_a, margins_b, exact)


def _show_resisted(res, pool_a: int, pool_b: int, margins_a: list, margins_b: list, exact: bool) -> None:
    """The `odds resisted` tables: who wins, and each side's winning margins."""
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    console.print(
        f"[bold]Resisted: A rolls {dice_text(pool_a)} at difficulty {res.a.difficulty}, B rolls {pool_b} at "
        f"difficulty {res.b.difficulty}[/]"
    )
    head = Table()
    head.add_column("Outcome")
    head.add_column("Chance", justify="right")
    if exact:
        head.add_column("Exact", overflow="fold")
    for name, p in (
        ("[green]A wins[/]", res.p_a_wins),
        ("Tie (nobody wins)", res.p_tie),
        ("[red]B wins[/]", res.p_b_wins),
    ):
        head.add_row(name, percent(p), *([_exact(p)] if exact else []))
    if res.unresolved_weight:
        head.add_row(
            "Beyond the listed re-roll results",
            percent(res.p_unresolved),
            *([_exact(res.p_unresolved)] if exact else []),
        )
    console.print(head)
    if margins_a:
        console.print(_distribution_table("A's winning margin", margins_a, None, exact, "Margin", start=1))
    if margins_b:
        console.print(_distribution_table("B's winning margin", margins_b, None, exact, "Margin", start=1))


@odds_app.command(
    "teamwork",
    short_help="Odds of teamwork: separate rolls, successes added.",
    help="Odds of teamwork: each POOL rolls separately and the successes are added; "
    "shown with and without 'one botch spoils all'.",
)
@rule_options
def teamwork_cmd(
    pools: Annotated[
        list[int], typer.Argument(help="Each participant's dice pool, 1 to 1000; two or more participants.")
    ],
    difficulty: DifficultyOpt = None,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    exact: ExactOpt = False,
    all_rows: AllRowsOpt = False,
    as_json: JsonOpt = False,
    chronicle: HouseChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    _ALL_ROWS.set(all_rows)
    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)
    from stkit.dice import odds as engine  # lazy: start-up (loaded when the command runs)

    house = _rules(store(db), chronicle, specialty, extra_ones_cancel, ones_dont_cancel, difficulty)
    rules, difficulty = house.dice_rules(), house.difficulty
    team = engine.p_teamwork(pools, difficulty, rules=rules)

    def part(spoils: bool) -> dict:
        dist = team.distribution(spoils)
        return {
            "p_botch": float(team.p_botch(spoils)),
            "p_success": float(team.p_success(spoils)),
            "expected": float(team.expected(spoils)),
            "distribution": _dist_json(dist),
            **({"p_unresolved": float(team.p_unresolved(spoils))} if team.p_unresolved(spoils) else {}),
        }

    if as_json:
        out = {
            "pools": list(pools),
            "difficulty": difficulty,
            "house_rules": _rules_json(rules),
            "botch_spoils": part(True),
            "no_spoils": part(False),
        }
        _emit(out)
        return
    _show_teamwork(team, pools, difficulty, exact)


def _show_teamwork(team, pools: list[int], difficulty: int, exact: bool) -> None:
    """The `odds teamwork` tables, with and without 'one botch spoils all'."""
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    console.print(f"[bold]Teamwork: {' + '.join(map(str, pools))} dice at difficulty {difficulty}[/]")
    head = Table()
    head.add_column("")
    head.add_column("One botch spoils all", justify="right")
    head.add_column("Botches spoil nothing", justify="right")
    head.add_row("[red]Botch[/]", percent(team.p_botch(True)), percent(team.p_botch(False)))
    head.add_row("[green]Success[/]", percent(team.p_success(True)), percent(team.p_success(False)))
    head.add_row("Expected total", f"{float(team.expected(True)):.2f}", f"{float(team.expected(False)):.2f}")
    if exact:
        head.add_row("Botch (exact)", _exact(team.p_botch(True)), _exact(team.p_botch(False)))
    console.print(head)
    console.print(
        _distribution_table(
            "Team total, one botch spoils all (a spoiled roll counts 0)",
            list(team.distribution(True)),
            None,
            exact,
            "Total",
        )
    )
    console.print(
        _distribution_table("Team total, botches spoil nothing", list(team.distribution(False)), None, exact, "Total")
    )


@odds_app.command(
    "multi",
    short_help="Odds of several actions in one turn.",
    help="Odds of several actions in one turn: each declared POOL loses dice by the "
    "multiple-action ladder (N, N+1, ...), then rolls.",
)
@rule_options
def multi_cmd(
    pools: Annotated[list[int], typer.Argument(help="Each action's dice pool before the penalty, in order.")],
    difficulty: DifficultyOpt = None,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    exact: ExactOpt = False,
    all_rows: AllRowsOpt = False,
    as_json: JsonOpt = False,
    chronicle: HouseChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    _ALL_ROWS.set(all_rows)
    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)
    from stkit.dice import odds as engine  # lazy: start-up (loaded when the command runs)

    _check_exact_table(exact, as_json, max(pools, default=0))
    house = _rules(store(db), chronicle, specialty, extra_ones_cancel, ones_dont_cancel, difficulty)
    rules, difficulty = house.dice_rules(), house.difficulty
    multi = engine.p_multiple(pools, difficulty, rules=rules)
    if as_json:
        _emit(_multi_json(multi, difficulty, rules))
        return
    _show_multi(multi, pools, difficulty, exact)


def _multi_json(multi, difficulty: int, rules) -> dict:
    """The `odds multi --json` object: each action's penalty, dice left and chances."""
    actions = []
    for i, a in enumerate(multi.actions, 1):
        # the penalty can exceed the pool; the dice left are then none, never a negative number
        item: dict[str, int | float | bool] = {
            "action": i,
            "declared_pool": a.declared_pool,
            "penalty": a.penalty,
            "pool": max(a.pool, 0),
            "possible": a.possible,
        }
        if a.odds is not None:
            item.update(
                {
                    "p_botch": float(a.odds.p_botch),
                    "p_failure": float(a.odds.p_failure),
                    "p_success": float(a.odds.p_success),
                    "expected": float(a.odds.expected),
                }
            )
        actions.append(item)
    return {
        "difficulty": difficulty,
        "house_rules": _rules_json(rules),
        "actions": actions,
        "p_all_succeed": float(multi.p_all_succeed),
    }


def _show_multi(multi, pools: list[int], difficulty: int, exact: bool) -> None:
    """The `odds multi` table: one row an action, impossible ones marked."""
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    console.print(
        f"[bold]{len(pools)} actions in one turn at difficulty {difficulty}[/] (penalty ladder: "
        f"{', '.join(str(a.penalty) for a in multi.actions)} dice)"
    )
    table = Table()
    for col in ("#", "Pool", "Left", "Botch", "Failure", "Success", "Mean"):
        table.add_column(col, justify="right")
    if exact:
        table.add_column("Success (exact)", overflow="fold")
    table.add_column("", no_wrap=True)
    for i, a in enumerate(multi.actions, 1):
        if a.odds is None:
            table.add_row(
                str(i),
                str(a.declared_pool),
                str(max(a.pool, 0)),
                "-",
                "-",
                "[dim]impossible[/]",
                "-",
                *(["-"] if exact else []),
                "",
            )
            continue
        o = a.odds
        table.add_row(
            str(i),
            str(a.declared_pool),
            str(a.pool),
            percent(o.p_botch),
            percent(o.p_failure),
            percent(o.p_success),
            f"{float(o.expected):.2f}",
            *([_exact(o.p_success)] if exact else []),
            f"[cyan]{bar(o.p_success, 1, 20)}[/]",
        )
    table.caption = f"every action succeeds: {percent(multi.p_all_succeed)}"
    table.caption_justify = "left"
    console.print(table)


_PoolArg = Annotated[
    str | None,
    typer.Argument(help="The attack's dice pool, 1 to 1000; with --char a pool from the sheet ('Dexterity + Brawl')."),
]
_DamageOpt = Annotated[
    str | None,
    typer.Option("--damage", help="The damage pool before extra successes (a number; with --char 'Strength + 1')."),
]
_DodgeOpt = Annotated[
    str | None,
    typer.Option("--dodge", help="The target's dodge, block or parry dice (a number; with --target a pool)."),
]
_ArmourOpt = Annotated[int, typer.Option("--armour", help="Armour dice added to the soak (0 to 10; with numbers).")]
_WeaponOpt = Annotated[str | None, typer.Option("--weapon", help="With --char: a weapon on the sheet sets the attack.")]
_ManeuverOpt = Annotated[
    str | None,
    typer.Option("--maneuver", "-m", help="With --char: punch, kick, claw, bite or firearms set the attack."),
]
_RangeOpt = Annotated[str | None, typer.Option("--range", help="Firearms range: point-blank, normal or long.")]
_TypeOpt = Annotated[
    str | None,
    typer.Option("--type", "-t", help="With --target: the damage type the target's soak rules are read for."),
]
_SilverOpt = Annotated[bool, typer.Option("--silver", help="With --target: a silver weapon.")]
_SoakOpt = Annotated[
    str | None,
    typer.Option(
        "--soak", help="The target's soak dice (a number; with --target a pool, e.g. Stamina). Default: none."
    ),
]
_CharOpt = Annotated[
    str | None, typer.Option("--char", "-c", help="Build the attack and damage pools from this sheet.")
]
_TargetOpt = Annotated[
    str | None, typer.Option("--target", help="With --char: the target, whose Stamina (or --soak POOL) is the soak.")
]
_AttackDifficultyOpt = Annotated[
    int | None,
    typer.Option(
        "--difficulty", "-d", help="The attack's difficulty, 2 to 10 (default: the weapon's, else the chronicle's)."
    ),
]
_DodgeDifficultyOpt = Annotated[int, typer.Option("--dodge-difficulty", help="The dodge roll's difficulty.")]
_DamageDifficultyOpt = Annotated[int, typer.Option("--damage-difficulty", help="The damage roll's difficulty.")]
_SoakDifficultyOpt = Annotated[int, typer.Option("--soak-difficulty", help="The soak roll's difficulty.")]
_AttackWillpowerOpt = Annotated[bool, typer.Option("--willpower", "-w", help="Willpower spent on the attack roll.")]
_AttackSpecOpt = Annotated[
    bool, typer.Option("--spec", help="The attack roll uses a specialty: the specialty house rule applies to it.")
]
_DamageSpecOpt = Annotated[
    bool, typer.Option("--damage-spec", help="The damage roll uses a specialty: the specialty house rule applies.")
]


@dataclass
class _AttackPools:
    """The dice of `odds attack`: attack, damage, soak, dodge, the attack's difficulty (None: 6), and with
    --char the pools' texts and the soak rule's reason."""

    attack: int
    damage: int
    soak: int
    dodge: int
    difficulty: int | None
    texts: dict[str, str] | None = None
    soak_note: str = ""
    #: difficulty the unskilled rule adds to the damage, soak and defence rolls (with --char)
    raised: dict[str, int] = field(default_factory=dict)


def _raised(difficulty: int, by: int) -> int:
    """``difficulty`` raised ``by`` the unskilled rule (at most 10); left alone (to be checked) when not raised."""
    return min(10, difficulty + by) if by else difficulty


def _sheet_pools(handle, char: str, pool: str | None, damage: str | None, **how) -> _AttackPools:
    """`odds attack --char`: the pools built from the sheets (stkit.store.fight.attack.attack_pools)."""
    from stkit.store.fight.attack import attack_pools  # lazy: start-up (loaded when the command runs)

    built = handle.read(lambda gw: attack_pools(gw, char, pool, damage, **how))
    texts = {"attack": built.attack.text, "damage": built.damage.text}
    if built.soak is not None:
        texts["soak"] = built.soak.text
    if built.defence is not None:
        texts["dodge"] = built.defence.text
    return _AttackPools(
        attack=built.attack.dice,
        damage=built.damage.dice,
        soak=built.soak.dice if built.soak is not None else 0,
        dodge=built.defence.dice if built.defence is not None else 0,
        difficulty=built.difficulty,
        texts=texts,
        soak_note=built.soak_rule.why if built.soak_rule is not None else "",
        raised=dict(built.raised),
    )


def _number_pools(pool, damage, soak, dodge, armour: int, difficulty: int | None, sheet_only: dict) -> _AttackPools:
    """`odds attack` without --char: the pools as numbers. InvalidValue when a sheet-only option is given
    (``sheet_only``: option name -> value) or the attack or damage pool is missing."""
    from stkit.dice import parse_pool_number  # lazy: start-up (loaded when the command runs)

    if sheet_only["--target"] is not None:
        raise InvalidValue("--target needs --char: the pools come from the two sheets")
    given = [k for k, v in sheet_only.items() if k != "--target" and v not in (None, False)]
    if given:
        raise InvalidValue(
            f"{given[0]} needs --char (and --target): --weapon, --maneuver, --range, --type and --silver read sheets"
        )
    if pool is None or damage is None:
        raise InvalidValue("give the attack pool and --damage (numbers, or pools with --char)")
    return _AttackPools(
        attack=parse_pool_number(pool, "attack pool"),
        damage=parse_pool_number(damage, "damage pool"),
        soak=(0 if soak is None else parse_pool_number(soak, "soak pool")) + armour,
        dodge=0 if dodge is None else _positive(parse_pool_number(dodge, "dodge pool"), "--dodge", dodge),
        difficulty=difficulty,
    )


def _positive(dice: int, label: str, typed: str) -> int:
    """``dice`` when 1 to MAX_POOL; else InvalidValue naming the option and the typed text."""
    from stkit.dice.expr import check_typed_pool  # lazy: start-up (loaded when the command runs)

    check_typed_pool(typed, label)
    return dice


@odds_app.command(
    "attack",
    short_help="Odds of the wound levels an attack deals after soak.",
    help="Exact odds of an attack: POOL dice to hit; on a hit the damage pool plus one die per success beyond "
    "the first; the target's soak dice take successes away; what is left is wound levels. Damage and soak "
    "rolls never botch. A composition of the single-roll odds, not a simulation.",
)
@rule_options
def attack_cmd(
    pool: _PoolArg = None,
    pool_opt: Annotated[
        str | None, typer.Option("--pool", "-p", help="The attack pool, as `stkit attack` takes it (or give POOL).")
    ] = None,
    damage: _DamageOpt = None,
    dodge: _DodgeOpt = None,
    dodge_difficulty: _DodgeDifficultyOpt = 6,
    armour: _ArmourOpt = 0,
    weapon: _WeaponOpt = None,
    maneuver: _ManeuverOpt = None,
    range_: _RangeOpt = None,
    damage_type: _TypeOpt = None,
    silver: _SilverOpt = False,
    soak: _SoakOpt = None,
    char: _CharOpt = None,
    target: _TargetOpt = None,
    difficulty: _AttackDifficultyOpt = None,
    damage_difficulty: _DamageDifficultyOpt = 6,
    soak_difficulty: _SoakDifficultyOpt = 6,
    willpower: _AttackWillpowerOpt = False,
    attack_spec: _AttackSpecOpt = False,
    damage_spec: _DamageSpecOpt = False,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    damage_ones_cancel: DamageOnesCancelOpt = False,
    chronicle: ChronicleLookupOpt = None,
    db: DbOpt = None,
    exact: ExactOpt = False,
    all_rows: AllRowsOpt = False,
    as_json: JsonOpt = False,
) -> None:
    _ALL_ROWS.set(all_rows)
    from stkit.dice.combat import AttackSpec, p_attack  # lazy: start-up (loaded when the command runs)

    check_range(armour, "armour dice", 0, 10)
    if pool_opt is not None:
        if pool is not None and pool != pool_opt:
            from stkit.errors import InvalidValue  # lazy: start-up (loaded when the command runs)

            raise InvalidValue(f"two attack pools: POOL {pool!r} and --pool {pool_opt!r}; give one of them")
        pool = pool_opt
    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)

    handle = store(db)
    combat = make_combat_rules(damage_ones_cancel)
    if char is not None:
        how: dict[str, object] = dict(target=target, soak=soak, chronicle=chronicle, weapon=weapon)
        how |= dict(maneuver=maneuver, range_=range_, damage_type=damage_type, difficulty=difficulty)
        pools = _sheet_pools(handle, char, pool, damage, defence=dodge, silver=silver, combat=combat, **how)
    else:
        sheet_only = {"--target": target, "--weapon": weapon, "--maneuver": maneuver, "--range": range_}
        sheet_only["--type"] = damage_type
        pools = _number_pools(pool, damage, soak, dodge, armour, difficulty, sheet_only | {"--silver": silver})
    rules = _rules(handle, chronicle, specialty, extra_ones_cancel, ones_dont_cancel)
    spec = AttackSpec(
        attack_pool=pools.attack,
        damage_pool=pools.damage,
        soak_pool=pools.soak,
        attack_difficulty=rules.difficulty if pools.difficulty is None else pools.difficulty,  # as `attack` rolls
        damage_difficulty=_raised(damage_difficulty, pools.raised.get("damage", 0)),  # as `attack` rolls
        soak_difficulty=_raised(soak_difficulty, pools.raised.get("soak", 0)),
        rules=rules.dice_rules(attack_spec),
        combat=combat,
        willpower=willpower,
        defence_pool=pools.dodge,
        defence_difficulty=_raised(dodge_difficulty, pools.raised.get("defence", 0)),
        damage_specialised=damage_spec,
    )
    if spec.rules.specialty is Specialty.DOUBLE and spec.attack_pool + spec.damage_pool > MAX_ATTACK_DOUBLE_DICE:
        from stkit.errors import InvalidValue  # lazy: start-up (loaded when the command runs)

        raise InvalidValue(
            f"an attack of {spec.attack_pool} dice with a damage pool of {spec.damage_pool} under --specialty double "
            f"is too large for exact odds; allowed: the two pools adding up to at most {MAX_ATTACK_DOUBLE_DICE} dice"
        )
    odds = p_attack(spec)
    if as_json:
        _emit(_attack_json(spec, odds, pools.texts))
    else:
        _show_attack(spec, odds, pools, exact)


def _attack_json(spec, odds, pools_text: dict[str, str] | None) -> dict:
    """The `odds attack --json` object."""
    out = {
        "pool": spec.attack_pool,
        "difficulty": spec.attack_difficulty,
        "damage_pool": spec.damage_pool,
        "damage_difficulty": spec.damage_difficulty,
        "soak_pool": spec.soak_pool,
        "soak_difficulty": spec.soak_difficulty,
        "dodge_pool": spec.defence_pool,
        "dodge_difficulty": spec.defence_difficulty,
        "willpower": spec.willpower,
        "damage_spec": spec.damage_specialised,
        "house_rules": _rules_json(spec.rules),
        "combat_rules": spec.combat.to_dict(),
        "p_hit": float(odds.p_hit),
        "p_botch": float(odds.p_botch),
        "expected_wounds": float(odds.expected),
        "wounds": _dist_json(odds.distribution, "levels"),
        "at_least": _dist_json(odds.at_least, "levels"),
    }
    chances = {
        "p_hit": odds.p_hit,
        "p_botch": odds.p_botch,
        "p_at_least_one_wound": odds.at_least[1] if len(odds.weights) > 1 else Fraction(0),
        "expected_wounds": odds.expected,
    }
    if odds.unresolved_weight:
        chances["p_unresolved"] = odds.p_unresolved
    out |= {key: float(p) for key, p in chances.items()}
    out["exact"] = {key: _exact(p) for key, p in chances.items()}  # "n/d", as in the tables' "exact"
    if pools_text is not None:
        out["pools"] = pools_text
    return out


def _show_attack(spec, odds, pools: _AttackPools, exact: bool) -> None:
    """The `odds attack` tables: the title, the pools' texts (with --char), the chances and the wounds."""
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    console = _console()
    extra = _rule_words(spec.rules, spec.willpower)
    soak_words = f"soak {spec.soak_pool} at {spec.soak_difficulty}" if spec.soak_pool else "no soak"
    if spec.defence_pool:
        soak_words = f"dodge {spec.defence_pool} at {spec.defence_difficulty}; " + soak_words
    console.print(
        f"[bold]Attack {dice_text(spec.attack_pool)} at {spec.attack_difficulty}; damage {spec.damage_pool} + 1 per "
        f"extra success at {spec.damage_difficulty}; {soak_words}[/]" + (f" ({extra})" if extra else ""),
    )
    if pools.texts is not None:
        from stkit.cli.render import safe_text  # lazy: start-up (loaded when the command runs)

        for step, text in pools.texts.items():
            console.print(safe_text(f"{step.capitalize()}: {text}", style="dim"))
        if pools.soak_note:
            console.print(safe_text(f"Soak rule: {pools.soak_note}", style="dim"))
    head = Table()
    head.add_column("")
    head.add_column("Chance", justify="right")
    if exact:
        head.add_column("Exact", overflow="fold")
    rows = [
        ("[red]Attack botches[/]", odds.p_botch),
        ("[green]Attack hits[/]", odds.p_hit),
        ("At least one wound level", odds.at_least[1] if len(odds.weights) > 1 else Fraction(0)),
    ]
    for name, p in rows:
        head.add_row(name, percent(p), *([_exact(p)] if exact else []))
    head.add_row("Expected wound levels", f"{float(odds.expected):.2f}", *([_exact(odds.expected)] if exact else []))
    if odds.unresolved_weight:
        head.add_row(
            "Beyond the listed re-roll results",
            percent(odds.p_unresolved),
            *([_exact(odds.p_unresolved)] if exact else []),
        )
    console.print(head)
    console.print(
        _distribution_table(
            "Wound levels dealt (a miss, no damage success or a full soak: 0)",
            list(odds.distribution),
            list(odds.at_least),
            exact,
            "Levels",
        )
    )


def register(app) -> None:
    """Add the `odds` command group to the root app."""
    app.add_typer(odds_app, name="odds", help=ODDS_HELP)
