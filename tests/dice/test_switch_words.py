"""Every on/off house rule takes on/off and yes/no alike, and is shown as on/off."""

from __future__ import annotations

import pytest

from stkit.dice.house import HOUSE_KEYS, parse_house_value, setting_text

SWITCHES = [key for key, (_field, allowed) in HOUSE_KEYS.items() if allowed == "on or off"]


def test_the_switches_are_the_ones_expected():
    assert {"free-botch", "player-difficulty", "homid-aggravated-soak", "frenzy-rank"} <= set(SWITCHES)


@pytest.mark.parametrize("key", SWITCHES)
@pytest.mark.parametrize(("word", "shown"), [("on", "on"), ("yes", "on"), ("OFF", "off"), ("no", "off")])
def test_each_switch_takes_both_words(key, word, shown):
    assert setting_text(parse_house_value(key, word)) == shown
