"""What the command groups that touch the store share: one transaction on the store, and `stkit roll`
with --char or --log (used by `stkit roll` and the character commands alike).

Only the standard library at module level: the store, rich and SQLAlchemy are imported inside the
functions, so importing a command group stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from stkit.dice import HouseRules, RollResult
    from stkit.store.gateway import Gateway

_T = TypeVar("_T")


def run(db: str | None, work: Callable[[Gateway], _T], *, readonly: bool = False) -> _T:
    """Run ``work(gateway)`` as one transaction on the store ``db`` (a path or URL; None: the configured
    store), retried whole when the database is busy: over sqlite3 on an up-to-date SQLite file, so no
    SQLAlchemy import; else the store is opened (and migrated) and a SQLAlchemy connection is used."""
    from stkit.store.gateway import run_unit

    return run_unit(db, work, readonly=readonly)


def roll_with_store(
    pool: str,
    *,
    pool_dice: int | None = None,
    char: str | None,
    chronicle: str | None,
    db: str | None,
    difficulty: int | None,
    willpower: bool,
    auto: bool,
    stressful: bool,
    retry: int,
    faces: list[int] | None,
    rules: HouseRules | None,
    seed: int | None,
    json_out: bool,
    task: str | None = None,
    house_flags: dict | None = None,
    note: str | None = None,
    need: int | None = None,
    spec: bool = False,
    secret: bool = False,
) -> None:
    """`stkit roll` with --char (pool built from the sheet, Willpower spent from it) or --log / --secret
    (``pool_dice``: the pool already read as a number of dice): one transaction rolls, spends and writes the
    log entry and its table event (``secret``: for the Storyteller's screen only), then the result is
    printed. Raises InvalidValue, NotFound, RuleRefusal, StoreError."""
    import random

    from stkit.errors import InvalidValue

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    if char is not None:
        from stkit.store.rolls import roll_from_sheet

        done = run(
            db,
            lambda gw: roll_from_sheet(
                gw,
                char,
                pool,
                difficulty=difficulty,
                chronicle=chronicle,
                willpower=willpower,
                retry=retry,
                task=task,
                rules=rules,
                rng=random.Random(seed),
                faces=faces,
                auto=auto,
                stressful=stressful,
                seed=seed,
                house_flags=house_flags if house_flags is not None else {},
                note=note,
                spec=spec,
                secret=secret,
            ),
        )
    else:
        from stkit.store.house import get_house_rules
        from stkit.store.rolls import log_plain_roll, roll_dice

        if pool_dice is None:
            raise InvalidValue(f"dice pool {pool!r} needs --char NAME or a number of dice")
        from stkit.config import default_chronicle

        def plain(gw):
            house = get_house_rules(gw, default_chronicle(chronicle)).override(**(house_flags or {}))
            result = roll_dice(
                pool_dice,
                house.difficulty,
                faces=faces,
                rng=rng,
                rules=house.dice_rules(),
                willpower=willpower,
                retry=retry,
                auto=auto,
                stressful=stressful,
            )
            return log_plain_roll(
                gw, pool, result, chronicle=chronicle, seed=seed, house=house, note=note, secret=secret
            )

        done = run(db, plain)
    from stkit.cli import render

    shown_seed = None if faces is not None or auto else seed
    if json_out:
        render.print_json(done.roll.to_dict() | {"seed": shown_seed} | done.to_dict() | need_dict(done.roll, need))
        return
    from rich.text import Text

    out = render.console()
    print_house_line(list(done.house_in_force))
    if done.pool is not None:
        out.print(render.safe_text(f"{done.character}: ", style="bold") + render.safe_text(done.pool.text))
    for line in done.notes:
        out.print(render.safe_text(line, style="yellow"))
    render.print_roll(done.roll)
    print_forgiven(done.forgiven_botch)
    print_need(done.roll, need)
    if done.willpower_left is not None:
        out.print(
            Text(
                f"Willpower spent: {done.willpower_left} point{'s' if done.willpower_left != 1 else ''} left",
                style="dim",
            )
        )
    where = f" (scene {done.scene_id}, turn {done.turn})" if done.scene_id is not None else ""
    out.print(Text(f"Logged as roll #{done.log_id}{where}", style="dim"))


# ---- lines printed around a roll (roll, multi, resisted, teamwork and the store's rolls) ----------------


def need_dict(result: RollResult, need: int | None) -> dict[str, object]:
    """The JSON keys of --need: {'need': N, 'need_met': bool}, or {} without --need."""
    if need is None:
        return {}
    return {"need": need, "need_met": result.final_successes >= need}


def print_need(result: RollResult, need: int | None) -> None:
    """'Needed 4 successes: met' / 'Needed 4 successes: not met (2)' after a roll, nothing without --need."""
    if need is None:
        return
    from rich.text import Text

    from stkit.cli import render

    got = result.final_successes
    word = "success" if need == 1 else "successes"
    if got >= need:
        render.console().print(Text(f"Needed {need} {word}: met", style="green bold"))
    else:
        render.console().print(Text(f"Needed {need} {word}: not met ({got})", style="yellow bold"))


def print_house_line(in_force: list[str], json_out: bool = False) -> None:
    """'House rules: specialty double, default difficulty 7' before a roll; nothing when none is on (or
    the output is JSON, which carries them as ``house_rules_in_force``)."""
    if not in_force or json_out:
        return
    from rich.text import Text

    from stkit.cli import render

    render.console().print(Text("House rules: " + ", ".join(in_force), style="dim"))


def print_forgiven(forgiven: bool) -> None:
    """The free botch's line, when it forgave this roll's botch."""
    if not forgiven:
        return
    from rich.text import Text

    from stkit.cli import render

    render.console().print(
        Text("Free botch: the first botch of the night is forgiven and counts as a failure", style="yellow bold")
    )
