"""The attack as one stepped sequence: the dice, the exact odds and the store's attack walk the same
`AttackSequence`. Expected values are counted here, face by face, with a per-face table written in this
file (not the engine's scorer)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from stkit.dice.combat import (
    AttackSequence,
    AttackSpec,
    AttackStep,
    CombatRules,
    p_attack,
    roll_attack,
)
from stkit.dice.model import HouseRules, Specialty
from stkit.errors import InvalidValue
from tests.clirun import ok_json, run

# ---- an independent counter --------------------------------------------------------------------------------


def face_value(face: int, difficulty: int, *, double: bool) -> int:
    """One die's successes before the 1s: 0 below the difficulty, 1 at or above it, 2 for a 10 when the
    roll's specialty counts 10s double."""
    if face < difficulty:
        return 0
    return 2 if face == 10 and double else 1


def count_roll(faces: tuple[int, ...], difficulty: int, *, double: bool = False, ones_cancel: bool = True) -> int:
    """Final successes of one roll counted by hand: the successes, less one per 1 when 1s cancel, never
    below 0 (a botch is 0 successes too)."""
    hits = sum(face_value(f, difficulty, double=double) for f in faces)
    ones = faces.count(1) if ones_cancel else 0
    return max(hits - ones, 0)


def count_attack(
    attack: tuple[int, ...],
    defence: tuple[int, ...] | None,
    damage_base: int,
    damage_faces: tuple[int, ...],
    soak: tuple[int, ...] | None,
    *,
    double_attack: bool = False,
    double_damage: bool = False,
) -> int:
    """Wounds of one attack counted by hand at difficulty 6 everywhere: attack successes less the
    defence's (1s cancel on both); the damage pool grows by one die per net success past the first (the
    faces given must be that many); the soak's successes come off the damage's (1s do not cancel on damage
    and soak: the rules as shipped)."""
    net = count_roll(attack, 6, double=double_attack)
    if defence is not None and net:
        net = max(net - count_roll(defence, 6), 0)
    if not net:
        return 0
    assert len(damage_faces) == damage_base + net - 1
    dealt = count_roll(damage_faces, 6, double=double_damage, ones_cancel=False)
    soaked = count_roll(soak, 6, ones_cancel=False) if soak and dealt else 0
    return max(dealt - soaked, 0)


def brute_attack(attack_pool: int, damage_base: int, defence_pool: int, soak_pool: int, **double: bool) -> dict:
    """P(wounds == w) by enumerating every face of every roll (each roll's faces weighted 1/10 per die)."""
    out: Counter[int] = Counter()
    faces10 = range(1, 11)
    for attack in itertools.product(faces10, repeat=attack_pool):
        p_a = Fraction(1, 10**attack_pool)
        a = count_roll(attack, 6, double=double.get("double_attack", False))
        defences = itertools.product(faces10, repeat=defence_pool) if defence_pool and a else [None]
        for defence in defences:
            p_d = p_a * (Fraction(1, 10**defence_pool) if defence is not None else 1)
            net = max(a - count_roll(defence, 6), 0) if defence is not None else a
            if not net:
                out[0] += p_d
                continue
            n = damage_base + net - 1
            for dmg in itertools.product(faces10, repeat=n):
                p_g = p_d / 10**n
                dealt = count_roll(dmg, 6, double=double.get("double_damage", False), ones_cancel=False)
                if not dealt or not soak_pool:
                    out[dealt] += p_g
                    continue
                for s in itertools.product(faces10, repeat=soak_pool):
                    wounds = count_attack(attack, defence, damage_base, dmg, s, **double)
                    out[wounds] += p_g / 10**soak_pool
    return dict(out)


DOUBLE = HouseRules(specialty=Specialty.DOUBLE, specialised=True)


# ---- the golden case: 33/500 -------------------------------------------------------------------------------


