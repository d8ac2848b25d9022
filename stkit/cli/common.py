"""What the command groups that touch the store share: the handle on the store (:func:`store`, the --db
choice resolved once), one transaction on it, and `stkit roll` with --char or --log (used by `stkit roll`
and the character commands alike).

Only the standard library at module level: the store, rich and SQLAlchemy are imported inside the
functions, so importing a command group stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from stkit.dice import RollResult
    from stkit.dice.house import ChronicleRules, RuleOverrides
    from stkit.store.db.gateway import Gateway
    from stkit.store.db.handle import StoreHandle
    from stkit.store.rolling import OddsAnswer, RollOrder, RollOutcome

_T = TypeVar("_T")


def store(db: str | None) -> StoreHandle:
    """The handle on the store ``db`` (the --db value: a path or URL; None: $STKIT_DATABASE_URL, else the
    default file), resolved once here: a command takes it once and passes it on. Inside `stkit shell`
    it is the shell's open handle, with its one kept connection. Raises InvalidValue for a bad ``db``."""
    from stkit.store.db.handle import handle_for  # lazy: start-up (loaded when the command runs)

    return handle_for(db)


def run(db: str | None, work: Callable[[Gateway], _T], *, readonly: bool = False) -> _T:
    """Run ``work(gateway)`` as one transaction on :func:`store` ``(db)``, retried whole when the database is
    busy: over sqlite3 on an up-to-date SQLite file, so no SQLAlchemy import; else the store is opened (and
    migrated) and a SQLAlchemy connection is used. For a command that runs one unit; one that runs more
    takes :func:`store` once and calls its ``run`` / ``read``."""
    return store(db).run(work, readonly=readonly)


def make_roll_in(handle: StoreHandle, order: RollOrder) -> RollOutcome:
    """``order`` rolled by :func:`stkit.store.rolling.make_roll` in one transaction on the store ``handle``
    (retried whole when the store is busy: the generator is seeded inside, so a retry rolls the same
    dice). A bare pool that logs nothing, with no store yet, rolls under the rules as written without
    creating one; it reads the store in a read transaction otherwise (a free botch claimed upgrades it)."""
    import dataclasses  # lazy: start-up (loaded when the command runs)

    from stkit.store.rolling import fresh_seed, make_roll  # lazy: start-up (loaded when the command runs)

    # the seed is chosen once, so that a retried transaction rolls the same dice
    order = dataclasses.replace(order, seed=fresh_seed(order.seed))
    writes = order.character is not None or order.log
    if not writes and order.overrides.free_botch is not True and not handle.exists():
        return make_roll(None, order)
    return handle.run(lambda gw: make_roll(gw, order), readonly=not writes)


def rules_in(handle: StoreHandle, chronicle: str | None, overrides: RuleOverrides) -> ChronicleRules:
    """The rules in force for ``chronicle`` in the store ``handle`` with ``overrides`` on top, read through
    :func:`stkit.store.house.rules_in_force` (no store yet: the rules as written, nothing created)."""
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import rules_in_force  # lazy: start-up (loaded when the command runs)

    chron = default_chronicle(chronicle)
    if not handle.exists():
        return rules_in_force(None, chron, overrides)
    return handle.read(lambda gw: rules_in_force(gw, chron, overrides))


def odds_in(handle: StoreHandle, order: RollOrder) -> OddsAnswer:
    """:func:`stkit.store.rolling.odds_for` of ``order`` on the store ``handle`` (a read; none without a
    store)."""
    from stkit.store.rolling import odds_for  # lazy: start-up (loaded when the command runs)

    if order.character is None and not handle.exists():
        return odds_for(None, order)
    return handle.read(lambda gw: odds_for(gw, order))


def print_outcome(done: RollOutcome, *, json_out: bool, need: int | None, logged: bool, secret: bool = False) -> None:
    """A roll's output: ``logged`` (a roll from the sheet or with --log) prints the log entry's keys and
    lines; otherwise a plain roll's, plus the log entry when the free botch forgave it. A ``secret`` roll
    says so first (and carries ``"secret": true`` in JSON)."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        data = done.roll.to_dict() | {"seed": done.seed}
        if logged:
            data |= done.to_dict()
        else:
            data["house_rules_in_force"] = list(done.house_in_force)
            if done.log_id is not None:
                data |= {"forgiven_botch": done.forgiven_botch, "log_id": done.log_id}
        spared = render.spared_reason(done.roll)
        data |= {"botch_spared": spared} if spared else {}
        render.print_json(data | need_dict(done.roll, need) | ({"secret": True} if secret else {}))
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    out = render.console()
    if secret:
        out.print(Text("Secret roll: for the Storyteller's screen only", style="magenta bold"))
    print_house_line(list(done.house_in_force))
    if done.pool is not None:
        out.print(render.safe_text(f"{done.character}: ", style="bold") + render.safe_text(done.pool.text))
    for line in done.notes:
        out.print(render.safe_text(line, style="yellow"))
    render.print_roll(done.roll)
    print_forgiven(done.forgiven_botch)
    if not logged:
        if done.log_id is not None:
            out.print(Text(f"Logged as roll #{done.log_id}", style="dim"))
        print_need(done.roll, need)
        return
    print_need(done.roll, need)
    if done.willpower_left is not None:
        left = done.willpower_left
        out.print(Text(f"Willpower spent: {left} point{'s' if left != 1 else ''} left", style="dim"))
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
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

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
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(Text("House rules: " + ", ".join(in_force), style="dim"))


def print_forgiven(forgiven: bool) -> None:
    """The free botch's line, when it forgave this roll's botch."""
    if not forgiven:
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(
        Text("Free botch: the first botch of the night is forgiven and counts as a failure", style="yellow bold")
    )
