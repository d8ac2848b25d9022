"""Combat on the store, as a user runs it: specialties on rolls, initiative on the turn, char hit, attack,
Rage for extra actions. Golden values are hand-checked dice; every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.clirun import fails, ok, ok_json, sheet


def log() -> list[dict]:
    return ok_json("log", "--limit", "1000")["rolls"]


@pytest.fixture
def fighters(db_url):
    """The chapter's characters with the traits this fight needs (Dexterity 3 and Brawl 4 for
    Shadow-in-the-Wood are the chapter's; the rest are set here for the fight)."""
    ok(
        "char",
        "new",
        "Shadow-in-the-Wood",
        "--set",
        "Dexterity=3",
        "--set",
        "Brawl=4",
        "--set",
        "Dodge=3",
        "--set",
        "Strength=3",
        "--set",
        "Wits=3",
        "--set",
        "Stamina=3",
        "--set",
        "Rage=4",
    )
    ok("char", "set", "Shadow-in-the-Wood", "Brawl specialty", "Claws")
    ok("char", "new", "Weston", "--set", "Dexterity=4", "--set", "Wits=2", "--set", "Stamina=4", "--set", "Brawl=3")
    ok("char", "new", "Guard", "--set", "Dexterity=2", "--set", "Wits=2", "--set", "Stamina=2")
    return db_url


# ---- specialties on a roll ---------------------------------------------------------------------------------

SPEC_ROLL = ["roll", "Dexterity + Brawl", "-c", "Shadow-in-the-Wood", "--spec"]


def test_specialty_roll_under_each_house_rule(fighters):
    # 10, 10, 6, 3, 1, 2, 4 at 6: three success dice, one 1
    none = ok_json(*SPEC_ROLL, "--dice", "10,10,6,3,1,2,4")
    assert none["result"] == 2 and none["specialty_used"] == {"trait": "Brawl", "name": "Claws", "rule": "none"}
    double = ok_json(*SPEC_ROLL, "--specialty", "double", "--dice", "10,10,6,3,1,2,4")
    assert (double["successes"], double["result"]) == (5, 4)
    # reroll: each 10 brings a die (8 and 2): successes 10, 10, 6, 8 = 4, minus the 1
    reroll = ok_json(*SPEC_ROLL, "--specialty", "reroll", "--dice", "10,10,6,3,1,2,4,8,2")
    assert (reroll["successes"], reroll["result"], reroll["extra_dice"]) == (4, 3, [8, 2])
    human = ok(*SPEC_ROLL, "--specialty", "double", "--dice", "10,10,6,3,1,2,4")
    assert "specialty Claws (Brawl): a 10 counts two successes (house rule: double)" in human


def test_spec_on_a_pool_without_one_names_the_traits(fighters):
    fails(
        "roll",
        "Wits + Dodge",
        "-c",
        "Shadow-in-the-Wood",
        "--spec",
        match="--spec: no Trait of the pool 'Wits + Dodge' (Wits, Dodge) has a specialty",
    )
    fails("roll", "5", "--spec", match="--spec needs --char")


# ---- Rage and Rage points ----------------------------------------------------------------------------------


def test_rage_points_and_rage_rating(fighters):
    ok("char", "set", "Shadow-in-the-Wood", "Rage points", "2")
    points = ok_json("roll", "Rage points", "-c", "Shadow-in-the-Wood", "--dice", "7,3")
    assert points["pool"] == 2 and points["pool_breakdown"]["text"] == "Rage points 2 = 2 dice"
    rating = ok_json("roll", "Rage", "-c", "Shadow-in-the-Wood", "--dice", "7,3,2,2")
    assert rating["pool"] == 4
    fails("roll", "Rage points + Brawl", "-c", "Shadow-in-the-Wood", match="rolled alone")


MULTI = ["multi", "Dexterity + Brawl", "Dexterity + Dodge", "Dexterity + Brawl", "-c", "Shadow-in-the-Wood"]


