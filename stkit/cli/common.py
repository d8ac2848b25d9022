"""What the command groups that touch the store share: one transaction on the store, and `stkit roll`
with --char or --log (used by `stkit roll` and the character commands alike).

Only the standard library at module level: the store, rich and SQLAlchemy are imported inside the
functions, so importing a command group stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from stkit.dice import HouseRules
    from stkit.store.gateway import Gateway

_T = TypeVar("_T")


def run(db: str | None, work: Callable[[Gateway], _T], *, readonly: bool = False) -> _T:
    """Run ``work(gateway)`` as one transaction on the store ``db`` (a path or URL; None: the configured
    store), retried whole when the database is busy: over sqlite3 on an up-to-date SQLite file, so no
    SQLAlchemy import; else the store is opened (and migrated) and a SQLAlchemy connection is used."""
    from stkit.store.gateway import run_unit

    return run_unit(db, work, readonly=readonly)


def run_session(db: str | None, work: Callable[[Any], _T], *, readonly: bool = False) -> _T:
    """Run ``work(session)`` (a sqlmodel Session) as one transaction, retried whole when busy: for the
    scene and tracked-action use cases, which read their own tables through the ORM."""
    from stkit.store.db import open_store, run_transaction

    return run_transaction(open_store(db), work, readonly=readonly)


def roll_with_store(
    pool: str,
    *,
    pool_dice: int | None = None,
    char: str | None,
    chronicle: str | None,
    db: str | None,
    difficulty: int,
    willpower: bool,
    auto: bool,
    stressful: bool,
    retry: int,
    faces: list[int] | None,
    rules: HouseRules,
    seed: int | None,
    json_out: bool,
    task: str | None = None,
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
                secret=secret,
            ),
        )
    else:
        from stkit.store.rolls import log_plain_roll, roll_dice

        if pool_dice is None:
            raise InvalidValue(f"dice pool {pool!r} needs --char NAME or a number of dice")
        result = roll_dice(
            pool_dice,
            difficulty,
            faces=faces,
            rng=rng,
            rules=rules,
            willpower=willpower,
            retry=retry,
            auto=auto,
            stressful=stressful,
        )
        done = run(db, lambda gw: log_plain_roll(gw, pool, result, chronicle=chronicle, seed=seed, secret=secret))
    from stkit.cli import render

    shown_seed = None if faces is not None or auto else seed
    if json_out:
        render.print_json(done.roll.to_dict() | {"seed": shown_seed} | done.to_dict())
        return
    from rich.text import Text

    out = render.console()
    if done.pool is not None:
        out.print(render.safe_text(f"{done.character}: ", style="bold") + render.safe_text(done.pool.text))
    for note in done.notes:
        out.print(render.safe_text(note, style="yellow"))
    render.print_roll(done.roll)
    if done.willpower_left is not None:
        out.print(
            Text(
                f"Willpower spent: {done.willpower_left} point{'s' if done.willpower_left != 1 else ''} left",
                style="dim",
            )
        )
    where = f" (scene {done.scene_id}, turn {done.turn})" if done.scene_id is not None else ""
    out.print(Text(f"Logged as roll #{done.log_id}{where}", style="dim"))
