"""The sheet, trait names, forms and pool building (pure Python, no database)."""

from __future__ import annotations

import pytest

from stkit.errors import DataFileError, InvalidValue, RuleRefusal
from stkit.sheet.forms import FORMS, apply_form, lookup_form
from stkit.sheet.pools import build_pool
from stkit.sheet.sheet import Sheet
from stkit.sheet.traits import name_key, norm, resolve_settable


def sheet(name: str = "Test", **traits) -> Sheet:
    s = Sheet(name=name)
    for k, v in traits.items():
        s.set_trait(k.replace("_", " "), v)
    return s


# ----- worked examples of Chapter Five: Rules --------------------------------------------------------------
def test_archibald_dexterity_drive_is_five_dice():
    pool = build_pool(sheet("Archibald", Dexterity=3, Drive=2), "Dexterity + Drive")
    assert pool.dice == 5
    assert pool.text == "Dexterity 3 + Drive 2 = 5 dice"


def test_paper_clip_pools():
    s = sheet("Paper Clip", Intelligence=3, Repair=2, Dexterity=3, Firearms=1)
    assert build_pool(s, "Intelligence + Repair").dice == 5
    assert build_pool(s, "Dexterity + Firearms").dice == 4


def test_shadow_in_the_wood_pools():
    s = sheet("Shadow-in-the-Wood", Dexterity=3, Brawl=4, Dodge=3)
    assert build_pool(s, "Dexterity + Brawl").dice == 7
    assert build_pool(s, "Dexterity + Dodge").dice == 6


def test_resisted_plea_pools():
    assert build_pool(sheet("Ears", Charisma=4, Leadership=2), "Charisma + Leadership").dice == 6
    assert build_pool(sheet("Red", Charisma=3, Leadership=4), "Charisma + Leadership").dice == 7


def test_attribute_alone_and_extra_dice():
    s = sheet("Archibald", Strength=2, Dexterity=3, Drive=2)
    assert build_pool(s, "Strength").dice == 2
    p = build_pool(s, "Dexterity + Drive + 2 - 1")
    assert (p.dice, p.extra) == (6, (2, -1))
    assert p.text == "Dexterity 3 + Drive 2 + 2 - 1 = 6 dice"


# ----- pool rules -------------------------------------------------------------------------------------------
def test_at_most_two_traits():
    with pytest.raises(InvalidValue, match="at most two Traits"):
        build_pool(sheet(Dexterity=3), "Dexterity + Brawl + Dodge")


def test_trait_rated_to_ten_is_rolled_alone():
    s = sheet(Willpower=6)
    assert build_pool(s, "Willpower").dice == 6
    with pytest.raises(InvalidValue, match="rolled alone"):
        build_pool(s, "Willpower + Brawl")
    with pytest.raises(InvalidValue, match="rolled alone"):
        build_pool(s, "Dexterity + Rage")


def test_wound_penalty_shown_and_applied():
    s = sheet(Dexterity=3, Drive=2)
    s.damage(2, "bashing")  # Hurt: -1
    p = build_pool(s, "Dexterity + Drive")
    assert p.text == "Dexterity 3 + Drive 2 - 1 wound = 4 dice"
    s.damage(3, "lethal")  # 5 levels: Mauled -2
    assert build_pool(s, "Dexterity + Drive").dice == 3
    s.damage(1, "lethal")  # Crippled -5 -> no dice
    with pytest.raises(RuleRefusal, match="cannot be attempted"):
        build_pool(s, "Dexterity + Drive")


def test_incapacitated_cannot_act():
    s = sheet(Dexterity=5, Brawl=5)
    s.damage(7, "lethal")
    assert s.incapacitated and s.health_level == "Incapacitated"
    with pytest.raises(RuleRefusal, match="Incapacitated"):
        build_pool(s, "Dexterity + Brawl")


