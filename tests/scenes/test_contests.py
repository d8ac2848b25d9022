"""Extended and resisted contests: the moot debate (tally mode) and the truck chase (lead mode)."""

import pytest

from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.contests import contest_rolls, contest_status, get_contest, list_contests, roll_contest, start_contest
from stkit.store.db.gateway import gateway_transaction

from .conftest import add_character, sql


@pytest.fixture
def debaters(engine):
    # Chapter Five, "Resisted Actions": Ears-of-the-Wind Charisma 4 + Leadership 2 (six dice) against
    # Red-of-Teeth Charisma 3 + Leadership 4 (seven dice). Their Intelligence and Expression are ours.
    add_character(
        engine,
        "Ears-of-the-Wind",
        attributes={"Charisma": 4, "Intelligence": 3},
        abilities={"Leadership": 2, "Expression": 2},
    )
    add_character(
        engine,
        "Red-of-Teeth",
        attributes={"Charisma": 3, "Intelligence": 2},
        abilities={"Leadership": 4, "Expression": 1},
    )


#: the moot debate's sides, pools, difficulty and target
DEBATE = dict(
    chronicle=None,
    a="Ears-of-the-Wind",
    b="Red-of-Teeth",
    pool_a="Charisma + Leadership",
    pool_b="Charisma + Leadership",
    difficulty=8,
    difficulty_b=None,
    target=5,
)


def _debate(engine, **kw):
    with gateway_transaction(engine) as s:
        return start_contest(s, "Debate at the moot", **(DEBATE | kw)).id


def test_the_debate_is_won_by_five_successes_over_the_rival(engine, debaters):
    cid = _debate(engine)
    with gateway_transaction(engine) as s:
        # The plea: four successes against two keeps two for Ears-of-the-Wind.
        d = roll_contest(s, cid, faces_a=[8, 9, 10, 8, 2, 3], faces_b=[8, 9, 2, 3, 4, 5, 6]).to_dict()
    assert d["exchange"] == {
        "exchange": 1,
        "winner": "a",
        "margin": 2,
        "result_a": 4,
        "result_b": 2,
        "botch_a": False,
        "botch_b": False,
        "wiped": [],
    }
    assert (d["a"]["tally"], d["b"]["tally"]) == (2, 0)
    assert d["rolled"]["a"]["explanation"] == "Charisma 4 + Leadership 2 = 6 dice"
    with gateway_transaction(engine) as s:
        # As the debate heats up the Traits change: Intelligence + Expression, for this exchange only.
        d = roll_contest(
            s,
            cid,
            pool_a="Intelligence + Expression",
            pool_b="Intelligence + Expression",
            difficulty_a=5,
            difficulty_b=6,
            faces_a=[1, 2, 3, 4, 4],
            faces_b=[6, 7, 9],
        ).to_dict()
    assert d["exchange"]["botch_a"] and d["exchange"]["wiped"] == ["a"]  # a botch loses everything gathered
    assert (d["a"]["tally"], d["b"]["tally"]) == (0, 3)
    assert [d["rolled"][k]["roll"]["difficulty"] for k in "ab"] == [5, 6]
    with gateway_transaction(engine) as s:
        d = roll_contest(s, cid, faces_a=[2, 3, 4, 5, 6, 7], faces_b=[8, 8, 2, 3, 4, 5, 6]).to_dict()
    assert (d["a"]["tally"], d["b"]["tally"], d["status"], d["winner"]) == (0, 5, "done", "b")
    assert [ex["a"]["difficulty"] for ex in d["history"]] == [8, 5, 8]
    with pytest.raises(RuleRefusal, match="won by side B; it takes no more rolls"), gateway_transaction(engine) as s:
        roll_contest(s, cid, seed=1)


def test_sides_roll_separately(engine, debaters):
    cid = _debate(engine)
    with gateway_transaction(engine) as s:
        d = roll_contest(s, cid, side="b", faces_b=[8, 9, 2, 3, 4, 5, 6]).to_dict()
        assert (d["exchange"], d["waiting_for"], d["exchanges"]) == (None, "a", 0)
    with (
        pytest.raises(RuleRefusal, match="side B has already rolled exchange 1; waiting for side A"),
        gateway_transaction(engine) as s,
    ):
        roll_contest(s, cid, side="b", seed=1)
    with gateway_transaction(engine) as s:
        d = roll_contest(s, cid, faces_a=[8, 9, 10, 8, 2, 3]).to_dict()  # only A is left to roll
    assert (d["exchange"]["winner"], d["a"]["tally"], d["exchanges"], d["waiting_for"]) == ("a", 2, 1, None)


def test_the_truck_chase_needs_five_more_in_total(engine):
    # "Examples of Rolls": Dexterity + Drive against the driver's Wits + Drive; five total successes more than
    # the driver puts you alongside. Archibald's Dexterity 3 + Drive 2 is five dice; the driver is four dice.
    add_character(engine, "Archibald", attributes={"Dexterity": 3}, abilities={"Drive": 2})
    with gateway_transaction(engine) as s:
        cid = start_contest(
            s,
            "Truck chase",
            chronicle=None,
            a="Archibald",
            b="4",
            pool_a="Dexterity + Drive",
            pool_b=None,
            difficulty=6,
            difficulty_b=None,
            target=5,
            mode="lead",
        ).id
    exchanges = [([6, 7, 8, 2, 2], [2, 2, 2, 2]), ([2, 2, 2, 2, 2], [6, 7, 8, 2]), ([6, 7, 2, 2, 2], [2, 2, 2, 2])]
    for fa, fb in exchanges:
        with gateway_transaction(engine) as s:
            d = roll_contest(s, cid, faces_a=fa, faces_b=fb).to_dict()
    assert (d["lead"], d["status"]) == (2, "open")  # 3 - 3 + 2: not yet alongside
    with gateway_transaction(engine) as s:
        d = roll_contest(s, cid, faces_a=[6, 7, 8, 9, 2], faces_b=[6, 2, 2, 2]).to_dict()
    assert (d["lead"], d["a"]["tally"], d["status"], d["winner"]) == (5, 5, "done", "a")
    assert d["b"]["character"] is None and d["b"]["pool"] == "4"