def test_one_attack_die_and_one_damage_die_with_specialties_under_double():
    """Attack 1 die, damage 1 die, difficulty 6, `specialty double` and a specialty on both rolls.
    By hand: the attack die gives 0 (1-5), 1 success (6-9, 4/10) or 2 (a 10, 1/10). One success: one
    damage die, 2 levels only on a 10: 4/10 * 1/10 = 40/1000. Two successes: two damage dice, each 0
    (5/10), 1 (4/10) or 2 (1/10); a sum of 2 is 1+1 (16/100) or 0+2 either way (10/100): 1/10 * 26/100 =
    26/1000. P(2 levels) = 66/1000 = 33/500; the most is 4 levels (10 on all three dice, 1/1000)."""
    spec = AttackSpec(attack_pool=1, damage_pool=1, rules=DOUBLE, damage_specialised=True)
    odds = p_attack(spec)
    assert odds.p_wounds(2) == Fraction(33, 500)
    assert len(odds.weights) - 1 == 4 and odds.p_wounds(4) == Fraction(1, 1000)
    assert dict(enumerate(odds.distribution)) == brute_attack(1, 1, 0, 0, double_attack=True, double_damage=True)
    # without the damage specialty the damage 10 is one level: at most 2 levels
    plain = p_attack(AttackSpec(attack_pool=1, damage_pool=1, rules=DOUBLE))
    assert len(plain.weights) - 1 == 2
    assert dict(enumerate(plain.distribution)) == brute_attack(1, 1, 0, 0, double_attack=True)


@pytest.fixture
def duel(db_url):
    """An attacker whose attack and damage pools are one die each, from Traits with a specialty (four
    dots less three), under `specialty double`; the target has no soak worth rolling (--no-soak)."""
    res = run("char", "new", "Duellist", "--set", "Dexterity=4", "--set", "Strength=4")
    assert res.exit_code == 0, res.output
    for trait, name in (("Dexterity", "Quick"), ("Strength", "Heavy")):
        assert run("char", "set", "Duellist", f"{trait} specialty", name).exit_code == 0
    assert run("char", "new", "Dummy", "--set", "Stamina=2").exit_code == 0
    assert run("house", "set", "specialty", "double").exit_code == 0
    return db_url


ATTACK = ["attack", "Duellist", "Dummy", "-p", "Dexterity - 3", "--damage", "Strength - 3", "--no-soak"]


def test_odds_attack_and_stkit_attack_agree_on_the_golden_case(duel):
    """`odds attack 1 --damage 1 --spec --damage-spec` says 33/500 for 2 levels and up to 4; `stkit attack`
    with the same specialties scores its dice as the hand count says, seed after seed, and 10, 10, 10 is 4
    levels."""
    odds = ok_json("odds", "attack", "1", "--damage", "1", "--spec", "--damage-spec")
    wounds = {row["levels"]: Fraction(row["exact"]) for row in odds["wounds"]}
    assert wounds[2] == Fraction(33, 500) and max(wounds) == 4 and wounds[4] == Fraction(1, 1000)
    top = ok_json(*ATTACK, "--spec", "--damage-spec", "--dice-attack", "10", "--dice-damage", "10,10")
    assert (top["attack"]["result"], top["damage_pool"], top["wounds"]) == (2, 2, 4)
    assert run("char", "heal", "Dummy", "4").exit_code == 0
    # a specialty reaches only the roll that names it: no --damage-spec, each damage 10 is one level
    half = ok_json(*ATTACK, "--spec", "--dice-attack", "10", "--dice-damage", "10,10")
    assert (half["attack"]["result"], half["damage_pool"], half["wounds"]) == (2, 2, 2)
    plain = ok_json(*ATTACK, "--dice-attack", "10", "--dice-damage", "10")
    assert (plain["attack"]["result"], plain["damage_pool"], plain["wounds"]) == (1, 1, 1)
    seen = set()
    assert run("char", "heal", "Dummy", "3").exit_code == 0
    for seed in range(40):
        d = ok_json(*ATTACK, "--spec", "--damage-spec", "--seed", str(seed))
        attack = tuple(d["attack"]["dice"])
        damage = tuple(d["damage"]["dice"]) if d["damage"] else ()
        expected = count_attack(attack, None, 1, damage, None, double_attack=True, double_damage=True)
        assert d["wounds"] == expected, (seed, attack, damage)
        seen.add(expected)
        if d["wounds"]:
            assert run("char", "heal", "Dummy", str(d["wounds"])).exit_code == 0
    assert {0, 1, 2} <= seen  # the seeds reach misses, one level and two


def test_the_damage_specialty_must_be_on_the_sheet(duel):
    res = run(*ATTACK[:4], "Dexterity - 3", "--damage", "2", "--no-soak", "--damage-spec", "--seed", "1")
    assert res.exit_code == 1 and "--spec: no Trait of the pool '2'" in res.stderr, res.output


# ---- brute force of the whole sequence ---------------------------------------------------------------------

