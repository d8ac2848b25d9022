"""Character store use cases against SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import json
import random

import pytest

from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.sheet import Sheet
from stkit.store import characters as C
from stkit.store.db.engine import open_store
from stkit.store.db.gateway import gateway_transaction, run_gateway


def new(engine, name, chronicle="default", **traits):
    s = Sheet(name=name, chronicle=chronicle)
    for k, v in traits.items():
        s.set_trait(k.replace("_", " "), v)
    with gateway_transaction(engine) as session:
        return C.create_character(session, s).id


def sheet_of(engine, name, chronicle=None):
    with gateway_transaction(engine, readonly=True) as session:
        return C.get_character(session, name, chronicle).to_sheet()


@pytest.fixture
def engine(db_url):
    return open_store(db_url)


def test_create_and_find_case_insensitively(engine):
    cid = new(engine, "Shadow-in-the-Wood", Dexterity=3, Brawl=4)
    with gateway_transaction(engine) as session:
        row = C.get_character(session, "shadow in the wood")
        assert row.id == cid and row.name == "Shadow-in-the-Wood"
        assert row.to_sheet().abilities == {"Brawl": 4}


def test_name_unique_per_chronicle(engine):
    new(engine, "Weston")
    with pytest.raises(InvalidValue, match="already exists"):
        new(engine, "WESTON")
    new(engine, "Weston", chronicle="Las Vegas")  # another chronicle is fine
    assert sheet_of(engine, "weston").chronicle == "default"  # the default chronicle's comes first
    assert sheet_of(engine, "weston", "Las Vegas").chronicle == "Las Vegas"
    new(engine, "Weston", chronicle="Reno")
    new(engine, "Ada", chronicle="Las Vegas")
    new(engine, "Ada", chronicle="Reno")
    with pytest.raises(InvalidValue, match="several chronicles"):  # none of them the default
        sheet_of(engine, "ada")


def test_not_found_did_you_mean(engine):
    new(engine, "Archibald")
    with pytest.raises(NotFound, match='did you mean "Archibald"'):
        sheet_of(engine, "Archibold")


def test_edits(engine):
    new(engine, "Flashburn", Dexterity=3, Firearms=2, Willpower=5)
    with gateway_transaction(engine) as s:
        C.set_trait(s, "Flashburn", "primal urge", "2")
        C.spend(s, "Flashburn", "willpower", 2)
        C.damage(s, "Flashburn", 3, "lethal")
        C.heal(s, "Flashburn", 1)
        C.shift(s, "Flashburn", "hispo")
        C.experience(s, "Flashburn", "award", 6, "a good night")
        C.experience(s, "Flashburn", "spend", 4, "Firearms 3")
    sh = sheet_of(engine, "flashburn")
    assert sh.abilities["Primal-Urge"] == 2
    assert sh.powers["Willpower"].temporary == 1  # 3 points by default, 2 spent
    assert sh.health == {"aggravated": 0, "lethal": 2, "bashing": 0}
    assert sh.form == "Hispo"
    assert (sh.xp_total, sh.xp_spent) == (6, 4)


def test_failed_edit_changes_nothing(engine):
    new(engine, "Paper Clip", Willpower=2)
    before = sheet_of(engine, "Paper Clip")
    with pytest.raises(RuleRefusal), gateway_transaction(engine) as s:
        C.spend(s, "Paper Clip", "gnosis", 1)  # works inside the transaction...
        C.spend(s, "Paper Clip", "willpower", 5)  # ...but this refuses, so all is rolled back
    assert sheet_of(engine, "Paper Clip") == before


def test_delete_keeps_log(engine):
    from stkit.store.rolling import recent_log
    from tests.rolls import sheet_roll

    new(engine, "Red-of-Teeth", Charisma=3, Leadership=4)
    with gateway_transaction(engine) as s:
        sheet_roll(s, "Red-of-Teeth", "Charisma + Leadership", difficulty=8, rng=random.Random(1))
    with gateway_transaction(engine) as s:
        assert C.delete_character(s, "red of teeth") == "Red-of-Teeth"
    with pytest.raises(NotFound):
        sheet_of(engine, "Red-of-Teeth")
    with gateway_transaction(engine) as s:
        (entry,) = recent_log(s)
        assert entry["character_id"] is None and entry["character"] == "Red-of-Teeth" and entry["pool"] == 7


def test_roll_from_sheet_logs_everything(engine):
    from tests.rolls import sheet_roll

    cid = new(engine, "Archibald", Dexterity=3, Drive=2)
    with gateway_transaction(engine) as s:
        done = sheet_roll(s, "archibald", "Dexterity + Drive", difficulty=6, faces=[4, 7, 5, 8, 1])
    assert done.pool.dice == 5 and done.roll.result == 1  # 7, 8 succeed; the 1 cancels one
    with gateway_transaction(engine) as s:
        from stkit.store.db.models import RollLog

        e = s.session.get(RollLog, done.log_id)
        assert (e.character_id, e.expression, e.pool, e.difficulty) == (cid, "Dexterity + Drive", 5, 6)
        assert json.loads(e.dice) == [4, 7, 5, 8, 1]
        assert (e.outcome, e.result, e.willpower, e.kind) == ("success", 1, False, "roll")
        assert e.scene_id is None and e.turn is None and e.task is None


def test_willpower_spent_in_same_transaction_and_refused_when_empty(engine):
    from stkit.store.rolling import recent_log
    from tests.rolls import sheet_roll

    new(engine, "Weston", Dexterity=3, Athletics=2, Willpower=1)
    with gateway_transaction(engine) as s:
        done = sheet_roll(s, "Weston", "Dexterity + Athletics", willpower=True, faces=[2, 3, 1, 4, 5])
    assert done.roll.result == 1 and done.roll.outcome.value == "success"  # Willpower saves the botch
    assert done.willpower_left == 0
    assert sheet_of(engine, "Weston").powers["Willpower"].temporary == 0
    with pytest.raises(RuleRefusal, match="no Willpower points left"), gateway_transaction(engine) as s:
        sheet_roll(s, "Weston", "Dexterity + Athletics", willpower=True, rng=random.Random(2))
    with gateway_transaction(engine) as s:
        assert len(recent_log(s)) == 1  # the refused roll wrote nothing


def test_scene_hooks_called_in_order(engine, monkeypatch):
    from stkit.store import scenes
    from stkit.store.scenes import TurnContext
    from tests.rolls import sheet_roll

    calls = []
    monkeypatch.setattr(scenes, "find_turn_context", lambda s, c: calls.append(("ctx", c.name)) or TurnContext(7, 3))
    monkeypatch.setattr(scenes, "check_willpower_allowed", lambda s, c, ctx: calls.append(("wp", ctx.turn)))
    monkeypatch.setattr(scenes, "retry_count_for_task", lambda s, c, t: calls.append(("retry", t)) or 3)
    monkeypatch.setattr(
        scenes,
        "record_roll_in_scene",
        lambda s, c, e, ctx, t: calls.append(("record", e.id, e.scene_id, e.turn, e.task)),
    )
    new(engine, "Weston", Dexterity=3, Athletics=2, Willpower=3)
    with gateway_transaction(engine) as s:
        done = sheet_roll(
            s,
            "Weston",
            "Dexterity + Athletics",
            difficulty=6,
            retry=0,
            willpower=True,
            task="scale the wall",
            rng=random.Random(3),
        )
    assert [c[0] for c in calls] == ["ctx", "wp", "retry", "record"]
    assert calls[-1] == ("record", done.log_id, 7, 3, "scale the wall")
    assert done.roll.difficulty == 9 and done.roll.base_difficulty == 6
    assert "from 6 to 9" in done.notes[0]


def test_scene_retry_capped_at_ten(engine, monkeypatch):
    from stkit.store import scenes
    from tests.rolls import sheet_roll

    monkeypatch.setattr(scenes, "retry_count_for_task", lambda s, c, t: 6)
    new(engine, "Weston", Dexterity=3)
    with gateway_transaction(engine) as s:
        done = sheet_roll(s, "Weston", "Dexterity", difficulty=7, retry=1, task="wall", rng=random.Random(1))
    assert done.roll.difficulty == 10 and done.roll.retry == 7


def test_scene_refusal_spends_nothing(engine, monkeypatch):
    from stkit.store import scenes
    from tests.rolls import sheet_roll

    def refuse(session, character, ctx):
        raise RuleRefusal("Willpower already spent this turn")

    monkeypatch.setattr(scenes, "check_willpower_allowed", refuse)
    new(engine, "Weston", Dexterity=3)
    with pytest.raises(RuleRefusal, match="this turn"), gateway_transaction(engine) as s:
        sheet_roll(s, "Weston", "Dexterity", willpower=True, rng=random.Random(1))
    assert sheet_of(engine, "Weston").powers["Willpower"].temporary == 3


def test_recent_log_newest_first_and_limit(engine):
    from stkit.store.rolling import recent_log
    from tests.rolls import sheet_roll

    new(engine, "Archibald", Dexterity=3, Drive=2)
    new(engine, "Flashburn", Dexterity=3, Firearms=2)
    for i in range(5):
        run_gateway(engine, lambda s, i=i: sheet_roll(s, "Archibald", "Dexterity + Drive", rng=random.Random(i)))
    run_gateway(engine, lambda s: sheet_roll(s, "Flashburn", "Dexterity + Firearms", rng=random.Random(9)))
    with gateway_transaction(engine) as s:
        mine = recent_log(s, name="archibald", limit=3)
        assert [e["character"] for e in mine] == ["Archibald"] * 3
        assert [e["id"] for e in mine] == sorted((e["id"] for e in mine), reverse=True)
        assert recent_log(s, limit=1)[0]["character"] == "Flashburn"
        with pytest.raises(InvalidValue, match="1 to 10000"):
            recent_log(s, limit=0)


def test_sqlite3_and_sqlalchemy_gateways_read_alike(db_url):
    """`char show` / `log` read an up-to-date store with the driver alone (sqlite3, psycopg); the same use
    cases over a SQLAlchemy connection (the server, old files) must return the same sheet and log entries."""
    from stkit.store.db.gateway import fast_connection, run_unit
    from stkit.store.rolling import recent_log
    from tests.rolls import sheet_roll

    engine = open_store(db_url)
    new(engine, "Archibald", Dexterity=3, Drive=2)
    run_gateway(
        engine,
        lambda s: sheet_roll(s, "Archibald", "Dexterity + Drive", willpower=True, task="swerve", rng=random.Random(4)),
    )
    run_gateway(engine, lambda s: sheet_roll(s, "Archibald", "Dexterity + Drive + 1", faces=[1, 1, 2, 3, 4, 5]))
    with gateway_transaction(engine, readonly=True) as s:
        orm_log = recent_log(s, name="Archibald")
        orm_sheet = C.get_character(s, "Archibald").to_sheet()
    assert run_unit(db_url, lambda gw: recent_log(gw, name="archibald"), readonly=True) == orm_log
    assert run_unit(db_url, lambda gw: recent_log(gw), readonly=True) == orm_log
    assert run_unit(db_url, lambda gw: C.find_character(gw, "ARCHIBALD").to_sheet(), readonly=True) == orm_sheet
    assert [e["outcome"] for e in orm_log] == ["botch", orm_log[1]["outcome"]]
    assert orm_log[1]["willpower"] is True and orm_log[1]["task"] == "swerve"
    conn = fast_connection(db_url)
    assert conn is not None  # the fast path is really taken: sqlite3, or libpq without SQLAlchemy
    assert type(conn).__module__ == ("sqlite3" if db_url.startswith("sqlite") else "stkit.store.db.libpq")
    conn.close()
