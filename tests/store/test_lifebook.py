"""The character rules by the numbers (stkit.sheet.lifebook): creation checked against the data file's
tables, the cheapest freebie reading against a brute-force search, every kind of experience purchase with
its arithmetic, Renown rolling over into Rank."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet import lifebook as L
from stkit.sheet import traits as T
from stkit.sheet.sheet import Sheet


def garou(**extra) -> Sheet:
    """A legal Homid Ahroun Get of Fenris: 7/5/3 Attributes, 13/9/5 Abilities, 5 Backgrounds, 3 Gifts."""
    data = {
        "name": "Sees-Far",
        "breed": "Homid",
        "auspice": "Ahroun",
        "tribe": "Get of Fenris",
        "rank": 1,
        "attributes": {
            "Strength": 4,
            "Dexterity": 3,
            "Stamina": 3,
            "Charisma": 3,
            "Manipulation": 3,
            "Appearance": 2,
            "Perception": 2,
            "Intelligence": 2,
            "Wits": 2,
        },
        "abilities": {
            "Brawl": 3,
            "Dodge": 3,
            "Alertness": 3,
            "Athletics": 3,
            "Intimidation": 1,
            "Melee": 3,
            "Firearms": 2,
            "Drive": 2,
            "Survival": 2,
            "Occult": 2,
            "Rituals": 2,
            "Medicine": 1,
        },
        "backgrounds": {"Resources": 2, "Kinfolk": 3},
        "gifts": [
            {"name": "Razor Claws", "level": 1},
            {"name": "Smell of Man", "level": 1},
            {"name": "Resist Pain", "level": 1},
        ],
        "renown": {"Glory": {"permanent": 2, "temporary": 0}, "Honor": {"permanent": 1, "temporary": 0}},
        "rage": 5,
        "gnosis": 1,
        "willpower": 3,
    }
    data.update(extra)
    return Sheet.from_dict(data)


# ----- the data file --------------------------------------------------------------------------------------
def test_every_table_names_its_source():
    r = L.rules()
    for kind, book in r["creation"].items():
        assert "(" in book["source"] and "." in book["source"], kind
    text = L.__file__.rsplit("/", 1)[0] + "/data/character_rules.yaml"
    raw = Path(text).read_text(encoding="utf-8")
    for table in ("auspices:", "breeds:", "tribes:", "experience:", "renown_rollover:", "ranks:"):
        before = raw[: raw.index("\n" + table)]
        assert before.rsplit("\n\n", 1)[-1].lstrip().startswith("#"), table  # a comment block right above


def test_starting_values_from_the_tables():
    assert L.rules()["auspices"]["Ahroun"]["rage"] == 5
    assert L.rules()["breeds"]["Lupus"]["gnosis"] == 5
    assert L.tribe_willpower("Black Fury") == 3
    assert L.tribe_willpower("bone gnawer") == 4
    assert L.tribe_willpower("Children of Gaia") == 4
    assert L.tribe_willpower("Wendigo") == 4
    assert L.tribe_willpower("Hakken") is None


# ----- creation ---------------------------------------------------------------------------------------------
def test_a_legal_sheet_passes_with_no_freebies_spent():
    check = L.check_creation(garou())
    assert check.passed and check.deviations == []
    assert (check.spent, check.available) == (0, 15)
    assert check.priorities["attributes"] == {"Physical": "primary", "Social": "secondary", "Mental": "tertiary"}


def test_over_spent_groups_take_the_cheapest_priorities():
    """Social 2+2+1 = 5 dots above the free ones, Physical 7, Mental 3: the reading makes Physical primary.
    Talents 15 (two over 13): 2 dots x 2 = 4 points; Brawl 4 above the cap: 1 dot x 2 = 2 points."""
    s = garou()
    s.abilities["Empathy"] = 2
    s.abilities["Brawl"] = 4
    check = L.check_creation(s)
    assert check.passed
    spends = {sp.what: (sp.dots, sp.points) for sp in check.spends}
    assert spends == {"Abilities": (2, 4), "Abilities above 3": (1, 2)}
    assert "15 dots in Talents (primary), 13 allowed" in next(
        sp.detail for sp in check.spends if sp.what == "Abilities"
    )


def test_every_deviation_is_named_with_its_rule():
    s = garou(rank=2, rage=3, gnosis=0)
    s.gifts.append({"name": "Sense Wyrm", "level": 2})
    s.attributes["Strength"] = 5  # 8 Physical dots: 5 freebies
    s.attributes["Wits"] = 5  # Mental 6: 3 over = 15 freebies
    check = L.check_creation(s)
    rules = [d.rule for d in check.deviations]
    assert rules == ["Gifts", "Rage", "Gnosis", "Rank", "Freebie points"]
    messages = {d.rule: d.message for d in check.deviations}
    assert messages["Rage"] == "Rage 3: the auspice Ahroun starts with 5"
    assert messages["Gnosis"] == "Gnosis 0: the breed Homid starts with 1"
    assert messages["Freebie points"] == "20 freebie points needed, 15 available (15); 5 over"


def test_flaws_give_back_at_most_seven():
    s = garou(willpower=9, flaws=[{"name": "Nightmares", "points": 5}, {"name": "Amnesia", "points": 4}])
    # the Get of Fenris start with Willpower 3 (W20): 6 more are 6 freebie points, of 15 + 7 from Flaws
    check = L.check_creation(s)
    assert (check.spent, check.available, check.passed) == (6, 22, True)
    assert not any(line.startswith("Willpower") for line in check.not_checked)
    assert "Flaws: 9 points taken, only 7 give freebie points back" in check.notes


# Every tribe's starting Willpower and where it comes from (character_rules.yaml): the W20 tribes as the
# French edition gives them (github ZigmundKreud/wod-wta, data/json/fr/tribes.json), the Black Furies also
# at City of Angels, "Tribes".
TRIBE_WILLPOWER = {
    "Black Furies": 3,
    "Bone Gnawers": 4,
    "Children of Gaia": 4,
    "Fianna": 3,
    "Get of Fenris": 3,
    "Glass Walkers": 3,
    "Red Talons": 3,
    "Shadow Lords": 3,
    "Silent Striders": 3,
    "Silver Fangs": 3,
    "Stargazers": 4,
    "Uktena": 3,
    "Wendigo": 4,
}


@pytest.mark.parametrize(("tribe", "willpower"), TRIBE_WILLPOWER.items())
def test_every_tribes_starting_willpower_is_judged(tribe, willpower):
    low = L.check_creation(garou(tribe=tribe, willpower=willpower - 1))
    assert f"Willpower {willpower - 1}: the tribe {tribe} starts with {willpower}" in [
        d.message for d in low.deviations
    ]
    right = L.check_creation(garou(tribe=tribe, willpower=willpower))
    assert not any(line.startswith("Willpower") for line in right.not_checked)
    assert "Willpower" not in [d.rule for d in right.deviations]
    assert set(L.rules()["tribes_sourced"]) == set(TRIBE_WILLPOWER)


def test_a_tribe_outside_the_table_is_not_judged():
    check = L.check_creation(garou(tribe="Croatan", willpower=2))
    assert any(line.startswith("Willpower: the tribe 'Croatan' is not in the table") for line in check.not_checked)


@pytest.mark.parametrize(
    ("tribe", "backgrounds", "message"),
    [
        ("Bone Gnawers", {"Pure Breed": 3}, "Pure Breed 3: the Bone Gnawers may not take Pure Breed at creation"),
        ("Bone Gnawer", {"Resources": 4}, "Resources 4: the Bone Gnawer start with at most 3"),
        ("Silver Fangs", {"Resources": 2}, "Pure Breed 0: the Silver Fangs start with at least 1"),
        ("Glass Walkers", {"Mentor": 1}, "Mentor 1: the Glass Walkers may not take Mentor at creation"),
    ],
)
def test_tribe_background_limits(tribe, backgrounds, message):
    s = garou(tribe=tribe, backgrounds=backgrounds)
    assert message in [d.message for d in L.check_creation(s).deviations]


def test_ragabash_renown_in_any_combination():
    ok = garou(auspice="Ragabash", rage=1, renown={"Wisdom": {"permanent": 3, "temporary": 0}})
    assert L.check_creation(ok).passed
    bad = garou(auspice="Ragabash", rage=1, renown={"Wisdom": {"permanent": 2}})
    assert [d.message for d in L.check_creation(bad).deviations] == [
        "2 permanent Renown in all; a new Ragabash starts with 3 in any combination"
    ]


def test_kinfolk_and_mortals_by_their_own_rules():
    kin = Sheet.from_dict(
        {
            "name": "Old Tom",
            "creature": "kinfolk",
            "attributes": {
                "Strength": 3,
                "Dexterity": 3,
                "Stamina": 2,
                "Charisma": 3,
                "Manipulation": 2,
                "Perception": 2,
                "Intelligence": 2,
                "Wits": 2,
            },
            "abilities": {
                "Alertness": 3,
                "Brawl": 3,
                "Empathy": 3,
                "Athletics": 2,
                "Drive": 3,
                "Crafts": 3,
                "Stealth": 1,
                "Occult": 2,
                "Medicine": 2,
            },
        }
    )
    check = L.check_creation(kin)
    assert check.kind == "kinfolk" and check.passed and check.available == 21
    kin.gifts.append({"name": "Mother's Touch", "level": 1})
    assert [d.message for d in L.check_creation(kin).deviations] == ["1 Gift: Kinfolk start with none"]
    mortal = Sheet.from_dict({"name": "Ann", "creature": "mortal", "willpower": 7})
    m = L.check_creation(mortal)
    assert m.passed and any(n.startswith("Willpower: a mortal's comes from Courage") for n in m.not_checked)


def test_ratkin_numbers_and_other_fera_not_checked():
    rat = Sheet.from_dict(
        {
            "name": "Skitter",
            "fera": "Ratkin",
            "breed": "Rodens",
            "auspice": "Knife Skulker",
            "rank": 1,
            "rage": 3,
            "gnosis": 5,
            "willpower": 3,
            "renown": {"Glory": {"permanent": 1}, "Wisdom": {"permanent": 2}},
        }
    )
    assert L.check_creation(rat).passed
    rat.powers["Gnosis"].permanent = 4
    assert [d.message for d in L.check_creation(rat).deviations] == ["Gnosis 4: the breed Rodens starts with 5"]
    cat = Sheet.from_dict({"name": "Purr", "fera": "Bastet", "breed": "Feline"})
    c = L.check_creation(cat)
    assert c.kind is None and c.passed and len(c.not_checked) == 10
    assert c.not_checked[0] == "Attributes: no public source gives the Bastet's creation numbers"


# ----- the cheapest reading against a brute-force search --------------------------------------------------
def brute_force_points(sheet: Sheet) -> int:
    """The fewest freebie points for the Attributes and Abilities of ``sheet``: every order of the
    priorities, every dot marked free or bought, free dots within their group's allotment and never an
    Ability dot above 3 (exponential: small sheets only)."""

    def cheapest(groups: list[list[int]], allot: list[int], cap: int | None, per: int, flexible: list[int]) -> int:
        dots = []  # (group index or None for flexible, forced paid)
        for gi, values in enumerate(groups):
            for v in values:
                for d in range(v):
                    dots.append((gi, cap is not None and d >= cap))
        for v in flexible:
            for d in range(v):
                dots.append((None, cap is not None and d >= cap))
        best = None
        for order in permutations(allot):
            for mask in range(1 << len(dots)):
                used = [0, 0, 0]
                paid, ok = 0, True
                flex_free = []
                for i, (gi, forced) in enumerate(dots):
                    free = not (mask >> i) & 1
                    if free and forced:
                        ok = False
                        break
                    if not free:
                        paid += 1
                    elif gi is None:
                        flex_free.append(i)
                    else:
                        used[gi] += 1
                if not ok or any(used[g] > order[g] for g in range(3)):
                    continue
                # free flexible dots go where there is room left
                if len(flex_free) > sum(order[g] - used[g] for g in range(3)):
                    continue
                best = paid if best is None else min(best, paid)
        return int(best) * per

    attrs = [[sheet.attributes[a] - 1 for a in g] for g in T.ATTRIBUTE_GROUPS.values()]
    abil = [
        [sheet.abilities.get(a, 0) for a in g if sheet.abilities.get(a, 0)] for g in (T.TALENTS, T.SKILLS, T.KNOWLEDGES)
    ]
    flex = list(sheet.custom_abilities.values())
    return cheapest(attrs, [3, 2, 1], None, 5, []) + cheapest(abil, [3, 2, 1], 3, 2, flex)


@st.composite
def small_sheets(draw):
    s = Sheet(name="Small")
    for a in T.ATTRIBUTES:
        s.attributes[a] = 1
    for a in draw(st.lists(st.sampled_from(T.ATTRIBUTES), max_size=3, unique=True)):
        s.attributes[a] = draw(st.integers(1, 3))
    for a in draw(st.lists(st.sampled_from(("Brawl", "Dodge", "Drive", "Melee", "Occult")), max_size=3, unique=True)):
        s.abilities[a] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        s.custom_abilities["Repair Bikes"] = draw(st.integers(1, 2))
    return s


@settings(max_examples=60, deadline=None)
@given(sheet=small_sheets())
def test_the_reading_agrees_with_a_brute_force_search(sheet, monkeypatch_rules):
    """With allotments shrunk to 3/2/1 (so sheets stay small enough to search), the freebie points the
    check spends on Attributes and Abilities equal the brute-force minimum."""
    check = L.check_creation(sheet)
    points = sum(sp.points for sp in check.spends if sp.what.startswith(("Attributes", "Abilities")))
    assert points == brute_force_points(sheet)


@pytest.fixture(scope="module")
def monkeypatch_rules():
    mp = pytest.MonkeyPatch()
    small = dict(L.rules())
    small["creation"] = dict(small["creation"])
    small["creation"]["garou"] = dict(small["creation"]["garou"], attributes=[3, 2, 1], abilities=[3, 2, 1])
    mp.setattr(L, "rules", lambda: small)
    yield
    mp.undo()


@given(st.lists(st.integers(0, 9), min_size=3, max_size=3), st.integers(0, 6))
def test_group_excess_is_the_brute_force_minimum(dots, flexible):
    assert L.group_excess(dots, [7, 5, 3], flexible)[0] == L.brute_force_excess(dots, [7, 5, 3], flexible)


# ----- experience: every kind of purchase -----------------------------------------------------------------
def test_raise_attribute():
    """Strength 4 -> 5: current rating 4 x 4 = 16."""
    p = L.price(garou(), "Strength")
    assert (p.old, p.new, p.cost, p.steps) == (4, 5, 16, ("4x4",))


def test_raise_attribute_two_dots():
    """Wits 2 -> 4: 2x4 + 3x4 = 8 + 12 = 20."""
    assert L.price(garou(), "wits", 4).cost == 20


def test_raise_ability():
    """Occult 2 -> 3: current rating 2 x 2 = 4."""
    assert L.price(garou(), "Occult").cost == 4


def test_new_ability():
    """Linguistics 0 -> 2: a new Ability 3, then 1x2 = 2: 5 in all."""
    p = L.price(garou(), "Linguistics", 2)
    assert (p.cost, p.steps) == (5, ("new 3", "1x2"))


def test_custom_ability():
    """A custom Ability prices like any Ability: Repair Bikes 1 -> 2 is 1x2 = 2."""
    s = garou(custom_abilities={"Repair Bikes": 1})
    p = L.price(s, "ability:Repair Bikes", 2)
    assert (p.kind, p.cost) == ("custom_ability", 2)


def test_gift_of_breed_auspice_tribe():
    """A level-one Gift of the character's own lists (Falling Touch: Ahroun 1): level 1 x 3 = 3."""
    assert L.price(garou(), "gift:Falling Touch").cost == 3
    # the lists give the level: Sense Silver is Ahroun level 2, 2 x 3 = 6 at Rank 2
    p = L.price(garou(rank=2), "gift:Sense Silver")
    assert (p.new, p.cost) == (2, 6)