def test_contest_logs_every_roll_in_one_transaction(engine, debaters):
    cid = _debate(engine)
    with gateway_transaction(engine) as s:
        roll_contest(s, cid, seed=7)
        rolls = contest_rolls(s, cid)
        logs = sql(s, "SELECT id, kind FROM roll_log")
    assert len(rolls) == len(logs) == 2
    assert {r.roll_log_id for r in rolls} == {i for i, _ in logs}
    assert {kind for _, kind in logs} == {"contest"}


@pytest.mark.parametrize(
    "kw,error,match",
    [
        (dict(target=0), InvalidValue, "target 0 must be at least 1"),
        (dict(mode="brawl"), InvalidValue, "contest mode 'brawl'"),
        (dict(b="Nobody"), NotFound, "no character named 'Nobody'"),
        (dict(pool_a=None), InvalidValue, "give the pool"),
        (dict(b="Stranger"), RuleRefusal, "Stranger is in chronicle 'Elsewhere', not in 'default'"),
        (dict(difficulty_b=1), InvalidValue, "difficulty 1"),
    ],
)
def test_bad_contest_start_changes_nothing(engine, debaters, kw, error, match):
    add_character(engine, "Stranger", chronicle="Elsewhere")
    args = DEBATE | kw
    with pytest.raises(error, match=match), gateway_transaction(engine) as s:
        start_contest(s, "Debate", **args)
    with gateway_transaction(engine) as s:
        assert list_contests(s) == []


def test_bad_contest_roll_changes_nothing(engine, debaters):
    cid = _debate(engine)
    with pytest.raises(InvalidValue, match="give exactly 7 faces"), gateway_transaction(engine) as s:
        roll_contest(s, cid, faces_a=[8, 9, 10, 8, 2, 3], faces_b=[1])
    with pytest.raises(NotFound, match="no contest with id 42"), gateway_transaction(engine) as s:
        roll_contest(s, 42, seed=1)
    with pytest.raises(InvalidValue, match="side B does not roll now"), gateway_transaction(engine) as s:
        roll_contest(s, cid, side="a", faces_b=[1, 2, 3], seed=1)
    with gateway_transaction(engine) as s:
        assert contest_status(s, get_contest(s, cid)).rolls == ()
        assert sql(s, "SELECT id FROM roll_log") == []


def test_try_it_out_debate_difficulties_come_from_the_opponent(engine):
    # "Try It Out": Charisma + Expression against the opponent's Wits + 3, then Intelligence + Expression against
    # the opponent's Intelligence + Expression. The ratings are ours.
    add_character(engine, "Pup", attributes={"Charisma": 3, "Wits": 3, "Intelligence": 2}, abilities={"Expression": 3})
    add_character(
        engine, "Elder", attributes={"Charisma": 3, "Wits": 2, "Intelligence": 4}, abilities={"Expression": 2}
    )
    with gateway_transaction(engine) as s:
        c = start_contest(
            s,
            "Wisdom",
            chronicle=None,
            a="Pup",
            b="Elder",
            pool_a="Charisma + Expression",
            pool_b="Charisma + Expression",
            difficulty="Wits + 3",
            difficulty_b=None,
            target=5,
        )
        assert (c.a_difficulty, c.b_difficulty) == (5, 6)
        d = roll_contest(
            s,
            c.id,
            pool_a="Intelligence + Expression",
            pool_b="Intelligence + Expression",
            difficulty_a="Intelligence + Expression",
            difficulty_b="intelligence+expression",
            faces_a=[6, 6, 6, 6, 2],
            faces_b=[5, 5, 5, 5, 2, 2],
        ).to_dict()
    assert [d["rolled"][k]["roll"]["difficulty"] for k in "ab"] == [6, 5]
    assert d["rolled"]["a"]["difficulty_from"] == "Elder's Intelligence 4 + Expression 2 = 6"
    assert (d["exchange"]["result_a"], d["exchange"]["result_b"]) == (4, 4)  # a tie moves nothing


def test_worked_out_difficulty_is_held_within_2_to_10(engine):
    from stkit.store.participants import Participant, opponent_difficulty

    add_character(engine, "Dull", attributes={"Wits": 1})
    add_character(engine, "Sharp", attributes={"Wits": 5}, abilities={"Expression": 5})
    with gateway_transaction(engine) as s:
        from stkit.store.characters import get_character

        dull, sharp = Participant(get_character(s, "Dull"), "Wits"), Participant(get_character(s, "Sharp"), "Wits")
        assert opponent_difficulty("Wits + Expression", dull) == (
            2,
            "Dull's Wits 1 + Expression 0 = 1, held to 2 (difficulties run from 2 to 10)",
        )
        assert opponent_difficulty("Wits + Expression + 3", sharp)[0] == 10
        assert opponent_difficulty("Wits - 1", sharp) == (4, "Sharp's Wits 5 - 1 = 4")
        assert opponent_difficulty("7", sharp) == (7, None)
        with pytest.raises(InvalidValue, match="unknown trait 'Wist' in the difficulty"):
            opponent_difficulty("Wist + 3", sharp)
        with pytest.raises(InvalidValue, match="the other side is a plain dice pool"):
            opponent_difficulty("Wits + 3", Participant(None, "5"))
        with pytest.raises(InvalidValue, match="difficulty 11"):
            opponent_difficulty("11", sharp)