def test_form_changes_attributes_in_pools():
    s = sheet(Strength=2, Dexterity=3, Brawl=4, Appearance=3, Manipulation=2)
    s.shift("crinos")
    p = build_pool(s, "Dexterity + Brawl")
    assert p.dice == 8
    assert p.text == "Dexterity 4 (3 +1 Crinos) + Brawl 4 = 8 dice"
    assert build_pool(s, "Strength").dice == 6
    with pytest.raises(RuleRefusal):  # Appearance becomes 0 in Crinos; Manipulation 2-3 -> 0
        build_pool(s, "Appearance")
    with pytest.raises(RuleRefusal):
        build_pool(s, "Manipulation")
    assert build_pool(s, "Appearance + 2").dice == 2


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("Homid", {"Strength": 2, "Dexterity": 2, "Stamina": 2, "Manipulation": 3, "Appearance": 3}),
        ("Glabro", {"Strength": 4, "Dexterity": 2, "Stamina": 4, "Manipulation": 1, "Appearance": 2}),
        ("Crinos", {"Strength": 6, "Dexterity": 3, "Stamina": 5, "Manipulation": 0, "Appearance": 0}),
        ("Hispo", {"Strength": 5, "Dexterity": 4, "Stamina": 5, "Manipulation": 0, "Appearance": 3}),
        ("Lupus", {"Strength": 3, "Dexterity": 4, "Stamina": 4, "Manipulation": 0, "Appearance": 3}),
    ],
)
def test_form_table(form, expected):
    base = {"Strength": 2, "Dexterity": 2, "Stamina": 2, "Manipulation": 3, "Appearance": 3}
    assert {a: apply_form(form, a, v) for a, v in base.items()} == expected


def test_forms_are_one_table_of_five():
    assert list(FORMS) == ["Homid", "Glabro", "Crinos", "Hispo", "Lupus"]
    assert lookup_form(" CRINOS ") == "Crinos"
    with pytest.raises(InvalidValue, match='did you mean "Crinos"'):
        lookup_form("crinoss")


# ----- names ----------------------------------------------------------------------------------------------
def test_trait_names_are_forgiving():
    assert norm("Primal-Urge") == norm("primal urge") == norm("PRIMAL_URGE")
    assert resolve_settable("animal ken").name == "Animal Ken"
    assert resolve_settable("primalurge").name == "Primal-Urge"
    assert resolve_settable("Willpower points").kind == "power_points"
    assert resolve_settable("temporary glory").kind == "renown_temporary"


def test_unknown_trait_suggests():
    with pytest.raises(InvalidValue, match='did you mean "Dexterity"'):
        resolve_settable("Dexteritty")
    with pytest.raises(InvalidValue, match='did you mean "Brawl"'):
        build_pool(sheet(), "Dexterity + Brawwl")


def test_character_name_key():
    assert name_key("Shadow-in-the-Wood") == name_key("shadow in the  wood") == "shadow in the wood"


# ----- ranges and points ----------------------------------------------------------------------------------
def test_ratings_checked():
    s = sheet()
    with pytest.raises(InvalidValue, match="0 to 5"):
        s.set_trait("Dexterity", 6)
    with pytest.raises(InvalidValue, match="0 to 10"):
        s.set_trait("Willpower", 11)
    s.set_trait("Appearance", 0)  # a deformity
    assert s.attributes["Appearance"] == 0


def test_willpower_and_gnosis_points_bounded_rage_may_exceed():
    s = sheet(Willpower=4, Rage=2)
    assert s.powers["Willpower"].temporary == 3  # stkit default points stay until regained
    s.regain("willpower", 5)
    assert s.powers["Willpower"].temporary == 4  # stops at the rating
    with pytest.raises(InvalidValue, match="0 to 4"):
        s.set_trait("Willpower points", 5)
    track, warnings = s.regain("rage", 3)
    assert track.temporary == 4 and "exceed" in warnings[0]
    s.spend("willpower", 4)
    with pytest.raises(RuleRefusal, match="no Willpower points left"):
        s.spend("willpower")
    assert s.powers["Willpower"].temporary == 0


