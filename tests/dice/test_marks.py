"""stkit.dice.marks: one derivation of each die's mark, shared by the command line and the table events."""

from __future__ import annotations

from stkit.dice import HouseRules, Specialty, count_dice
from stkit.dice.marks import DieMark, die_marks

S, SC, ONE, ONE_C, P = (
    DieMark.SUCCESS,
    DieMark.SUCCESS_CANCELLED,
    DieMark.ONE,
    DieMark.ONE_CANCELLING,
    DieMark.PLAIN,
)


def test_marks_pair_the_lowest_successes_with_the_ones():
    # difficulty 6: successes 7, 6, 9; the two 1s strike the two lowest (6 then 7)
    assert die_marks(count_dice(6, 6, [7, 1, 6, 3, 9, 1])) == (SC, ONE_C, SC, P, S, ONE_C)
    assert die_marks(count_dice(2, 6, [1, 4])) == (ONE, P)  # a botch: nothing to strike


def test_a_doubled_ten_needs_two_ones_to_be_struck():
    rules = HouseRules(specialty=Specialty.DOUBLE)
    # one 1 against a doubled 10: the 10 loses half its worth but is not struck out
    assert die_marks(count_dice(2, 6, [10, 1], rules=rules)) == (S, ONE_C)
    assert die_marks(count_dice(3, 6, [10, 1, 1], rules=rules)) == (SC, ONE_C, ONE_C)


def test_ones_not_cancelling_strike_nothing():
    rules = HouseRules(ones_cancel=False)
    assert die_marks(count_dice(2, 6, [8, 1], rules=rules)) == (S, ONE)


def test_the_cli_styles_and_the_event_marks_are_the_same_marks():
    from stkit.cli.render import _MARK_STYLES, dice_text
    from stkit.store.table.events import dice_marks

    assert set(_MARK_STYLES) == {m.value for m in DieMark}
    roll = count_dice(6, 6, [7, 1, 6, 3, 9, 1])
    assert dice_marks(roll) == [m.value for m in die_marks(roll)]
    text = dice_text(roll)
    assert text.plain == "[7] <1> [6] 3 [9] <1>"
    struck = [text.plain[s.start : s.end] for s in text.spans if "strike" in str(s.style)]
    assert struck == ["[7]", "<1>", "[6]", "<1>"]
    assert [m.struck for m in die_marks(roll)] == [True, True, True, False, False, True]
