"""Dice expressions typed by people: pool sums, face lists, difficulties per roll."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkit.dice import parse_faces, parse_pool_number, pick_difficulties
from stkit.errors import InvalidValue


@pytest.mark.parametrize(
    "text, pool",
    [("5", 5), ("3+2", 5), (" 7 - 1 ", 6), ("+4", 4), ("-3", -3), ("2+2+2-1", 5), ("007", 7), ("1 - 5", -4)],
)
def test_pool_sums(text, pool):
    assert parse_pool_number(text) == pool


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "Dexterity + Brawl",
            "dice pool 'Dexterity + Brawl' is not a number of dice (1 to 1000); trait names like "
            "'Dexterity + Brawl' need a character: --char NAME",
        ),
        ("3 +", "dice pool '3 +' is not a number of dice (1 to 1000)"),
        ("", "dice pool '' is not a number of dice"),
        ("1234567", "dice pool term 1234567 is larger than stkit's limit of 1000 dice"),
        ("9" * 40, "dice pool term 999999999999... is larger than stkit's limit of 1000 dice"),
    ],
)
def test_pool_text_refused(text, message):
    with pytest.raises(InvalidValue) as info:
        parse_pool_number(text)
    assert str(info.value).startswith(message)


def test_pool_message_names_the_side():
    with pytest.raises(InvalidValue, match=r"^side A's dice pool 'x' is not a number"):
        parse_pool_number("x", "side A's dice pool")


@given(st.lists(st.tuples(st.sampled_from("+-"), st.integers(0, 999_999)), min_size=1, max_size=6))
def test_pool_sum_equals_python_sum(terms):
    text = " ".join(f"{sign} {n}" for sign, n in terms)
    assert parse_pool_number(text) == sum(n if sign == "+" else -n for sign, n in terms)


def test_faces():
    assert parse_faces("4,7,5,8,1") == [4, 7, 5, 8, 1]
    assert parse_faces(" 4 7,, 5\t8 ") == [4, 7, 5, 8]
    # Only the syntax is checked here; faces out of range are refused when scored.
    assert parse_faces("-1,11") == [-1, 11]
    assert parse_faces("0,0 3") == [10, 10, 3]  # a d10 shows ten as 0
    with pytest.raises(InvalidValue, match=r"^die face 'x' in --dice is not a number; allowed: 1 to 10$"):
        parse_faces("4,x")
    with pytest.raises(InvalidValue, match=r"^--dice is empty"):
        parse_faces(" , ")


def test_difficulties_one_for_all_or_one_each():
    assert pick_difficulties([], 3, "actions") == [6, 6, 6]
    assert pick_difficulties([8], 2, "actions") == [8, 8]
    assert pick_difficulties([5, 7], 2, "actions") == [5, 7]
    with pytest.raises(InvalidValue, match=r"^3 difficulties given for 2 participants; give one for all, or one each$"):
        pick_difficulties([5, 6, 7], 2, "participants")
    with pytest.raises(InvalidValue, match=r"^difficulty 11 is outside the allowed range 2 to 10$"):
        pick_difficulties([6, 11], 2, "actions")