def test_rage_buys_actions_without_penalty_once_per_turn(fighters):
    ok("scene", "start", "The alley")
    data = ok_json(*MULTI, "--rage", "1", "--dice", "6,6,6,6,6", "--dice", "2,2,2", "--dice", "1,1,1,1,1,1,1")
    acts = data["actions"]
    # two ordinary actions: the ladder for two (2, 3); the Rage action keeps its 7 dice
    assert [(a["penalty"], a["pool"]) for a in acts] == [(2, 5), (3, 3), (0, 7)]
    assert acts[2]["rage_action"] is True and acts[2]["rage_left"] == 3
    assert [e["kind"] for e in log()] == ["rage action", "roll", "roll"]
    assert sheet("Shadow-in-the-Wood")["rage"] == {"permanent": 4, "temporary": 3}
    fails(*MULTI, "--rage", "1", match="already spent 1 Rage for extra actions in turn 1")
    ok("scene", "next")
    ok_json(*MULTI, "--rage", "2", "--seed", "1")
    assert sheet("Shadow-in-the-Wood")["rage"]["temporary"] == 1


def test_rage_beyond_the_points_is_refused_and_nothing_changes(fighters):
    ok("char", "set", "Shadow-in-the-Wood", "Rage points", "1")
    fails(*MULTI, "--rage", "2", match="spending 2 Rage needs 2 Rage points; only 1 left")
    assert sheet("Shadow-in-the-Wood")["rage"]["temporary"] == 1
    assert log() == []
    fails(*MULTI, "--rage", "1", "--rage-cap", "0", match="Rage cap 0")
    fails("multi", "5", "5", "--rage", "1", match="--rage needs --char")


# ---- initiative --------------------------------------------------------------------------------------------


def test_initiative_with_wound_penalties_and_ties(fighters):
    ok("scene", "start", "The alley")
    ok("char", "damage", "Shadow-in-the-Wood", "1")  # Bruised: no penalty yet
    ok("char", "damage", "Shadow-in-the-Wood", "1")  # Hurt: -1
    data = ok_json("scene", "initiative", "Shadow-in-the-Wood", "Weston", "Guard", "--dice", "7,6,9")
    # Shadow 7 + 6 - 1 = 12; Weston 6 + 6 = 12; Guard 9 + 4 = 13. Shadow and Weston tie on total and rating;
    # Shadow's Wits 3 beats Weston's 2.
    assert [(o["name"], o["total"], o["place"]) for o in data["order"]] == [
        ("Guard", 13, 1),
        ("Shadow-in-the-Wood", 12, 2),
        ("Weston", 12, 3),
    ]
    assert data["order"][1]["wound_penalty"] == 1 and data["turn"] == 1
    kept = ok_json("scene", "next")
    assert kept["turn"] == 2 and [o["name"] for o in kept["initiative"]["order"]] == [
        "Guard",
        "Shadow-in-the-Wood",
        "Weston",
    ]
    assert kept["initiative"]["rolled_turn"] == 1
    human = ok("scene", "next")
    assert "Initiative (rolled in turn 1): 1. Guard (13), 2. Shadow-in-the-Wood (12), 3. Weston (12)" in human
    again = ok_json("scene", "initiative", "Weston", "Guard", "--dice", "10,1")
    assert [o["name"] for o in again["order"]] == ["Weston", "Guard"] and again["turn"] == 3
    assert ok_json("scene", "next")["initiative"]["rolled_turn"] == 3
    turns = ok_json("scene", "show")["turns"]
    assert [t["turn"] for t in turns if "initiative" in t] == [1, 3]
    assert turns[0]["initiative"]["order"][0]["name"] == "Guard"
    assert "  initiative: 1. Weston (16), 2. Guard (5)" in ok("scene", "show")


def test_initiative_defaults_to_who_rolled_and_skips_the_incapacitated(fighters):
    ok("scene", "start", "The alley")
    fails("scene", "initiative", match="nobody has rolled in this scene yet")
    ok("roll", "Wits", "-c", "Weston", "--seed", "1")
    ok("roll", "Wits", "-c", "Guard", "--seed", "1")
    ok("char", "damage", "Guard", "7", "--type", "lethal")
    data = ok_json("scene", "initiative", "--dice", "5")
    assert [o["name"] for o in data["order"]] == ["Weston"] and data["cannot_act"] == ["Guard"]
    fails("scene", "initiative", "Weston", "--dice", "5,6", match="2 dice given for 1 character;")