def test_health_worst_first_and_penalties():
    s = sheet()
    s.damage(1, "bashing")
    s.damage(1, "aggravated")
    s.damage(1, "lethal")
    assert s.health_boxes()[:4] == ["aggravated", "lethal", "bashing", ""]
    assert s.wound_penalty == 1  # Injured
    s.damage(3, "bashing")  # 6 levels: Crippled
    assert s.wound_penalty == 5
    s.damage(2, "lethal")  # over seven: lethal pushes out bashing
    assert s.health == {"aggravated": 1, "lethal": 3, "bashing": 3}
    assert s.incapacitated
    assert s.heal(2) == 2 and s.health["bashing"] == 1
    assert s.heal(1, "aggravated") == 1 and s.health["aggravated"] == 0


def test_experience():
    s = sheet()
    s.xp("award", 5, "session 1")
    s.xp("spend", 3, "Brawl 2")
    assert (s.xp_total, s.xp_spent, s.xp_available) == (5, 3, 2)
    with pytest.raises(RuleRefusal, match="2 experience"):
        s.xp("spend", 3)
    assert [e["kind"] for e in s.xp_log] == ["award", "spend"]


def test_round_trip_dict():
    s = sheet("Round", Dexterity=4, Brawl=3)
    s.set_trait("gift:Razor Claws", 1)
    s.set_trait("background:Resources", 2)
    s.set_trait("ability:Repair Bikes", 2)
    s.set_trait("st notes", "secret")
    s.damage(2, "lethal")
    s.xp("award", 4, "first night")
    assert Sheet.from_dict(s.to_dict()) == s
    assert "storyteller_notes" not in s.to_dict(player_view=True)


def test_from_dict_errors_name_field_and_range():
    with pytest.raises(DataFileError, match=r"x.yaml: attributes.Dexterity: 7 is outside the allowed range 0 to 5"):
        Sheet.from_dict({"name": "A", "attributes": {"Dexterity": 7}}, source="x.yaml")
    with pytest.raises(DataFileError, match=r"abilities.Brwal: unknown Ability \(did you mean \"Brawl\"\?\)"):
        Sheet.from_dict({"name": "A", "abilities": {"Brwal": 2}}, source="x.yaml")
    with pytest.raises(DataFileError, match=r"willpower.temporary: 6 is outside the allowed range 0 to 5"):
        Sheet.from_dict({"name": "A", "willpower": {"permanent": 5, "temporary": 6}}, source="x.yaml")
    with pytest.raises(DataFileError, match="unknown field"):
        Sheet.from_dict({"name": "A", "strenght": 3}, source="x.yaml")


# ----- regressions from the new-user trial -------------------------------------------------------------------
def test_rating_set_at_creation_comes_with_full_points():
    s = Sheet(name="Runs-Through-Rain")
    assert s.set_new_traits([("Willpower", "5"), ("rage", "4"), ("Gnosis", "2"), ("Dexterity", "4")]) == []
    assert {p: (t.permanent, t.temporary) for p, t in s.powers.items()} == {
        "Rage": (4, 4),
        "Gnosis": (2, 2),
        "Willpower": (5, 5),
    }
    low = Sheet(name="Low")
    assert low.set_new_traits([("Willpower", "1"), ("Rage", "0")]) == []  # no "points lowered" warnings
    assert (low.powers["Willpower"].temporary, low.powers["Rage"].temporary) == (1, 0)


def test_points_given_at_creation_win_whatever_the_order():
    s = Sheet(name="A")
    s.set_new_traits([("Willpower points", "2"), ("Willpower", "5"), ("Gnosis", "6"), ("Gnosis points", "6")])
    assert (s.powers["Willpower"].permanent, s.powers["Willpower"].temporary) == (5, 2)
    assert (s.powers["Gnosis"].permanent, s.powers["Gnosis"].temporary) == (6, 6)
    with pytest.raises(InvalidValue, match="0 to 4"):
        Sheet(name="B").set_new_traits([("Willpower", "4"), ("Willpower points", "5")])
    with pytest.raises(InvalidValue, match="Dexterty"):
        Sheet(name="C").set_new_traits([("Dexterty", "3")])


