"""BCDice's World of Darkness cases (bcdice/BCDice, test/data/WorldOfDarkness.toml and
lib/bcdice/game_system/WorldOfDarkness.rb), restated as stkit rolls: the faces BCDice's randomiser gives, in
order, and the outcome BCDice prints. BCDice's commands map to stkit as: xST -> the rules as written; xSTS
-> the reroll specialty (1s on extra dice do not cancel); xSTB -> reroll with extra-ones-cancel; xSTA -> the
double specialty; '+1' -> one success no 1 cancels, which is stkit's Willpower success. BCDice reads a
difficulty below 2 as 6 and above 10 as 10; stkit refuses both (Chapter Five, "Difficulties": 2 to 10)."""

from __future__ import annotations

import pytest

from stkit.dice import count_dice
from stkit.dice.model import HouseRules, Specialty
from stkit.errors import InvalidValue

RULES = {
    "ST": HouseRules(),
    "STS": HouseRules(Specialty.REROLL),
    "STB": HouseRules(Specialty.REROLL, extra_ones_cancel=True),
    "STA": HouseRules(Specialty.DOUBLE),
}

#: (pool, BCDice command, difficulty, BCDice's +y, faces in the order rolled, BCDice's outcome)
CASES = [
    (1, "ST", 6, 0, (1,), "botch"),
    (1, "ST", 6, 0, (5,), "failure"),
    (1, "ST", 6, 0, (6,), 1),
    (1, "ST", 6, 0, (10,), 1),
    (1, "ST", 1, 0, (6,), 1),
    (1, "ST", 7, 0, (6,), "failure"),
    (1, "ST", 7, 0, (7,), 1),
    (10, "ST", 11, 0, (10, 9, 8, 7, 6, 5, 4, 3, 2, 2), 1),
    (1, "ST", 7, 1, (6,), 1),
    (1, "ST", 7, 1, (7,), 2),
    (1, "ST", 6, 1, (6,), 2),
    (5, "ST", 6, 0, (1, 5, 6, 7, 10), 2),
    (5, "ST", 6, 0, (1, 5, 5, 2, 5), "botch"),
    (5, "ST", 6, 0, (1, 5, 6, 1, 10), "failure"),
    (5, "ST", 6, 0, (3, 2, 5, 4, 5), "failure"),
    (5, "ST", 7, 0, (1, 5, 6, 7, 10), 1),
    (5, "ST", 7, 1, (1, 5, 6, 7, 10), 2),
    (5, "ST", 6, 1, (2, 5, 6, 7, 9), 4),
    (1, "STS", 6, 0, (1,), "botch"),
    (1, "STS", 6, 0, (5,), "failure"),
    (1, "STS", 6, 0, (6,), 1),
    (1, "STS", 6, 0, (10, 6), 2),
    (1, "STS", 1, 0, (6,), 1),
    (1, "STS", 7, 0, (6,), "failure"),
    (1, "STS", 7, 0, (7,), 1),
    (10, "STS", 11, 0, (10, 9, 8, 7, 6, 5, 4, 3, 2, 2, 2), 1),
    (1, "STS", 7, 1, (6,), 1),
    (1, "STS", 7, 1, (7,), 2),
    (1, "STS", 6, 1, (6,), 2),
    (5, "STS", 6, 0, (1, 5, 6, 7, 10, 10, 6), 4),
    (5, "STS", 6, 0, (1, 5, 6, 7, 10, 10, 1), 3),
    (5, "STS", 6, 0, (1, 5, 6, 1, 10, 10, 1), 1),
    (5, "STS", 6, 0, (3, 2, 5, 4, 5), "failure"),
    (5, "STS", 7, 0, (1, 5, 6, 10, 10, 5, 4), 1),
    (5, "STS", 7, 1, (1, 5, 6, 10, 10, 10, 7, 1), 4),
    (5, "STS", 6, 1, (2, 5, 6, 7, 9), 4),
    (1, "STA", 6, 0, (1,), "botch"),
    (1, "STA", 6, 0, (5,), "failure"),
    (1, "STA", 6, 0, (6,), 1),
    (1, "STA", 6, 0, (10,), 2),
    (1, "STA", 1, 0, (6,), 1),
    (1, "STA", 7, 0, (6,), "failure"),
    (1, "STA", 7, 0, (7,), 1),
    (10, "STA", 11, 0, (10, 9, 8, 7, 6, 5, 4, 3, 2, 2), 2),
    (1, "STA", 7, 1, (6,), 1),
    (1, "STA", 7, 1, (7,), 2),
    (1, "STA", 6, 1, (6,), 2),
    (5, "STA", 6, 0, (1, 5, 6, 7, 10), 3),
    (5, "STA", 6, 0, (1, 5, 6, 1, 10), 1),
    (5, "STA", 6, 0, (3, 2, 5, 4, 5), "failure"),
    (5, "STA", 7, 0, (1, 5, 6, 10, 10), 3),
    (5, "STA", 7, 1, (1, 5, 6, 10, 10), 4),
    (5, "STA", 6, 1, (2, 5, 6, 7, 9), 4),
    (5, "STA", 6, 0, (1, 5, 6, 10, 1), 1),
    (5, "STA", 7, 0, (1, 5, 6, 10, 1), "failure"),
    (5, "ST", 6, 0, (1, 1, 1, 6, 6), "failure"),
    (5, "STS", 6, 0, (1, 1, 1, 10, 10, 1, 5), "failure"),
    (5, "STA", 6, 0, (1, 1, 1, 5, 10), "failure"),
    (5, "STS", 6, 0, (1, 1, 2, 10, 10, 1, 6), 1),
    (5, "ST", 6, 1, (1, 1, 1, 5, 5), 1),
    (5, "ST", 6, 1, (1, 1, 1, 6, 6), 1),
    (5, "ST", 6, 1, (1, 1, 6, 6, 6), 2),
    (5, "STS", 6, 1, (1, 1, 1, 5, 5), 1),
    (5, "STS", 6, 1, (1, 1, 1, 6, 6), 1),
    (5, "STS", 6, 1, (1, 1, 6, 6, 6), 2),
    (5, "STA", 6, 1, (1, 1, 1, 6, 6), 1),
    (5, "STA", 6, 1, (1, 1, 1, 5, 5), 1),
    (5, "STS", 6, 1, (1, 1, 6, 6, 6), 2),
    (1, "STB", 6, 0, (1,), "botch"),
    (1, "STB", 6, 0, (6,), 1),
    (5, "STB", 6, 0, (10, 1, 6, 5, 10, 1, 7), 2),
    (5, "STB", 7, 0, (1, 1, 1, 6, 10, 1), "failure"),
    (5, "STB", 7, 1, (1, 1, 1, 6, 10, 1), 1),
    (5, "STB", 6, 0, (1, 1, 1, 6, 10, 1), "failure"),
]


@pytest.mark.parametrize(("pool", "kind", "difficulty", "plus", "faces", "want"), CASES)
def test_bcdice_world_of_darkness_cases(pool, kind, difficulty, plus, faces, want):
    if not 2 <= difficulty <= 10:
        with pytest.raises(InvalidValue, match="difficulty"):
            count_dice(pool, difficulty, faces, rules=RULES[kind], willpower=bool(plus))
        return
    got = count_dice(pool, difficulty, faces, rules=RULES[kind], willpower=bool(plus))
    seen = got.outcome.value if got.final_successes == 0 else got.final_successes
    assert seen == want


def test_the_fixture_has_every_case():
    assert len(CASES) == 74
    assert sum(1 for c in CASES if not 2 <= c[2] <= 10) == 6  # difficulty 1 or 11: refused by design