def test_a_gift_of_other_lists_needs_the_storytellers_leave():
    """Sense Wyrm is a Metis, Theurge (and other tribes') Gift: refused for a Homid Ahroun Get of Fenris,
    priced from outside (level 1 x 5 = 5) when the Storyteller allows it."""
    with pytest.raises(RuleRefusal, match="Sense Wyrm is a Gift of Metis, Theurge"):
        L.price(garou(), "gift:Sense Wyrm")
    assert L.price(garou(), "gift:Sense Wyrm", outside=True).cost == 5
    # an in-list Gift is in-list even when --outside is given
    assert L.price(garou(), "gift:Falling Touch", outside=True).cost == 3


def test_gift_standing_by_the_lists():
    assert L.gift_standing(garou(), "visage of fenris") == ("in", ["Get of Fenris level 1"])
    assert L.gift_standing(garou(), "Blur of the Milky Eye") == ("outside", ["Ragabash"])
    # Airt Perception is a Book of Auspices Gift: no section of the lists has it
    assert L.gift_standing(garou(), "Airt Perception") == ("unknown", [])
    talon = garou(tribe="Red Talon")  # the tribe written in the singular still finds its list
    assert L.gift_standing(talon, "Scent of Running Water")[0] == "in"


def test_the_w20_lists_fill_in_what_the_revised_ones_lack():
    # W20 core entries of the same summary (gift_lists.yaml, w20_lists): Razor Claws is an Ahroun and Get of
    # Fenris level-one Gift there, Call of the Wyld a Galliard one
    assert L.gift_standing(garou(), "Razor Claws") == ("in", ["Ahroun level 1", "Get of Fenris level 1"])
    assert L.gift_standing(garou(), "Call of the Wyld") == ("outside", ["Galliard"])
    # a Revised entry keeps its level where W20 repeats the Gift
    assert L.gift_lists()["Homid"]["Persuasion"] == 1
    lists = L.gift_lists()
    assert sum(len(v) for v in lists.values()) == 615 and len({g for v in lists.values() for g in v}) == 498