def test_char_set_rating_keeps_points_but_clamps_willpower_and_gnosis():
    s = Sheet(name="A")  # Willpower 3/3, Gnosis 1/1, Rage 1/1
    s.set_trait("Willpower", 5)
    assert (s.powers["Willpower"].permanent, s.powers["Willpower"].temporary) == (5, 3)  # raised: points kept
    s.set_trait("Willpower points", 5)
    _, _, warnings = s.set_trait("Willpower", 2)
    assert s.powers["Willpower"].temporary == 2 and warnings == ["Willpower points lowered to the new rating 2"]
    s.set_trait("Gnosis", 4)
    s.set_trait("Gnosis points", 4)
    s.set_trait("Gnosis", 0)
    assert (s.powers["Gnosis"].permanent, s.powers["Gnosis"].temporary) == (0, 0)
    s.set_trait("Rage", 5)
    s.set_trait("Rage points", 5)
    _, _, warnings = s.set_trait("Rage", 2)
    assert s.powers["Rage"].temporary == 5 and "exceed" in warnings[0]  # Rage may stay above


def test_file_points_left_out_are_the_rating():
    s = Sheet.from_dict({"name": "A", "willpower": {"permanent": 6}, "gnosis": 4, "rage": {"permanent": 3}})
    assert {p: (t.permanent, t.temporary) for p, t in s.powers.items()} == {
        "Rage": (3, 3),
        "Gnosis": (4, 4),
        "Willpower": (6, 6),
    }
    # a rating left out is stkit's default, not 0 (points alone used to be refused as "outside 0 to 0")
    t = Sheet.from_dict({"name": "B", "willpower": {"temporary": 2}, "gnosis": {"temporary": 1}})
    assert (t.powers["Willpower"].permanent, t.powers["Willpower"].temporary) == (3, 2)
    assert (t.powers["Gnosis"].permanent, t.powers["Gnosis"].temporary) == (1, 1)


def test_damage_past_the_seventh_level_is_reported_truthfully():
    s = Sheet(name="Archibald")
    done = s.take_damage(7, "aggravated")
    assert (done.marked, done.upgraded, done.lost, done.taken, done.killed) == (7, {}, 0, 7, False)
    assert (done.reverted_to, s.form) == ("Homid", "Homid")
    assert s.health == {"aggravated": 7, "lethal": 0, "bashing": 0}
    assert done.warnings("Archibald")[0] == (
        "Archibald falls back to Homid form with lethal damage past Incapacitated; a Rage roll at difficulty 8 "
        "may keep them in the fight (stkit char stay-active)"
    )
    again = s.take_damage(1, "lethal")
    assert (again.taken, again.lost, again.killed) == (0, 1, True)
    # 9 at once: the eighth level finds her downed by aggravated damage and kills, as 7 then 1 did
    at_once = Sheet(name="Archibald").take_damage(9, "aggravated")
    assert (at_once.marked, at_once.lost, at_once.taken, at_once.killed, at_once.reverted_to) == (7, 2, 7, True, None)


def test_damage_replacing_lighter_damage_says_so():
    s = Sheet(name="A")
    s.damage(5, "bashing")
    s.damage(1, "lethal")
    assert s.damage(1, "lethal") == ["A is now Incapacitated"]
    done = s.take_damage(7, "aggravated")  # 5 bashing, then 2 lethal become aggravated
    assert (done.marked, done.upgraded, done.lost, done.killed) == (0, {"bashing": 5, "lethal": 2}, 0, False)
    assert s.health == {"aggravated": 7, "lethal": 0, "bashing": 0}
    w = done.warnings("A")
    assert w[0].startswith("5 levels of bashing damage became aggravated: all seven health levels were filled")
    assert w[1].startswith("2 levels of lethal damage became aggravated")
    assert w[2].startswith("A falls back to Homid form with lethal damage past Incapacitated")
    assert s.take_damage(1, "bashing").killed  # already downed with lethal or worse: the next level kills
    # the same 8 levels in one hit: the eighth has nowhere to go and kills
    t = Sheet(name="A")
    t.damage(5, "bashing")
    t.damage(2, "lethal")
    once = t.take_damage(8, "aggravated")
    assert (once.upgraded, once.lost, once.killed) == ({"bashing": 5, "lethal": 2}, 1, True)
    assert once.warnings("A")[-1] == "A is dead: 1 level of aggravated damage came past Incapacitated"
    assert Sheet(name="B").damage(3, "lethal") == []  # room to spare: nothing to warn about