#: (attack, damage, defence, soak) pools small enough to enumerate every face in well under a second.
SMALL = [
    (1, 1, 0, 0),
    (2, 1, 0, 0),
    (1, 2, 0, 1),
    (1, 1, 1, 1),
    (2, 1, 1, 0),
    (1, 1, 1, 2),
]


@pytest.mark.parametrize(("attack", "damage", "defence", "soak"), SMALL)
@pytest.mark.parametrize("double", [{}, {"double_attack": True}, {"double_attack": True, "double_damage": True}])
def test_exact_odds_match_every_face_enumerated(attack, damage, defence, soak, double):
    spec = AttackSpec(
        attack_pool=attack,
        damage_pool=damage,
        defence_pool=defence,
        soak_pool=soak,
        rules=DOUBLE if double.get("double_attack") else HouseRules(specialised=False),
        damage_specialised=bool(double.get("double_damage")),
    )
    if not double.get("double_attack") and double.get("double_damage"):
        pytest.skip("covered by the attack-and-damage case")
    odds = p_attack(spec)
    brute = brute_attack(attack, damage, defence, soak, **double)
    assert {k: p for k, p in enumerate(odds.distribution) if p} == {k: p for k, p in brute.items() if p}
    assert sum(odds.distribution) == 1 and odds.unresolved_weight == 0


@pytest.mark.parametrize(("attack", "damage", "defence", "soak"), [(1, 1, 1, 1), (1, 2, 0, 2)])
def test_rolled_attacks_score_as_the_hand_count(attack, damage, defence, soak):
    """Every attack, defence and soak face of small pools, rolled through `roll_attack` with the faces
    given (the damage faces: a fixed pattern of the right length), against the hand count."""
    spec = AttackSpec(
        attack_pool=attack, damage_pool=damage, defence_pool=defence, soak_pool=soak, rules=DOUBLE,
        damage_specialised=True,
    )  # fmt: skip
    pattern = (10, 6, 1, 3, 9, 10)
    for a in itertools.product(range(1, 11), repeat=attack):
        net = count_roll(a, 6, double=True)
        for d in itertools.product(range(1, 11), repeat=defence) if defence and net else [None]:
            left = max(net - count_roll(d, 6), 0) if d is not None else net
            dmg = pattern[: damage + left - 1] if left else None
            dealt = count_roll(dmg, 6, double=True, ones_cancel=False) if dmg else 0
            for s in itertools.product(range(1, 11), repeat=soak) if dealt and soak else [None]:
                r = roll_attack(spec, attack_faces=a, defence_faces=d, damage_faces=dmg, soak_faces=s)
                assert r.wounds == count_attack(a, d, damage, dmg or (), s, double_attack=True, double_damage=True)


# ---- the state machine itself ------------------------------------------------------------------------------


def test_the_sequence_names_each_step_with_its_rules():
    spec = AttackSpec(attack_pool=3, damage_pool=2, defence_pool=2, soak_pool=2, rules=DOUBLE)
    state = AttackSequence(spec)
    steps = []
    for result in (3, 1, 2, 1):
        step = state.next_step()
        assert step is not None
        steps.append((step.step, step.pool, step.rules.specialised))
        state = state.feed(result)
    # 3 attack successes, 1 dodged: 2 net, damage 2 + 1 dice; 2 damage successes, 1 soaked: 1 wound
    assert steps == [
        (AttackStep.ATTACK, 3, True),
        (AttackStep.DEFENCE, 2, False),
        (AttackStep.DAMAGE, 3, False),
        (AttackStep.SOAK, 2, False),
    ]
    assert state.done and state.wounds == 1 and state.next_step() is None
    with pytest.raises(InvalidValue, match="the attack is over"):
        state.feed(1)
    with pytest.raises(InvalidValue, match="not over"):
        _ = AttackSequence(spec).wounds


def test_damage_ones_cancel_reaches_damage_and_soak_only():
    """`damage_ones_cancel` on: a damage roll of 6, 1 is 0 successes (1 - 1), so no wound; off: 1 wound."""
    on = AttackSpec(attack_pool=1, damage_pool=2, combat=CombatRules(damage_ones_cancel=True))
    assert roll_attack(on, attack_faces=[7], damage_faces=[6, 1]).wounds == 0
    off = AttackSpec(attack_pool=1, damage_pool=2)
    assert roll_attack(off, attack_faces=[7], damage_faces=[6, 1]).wounds == 1