def test_the_w20_core_lists_fill_theurge_and_the_thin_tribes():
    """The second public source (w20_core_lists) gives the Theurge list whole and the thin tribes their Gifts;
    where it gives another level than an earlier section the earlier one stands (Lupus Name the Spirit: 3)."""
    lists = L.gift_lists()
    theurge = lists["Theurge"]
    assert (theurge["Mother's Touch"], theurge["Spirit Speech"], theurge["Command Spirit"]) == (1, 1, 2)
    assert (theurge["Exorcism"], theurge["Spirit Drain"], theurge["Feral Lobotomy"]) == (3, 4, 5)
    assert lists["Lupus"]["Name the Spirit"] == 3 and lists["Galliard"]["Fabric of the Mind"] == 5
    # the source's misspellings are read as the book names, never kept beside them
    assert "Grasp the Beyond" in theurge and "Grasp of Beyond" not in theurge
    assert "Fetish Doll" in lists["Uktena"]
    assert len(lists["Theurge"]) == 23 and len(lists["Wendigo"]) == 21 and len(lists["Silver Fangs"]) == 22


def test_the_revised_supplements_come_before_the_w20_lists():
    """The first summary's Revised tribebook entries (revised_supplement_lists): Kitchen Chemistry is a level 1
    Bone Gnawer Gift (Tribebook: Bone Gnawers (Revised)), 1x3 = 3 for a Bone Gnawer, outside for the Get of
    Fenris; Fair Fortune is Fianna level 2 there and 3 in the W20 core lists: the Revised level stands."""
    gnawer = garou(tribe="Bone Gnawers")
    assert L.price(gnawer, "gift:Kitchen Chemistry").cost == 3
    assert L.gift_standing(garou(), "Kitchen Chemistry") == ("outside", ["Bone Gnawers"])
    assert L.gift_lists()["Fianna"]["Fair Fortune"] == 2
    # a camp's Gift is left out: Storm of Mother's Wrath is the Black Furies' Bacchantes' Gift in the summary
    assert "Storm of Mother's Wrath" not in L.gift_lists()["Black Furies"]