def test_initiative_needs_an_open_scene(fighters):
    fails("scene", "initiative", "Weston", match="no scene is open")


# ---- char hit ----------------------------------------------------------------------------------------------


def test_hit_soaked_under_the_cancelling_house_rule(fighters):
    # Weston has Stamina 4: 2, 1, 8, 9 with 1s cancelling -> 1 success; 3 lethal -> 2 levels
    res = ok("char", "hit", "Weston", "3", "--type", "lethal", "--soak", "--dice", "2,1,8,9", "--damage-ones-cancel")
    assert "Weston: 3 lethal, soaked 1 (Stamina 4: 2, 1, 8, 9 -> 1 success) -> 2 levels: now Hurt, -1 die" in res
    assert sheet("Weston")["health"] == {"bashing": 0, "lethal": 2, "aggravated": 0}


def test_hit_default_soak_keeps_its_ones(fighters):
    data = ok_json("char", "hit", "Weston", "3", "--type", "lethal", "--soak", "--dice", "2,1,8,9")
    assert (data["soaked"], data["wounds"], data["soak"]["result"]) == (2, 1, 2)
    assert data["health"]["level"] == "Bruised" and data["log_id"] is not None
    (entry,) = log()
    assert (entry["kind"], entry["dice"], entry["result"], entry["id"]) == ("soak", [2, 1, 8, 9], 2, data["log_id"])
    assert entry["detail"]["wounds"] == 1


def test_a_soak_that_leaves_nothing(fighters):
    data = ok_json("char", "hit", "Weston", "2", "--type", "bashing", "--soak", "--dice", "6,7,9,1")
    assert (data["soaked"], data["wounds"], data["taken"]) == (2, 0, None)
    assert data["summary"] == "2 bashing, soaked 2 (Stamina 4: 6, 7, 9, 1 -> 3 successes) -> 0 levels: unhurt"
    assert sheet("Weston")["health"] == {"bashing": 0, "lethal": 0, "aggravated": 0}


def test_the_form_changes_the_soak(fighters):
    ok("char", "shift", "Weston", "Crinos", "--instant")  # Stamina 4 + 3
    data = ok_json("char", "hit", "Weston", "1", "--soak", "--dice", "1,2,3,4,5,6,7")
    assert data["soak_pool"]["dice"] == 7 and data["soak_pool"]["text"] == "Stamina 7 (4 +3 Crinos) = 7 dice"


def test_hit_without_soak_and_overflow_past_incapacitated(fighters):
    data = ok_json("char", "hit", "Guard", "9", "--type", "lethal")
    assert data["soak"] is None and data["wounds"] == 9 and data["health"]["incapacitated"] is True
    # the eighth level finds the Garou downed by lethal damage and kills (docs/combat.md)
    assert data["taken"]["lost"] == 2 and data["taken"]["killed"] is True
    assert data["taken"]["reverted_to"] is None
    assert any("is dead: 2 levels of lethal damage came past Incapacitated" in w for w in data["warnings"])


def test_hit_bad_input_changes_nothing(fighters):
    ok("char", "shift", "Guard", "Crinos", "--instant")
    fails("char", "hit", "Guard", "-3", match="health levels of a hit -3 is outside the allowed range 1 to 100")
    fails("char", "hit", "Guard", "0", match="outside the allowed range 1 to 100")
    fails("char", "hit", "Guard", "2", "--soak-pool", "Appearance", match="no dice left")  # Crinos Appearance 0
    fails("char", "hit", "Guard", "2", "--soak-pool", "Stamina + Dodge + Brawl", match="at most two Traits")
    fails("char", "hit", "Guard", "2", "--soak", "--dice", "2,1", match="give exactly 5 faces")
    fails("char", "hit", "Guard", "2", "--dice", "2,1", match="soak dice were given without --soak")
    fails("char", "hit", "Nobody", "2", match="Nobody")
    assert sheet("Guard")["health"] == {"bashing": 0, "lethal": 0, "aggravated": 0}
    assert log() == []


