"""The roll use case through both SQL gateways: the sqlite3 fast path (run_unit on an up-to-date SQLite
file) and the SQLAlchemy Session path must write the same log rows and make the same sheet changes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import time

import pytest

from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.sheet import Sheet, Track
from stkit.store import characters as C
from stkit.store.db.engine import open_store
from stkit.store.db.gateway import (
    PgGateway,
    SessionGateway,
    SqliteGateway,
    fast_connection,
    gateway_transaction,
    run_gateway,
    run_unit,
)
from stkit.store.rolling import LOG_COLUMNS
from stkit.store.scenes import next_turn, start_scene
from tests.rolls import bare_roll, sheet_roll

NOTHING = [2, 3, 4, 5, 3]  # Dexterity 3 + Athletics 2 = 5 dice: no success at 6, 7 or 8, no 1
WALL = "scale the wall"


def _weston(engine) -> None:
    s = Sheet(name="Weston")
    s.attributes.update({"Dexterity": 3, "Stamina": 3})
    s.abilities.update({"Athletics": 2, "Stealth": 3})
    s.powers["Willpower"] = Track(3, 3)
    with gateway_transaction(engine) as session:
        C.create_character(session, s)


def _snapshot(engine) -> dict:
    """Everything the rolls wrote, without the ids' and timestamps' accidents."""
    from sqlalchemy import text

    with engine.connect() as conn:
        log = [
            dict(zip(LOG_COLUMNS, r, strict=True))
            for r in conn.execute(text(f"SELECT {', '.join(LOG_COLUMNS)} FROM roll_log ORDER BY id"))
        ]
        chars = [
            tuple(r)
            for r in conn.execute(
                text(
                    "SELECT id, chronicle, name, name_key, player, breed, auspice, tribe, form, sheet, version FROM characters"
                )
            )
        ]
        spends = [
            tuple(r)
            for r in conn.execute(
                text("SELECT scene_id, turn, character_id, roll_log_id FROM willpower_spends ORDER BY id")
            )
        ]
    for row in log:
        row.pop("created_at")
        row["willpower"] = bool(row["willpower"])
        row["dice"], row["detail"] = json.loads(row["dice"]), json.loads(row["detail"])
    return {"log": log, "characters": chars, "willpower_spends": spends}


def _play(engine, unit) -> list:
    """A night at the embassy wall; ``unit(work)`` runs ``work(session_or_gateway)`` as one transaction.
    Returns what each roll reported (or the refusal's message)."""
    out = []

    def roll(**kw):
        kw.setdefault("faces", NOTHING)
        try:
            done = unit(lambda g: sheet_roll(g, "weston", "Dexterity + Athletics", **kw))
        except RuleRefusal as exc:
            out.append(("refused", str(exc)))
            return None
        out.append(
            (
                done.log_id,
                done.roll.to_dict(),
                done.pool.text,
                done.willpower_left,
                done.scene_id,
                done.turn,
                done.task,
                done.task_retry,
                done.notes,
            )
        )
        return done

    roll(willpower=True, faces=[2, 3, 1, 4, 5])  # outside a scene: Willpower saves the botch
    roll(task=WALL)  # a failure outside any scene does not count inside one
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The embassy")
    roll(willpower=True)
    roll(willpower=True, task=WALL)  # refused: once per turn; nothing written
    assert [roll(task=WALL).roll.difficulty for _ in range(3)] == [6, 7, 8]
    roll(task=WALL, faces=[9, 9, 2, 3, 4])  # success at 9 clears the task
    assert roll(task=WALL).roll.difficulty == 6
    with gateway_transaction(engine) as s:
        next_turn(s, "default")
    roll(willpower=True)  # a new turn allows it again: the last point
    roll(willpower=True)  # refused (a second spend this turn)
    with gateway_transaction(engine) as s:
        next_turn(s, "default")
    roll(willpower=True)  # refused: no Willpower points left
    out.append(unit(lambda g: bare_roll(g, 3, seed=5)).log_id)
    for bad in (
        lambda g: sheet_roll(g, "Westin", "Dexterity"),
        lambda g: sheet_roll(g, "Weston", "Dexterty"),
    ):
        with pytest.raises((NotFound, InvalidValue)) as exc:
            unit(bad)
        out.append(str(exc.value))
    return out


def roll_plain():
    from stkit.dice import roll_pool

    return roll_pool(3, 6, rng=random.Random(5))


def test_fast_and_session_paths_write_the_same(tmp_path):
    fast_url = "sqlite:///" + str(tmp_path / "fast.sqlite")
    slow_url = "sqlite:///" + str(tmp_path / "slow.sqlite")
    fast_engine, slow_engine = open_store(fast_url), open_store(slow_url)
    _weston(fast_engine)
    _weston(slow_engine)
    assert fast_connection(fast_url) is not None  # the fast path is really taken

    seen = []

    def fast_unit(work):
        def spy(gw):
            seen.append(type(gw))
            return work(gw)

        return run_unit(fast_url, spy)

    fast = _play(fast_engine, fast_unit)
    slow = _play(slow_engine, lambda work: run_gateway(slow_engine, work))
    assert set(seen) == {SqliteGateway}
    assert fast == slow
    a, b = _snapshot(fast_engine), _snapshot(slow_engine)
    assert a == b
    # and the values are the ones the rules give
    wp = [r["willpower"] for r in a["log"]]
    assert wp.count(True) == 3 and len(a["log"]) == 10  # 2 refusals and 1 'no points left' wrote nothing
    assert [r["difficulty"] for r in a["log"] if r["task"] == WALL] == [6, 6, 7, 8, 9, 6]
    assert [(t, r) for (_, t, _, r) in a["willpower_spends"]] == [(1, a["log"][2]["id"]), (2, a["log"][8]["id"])]
    assert json.loads(a["characters"][0][9])["willpower"]["temporary"] == 0
    assert a["characters"][0][10] == 1 + 3  # created at version 1, one bump per Willpower point spent
    assert sum(1 for x in fast if isinstance(x, tuple) and x[0] == "refused") == 3
    assert 'did you mean "Weston"' in fast[-2] and "Dexterty" in fast[-1]


def _night_through(db_url, unit_of):
    engine = open_store(db_url)
    _weston(engine)
    seen = []

    def unit(work):
        def spy(gw):
            seen.append(type(gw))
            return work(gw)

        return unit_of(engine, spy)

    out = _play(engine, unit)
    snap = _snapshot(engine)
    assert len(snap["log"]) == 10 and [r["willpower"] for r in snap["log"]].count(True) == 3
    assert [r["difficulty"] for r in snap["log"] if r["task"] == WALL] == [6, 6, 7, 8, 9, 6]
    assert next(x[1] for x in out if isinstance(x, tuple) and x[0] == "refused").startswith(
        "Weston already spent Willpower in turn 1"
    )
    return seen, snap


def test_session_gateway_on_every_database(db_url):
    """The same night through SessionGateway on SQLite and PostgreSQL (the table server's path)."""
    seen, _ = _night_through(db_url, lambda engine, work: run_gateway(engine, work))
    assert set(seen) == {SessionGateway}


def test_fast_gateway_on_every_database(db_url):
    """The same night through the path a command takes: sqlite3 on SQLite, psycopg without SQLAlchemy on
    PostgreSQL; the table events go in as the engine's path writes them."""
    seen, snap = _night_through(db_url, lambda engine, work: run_unit(db_url, work))
    assert set(seen) == ({SqliteGateway} if db_url.startswith("sqlite") else {PgGateway})
    events = run_unit(db_url, lambda gw: gw.rows("SELECT kind, chronicle FROM table_events ORDER BY id"))
    assert [k for k, _ in events].count("roll") == len(snap["log"])


def test_edits_in_one_transaction_build_on_each_other(db_url):
    """A roll that spends Willpower and a later edit in the same transaction: the edit starts from the
    spent point (each use case re-reads the row it locks), and the version counts both writes."""
    engine = open_store(db_url)
    _weston(engine)
    with gateway_transaction(engine) as s:
        before = C.get_character(s, "Weston")
        sheet_roll(s, "Weston", "Dexterity", willpower=True, faces=[7, 7, 7])
        held = C.get_character(s, "Weston")
        assert held.to_sheet().powers["Willpower"].temporary == 2 and held.version == before.version + 1
        C.spend(s, "Weston", "willpower", 1)
    with gateway_transaction(engine, readonly=True) as s:
        after = C.get_character(s, "Weston")
        assert after.to_sheet().powers["Willpower"].temporary == 1 and after.version == before.version + 2


WORKER = textwrap.dedent(
    """
    import json, random, sys, time
    from pathlib import Path
    from stkit.errors import RuleRefusal
    from stkit.store import characters as C
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import run_gateway
    from stkit.store.db.gateway import run_unit
    from tests.rolls import sheet_roll

    url, go, n, me = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    engine = open_store(url)
    while not go.exists():
        time.sleep(0.005)
    spent = 0
    for i in range(n):
        try:
            run_unit(url, lambda g: sheet_roll(g, "Weston", "Dexterity", willpower=True, rng=random.Random(i)))
            spent += 1
        except RuleRefusal:
            pass
        run_gateway(engine, lambda s: C.experience(s, "Weston", "award", 1, f"p{me}-{i}"))
    print(json.dumps({"spent": spent}))
    """
)


@pytest.mark.slow
def test_fast_and_orm_writers_at_once_lose_nothing(db_url, tmp_path):
    """Processes mixing sqlite3-gateway rolls and edits over a SQLAlchemy Session on one character: every Willpower
    point is spent exactly once and no experience award is lost."""
    engine = open_store(db_url)
    s = Sheet(name="Weston")
    s.powers["Willpower"] = Track(10, 10)
    with gateway_transaction(engine) as session:
        C.create_character(session, s)
    go, n, k = tmp_path / "go", 6, 3
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, db_url, str(go), str(n), str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(k)
    ]
    time.sleep(0.3)
    go.write_text("go")
    spent = 0
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        spent += json.loads(out)["spent"]
    with gateway_transaction(engine, readonly=True) as session:
        sheet = C.get_character(session, "Weston").to_sheet()
        from stkit.store.rolling import recent_log

        logged = recent_log(session, name="Weston", limit=1000)
    assert spent == 10 and len(logged) == 10 and all(e["willpower"] for e in logged)
    assert sheet.powers["Willpower"].temporary == 0
    assert sheet.xp_total == n * k and {e["reason"] for e in sheet.xp_log} == {
        f"p{i}-{j}" for i in range(k) for j in range(n)
    }