def test_newly_listed_gifts_priced_by_hand():
    """Hand-worked prices from the experience table (in-list level x3, outside level x5):
    a Homid Theurge Uktena: Mother's Touch (Theurge 1) 1x3 = 3; at Rank 4, Spirit Drain (Theurge 4) 4x3 = 12
    and Call Elemental (Uktena 4) 4x3 = 12. The Homid Ahroun Get of Fenris: Troll Skin (Get of Fenris 2) at
    Rank 2 2x3 = 6; Spirit Speech (Theurge, Uktena 1) refused without --outside, 1x5 = 5 with it."""
    theurge = garou(auspice="Theurge", tribe="Uktena")
    assert L.price(theurge, "gift:Mother's Touch").cost == 3
    assert L.price(garou(auspice="Theurge", tribe="Uktena", rank=4), "gift:Spirit Drain").cost == 12
    assert L.price(garou(auspice="Theurge", tribe="Uktena", rank=4), "gift:Call Elemental").cost == 12
    assert L.price(garou(rank=2), "gift:Troll Skin").cost == 6
    with pytest.raises(RuleRefusal, match="Spirit Speech is a Gift of Theurge, Uktena, not of Sees-Far's"):
        L.price(garou(), "gift:Spirit Speech")
    assert L.price(garou(), "gift:Spirit Speech", outside=True).cost == 5
    # a listed Gift above the character's Rank is refused at its list level
    with pytest.raises(RuleRefusal, match="Spirit Drain is a level 4 Gift and Sees-Far is Rank 1"):
        L.price(theurge, "gift:Spirit Drain")