def test_no_soak_house_rule(fighters):
    data = ok_json("char", "hit", "Weston", "2", "--type", "aggravated", "--soak", "--unsoakable", "aggravated")
    assert data["soak"] is None and data["wounds"] == 2
    assert data["notes"] == ["aggravated damage cannot be soaked (house rule); no soak roll"]


# ---- attack ------------------------------------------------------------------------------------------------

ATTACK = ["attack", "Shadow-in-the-Wood", "Guard", "--pool", "Dexterity + Brawl", "--damage", "Strength + 1"]
#: a lethal attack with two extra successes, soaked by one success (hand-checked below)
SOAKED_HIT = [
    *ATTACK, "--type", "lethal", "--soak",
    "--dice-attack", "8,9,10,3,2,6,1", "--dice-damage", "6,7,2,1,9,3", "--dice-soak", "6,2",
]  # fmt: skip


def test_a_dodge_with_no_dice_left_leaves_the_attack_undodged(fighters):
    """Guard's Dexterity 2 - 3 is no dice: no dodge is rolled, the attack (7 dice: 8, 9, 10, 3, 2, 6, 1 =
    3) goes ahead as if undefended, and the notes say why; dodge dice given then are refused."""
    data = ok_json(*ATTACK, "--dodge", "Dexterity - 3", "--dice-attack", "8,9,10,3,2,6,1", "--seed", "2")
    assert data["attack"]["result"] == 3 and data["defence"] is None and data["extra_successes"] == 2
    assert any("Guard has no dice left to dodge with" in n for n in data["notes"])
    fails(*ATTACK, "--dodge", "Dexterity - 3", "--dice-attack", "8,9,10,3,2,6,1", "--dice-dodge", "6",
          match="defence dice were given but no defence roll is made")  # fmt: skip


def test_attack_whose_extra_successes_add_damage_dice(fighters):
    ok("scene", "start", "The alley")
    data = ok_json(*SOAKED_HIT)
    # attack 4 successes - one 1 = 3: two extra successes, so Strength 3 + 1 + 2 = 6 damage dice
    assert data["attack"]["result"] == 3 and data["extra_successes"] == 2 and data["damage_pool"] == 6
    # damage 6, 7, 9 (the 1 does not cancel) = 3; soak Stamina 2: one success; 2 lethal levels
    assert (data["damage"]["result"], data["soak"]["result"], data["wounds"]) == (3, 1, 2)
    assert data["health"]["level"] == "Hurt" and len(data["log_ids"]) == 3
    assert sheet("Guard")["health"]["lethal"] == 2
    entries = log()
    assert [(e["kind"], e["character"]) for e in entries] == [
        ("soak", "Guard"),
        ("damage", "Shadow-in-the-Wood"),
        ("attack", "Shadow-in-the-Wood"),
    ]
    assert [e["id"] for e in reversed(entries)] == data["log_ids"]
    assert {(e["scene_id"], e["turn"]) for e in entries} == {(1, 1)}
    assert entries[1]["expression"] == "Strength + 1 + 2"


def test_attack_human_output_shows_every_step(fighters):
    out = ok(*SOAKED_HIT)
    lines = out.splitlines()
    assert lines[0] == "Shadow-in-the-Wood attacks Guard (lethal)"
    assert "Attack: Dexterity 3 + Brawl 4: 7 dice at difficulty 6" in lines
    assert "Damage: Strength 3 + 1 + 2 for extra successes: 6 dice at difficulty 6" in lines
    assert "Soak (the soak rules): Stamina 2: 2 dice at difficulty 6" in lines
    assert "3 damage, soaked 1 -> 2 lethal levels: Guard now Hurt, -1 die" in lines
    assert lines[-1].startswith("Logged as rolls #")


def test_a_miss_rolls_nothing_more(fighters):
    data = ok_json(*ATTACK, "--dice-attack", "1,2,3,4,5,2,3")
    assert data["attack"]["outcome"] == "botch" and data["damage"] is None and data["wounds"] == 0
    assert len(data["log_ids"]) == 1
    fails(*ATTACK, "--dice-attack", "1,2,3,4,5,2,3", "--dice-damage", "6,6", match="the attack missed")


