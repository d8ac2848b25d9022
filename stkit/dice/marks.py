"""How each die of a roll is shown: a success, a success struck out by a 1, a 1, a 1 that struck one out,
or neither (:class:`DieMark`, :func:`die_marks`). The command line's styles, the table pages' classes and
the ``marks`` of a roll event all come from here.

Source: Chapter Five, "Rolling Dice" (each 1 cancels one success), of the Werewolf: The Apocalypse Revised
rulebook; which dice are paired off is :func:`stkit.dice.roll.cancelled_dice`.
"""

from __future__ import annotations

from enum import StrEnum

from stkit.dice.model import RollResult
from stkit.dice.roll import cancelled_dice


class DieMark(StrEnum):
    """One die's mark; the value is the text stored in a roll event's ``marks`` and used as a page class."""

    SUCCESS = "success"
    SUCCESS_CANCELLED = "success cancelled"
    ONE = "one"
    ONE_CANCELLING = "one cancelling"
    PLAIN = ""

    @property
    def struck(self) -> bool:
        """True for a die the rule of one paired off (a cancelled success or the 1 that cancelled it)."""
        return self in (DieMark.SUCCESS_CANCELLED, DieMark.ONE_CANCELLING)

    @property
    def is_success(self) -> bool:
        return self in (DieMark.SUCCESS, DieMark.SUCCESS_CANCELLED)

    @property
    def is_one(self) -> bool:
        return self in (DieMark.ONE, DieMark.ONE_CANCELLING)


def die_marks(roll: RollResult) -> tuple[DieMark, ...]:
    """The mark of every die of ``roll``, in roll order (extra dice from re-rolled 10s included): a face at
    or above the difficulty is a success, a 1 is a one, and the pairs the rule of one forms are struck."""
    struck, used_ones = cancelled_dice(roll)
    marks = []
    for i, face in enumerate(roll.dice):
        if face >= roll.difficulty:
            marks.append(DieMark.SUCCESS_CANCELLED if i in struck else DieMark.SUCCESS)
        elif face == 1:
            marks.append(DieMark.ONE_CANCELLING if i in used_ones else DieMark.ONE)
        else:
            marks.append(DieMark.PLAIN)
    return tuple(marks)
