"""The fight rules as pure functions, each from a worked example (the arithmetic in the docstring), and the
exact odds of attack + dodge + armour against brute-force enumeration of every face."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from stkit.dice.combat import AttackSpec, RollPurpose, damage_dice, net_attack, p_attack, roll_attack, score_kind
from stkit.dice.house import parse_house_value, rules_from_settings
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.forms import apply_form, breed_form, form_slots, in_form, lookup_form
from stkit.sheet.sheet import Sheet
from stkit.store.fight import night as F

VEST = {"name": "Vest", "bashing": 2, "lethal": 2, "aggravated": 0, "dexterity_penalty": 1, "equipped": True}


def garou(**kw) -> Sheet:
    base = {"name": "G", "breed": "Homid", "attributes": {"Dexterity": 3, "Wits": 2, "Stamina": 3, "Strength": 3}}
    return Sheet.from_dict(base | kw)


# ---- soak by creature, form and source -------------------------------------------------------------------


def test_mortals_and_kinfolk_soak_bashing_only_armour_lets_them_soak_lethal():
    """A mortal in a vest (bashing 2, lethal 2): bashing soaks with Stamina + 2 armour; lethal with the 2
    armour dice only; aggravated not at all (the vest has 0 against it)."""
    agent = Sheet.from_dict({"name": "A", "creature": "mortal", "armor": [VEST]})
    assert F.soak_rule(agent, "bashing") == F.SoakRule(True, "bashing", 2, "Stamina soaks bashing damage")
    lethal = F.soak_rule(agent, "lethal")
    assert (lethal.stamina, lethal.armour, lethal.why) == (False, 2, "a mortal soaks lethal damage only with armour")
    assert not F.soak_rule(agent, "aggravated").dice_from_rules
    kin = Sheet.from_dict({"name": "K", "creature": "kinfolk"})
    assert (F.soak_rule(kin, "lethal").stamina, F.soak_rule(kin, "lethal").armour) == (False, 0)


def test_garou_soak_aggravated_in_every_form_but_homid_unless_the_house_key_says_w20():
    """Revised: Homid soaks bashing and lethal, not aggravated; Crinos soaks all three. The
    homid-aggravated-soak key (the W20 reading) lets Homid soak aggravated too."""
    g = garou()
    assert [F.soak_rule(g, t).stamina for t in ("bashing", "lethal", "aggravated")] == [True, True, False]
    assert F.soak_rule(g, "aggravated", homid_aggravated=True).stamina
    g.shift("crinos")
    assert F.soak_rule(g, "aggravated").stamina
    assert rules_from_settings({"homid-aggravated-soak": "on"}).homid_aggravated_soak is True


def test_silver_is_soaked_only_in_the_breed_form_as_lethal_and_never_by_a_metis():
    """A homid-born Garou in Homid soaks a silver knife as lethal damage; in Crinos not at all (no armour
    either); a metis never, even in Crinos, the breed form."""
    g = garou()
    assert F.soak_rule(g, "aggravated", silver=True) == F.SoakRule(
        True, "lethal", 0, "silver in the breed form soaks as lethal damage"
    )
    g.shift("crinos")
    assert not F.soak_rule(g, "aggravated", silver=True).dice_from_rules
    metis = garou(breed="Metis", form="Crinos")
    assert F.soak_rule(metis, "aggravated", silver=True).why == "silver cannot be soaked by a metis"


# ---- wounds past Incapacitated ---------------------------------------------------------------------------


def test_bashing_past_incapacitated_turns_bashing_into_lethal_and_then_kills_a_mortal():
    """Seven bashing levels, then 2 bashing: each turns a bashing level into lethal (5 bashing, 2 lethal),
    nothing is lost. One lethal more on a full track kills a mortal."""
    m = Sheet.from_dict({"name": "M", "creature": "mortal"})
    m.take_damage(7, "bashing")
    done = m.take_damage(2, "bashing")
    assert (done.overflowed, done.lost, done.killed) == (2, 0, False)
    assert m.health == {"aggravated": 0, "lethal": 2, "bashing": 5}
    assert m.take_damage(1, "lethal").killed


def test_a_garou_downed_with_lethal_reverts_to_breed_form_and_dies_of_the_next_level():
    """A lupus-born Garou in Crinos takes 7 lethal: they fill the track, and the Incapacitated level holds
    lethal, so she falls back to Lupus, not dead. The next level kills, and 8 at once kill as 7 then 1 do
    (docs/combat.md, "Wounds past Incapacitated")."""
    g = garou(breed="Lupus", form="Crinos")
    done = g.take_damage(7, "lethal")
    assert (done.marked, done.lost, done.killed, done.reverted_to, g.form) == (7, 0, False, "Lupus", "Lupus")
    assert g.take_damage(1, "bashing").killed
    at_once = garou(breed="Lupus", form="Crinos").take_damage(8, "lethal")
    assert (at_once.marked, at_once.lost, at_once.killed) == (7, 1, True)
    metis = garou(breed="Metis", form="Glabro")
    assert metis.take_damage(7, "aggravated").reverted_to == "Crinos"


# ---- defence ---------------------------------------------------------------------------------------------


def test_a_dodge_cancels_attack_successes_before_the_extra_damage_dice():
    """Attack 8, 7, 9 (3 successes) against a dodge of 6, 2 (1 success): 2 net successes, so the damage
    pool is 4 + 1 = 5 dice; 6, 8, 1, 9, 3 is 3 damage successes, no soak: 3 wounds."""
    spec = AttackSpec(attack_pool=3, damage_pool=4, defence_pool=2)
    r = roll_attack(spec, attack_faces=[8, 7, 9], defence_faces=[6, 2], damage_faces=[6, 8, 1, 9, 3])
    assert (r.net_successes, r.extra_successes, r.damage_pool, r.wounds) == (2, 1, 5, 3)
    assert net_attack(2, 3) == 0 and damage_dice(4, net_attack(3, 1)) == 5
    miss = roll_attack(spec, attack_faces=[8, 2, 2], defence_faces=[9, 9])  # 1 success, 2 dodged
    assert not miss.hit and miss.damage is None
    with pytest.raises(InvalidValue, match="no defence roll is made"):
        roll_attack(AttackSpec(attack_pool=1, damage_pool=1), attack_faces=[8], defence_faces=[3])


# ---- maneuvers and weapons -------------------------------------------------------------------------------


def test_maneuver_presets_by_form():
    """Claw in Crinos: Dexterity + Brawl at 6, Strength + 1 aggravated; in Glabro bashing; none in Homid.
    Bite in Hispo: difficulty 5, Strength + 2. Kick 7. Firearms point blank 4, long 8."""
    g = garou(form="Crinos")
    assert F.maneuver_plan(g, "claw") == F.AttackPlan(
        "Dexterity + Brawl", "Strength + 1", 6, "aggravated", "maneuver claw"
    )
    g.shift("glabro")
    assert F.maneuver_plan(g, "Claw").damage_type == "bashing"
    g.shift("hispo")
    bite = F.maneuver_plan(g, "bite")
    assert (bite.difficulty, bite.damage, bite.damage_type) == (5, "Strength + 2", "aggravated")
    g.shift("homid")
    with pytest.raises(RuleRefusal, match=r"maneuver claw: G has no claw in Homid; it needs Glabro, Crinos"):
        F.maneuver_plan(g, "claw")
    assert F.maneuver_plan(g, "kick").difficulty == 7
    assert F.maneuver_plan(g, "firearms", range_="point-blank").difficulty == 4
    assert F.maneuver_plan(g, "firearms", range_="long").difficulty == 8
    with pytest.raises(InvalidValue, match=r"unknown maneuver 'headbutt'"):
        F.maneuver_plan(g, "headbutt")


def test_a_weapon_on_the_sheet_fills_the_attack_and_one_it_lacks_is_refused():
    """A klaive (Dexterity + Melee, accuracy +1, Strength + 2, aggravated, difficulty 6) attacks with
    'Dexterity + Melee + 1' and damages with 'Strength + 2'."""
    klaive = {"name": "Klaive", "attack_ability": "Melee", "accuracy": 1, "damage_attribute": "Strength",
              "damage_bonus": 2, "damage_type": "aggravated"}  # fmt: skip
    g = garou(weapons=[klaive])
    plan = F.weapon_plan(g, "klaive")
    assert (plan.pool, plan.damage, plan.damage_type, plan.difficulty) == (
        "Dexterity + Melee + 1",
        "Strength + 2",
        "aggravated",
        6,
    )
    with pytest.raises(RuleRefusal, match=r"weapon: G does not hold 'Grand Klaive'; weapons on the sheet: Klaive"):
        F.weapon_plan(g, "Grand Klaive")


def test_worn_armour_takes_its_dexterity_penalty_and_only_in_its_forms():
    """The vest (Dexterity penalty 1, worn in Homid) costs a die in Homid and nothing in Crinos, where it
    is not worn (and adds no soak there)."""
    g = garou(armor=[VEST])
    assert (F.armour_penalty(g), F.soak_rule(g, "lethal").armour) == (1, 2)
    g.shift("crinos")
    assert (F.armour_penalty(g), F.soak_rule(g, "lethal").armour) == (0, 0)


# ---- Rage, frenzy, the moon ------------------------------------------------------------------------------


def test_the_rage_cap_by_reading():
    """Dexterity 3 (Crinos 4) and Wits 2, Rage 5: revised caps at the lower of Dexterity and Wits, 2; w20 at
    half the permanent Rage rounded up, 3; points has no cap."""
    g = garou(form="Crinos", rage={"permanent": 5, "temporary": 5})
    assert (F.rage_cap("revised", g), F.rage_cap("w20", g), F.rage_cap("points", g)) == (2, 3, None)
    assert parse_house_value("rage-cap", "W20") == "w20"
    with pytest.raises(InvalidValue, match=r"house rule rage-cap: 'half' is not allowed; allowed: revised, w20"):
        parse_house_value("rage-cap", "half")


def test_frenzy_difficulty_by_moon_and_four_successes():
    """New moon 8 down to full moon 4; 4 successes frenzy, 3 do not; no moon set: 6."""
    assert [F.frenzy_difficulty(m) for m in F.MOON_PHASES] == [8, 7, 6, 5, 4]
    assert F.frenzy_difficulty(None) == 6
    assert (F.frenzies(4), F.frenzies(3)) == (True, False)
    assert F.check_moon("Full Moon") == "full"


def test_rage_regained_at_moonrise():
    """An Ahroun (Rage 5, 1 point): the half moon gives 3 (to 4); the full moon, her own, back to 5, so 4.
    With 4 points the crescent's 2 stop at the rating: 1. A Ragabash (Rage 3, 0 points): the full moon's 5
    stop at 3; the crescent gives 2; the new moon, hers, all 3."""
    g = garou(auspice="Ahroun", rage={"permanent": 5, "temporary": 1})
    assert (F.moonrise_rage(g, "half"), F.moonrise_rage(g, "full")) == (3, 4)
    g.powers["Rage"].temporary = 4
    assert F.moonrise_rage(g, "crescent") == 1
    r = garou(auspice="Ragabash", rage={"permanent": 3, "temporary": 0})
    assert (F.moonrise_rage(r, "full"), F.moonrise_rage(r, "crescent"), F.moonrise_rage(r, "new")) == (3, 2, 3)


# ---- healing and shifting --------------------------------------------------------------------------------


def test_regeneration_not_in_the_breed_form_unless_metis_and_worst_first():
    """A homid in Homid does not regenerate; in Crinos she does, lethal before bashing; a metis in Crinos
    (the breed form) does; a mortal never."""
    g = garou(health={"lethal": 1, "bashing": 2})
    assert F.regeneration_refusal(g) == (
        "regeneration: G is Homid-born and in Homid, the breed form, where only metis regenerate"
    )
    g.shift("crinos")
    assert F.regeneration_refusal(g) is None and F.worst_healable(g) == "lethal"
    assert F.regeneration_refusal(garou(breed="Metis", form="Crinos")) is None
    assert "heals as humans do" in F.regeneration_refusal(Sheet.from_dict({"name": "M", "creature": "mortal"}))


def test_shifting_difficulty_and_forms_crossed():
    """Homid to Crinos crosses 2 forms for a Garou at difficulty 6 (Homid's); from Glabro it is 7. A Corax
    has no Glabro: Homid to Crinos is 1; Hispo is refused; Corvid is their Lupus."""
    g = garou()
    assert (F.shift_distance(g, "Homid", "Crinos"), F.shift_difficulty("Homid"), F.shift_difficulty("Glabro")) == (
        2,
        6,
        7,
    )
    corax = Sheet.from_dict({"name": "C", "fera": "Corax", "breed": "Corvid"})
    assert form_slots("Corax") == ("Homid", "Crinos", "Lupus")
    assert F.shift_distance(corax, "Homid", "Crinos") == 1
    assert lookup_form("corvid", "Corax") == "Lupus" and breed_form("Corax", "Corvid") == "Lupus"
    with pytest.raises(RuleRefusal, match=r"form: the Corax have no Hispo form \('hispo'\); their forms are"):
        corax.shift("hispo")


def test_fera_form_tables_follow_foundry():
    """From totals.js: a Corax in Corvid form Strength 2 - 1 = 1, Perception 2 + 4 = 6; a Ratkin homid in
    Crinos Dexterity 2 + 4 = 6, Appearance 2 - 1 = 1 (no Appearance 0 for the Ratkin); a metis Ratkin
    Strength 2 + 3 = 5; a Simba Bastet in Chatro (Hispo) Strength 2 + 4 = 6; a Gurahl in Crinos Stamina 2 + 5."""
    attrs = {a: 2 for a in ("Strength", "Dexterity", "Stamina", "Perception", "Appearance")}
    corax = Sheet.from_dict({"name": "C", "fera": "Corax", "form": "Corvid", "attributes": attrs})
    assert (in_form(corax, "Strength"), in_form(corax, "Perception")) == (1, 6)
    rat = Sheet.from_dict({"name": "R", "fera": "Ratkin", "breed": "Homid", "form": "Crinos", "attributes": attrs})
    assert (in_form(rat, "Dexterity"), in_form(rat, "Appearance")) == (6, 1)
    rat.breed = "Metis"
    assert in_form(rat, "Strength") == 5
    simba = Sheet.from_dict({"name": "S", "fera": "Bastet", "tribe": "Simba", "form": "Hispo", "attributes": attrs})
    assert in_form(simba, "Strength") == 6
    assert apply_form("Crinos", "Stamina", 2, fera="Gurahl") == 7
    assert apply_form("Crinos", "Appearance", 3) == 0  # the Garou's own table is unchanged


# ---- exact odds against brute force ----------------------------------------------------------------------

FACES = range(1, 11)


def _brute(attack: int, defence: int, damage: int, soak: int) -> list[Fraction]:
    """P(w wound levels) by scoring every face of every roll: the attack, the dodge (rolled only when the
    attack has a success), the damage roll of the net pool, the soak."""
    follow: dict[int, dict[int, int]] = {}

    def damage_and_soak(pool: int) -> dict[int, int]:
        if pool not in follow:
            counts: dict[int, int] = {}
            for dmg in itertools.product(FACES, repeat=pool):
                d = score_kind(RollPurpose.DAMAGE, pool, 6, dmg).final_successes
                for sk in itertools.product(FACES, repeat=soak):
                    s = score_kind(RollPurpose.SOAK, soak, 6, sk).final_successes if soak and d else 0
                    w = max(d - s, 0)
                    counts[w] = counts.get(w, 0) + 1
            follow[pool] = counts
        return follow[pool]

    total: dict[int, Fraction] = {}
    for att in itertools.product(FACES, repeat=attack):
        a = score_kind(RollPurpose.ACTION, attack, 6, att).final_successes
        for dod in itertools.product(FACES, repeat=defence):
            d = score_kind(RollPurpose.ACTION, defence, 6, dod).final_successes if a else 0
            pool = damage_dice(damage, net_attack(a, d))
            weight = Fraction(1, 10 ** (attack + defence))
            if pool == 0:
                total[0] = total.get(0, Fraction(0)) + weight
                continue
            counts = damage_and_soak(pool)
            n = sum(counts.values())
            for w, c in counts.items():
                total[w] = total.get(w, Fraction(0)) + weight * Fraction(c, n)
    return [total.get(w, Fraction(0)) for w in range(max(total) + 1)]


@pytest.mark.parametrize(
    ("attack", "defence", "damage", "soak"),
    [(1, 1, 1, 0), (2, 1, 1, 1), (1, 2, 2, 1), (2, 2, 1, 2)],
)
def test_exact_attack_with_dodge_and_armour_agrees_with_brute_force(attack, defence, damage, soak):
    """Every face of every roll enumerated; ``soak`` stands for Stamina plus armour dice (armour adds soak
    dice, e.g. Stamina 1 + vest 1 = 2)."""
    exact = p_attack(AttackSpec(attack_pool=attack, damage_pool=damage, soak_pool=soak, defence_pool=defence))
    brute = _brute(attack, defence, damage, soak)
    got = list(exact.distribution)
    while len(got) < len(brute):
        got.append(Fraction(0))
    assert got == brute
    assert sum(got) == 1


def test_one_die_against_one_die_of_dodge():
    """Attack 1 die hits on 6-10 (1/2); the dodge's 1 die leaves it standing on 1-5 (1/2): P(hit) = 1/4;
    the damage die wounds half the time: 1/8, the expected wounds 1/8."""
    odds = p_attack(AttackSpec(attack_pool=1, damage_pool=1, defence_pool=1))
    assert (odds.p_hit, odds.at_least[1], odds.expected, odds.p_botch) == (
        Fraction(1, 4),
        Fraction(1, 8),
        Fraction(1, 8),
        Fraction(1, 10),
    )
