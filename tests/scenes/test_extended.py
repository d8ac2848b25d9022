"""Tracked extended actions: Weston hiding for four hours, teamwork over time, botches, bad input."""

import pytest

from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.db.gateway import gateway_transaction
from stkit.store.extended import (
    abandon_extended,
    extended_status,
    get_action,
    list_extended,
    replay_check,
    roll_extended,
    start_extended,
)

from .conftest import add_character, sql

TWO = [7, 8, 2, 3, 4, 5]  # Stamina 3 + Stealth 3 = 6 dice; two successes at difficulty 7


def _start_hiding(engine, **kw):
    with gateway_transaction(engine) as s:
        a = start_extended(
            s,
            "Stay hidden",
            chronicle=None,
            character="Weston",
            pool="Stamina + Stealth",
            difficulty=7,
            target=16,
            interval="30 min",
            **kw,
        )
        return a.id


def test_weston_hides_for_four_hours(engine, weston):
    # Chapter Five, "Extended Actions": 16 successes, Stamina + Stealth at 7, one roll per half hour; eight rolls.
    aid = _start_hiding(engine)
    for i in range(8):
        with gateway_transaction(engine) as s:
            out = roll_extended(s, aid, faces=TWO, seed=0)
            assert out.made.explanation == "Stamina 3 + Stealth 3 = 6 dice"
            assert (out.action.tally, out.action.rolls) == (2 * (i + 1), i + 1)
    with gateway_transaction(engine) as s:
        data = extended_status(s, get_action(s, aid)).to_dict()
        logs = sql(s, "SELECT kind, character_name, pool, difficulty, result FROM roll_log ORDER BY id")
    assert (data["status"], data["tally"], data["rolls"], data["time_spent"]) == ("done", 16, 8, "4 h")
    assert [h["tally_after"] for h in data["history"]] == [2, 4, 6, 8, 10, 12, 14, 16]
    assert {h["character"] for h in data["history"]} == {"Weston"}
    assert logs == [("extended", "Weston", 6, 7, 2)] * 8
    with gateway_transaction(engine) as s, pytest.raises(RuleRefusal, match="is done; it takes no more rolls"):
        roll_extended(s, aid, faces=TWO, seed=0)


def test_botch_wipes_the_tally_and_botch_ends_fails(engine, weston):
    aid = _start_hiding(engine)
    with gateway_transaction(engine) as s:
        roll_extended(s, aid, faces=TWO)
        out = roll_extended(s, aid, faces=[1, 2, 3, 4, 5, 6])
        assert out.spoiled and out.tally_before == 2 and out.action.tally == 0 and out.action.status == "open"
    aid2 = _start_hiding(engine, botch_ends=True)
    with gateway_transaction(engine) as s:
        roll_extended(s, aid2, faces=TWO)
        out = roll_extended(s, aid2, faces=[1, 1, 3, 4, 5, 6])
        assert (out.action.tally, out.action.status, out.action.botches) == (0, "failed", 1)


def test_teamwork_over_time_records_who_rolled_and_one_botch_spoils(engine, weston):
    add_character(engine, "Paper Clip", attributes={"Stamina": 2}, abilities={"Stealth": 1})
    aid = _start_hiding(engine)
    with gateway_transaction(engine) as s:
        roll_extended(s, aid, faces=TWO)
        out = roll_extended(s, aid, character="Paper Clip", faces=[9, 9, 2])
        assert out.made.explanation == "Stamina 2 + Stealth 1 = 3 dice"
        assert out.action.tally == 4
        out = roll_extended(s, aid, character="Paper Clip", faces=[1, 2, 3])
        assert out.action.tally == 0
        hist = extended_status(s, out.action).history
    assert [h.character for h in hist] == ["Weston", "Paper Clip", "Paper Clip"]


def test_no_botch_spoils_keeps_the_tally(engine, weston):
    aid = _start_hiding(engine, botch_spoils=False)
    with gateway_transaction(engine) as s:
        roll_extended(s, aid, faces=TWO)
        out = roll_extended(s, aid, faces=[1, 2, 3, 4, 5, 6])
        assert (out.action.tally, out.action.botches, out.spoiled) == (2, 0, False)
        assert replay_check(s, out.action) == (2, 2)


def test_numeric_pool_without_character(engine):
    with gateway_transaction(engine) as s:
        a = start_extended(s, "The garage door", chronicle=None, character=None, pool="6", difficulty=6, target=15)
        out = roll_extended(s, a.id, faces=[6, 7, 8, 9, 10, 1])
        assert (out.action.tally, out.made.log.character_id, out.made.log.kind) == (4, None, "extended")


def test_willpower_spends_a_point_and_adds_a_success(engine, weston):
    aid = _start_hiding(engine)
    with gateway_transaction(engine) as s:
        out = roll_extended(s, aid, faces=[2, 3, 4, 5, 6, 1], willpower=True)
        assert (out.made.roll.result, out.action.tally) == (1, 1)
    from stkit.store.characters import get_character

    with gateway_transaction(engine) as s:
        assert get_character(s, "Weston").to_sheet().powers["Willpower"].temporary == 2


