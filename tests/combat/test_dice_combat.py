"""stkit.dice.combat: damage and soak rolls, attacks, initiative and Rage actions, hand-checked and against
brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkit.dice import HouseRules, Outcome, Specialty, count_dice
from stkit.dice.combat import (
    MAX_ATTACK_DICE,
    STANDARD_COMBAT,
    AttackSpec,
    CombatRules,
    InitiativeEntry,
    RollPurpose,
    damage_dice,
    order_initiative,
    p_attack,
    p_kind,
    rage_action_penalties,
    roll_attack,
    roll_initiative,
    roll_kind,
    roll_rage_actions,
    score_kind,
    soak_damage,
    validate_rage_spend,
)
from stkit.errors import InvalidValue, RuleRefusal

CANCEL = CombatRules(damage_ones_cancel=True)


# ---- damage and soak rolls ---------------------------------------------------------------------------------


def test_damage_roll_never_botches():
    r = score_kind(RollPurpose.DAMAGE, 4, 6, [1, 3, 1, 5])
    assert (r.successes_rolled, r.final_successes) == (0, 0)
    assert r.outcome is Outcome.FAILURE
    # the same faces as an action are a botch
    assert score_kind(RollPurpose.ACTION, 4, 6, [1, 3, 1, 5]).outcome is Outcome.BOTCH


def test_soak_ones_do_not_cancel_by_default():
    r = score_kind(RollPurpose.SOAK, 4, 6, [2, 1, 8, 9])
    assert (r.successes_rolled, r.ones, r.net, r.final_successes, r.cancelled) == (2, 1, 2, 2, 0)
    assert r.rules.ones_cancel is False


def test_damage_ones_cancel_house_rule():
    r = score_kind(RollPurpose.DAMAGE, 4, 6, [2, 1, 8, 9], combat=CANCEL)
    assert (r.successes_rolled, r.ones, r.net, r.final_successes) == (2, 1, 1, 1)
    # cancelled down to nothing: still a failure, never a botch
    r = score_kind(RollPurpose.DAMAGE, 3, 6, [1, 1, 7], combat=CANCEL)
    assert (r.final_successes, r.outcome) == (0, Outcome.FAILURE)


def test_general_ones_dont_cancel_wins_over_the_combat_rule():
    r = score_kind(RollPurpose.DAMAGE, 3, 6, [1, 7, 8], rules=HouseRules(ones_cancel=False), combat=CANCEL)
    assert r.final_successes == 2


def test_roll_kind_is_seedable():
    a = roll_kind(RollPurpose.DAMAGE, 6, rng=random.Random(7))
    b = roll_kind(RollPurpose.DAMAGE, 6, rng=random.Random(7))
    assert a == b and len(a.dice) == 6
    with pytest.raises(InvalidValue, match="needs a random source"):
        roll_kind(RollPurpose.SOAK, 3)


def _brute_kind(kind, n, d, combat):
    counts = Counter()
    for faces in itertools.product(range(1, 11), repeat=n):
        counts[score_kind(kind, n, d, faces, combat=combat).final_successes] += 1
    return {k: Fraction(c, 10**n) for k, c in counts.items()}


@pytest.mark.parametrize("combat", [CombatRules(), CANCEL])
@pytest.mark.parametrize("n,d", [(1, 6), (2, 4), (3, 6), (3, 9), (4, 7)])
@pytest.mark.parametrize("kind", [RollPurpose.DAMAGE, RollPurpose.SOAK])
def test_p_kind_matches_brute_force(kind, n, d, combat):
    odds = p_kind(kind, n, d, combat=combat)
    brute = _brute_kind(kind, n, d, combat)
    assert odds.p_botch == 0
    assert {k: p for k, p in enumerate(odds.distribution) if p} == brute
    assert odds.p_failure == brute.get(0, 0)


def test_p_kind_exact_values():
    # one damage die at 6: five faces of ten succeed; nothing botches
    one = p_kind(RollPurpose.DAMAGE, 1, 6)
    assert (one.p_success, one.p_failure, one.p_botch) == (Fraction(1, 2), Fraction(1, 2), 0)
    # two soak dice at 6, 1s cancelling: result 0 unless... P(>=1) = P(no cancel leaves one)
    two = p_kind(RollPurpose.SOAK, 2, 6, combat=CANCEL)
    # successes 0: 25/100; one success and a 1: 2*5*1 = 10; so P(0) = 35/100
    assert two.p_exactly(0) == Fraction(35, 100)
    # an action of the same dice does botch: (5/10)**2 - (4/10)**2 = 9/100
    assert p_kind(RollPurpose.ACTION, 2, 6).p_botch == Fraction(9, 100)


def test_unsoakable_house_rule():
    rules = CombatRules(unsoakable=frozenset({"aggravated"}))
    assert not rules.may_soak("aggravated") and rules.may_soak("lethal")
    assert STANDARD_COMBAT.may_soak("aggravated")
    assert rules.to_dict() == {"damage_ones_cancel": False, "rage_cap": None, "unsoakable": ["aggravated"]}


# ---- attacks -----------------------------------------------------------------------------------------------


def test_extra_successes_add_damage_dice():
    # Dexterity 3 + Brawl 4 at 6: 8, 9, 10, 3, 2, 6, 1 -> 4 successes, one cancelled: 3. Damage Strength 3 + 1
    # gets two more dice: 6 dice.
    spec = AttackSpec(attack_pool=7, damage_pool=4, soak_pool=3)
    out = roll_attack(spec, attack_faces=[8, 9, 10, 3, 2, 6, 1], damage_faces=[6, 7, 2, 1, 9, 3], soak_faces=[6, 2, 2])
    assert out.attack.final_successes == 3 and out.extra_successes == 2
    assert out.damage_pool == 6
    assert out.damage is not None and out.damage.final_successes == 3  # 6, 7, 9; the 1 does not cancel
    assert out.soak is not None and out.soak.final_successes == 1
    assert (out.soaked, out.wounds) == (1, 2)
    assert out.to_dict()["damage_pool"] == 6


def test_soak_that_leaves_nothing():
    spec = AttackSpec(attack_pool=5, damage_pool=3, soak_pool=4)
    out = roll_attack(spec, attack_faces=[7, 2, 3, 4, 5], damage_faces=[6, 8, 2], soak_faces=[9, 6, 10, 1])
    assert out.damage_pool == 3 and out.damage.final_successes == 2
    assert out.soak.final_successes == 3
    assert (out.soaked, out.wounds) == (2, 0)


def test_miss_rolls_no_damage():
    spec = AttackSpec(attack_pool=3, damage_pool=3, soak_pool=2)
    out = roll_attack(spec, attack_faces=[1, 2, 3])
    assert out.attack.botch and not out.hit
    assert (out.damage_pool, out.damage, out.soak, out.wounds) == (0, None, None, 0)
    with pytest.raises(InvalidValue, match="the attack missed"):
        roll_attack(spec, attack_faces=[1, 2, 3], damage_faces=[6, 6, 6])


def test_no_soak_roll_when_damage_has_no_success():
    spec = AttackSpec(attack_pool=2, damage_pool=2, soak_pool=2)
    out = roll_attack(spec, attack_faces=[7, 2], damage_faces=[1, 2])
    assert out.damage.outcome is Outcome.FAILURE and out.soak is None and out.wounds == 0
    with pytest.raises(InvalidValue, match="no damage to soak"):
        roll_attack(spec, attack_faces=[7, 2], damage_faces=[1, 2], soak_faces=[8, 8])


def test_soak_damage_counts():
    soak, soaked, left = soak_damage(3, 4, faces=[2, 1, 8, 9])
    assert soak is not None and (soak.dice, soaked, left) == ((2, 1, 8, 9), 2, 1)
    assert soak_damage(3, 0) == (None, 0, 3)


def test_specialty_reaches_the_attack_only():
    spec = AttackSpec(attack_pool=2, damage_pool=2, rules=HouseRules(specialty=Specialty.DOUBLE))
    out = roll_attack(spec, attack_faces=[10, 3], damage_faces=[10, 2, 4])
    assert out.attack.final_successes == 2 and out.damage_pool == 3
    assert out.damage.final_successes == 1  # a 10 on the damage roll counts once


def test_damage_dice():
    assert damage_dice(4, 0) == 0
    assert damage_dice(4, 1) == 4
    assert damage_dice(4, 3) == 6


def test_roll_attack_is_replayable():
    spec = AttackSpec(attack_pool=6, damage_pool=5, soak_pool=3)
    assert roll_attack(spec, rng=random.Random(3)) == roll_attack(spec, rng=random.Random(3))


def _brute_attack(spec: AttackSpec) -> dict[int, Fraction]:
    out: Counter = Counter()
    den = Fraction(1)
    for af in itertools.product(range(1, 11), repeat=spec.attack_pool):
        a = count_dice(spec.attack_pool, spec.attack_difficulty, af, rules=spec.rules)
        n = damage_dice(spec.damage_pool, a.final_successes)
        if n == 0:
            out[0] += Fraction(1, 10**spec.attack_pool)
            continue
        for df in itertools.product(range(1, 11), repeat=n):
            d = score_kind(RollPurpose.DAMAGE, n, spec.damage_difficulty, df, combat=spec.combat)
            p = Fraction(1, 10 ** (spec.attack_pool + n))
            if spec.soak_pool == 0 or d.final_successes == 0:
                out[d.final_successes] += p
                continue
            for sf in itertools.product(range(1, 11), repeat=spec.soak_pool):
                s = score_kind(RollPurpose.SOAK, spec.soak_pool, spec.soak_difficulty, sf, combat=spec.combat)
                out[max(d.final_successes - s.final_successes, 0)] += p / 10**spec.soak_pool
    assert sum(out.values()) == den
    return dict(out)


@pytest.mark.parametrize(
    "spec",
    [
        AttackSpec(attack_pool=2, damage_pool=1, soak_pool=1),
        AttackSpec(attack_pool=2, damage_pool=1, soak_pool=0, damage_difficulty=4),
        AttackSpec(attack_pool=2, damage_pool=1, soak_pool=1, combat=CANCEL, attack_difficulty=5),
        AttackSpec(attack_pool=1, damage_pool=2, soak_pool=2, soak_difficulty=7),
    ],
)
def test_p_attack_matches_brute_force(spec):
    odds = p_attack(spec)
    assert {k: p for k, p in enumerate(odds.distribution) if p} == {k: p for k, p in _brute_attack(spec).items() if p}
    assert odds.p_unresolved == 0
    assert sum(odds.weights) == odds.denominator


def test_p_attack_hand_checked():
    # one attack die, one damage die, no soak, everything at 6: hit 1/2 (6..10), then damage 1/2.
    odds = p_attack(AttackSpec(attack_pool=1, damage_pool=1))
    assert odds.distribution == (Fraction(3, 4), Fraction(1, 4))
    assert odds.expected == Fraction(1, 4)
    assert odds.p_hit == Fraction(1, 2)
    assert odds.p_botch == Fraction(1, 10)


def test_p_attack_reroll_keeps_the_tail_apart():
    spec = AttackSpec(attack_pool=3, damage_pool=2, soak_pool=2, rules=HouseRules(specialty=Specialty.REROLL))
    odds = p_attack(spec)
    assert 0 < odds.p_unresolved < Fraction(1, 10**11)
    assert sum(odds.weights) + odds.unresolved_weight == odds.denominator


def test_p_attack_limit():
    with pytest.raises(InvalidValue, match=f"at most {MAX_ATTACK_DICE} dice"):
        p_attack(AttackSpec(attack_pool=150, damage_pool=60))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.integers(0, 6), st.integers(2, 10))
def test_more_soak_never_means_more_wounds(a, d, s, diff):
    fewer = p_attack(AttackSpec(attack_pool=a, damage_pool=d, soak_pool=s, damage_difficulty=diff))
    more = p_attack(AttackSpec(attack_pool=a, damage_pool=d, soak_pool=s + 1, damage_difficulty=diff))
    assert sum(fewer.weights) == fewer.denominator
    for k in range(1, len(fewer.weights)):
        more_at_least = more.at_least[k] if k < len(more.weights) else 0
        assert more_at_least <= fewer.at_least[k]
    assert more.expected <= fewer.expected


# ---- initiative --------------------------------------------------------------------------------------------


def test_initiative_with_wound_penalties_and_ties():
    entries = [
        InitiativeEntry("Shadow-in-the-Wood", dexterity=3, wits=3, wound_penalty=1),  # Hurt
        InitiativeEntry("Red-of-Teeth", dexterity=2, wits=2),
        InitiativeEntry("Ears-of-the-Wind", dexterity=2, wits=4),
        InitiativeEntry("Weston", dexterity=4, wits=2, wound_penalty=2),
    ]
    order = order_initiative(entries, [7, 8, 6, 8])
    # Shadow 7 + 6 - 1 = 12; Red 8 + 4 = 12; Ears 6 + 6 = 12; Weston 8 + 6 - 2 = 12: all tied on the total.
    # Rating: Shadow 6, Ears 6, Weston 6, Red 4 -> Red last. Among the sixes Wits: Ears 4, Shadow 3, Weston 2.
    assert [(o.name, o.total, o.place) for o in order] == [
        ("Ears-of-the-Wind", 12, 1),
        ("Shadow-in-the-Wood", 12, 2),
        ("Weston", 12, 3),
        ("Red-of-Teeth", 12, 4),
    ]


def test_initiative_full_tie_shares_a_place():
    entries = [InitiativeEntry("A", 3, 2), InitiativeEntry("B", 1, 1), InitiativeEntry("C", 3, 2)]
    order = order_initiative(entries, [4, 10, 4])
    assert [(o.name, o.total, o.place) for o in order] == [("B", 12, 1), ("A", 9, 2), ("C", 9, 2)]
    assert order[1].to_dict() == {
        "name": "A",
        "place": 2,
        "die": 4,
        "rating": 5,
        "wits": 2,
        "wound_penalty": 0,
        "total": 9,
    }


def test_initiative_bad_input():
    e = [InitiativeEntry("A", 3, 2)]
    with pytest.raises(InvalidValue, match="1 die given for 2 characters"):
        order_initiative([*e, InitiativeEntry("B", 1, 1)], [4])
    with pytest.raises(InvalidValue, match="allowed: 1 to 10"):
        order_initiative(e, [11])
    with pytest.raises(InvalidValue, match="more than once"):
        order_initiative(e + e, [1, 2])
    with pytest.raises(InvalidValue, match="Wits -1"):
        InitiativeEntry("A", 3, -1)
    with pytest.raises(InvalidValue, match="at least one"):
        order_initiative([], [])


def test_roll_initiative_seeded():
    e = [InitiativeEntry("A", 3, 2), InitiativeEntry("B", 2, 2)]
    assert roll_initiative(e, rng=random.Random(5)) == roll_initiative(e, rng=random.Random(5))


# ---- Rage for extra actions --------------------------------------------------------------------------------


def test_rage_action_penalties():
    assert rage_action_penalties(3, 0) == [3, 4, 5]  # the plain ladder
    assert rage_action_penalties(2, 1) == [0, 0]  # one action plus one bought with Rage
    assert rage_action_penalties(4, 2) == [2, 3, 0, 0]  # two on the ladder, two with Rage
    with pytest.raises(InvalidValue, match="at least 3 dice pools"):
        rage_action_penalties(2, 2)


def test_rage_beyond_the_points_is_refused():
    assert validate_rage_spend(2, 3) == 2
    with pytest.raises(RuleRefusal, match="only 1 left"):
        validate_rage_spend(2, 1)
    with pytest.raises(RuleRefusal, match="cap of 1"):
        validate_rage_spend(2, 5, CombatRules(rage_cap=1))
    with pytest.raises(InvalidValue):
        validate_rage_spend(0, 5)
    with pytest.raises(InvalidValue, match="Rage cap"):
        CombatRules(rage_cap=0)


def test_roll_rage_actions_counts_the_ladder():
    slots = roll_rage_actions([7, 6, 6], [6, 6, 6], 1, faces=[[8, 8, 2, 3, 1], [6, 5, 4], [9, 9, 9, 9, 9, 9]])
    assert [(s.penalty, s.pool) for s in slots] == [(2, 5), (3, 3), (0, 6)]
    assert [s.roll.final_successes for s in slots] == [1, 1, 6]
    with pytest.raises(InvalidValue, match="3 of the actions"):
        roll_rage_actions([7, 6, 6], [6, 6, 6], 1, faces=[[1]])


@st.composite
def _initiative_case(draw):
    n = draw(st.integers(1, 8))
    entries = [
        InitiativeEntry(f"C{i}", draw(st.integers(0, 7)), draw(st.integers(0, 5)), draw(st.sampled_from([0, 1, 2, 5])))
        for i in range(n)
    ]
    return entries, draw(st.lists(st.integers(1, 10), min_size=n, max_size=n))


@settings(max_examples=200, deadline=None)
@given(_initiative_case())
def test_initiative_order_properties(case):
    entries, dice = case
    order = order_initiative(entries, dice)
    assert sorted(o.name for o in order) == sorted(e.name for e in entries)
    by_name = {e.name: (e, d) for e, d in zip(entries, dice, strict=True)}
    for o in order:
        e, d = by_name[o.name]
        assert o.total == d + e.dexterity + e.wits - e.wound_penalty and o.die == d
    keys = [(o.total, o.rating, o.wits) for o in order]
    assert keys == sorted(keys, reverse=True)
    for i, o in enumerate(order):
        # a shared place means an equal key; a new key starts at its position (competition ranking)
        first = next(j for j, k in enumerate(keys) if k == keys[i])
        assert o.place == first + 1
