"""A chronicle's house rules: vocabulary, defaults, overrides, the phrases in force, the free botch."""

import pytest

from stkit.dice import RollRequest, resolve_roll
from stkit.dice.house import (
    HOUSE_KEYS,
    STANDARD_CHRONICLE_RULES,
    ChronicleRules,
    RuleOverrides,
    forgive_botch,
    parse_house_value,
    rules_from_settings,
    setting_text,
    validate_house_key,
)
from stkit.dice.model import HouseRules, Outcome, Specialty
from stkit.errors import InvalidValue


def test_defaults_are_the_rules_as_written() -> None:
    assert STANDARD_CHRONICLE_RULES.dice_rules() == HouseRules()
    assert STANDARD_CHRONICLE_RULES.difficulty == 6
    assert STANDARD_CHRONICLE_RULES.in_force() == []


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("specialty", "Double", Specialty.DOUBLE),
        ("specialty", "reroll", Specialty.REROLL),
        ("ones-cancel", "off", False),
        ("ONES_CANCEL", "on", True),
        ("difficulty", "7", 7),
        ("extended-botch", "end", "end"),
        ("free-botch", "on", True),
        ("unskilled-skill", "Dice", "dice"),
        ("rite-cost", "Taught", "taught"),
        ("extra-ones-cancel", "on", True),
        ("table-extra-dice", "0", 0),
        ("table-extra-dice", "20", 20),
    ],
)
def test_values_are_read(key: str, text: str, value: object) -> None:
    assert parse_house_value(key, text) == value
    assert parse_house_value(key, setting_text(value)) == value  # stored text reads back


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("specialty", "triple", "house rule specialty: 'triple' is not allowed; allowed: none, double or reroll"),
        ("difficulty", "11", "difficulty 11 is outside the allowed range 2 to 10"),
        ("difficulty", "six", "house rule difficulty: 'six' is not allowed; allowed: 2 to 10"),
        ("free-botch", "maybe", "house rule free-botch: 'maybe' is not allowed; allowed: on or off"),
        ("unskilled-skill", "-2", "house rule unskilled-skill: '-2' is not allowed; allowed: difficulty or dice"),
        ("rite-cost", "free", "house rule rite-cost: 'free' is not allowed; allowed: level or taught"),
        ("extended-botch", "keep", "allowed: wipe or end"),
        ("table-extra-dice", "21", "house rule table-extra-dice: '21' is not allowed; allowed: 0 to 20"),
        ("table-extra-dice", "\u0663", "allowed: 0 to 20"),
        ("table-extra-dice", "9" * 5000, "allowed: 0 to 20"),
    ],
)
def test_bad_values_name_what_is_allowed(key: str, text: str, message: str) -> None:
    with pytest.raises(InvalidValue, match=message):
        parse_house_value(key, text)


def test_unknown_key_lists_the_keys() -> None:
    with pytest.raises(InvalidValue) as err:
        validate_house_key("botch")
    assert str(err.value) == (
        "unknown house rule 'botch'; allowed: specialty, extra-ones-cancel, ones-cancel, tens, tens-cancel-ones, "
        "specialty-botch, willpower, difficulty, extended-botch, free-botch, unskilled-skill, homid-aggravated-soak, "
        "rage-cap, table-extra-dice, rite-cost, player-difficulty, mortal-overflow, frenzy-crinos, "
        "frenzy-auspice-moon, frenzy-rank"
    )
    assert set(HOUSE_KEYS) == set(STANDARD_CHRONICLE_RULES.to_dict())


def test_in_force_phrases_and_overrides() -> None:
    rules = rules_from_settings(
        {"specialty": "reroll", "extra-ones-cancel": "on", "ones-cancel": "off", "difficulty": "7"}
    )
    assert rules.in_force() == [
        "specialty reroll",
        "1s on extra dice cancel",
        "1s do not cancel successes",
        "default difficulty 7",
    ]
    assert rules.dice_rules(specialised=True) == HouseRules(Specialty.REROLL, extra_ones_cancel=True, ones_cancel=False)
    assert rules.dice_rules() == HouseRules(Specialty.REROLL, True, False, specialised=False)
    per_roll = rules.override(RuleOverrides(specialty=Specialty.NONE, ones_cancel=True))
    assert per_roll.in_force() == ["default difficulty 7"]
    assert per_roll.dice_rules() == HouseRules()  # extra 1s only exist under reroll


def test_stored_junk_is_skipped() -> None:
    assert rules_from_settings({"specialty": "triple", "colour": "red", "difficulty": "8"}) == ChronicleRules(
        difficulty=8
    )


def test_the_same_dice_score_the_same_under_the_same_house_rules() -> None:
    # 10s doubled: 10, 10, 3 at difficulty 6 -> 4 successes
    rules = rules_from_settings({"specialty": "double"}).dice_rules(specialised=True)
    result = resolve_roll(RollRequest(3, 6, rules=rules, faces=(10, 10, 3)))
    assert result.final_successes == 4


def test_forgiven_botch_is_a_failure() -> None:
    botch = resolve_roll(RollRequest(5, 9, faces=(4, 7, 5, 8, 1)))  # the botch example of Chapter Five
    assert botch.outcome is Outcome.BOTCH
    forgiven = forgive_botch(botch)
    assert (forgiven.outcome, forgiven.final_successes, forgiven.dice) == (Outcome.FAILURE, 0, (4, 7, 5, 8, 1))
    success = resolve_roll(RollRequest(2, 6, faces=(7, 2)))
    assert forgive_botch(success) is success