@pytest.mark.parametrize(
    "kw,error,match",
    [
        (dict(target=0), InvalidValue, "target 0 must be at least 1"),
        (dict(difficulty=11), InvalidValue, "difficulty 11"),
        (dict(character="Nobody"), NotFound, "no character named 'Nobody'"),
        (dict(pool="Stamina + Sneaking"), InvalidValue, "unknown trait"),
        (dict(interval="soon"), InvalidValue, "interval 'soon'"),
        (dict(character=None, pool="Stamina + Stealth"), InvalidValue, "no character rolls it"),
        (dict(chronicle="Other"), RuleRefusal, "Weston is in chronicle 'default', not in 'Other'"),
    ],
)
def test_bad_start_changes_nothing(engine, weston, kw, error, match):
    args = dict(chronicle=None, character="Weston", pool="Stamina + Stealth", difficulty=7, target=16, interval=None)
    args.update(kw)
    with pytest.raises(error, match=match), gateway_transaction(engine) as s:
        start_extended(s, "Stay hidden", **args)
    with gateway_transaction(engine) as s:
        assert list_extended(s) == []


def test_bad_roll_changes_nothing(engine, weston):
    aid = _start_hiding(engine)
    add_character(engine, "Stranger", chronicle="Elsewhere")
    cases = [
        (dict(faces=[1, 2]), InvalidValue, "give exactly 6 faces"),
        (dict(faces=[11, 2, 3, 4, 5, 6]), InvalidValue, "die face 11"),
        (dict(character="Stranger"), RuleRefusal, "Stranger is in chronicle 'Elsewhere', not in 'default'"),
    ]
    for kw, error, match in cases:
        with pytest.raises(error, match=match), gateway_transaction(engine) as s:
            roll_extended(s, aid, seed=1, **kw)
    with pytest.raises(NotFound, match="no extended action with id 999"), gateway_transaction(engine) as s:
        roll_extended(s, 999, seed=1)
    with gateway_transaction(engine) as s:
        a = get_action(s, aid)
        assert (a.tally, a.rolls) == (0, 0)
        assert sql(s, "SELECT id FROM roll_log") == [] and sql(s, "SELECT id FROM tracked_rolls") == []


def test_willpower_refused_when_none_left_changes_nothing(engine):
    add_character(engine, "Tired", attributes={"Stamina": 2}, abilities={"Stealth": 2}, willpower=0)
    with gateway_transaction(engine) as s:
        aid = start_extended(
            s, "Hide", chronicle=None, character="Tired", pool="Stamina + Stealth", difficulty=6, target=5
        ).id
    with pytest.raises(RuleRefusal, match="no Willpower"), gateway_transaction(engine) as s:
        roll_extended(s, aid, willpower=True, seed=1)
    with gateway_transaction(engine) as s:
        assert get_action(s, aid).rolls == 0


def test_abandon(engine, weston):
    aid = _start_hiding(engine)
    with gateway_transaction(engine) as s:
        assert abandon_extended(s, aid).status == "abandoned"
    with pytest.raises(RuleRefusal, match="already abandoned"), gateway_transaction(engine) as s:
        abandon_extended(s, aid)
    with pytest.raises(RuleRefusal, match="is abandoned"), gateway_transaction(engine) as s:
        roll_extended(s, aid, seed=1)
    with gateway_transaction(engine) as s:
        assert [a.id for a in list_extended(s, status="open")] == []
        assert [a.id for a in list_extended(s)] == [aid]


def test_willpower_once_per_turn_on_extended_rolls_changes_nothing(engine, weston):
    from stkit.store.characters import get_character
    from stkit.store.scenes import next_turn, start_scene

    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The grounds")
    aid = _start_hiding(engine)
    with gateway_transaction(engine) as s:
        out = roll_extended(s, aid, faces=TWO, willpower=True)
        assert (out.action.tally, out.made.log.turn) == (3, 1)
    with pytest.raises(RuleRefusal, match="already spent Willpower in turn 1"), gateway_transaction(engine) as s:
        roll_extended(s, aid, faces=TWO, willpower=True)
    with gateway_transaction(engine) as s:
        a = get_action(s, aid)
        assert (a.tally, a.rolls, len(sql(s, "SELECT id FROM roll_log"))) == (3, 1, 1)
        assert get_character(s, "Weston").to_sheet().powers["Willpower"].temporary == 2
        next_turn(s, "default")
    with gateway_transaction(engine) as s:
        assert roll_extended(s, aid, faces=TWO, willpower=True).action.tally == 6


def test_status_gives_exact_chances_to_finish(engine):
    pytest.importorskip("stkit.dice.odds")
    with gateway_transaction(engine) as s:
        one = start_extended(s, "Coin", chronicle=None, character=None, pool="1", difficulty=6, target=1)
        spoil_free = start_extended(
            s, "Free", chronicle=None, character=None, pool="1", difficulty=6, target=1, botch_spoils=False
        )
        data = extended_status(s, one).to_dict()
        other = extended_status(s, spoil_free)
    # one die at 6: half the faces succeed, so P(done within k rolls) = 1 - (1/2)^k, botches notwithstanding
    assert {k: v["exact"] for k, v in data["odds"]["within"].items()} == {
        "1": "1/2",
        "2": "3/4",
        "4": "15/16",
        "8": "255/256",
    }
    assert data["odds"]["mean_rolls"] == 2.0 and data["odds_note"] is None
    assert other.odds is None and "--no-botch-spoils" in (other.odds_note or "")
