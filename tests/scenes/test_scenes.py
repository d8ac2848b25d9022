"""Scenes and the hooks: one open scene per chronicle, turns, Willpower once per turn, try-again per task."""

import pytest

from stkit.errors import NotFound, RuleRefusal
from stkit.store.characters import get_character
from stkit.store.db.gateway import gateway_transaction
from stkit.store.scenes import (
    end_scene,
    find_turn_context,
    next_turn,
    retry_count_for_task,
    scene_timeline,
    start_scene,
    task_key,
)
from tests.rolls import sheet_roll

from .conftest import add_character, sql

NOTHING = [2, 3, 4, 5, 3]  # Dexterity 3 + Athletics 2 = 5 dice: no success at 6, 7 or 8, no 1
WALL = "scale the wall"


def _climb(engine, faces=NOTHING, task=WALL, **kw):
    with gateway_transaction(engine) as s:
        return sheet_roll(s, "Weston", "Dexterity + Athletics", difficulty=6, task=task, faces=faces, **kw)


def test_the_embassy_wall_6_then_7_then_8(engine, weston):
    # Chapter Five, "Try, Try Again": each failed try at the wall raises the next one's difficulty by one.
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The embassy")
    assert [_climb(engine).roll.difficulty for _ in range(3)] == [6, 7, 8]
    third = _climb(engine, faces=[9, 9, 2, 3, 4])
    assert (third.roll.difficulty, third.task_retry, third.roll.result) == (9, 3, 2)
    assert "raise the difficulty from 6 to 9" in third.notes[0]
    # a success clears it; another task is not affected; names compare forgivingly
    assert _climb(engine, task="Scale-the  WALL").roll.difficulty == 6
    assert _climb(engine, task="pick the lock").roll.difficulty == 6


def test_try_again_is_capped_at_10_and_scoped_to_the_scene(engine, weston):
    for _ in range(3):
        _climb(engine)  # outside any scene
    assert _climb(engine).roll.difficulty == 9
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "A new night")
    assert _climb(engine).roll.difficulty == 6  # a new scene starts the task afresh
    for _ in range(6):
        last = _climb(engine)
    assert last.roll.difficulty == 10 and last.task_retry == 6
    assert _climb(engine).roll.difficulty == 10
    with gateway_transaction(engine) as s:
        assert retry_count_for_task(s, get_character(s, "Weston"), None) == 0


def test_botch_counts_as_a_failure(engine, weston):
    _climb(engine, faces=[1, 2, 3, 4, 5])
    assert _climb(engine).roll.difficulty == 7


def test_willpower_once_per_turn(engine, weston):
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The embassy")
    first = _climb(engine, task=None, willpower=True)
    assert (first.roll.result, first.willpower_left, first.turn) == (1, 2, 1)
    with pytest.raises(RuleRefusal, match="already spent Willpower in turn 1"):
        _climb(engine, task=None, willpower=True)
    with gateway_transaction(engine) as s:
        assert get_character(s, "Weston").to_sheet().powers["Willpower"].temporary == 2
        assert len(sql(s, "SELECT id FROM roll_log")) == 1
        next_turn(s, "default")
    second = _climb(engine, task=None, willpower=True)
    assert (second.willpower_left, second.turn) == (1, 2)
    with gateway_transaction(engine) as s:
        spends = [tuple(r) for r in sql(s, "SELECT turn, roll_log_id FROM willpower_spends ORDER BY id")]
    assert spends == [(1, first.log_id), (2, second.log_id)]


def test_willpower_is_per_character(engine, weston):
    add_character(engine, "Paper Clip", attributes={"Dexterity": 3}, abilities={"Athletics": 1})
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "The embassy")
    _climb(engine, task=None, willpower=True)
    with gateway_transaction(engine) as s:
        r = sheet_roll(s, "Paper Clip", "Dexterity + Athletics", willpower=True, faces=[2, 2, 2, 2])
    assert r.roll.result == 1


def test_one_open_scene_per_chronicle(engine, weston):
    with gateway_transaction(engine) as s:
        start_scene(s, "default", "First")
        start_scene(s, "Other", "Elsewhere")  # another chronicle may have its own
    with pytest.raises(RuleRefusal, match=r"'First' .* is still open"), gateway_transaction(engine) as s:
        start_scene(s, "default", "Second")
    with gateway_transaction(engine) as s:
        ended = end_scene(s, "default")
        assert ended.status == "ended" and ended.ended_at is not None
        assert find_turn_context(s, get_character(s, "Weston")) is None
        start_scene(s, "default", "Second")
    for fn in (next_turn, end_scene):
        with pytest.raises(NotFound, match="no scene is open in chronicle 'Nowhere'"), gateway_transaction(engine) as s:
            fn(s, "Nowhere")


def test_rolls_belong_to_the_current_turn_and_the_timeline(engine, weston):
    with gateway_transaction(engine) as s:
        scene = start_scene(s, "default", "The embassy")
    _climb(engine)
    with gateway_transaction(engine) as s:
        next_turn(s, "default")
    _climb(engine)
    _climb(engine, task=None, faces=[6, 6, 6, 2, 2])
    with gateway_transaction(engine) as s:
        data = scene_timeline(s, scene).to_dict()
    assert [t["turn"] for t in data["turns"]] == [1, 2]
    assert [[(r["character"], r["task"], r["difficulty"]) for r in t["rolls"]] for t in data["turns"]] == [
        [("Weston", WALL, 6)],
        [("Weston", WALL, 7), ("Weston", None, 6)],
    ]


def test_task_key():
    assert task_key("  Scale-the   Wall ") == task_key("scale the wall") == "scale the wall"
    assert task_key(None) is None
