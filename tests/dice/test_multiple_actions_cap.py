"""At most 100 actions may be declared in one turn, for the roll and its odds alike."""

from __future__ import annotations

import pytest

from stkit.dice.actions import MAX_MULTIPLE_ACTIONS, multiple_action_penalties
from stkit.errors import InvalidValue
from tests.clirun import one_error, run


def test_the_ladder_stops_at_the_cap():
    assert MAX_MULTIPLE_ACTIONS == 100
    assert multiple_action_penalties(100)[-1] == 199  # N + (N - 1)
    with pytest.raises(InvalidValue, match="101 actions declared in one turn; allowed: at most 100"):
        multiple_action_penalties(101)


@pytest.mark.parametrize("command", [["multi"], ["odds", "multi"]])
def test_more_actions_than_the_cap_are_refused_in_one_line(command):
    one_error(run(*command, *(["5"] * 101)), "101 actions declared in one turn; allowed: at most 100")