def test_attack_with_a_specialty(fighters):
    data = ok_json(
        *ATTACK, "--spec", "--specialty", "double", "--dice-attack", "10,2,2,2,2,2,2", "--dice-damage", "6,6,6,6,6"
    )
    assert data["attack"]["result"] == 2 and data["damage_pool"] == 5
    assert data["specialty"] == {"trait": "Brawl", "name": "Claws", "rule": "double"}


def test_attack_refusals(fighters):
    ok("char", "new", "Stranger", "--chronicle", "Elsewhere")
    fails(
        *ATTACK[:2],
        "Stranger",
        *ATTACK[3:],
        "--seed",
        "1",
        match="Stranger is out of the scene: they are in chronicle 'Elsewhere'",
    )
    fails(*ATTACK[:2], "Nobody", *ATTACK[3:], "--seed", "1", match="no character 'Nobody' in chronicle 'default'")
    fails("attack", "Guard", "Guard", "--pool", "Dexterity", "--damage", "Strength", match="cannot attack themselves")
    ok("scene", "start", "The alley")
    ok("scene", "initiative", "Shadow-in-the-Wood", "Weston", "--dice", "5,5")
    fails(*ATTACK, "--seed", "1", match="Guard is out of the scene: not in the initiative order")
    ok("scene", "initiative", "Shadow-in-the-Wood", "Guard", "--dice", "5,5")
    fails(*ATTACK[:4], "Dexterity + Brawl + Dodge", *ATTACK[5:], match="at most two Traits")
    fails(*ATTACK, "--type", "fire", match="damage type 'fire'")
    ok("char", "damage", "Guard", "7", "--type", "lethal")
    fails(*ATTACK, "--seed", "1", match="Guard is already Incapacitated")
    assert log() == []


def test_attack_is_replayable_by_seed(fighters):
    a = ok_json(*ATTACK, "--soak", "--seed", "9")
    ok("char", "heal", "Guard", "7")
    b = ok_json(*ATTACK, "--soak", "--seed", "9")
    for key in ("attack", "damage", "soak", "wounds"):
        assert a[key] == b[key]


def test_damage_and_soak_rolls_from_the_sheet(fighters):
    ok("char", "damage", "Weston", "2")  # Hurt: -1 die on actions, none on soak
    data = ok_json("roll", "Stamina", "-c", "Weston", "--soak", "--dice", "1,1,3,4")
    assert (data["kind"], data["pool"], data["outcome"], data["result"]) == ("soak", 4, "failure", 0)
    (entry,) = log()
    assert (entry["kind"], entry["dice"], entry["id"]) == ("soak", [1, 1, 3, 4], data["log_id"])
    out = ok("roll", "Strength + 1", "-c", "Shadow-in-the-Wood", "--damage", "--dice", "1,1,2,7")
    assert "Damage roll (cannot botch): Strength 3 + 1: 4 dice at difficulty 6" in out
    assert "1 success (marginal)" in out
    fails("roll", "Strength", "-c", "Weston", "--damage", "--spec", match="--spec is not for a damage roll")
    fails("roll", "Strength + Brawl + Dodge", "-c", "Weston", "--damage", match="at most two Traits")


def test_a_bad_roll_after_the_rage_spend_rolls_everything_back(fighters):
    ok("scene", "start", "The alley")
    fails(
        *MULTI,
        "--rage",
        "1",
        "--dice",
        "6,6,6,6,6",
        "--dice",
        "2,2",
        "--dice",
        "1,1,1,1,1,1,1",
        match="give exactly 3 faces",
    )
    assert sheet("Shadow-in-the-Wood")["rage"]["temporary"] == 4
    assert log() == []
    ok_json(*MULTI, "--rage", "1", "--seed", "4")  # the failed try did not use up the turn's Rage spend
    assert sheet("Shadow-in-the-Wood")["rage"]["temporary"] == 3