def test_creation_check_judges_starting_gifts_by_the_lists():
    s = garou()
    s.gifts = [
        {"name": "Falling Touch", "level": 1},
        {"name": "Blur of the Milky Eye", "level": 1},
        {"name": "Airt Perception", "level": 1},
    ]
    result = L.check_creation(s)
    assert any("Blur of the Milky Eye is a Gift of Ragabash" in d.message for d in result.deviations)
    assert not any("Falling Touch" in d.message for d in result.deviations)
    assert any("Airt Perception: not in stkit's Gift lists" in line for line in result.not_checked)


def test_gift_from_outside():
    """A level-one Gift from outside breed, auspice and tribe: level 1 x 5 = 5; level 2 at Rank 2: 2x5 = 10."""
    assert L.price(garou(), "gift:Mother's Touch", outside=True).cost == 5
    assert L.price(garou(rank=2), "gift:Spirit Speech", 2, outside=True).cost == 10


def test_gift_above_rank_refused():
    with pytest.raises(RuleRefusal, match="level 2 Gift and Sees-Far is Rank 1: no Gift above the character's Rank"):
        L.price(garou(), "gift:Sense Silver", 2)
    with pytest.raises(RuleRefusal, match="already knows the gift Razor Claws"):
        L.price(garou(), "gift:razor claws")