def test_racing_second_willpower_spend_is_the_rules_refusal(db_url):
    """The unique key on (scene, turn, character) turns a spend that raced past the check into the same
    RuleRefusal, through either gateway."""
    from stkit.store.rolling import LoggedRoll
    from stkit.store.scenes import TurnContext, check_willpower_allowed, find_turn_context, record_roll_in_scene

    engine = open_store(db_url)
    _weston(engine)
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The moot")
    done = run_unit(db_url, lambda g: sheet_roll(g, "Weston", "Dexterity", willpower=True, faces=[7, 7, 7]))

    def race(gw):
        me = C.find_character(gw, "Weston")
        ctx = find_turn_context(gw, me)
        assert ctx == TurnContext(done.scene_id, 1)
        with pytest.raises(RuleRefusal, match="already spent Willpower in turn 1"):
            check_willpower_allowed(gw, me, ctx)
        record_roll_in_scene(gw, me, LoggedRoll(done.log_id, True, ctx.scene_id, ctx.turn, None), ctx, None)

    with pytest.raises(RuleRefusal, match=r"only once per turn\. Nothing was spent or rolled"):
        run_unit(db_url, race)
    with pytest.raises(RuleRefusal, match="only once per turn"):
        run_gateway(engine, race)  # the SessionGateway on SQLite too
    assert len(_snapshot(engine)["willpower_spends"]) == 1