def test_odds_attack_from_the_sheets(fighters):
    from fractions import Fraction

    from stkit.dice.combat import AttackSpec, p_attack

    ok("char", "damage", "Shadow-in-the-Wood", "2")  # Hurt: the attack loses a die, the damage does not
    data = ok_json(
        "odds",
        "attack",
        "Dexterity + Brawl",
        "--damage",
        "Strength + 1",
        "-c",
        "Shadow-in-the-Wood",
        "--target",
        "Weston",
    )
    assert (data["pool"], data["damage_pool"], data["soak_pool"]) == (6, 4, 4)
    assert data["pools"] == {
        "attack": "Dexterity 3 + Brawl 4 - 1 wound = 6 dice",
        "damage": "Strength 3 + 1 = 4 dice",
        "soak": "Stamina 4 = 4 dice",
    }
    expected = p_attack(AttackSpec(attack_pool=6, damage_pool=4, soak_pool=4))
    assert [Fraction(e["exact"]) for e in data["wounds"]] == list(expected.distribution)
    no_soak = ok_json("odds", "attack", "Dexterity + Brawl", "--damage", "Strength + 1", "-c", "Shadow-in-the-Wood")
    assert no_soak["soak_pool"] == 0 and "soak" not in no_soak["pools"]
    fails("odds", "attack", "Dexterity + Brawl", "--damage", "3", match="need a character")
    fails("odds", "attack", "7", "--damage", "3", "--target", "Weston", match="--target needs --char")


def test_attack_odds_take_the_chronicles_difficulty_as_the_attack_does(fighters):
    """Under `house set difficulty 8` an attack rolls at 8, so its odds are at 8 too, from the sheet or from
    bare numbers; a punch's own difficulty (6) and an explicit -d still win."""
    from fractions import Fraction

    from stkit.dice.combat import AttackSpec, p_attack

    ok("house", "set", "difficulty", "8")
    sheet_odds = ok_json("odds", "attack", "Dexterity + Brawl", "--damage", "3", "-c", "Shadow-in-the-Wood")
    assert sheet_odds["difficulty"] == 8
    bare = ok_json("odds", "attack", "6", "--damage", "3")
    assert bare["difficulty"] == 8
    assert (
        Fraction(bare["wounds"][0]["exact"])
        == p_attack(AttackSpec(attack_pool=6, damage_pool=3, soak_pool=0, attack_difficulty=8)).distribution[0]
    )
    assert ok_json("odds", "attack", "6", "--damage", "3", "-d", "5")["difficulty"] == 5
    punch = ok_json("odds", "attack", "-c", "Shadow-in-the-Wood", "--maneuver", "punch")
    rolled = ok_json("attack", "Shadow-in-the-Wood", "Weston", "--maneuver", "punch", "--seed", "3")
    assert punch["difficulty"] == rolled["attack"]["difficulty"] == 6
    plain = ok_json(
        "attack", "Shadow-in-the-Wood", "Weston", "--pool", "Dexterity + Brawl", "--damage", "3", "--seed", "3"
    )
    assert plain["attack"]["difficulty"] == 8


def test_attack_with_willpower_once_per_turn(fighters):
    ok("scene", "start", "The alley")
    data = ok_json(*ATTACK, "-w", "--dice-attack", "1,1,2,3,4,5,2", "--dice-damage", "6,6,6,6")
    # two 1s and no success: Willpower's success still hits (net 0 + 1), so Strength 3 + 1 damage dice
    assert (data["attack"]["result"], data["attack"]["willpower"], data["damage_pool"]) == (1, True, 4)
    assert "Willpower spent on the attack: 2 points left" in data["notes"]
    assert sheet("Shadow-in-the-Wood")["willpower"]["temporary"] == 2
    fails(*ATTACK, "-w", "--seed", "1", match="already acted in turn 1")
    fails(*ATTACK, "-w", "--seed", "1", "--force", match="already spent Willpower in turn 1")
    assert sheet("Shadow-in-the-Wood")["willpower"]["temporary"] == 2
    ok("scene", "next")
    ok_json(*ATTACK, "-w", "--seed", "1")
    assert sheet("Shadow-in-the-Wood")["willpower"]["temporary"] == 1