def test_rite():
    """A level-two Rite: level 2 x 1 = 2; under the house rule rite-cost taught: 0."""
    assert L.price(garou(), "rite:Rite of Cleansing", 2).cost == 2
    assert L.price(garou(), "rite:Rite of Cleansing", 2, rite_cost="taught").cost == 0


def test_rage():
    """Rage 5 -> 6: current rating 5 x 1 = 5."""
    assert L.price(garou(), "Rage").cost == 5


def test_gnosis():
    """Gnosis 1 -> 3: 1x2 + 2x2 = 2 + 4 = 6."""
    p = L.price(garou(), "Gnosis", 3)
    assert (p.cost, p.steps) == (6, ("1x2", "2x2"))


def test_willpower():
    """Willpower 3 -> 4: current rating 3 x 1 = 3."""
    assert L.price(garou(), "Willpower").cost == 3


def test_what_experience_cannot_buy():
    s = garou()
    with pytest.raises(RuleRefusal, match="Backgrounds are not bought with experience"):
        L.price(s, "background:Resources")
    with pytest.raises(RuleRefusal, match="Renown is earned by deeds"):
        L.price(s, "Glory")
    with pytest.raises(RuleRefusal, match="Brawl is already 3"):
        L.price(s, "Brawl", 2)
    with pytest.raises(InvalidValue, match="Strength 6 is outside the allowed range 0 to 5"):
        L.price(s, "Strength", 6)
    with pytest.raises(InvalidValue, match="unknown trait"):
        L.price(s, "Brwal")


