"""Dice pools from short trait names: abbreviations, unique prefixes, ambiguity listing the candidates."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkit.errors import InvalidValue
from stkit.sheet import traits as T
from stkit.sheet.pools import build_pool, resolve_pool_trait
from stkit.sheet.sheet import Sheet
from stkit.text import find_by_prefix, fold_name


def _sheet() -> Sheet:
    s = Sheet(name="Shadow-in-the-Wood")
    s.set_trait("Dexterity", 3)
    s.set_trait("Brawl", 2)
    s.set_trait("Melee", 4)
    s.set_trait("Firearms", 1)
    return s


@pytest.mark.parametrize(
    ("typed", "full"),
    [
        ("dex", "Dexterity"),
        ("str", "Strength"),  # the abbreviation, though Streetwise shares the prefix
        ("per", "Perception"),  # not Performance
        ("int", "Intelligence"),  # not Intimidation
        ("sta", "Stamina"),
        ("cha", "Charisma"),
        ("man", "Manipulation"),
        ("app", "Appearance"),
        ("wit", "Wits"),
        ("mel", "Melee"),
        ("fire", "Firearms"),
        ("ath", "Athletics"),
        ("lead", "Leadership"),
        ("stealth", "Stealth"),
        ("BRAWL", "Brawl"),
        ("primal", "Primal-Urge"),
        ("wp", "Willpower"),
        ("inti", "Intimidation"),
        ("perf", "Performance"),
    ],
)
def test_short_names_resolve_to_the_full_trait(typed: str, full: str) -> None:
    assert resolve_pool_trait(_sheet(), typed)[0] == full


def test_dex_plus_brawl_without_spaces_shows_full_names() -> None:
    pool = build_pool(_sheet(), "dex+brawl")
    assert pool.dice == 5
    assert pool.text == "Dexterity 3 + Brawl 2 = 5 dice"
    assert [p.name for p in pool.parts] == ["Dexterity", "Brawl"]


def test_short_names_with_extra_dice() -> None:
    assert build_pool(_sheet(), "dex + mel + 2").text == "Dexterity 3 + Melee 4 + 2 = 9 dice"


def test_rated_to_ten_by_abbreviation_is_still_rolled_alone() -> None:
    assert resolve_pool_trait(_sheet(), "wp") == ("Willpower", True)
    with pytest.raises(InvalidValue, match="rolled alone"):
        build_pool(_sheet(), "wp + dex")


def test_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(InvalidValue) as err:
        build_pool(_sheet(), "st + brawl")
    assert str(err.value) == "trait 'st' could be Stamina, Stealth, Streetwise or Strength; type more of the name"


def test_unknown_trait_still_suggests() -> None:
    with pytest.raises(InvalidValue, match=r"unknown trait 'brwal' in the dice pool \(did you mean \"Brawl\"\?\)"):
        build_pool(_sheet(), "dex + brwal")


def test_custom_ability_prefix() -> None:
    s = _sheet()
    s.custom_abilities["Pool"] = 3
    assert resolve_pool_trait(s, "poo") == ("Pool", False)


def test_every_abbreviation_names_a_real_trait() -> None:
    real = set(T.ATTRIBUTES) | set(T.ABILITIES) | set(T.POWERS) | set(T.RENOWN)
    assert set(T.ABBREVIATIONS.values()) <= real


@given(st.sampled_from(T.ATTRIBUTES + T.ABILITIES), st.integers(min_value=0, max_value=30))
def test_a_full_name_or_its_unique_prefix_finds_itself(name: str, cut: int) -> None:
    names = list(T.ATTRIBUTES + T.ABILITIES)
    prefix = name[: max(1, len(name) - cut)]
    try:
        found = find_by_prefix(prefix, names, "trait")
    except InvalidValue as exc:
        assert name in str(exc)  # ambiguous: the trait is among the candidates
        return
    # unique: the name itself, unless the prefix is another trait's whole name
    assert found == name or (found is not None and fold_name(found) == fold_name(prefix))
    assert find_by_prefix(name, names, "trait") == name


def test_find_by_prefix_folds_case_and_accents() -> None:
    names = ["Zoë Runs-Far", "Zachary", "Shadow-in-the-Wood"]
    assert find_by_prefix("zoe", names, "character") == "Zoë Runs-Far"
    assert find_by_prefix("SHADOW in", names, "character") == "Shadow-in-the-Wood"
    assert find_by_prefix("q", names, "character") is None
    with pytest.raises(InvalidValue, match="character 'z' could be Zachary or Zoë Runs-Far"):
        find_by_prefix("z", names, "character")