def test_purchase_and_revert_round_trip():
    s = garou()
    for trait, to in (("Brawl", 4), ("gift:Falling Touch", 1), ("Linguistics", 1), ("Gnosis", 2)):
        p = L.price(s, trait, to)
        L.apply_purchase(s, p)
        back = garou()
        L.apply_purchase(back, p)
        L.revert_purchase(back, p.to_dict())
        assert back == garou(), trait
    with pytest.raises(RuleRefusal, match="Brawl is 2 now, not the 4 the spend bought"):
        s.abilities["Brawl"] = 2
        L.revert_purchase(s, {"kind": "ability", "name": "Brawl", "from": 3, "to": 4})


# ----- Renown and Rank --------------------------------------------------------------------------------------
def test_ten_temporary_become_one_permanent_and_rank_follows():
    s = garou()  # Ahroun, Glory 2 Honor 1: Rank 2 needs Glory 4, Honor 1, Wisdom 1
    assert L.next_rank(s)["text"] == "Glory 4 (has 2), Honor 1 (has 1), Wisdom 1 (has 0)"
    a = L.award_renown(s, "glory", 7)
    assert (a.after, a.gained, s.rank) == ((2, 7), 0, 1)
    a = L.award_renown(s, "Glory", 8)  # 15 temporary: one dot, 5 left
    assert (a.after, a.gained) == ((3, 5), 1)
    L.award_renown(s, "Glory", 5)
    L.award_renown(s, "Wisdom", 10)
    assert (s.renown["Glory"].permanent, s.renown["Wisdom"].permanent, s.rank) == (4, 1, 2)
    assert L.rank_name(2) == "Fostern"
    assert L.next_rank(s)["text"] == "Glory 6 (has 4), Honor 3 (has 1), Wisdom 1 (has 1)"
    loss = L.award_renown(s, "Honor", -3)
    assert loss.after == (1, 0)  # temporary never below 0, permanent kept, Rank kept
    assert s.rank == 2


def test_ragabash_any_combination_and_bad_awards():
    s = garou(auspice="Ragabash", renown={"Wisdom": {"permanent": 3, "temporary": 0}})
    assert L.next_rank(s)["needs"] == {"any": 7}
    for r in ("Glory", "Honor", "Wisdom", "Glory"):
        L.award_renown(s, r, 10)
    assert s.rank == 2
    with pytest.raises(InvalidValue, match="allowed -10 to 10, not 0"):
        L.award_renown(s, "Glory", 0)
    with pytest.raises(InvalidValue, match="unknown Renown 'Glroy'"):
        L.award_renown(s, "Glroy", 1)
    assert L.rank_table(Sheet.from_dict({"name": "K", "creature": "kinfolk"})) is None
