"""Every combination of the scoring house keys (generated from stkit.dice.house.SCORING_KEYS), with and
without a specialty, Willpower and an automatic success: every face of small pools counted by the
independent table in tests/dice/independent.py, and compared with the roll (score_dice) and the exact
odds (roll_distribution) alike."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from stkit.dice import count_dice
from stkit.dice.house import HOUSE_KEYS, SCORING_KEYS, STANDARD_CHRONICLE_RULES, rules_from_settings, setting_text
from stkit.dice.odds import roll_distribution
from stkit.errors import InvalidValue
from tests.dice.independent import count, explodes

#: Every combination of the scoring keys' values, as `stkit house set` text.
COMBOS = [
    {key: setting_text(v) if not isinstance(v, bool) or key != "specialty-botch" else ("yes" if v else "no")
     for key, v in zip(SCORING_KEYS, values, strict=True)}
    for values in itertools.product(*SCORING_KEYS.values())
]  # fmt: skip
#: How deep a chain of extra dice the brute force follows (the rest is a known, small remainder).
DEPTH = 1


def _outcomes(pool: int, difficulty: int, rules: dict, specialised: bool, willpower: bool, automatic: int):
    """(face tuple, probability) for every way ``pool`` dice can fall, extra dice followed to DEPTH; and
    the probability left unfollowed."""
    rolled = pool + (3 if willpower and rules["willpower"] == "three-dice" else 0)
    again = explodes(rules, specialised)
    out, lost = [], Fraction(0)
    for base in itertools.product(range(1, 11), repeat=rolled):
        stack = [(base, base.count(10) if again else 0, 0)]
        while stack:
            faces, owed, depth = stack.pop()
            p = Fraction(1, 10 ** len(faces))
            if not owed:
                out.append((faces, p))
            elif depth >= DEPTH:
                lost += p
            else:
                for f in range(1, 11):
                    stack.append(((*faces, f), owed - 1 + (f == 10), depth + 1))
    return out, lost


def _cases():
    for rules in COMBOS:
        for specialised, willpower, automatic in itertools.product((False, True), (False, True), (0, 1)):
            if willpower and automatic:
                continue
            yield rules, specialised, willpower, automatic


CASES = list(_cases())


def _distinct(pool: int):
    """One case per distinct (rules, Willpower, automatic) the engine sees; Willpower's three dice (four
    more dice to enumerate) in test_willpower_three_dice instead."""
    seen = set()
    for settings, specialised, willpower, automatic in CASES:
        if willpower and settings["willpower"] == "three-dice":
            continue
        rules = rules_from_settings(settings).dice_rules(specialised)
        if (rules, willpower, automatic) in seen:
            continue
        seen.add((rules, willpower, automatic))
        yield settings, specialised, willpower, automatic, rules


@pytest.mark.parametrize(
    ("pool", "difficulty"),
    [(1, 6), pytest.param(1, 2, marks=pytest.mark.slow), pytest.param(1, 10, marks=pytest.mark.slow),
     pytest.param(2, 6, marks=pytest.mark.slow), pytest.param(2, 9, marks=pytest.mark.slow)],
)  # fmt: skip
def test_every_face_under_every_combination_of_keys(pool, difficulty):
    _check(pool, difficulty, list(_distinct(pool)))


@pytest.mark.parametrize("tens", ["once", pytest.param("explode", marks=pytest.mark.slow)])
def test_willpower_three_dice(tens):
    """Willpower's three dice: a pool of 1 rolls 4 dice, cannot botch, adds no success."""
    cases = []
    for tcancel, botch in itertools.product(("off", "on"), ("yes", "no")):
        settings = dict(COMBOS[0]) | {"willpower": "three-dice", "tens": tens, "tens-cancel-ones": tcancel,
                                      "specialty-botch": botch}  # fmt: skip
        cases.append((settings, True, True, 0, rules_from_settings(settings).dice_rules(True)))
    _check(1, 6, cases)


def _check(pool: int, difficulty: int, cases) -> None:
    checked = 0
    for settings, specialised, willpower, automatic, rules in cases:
        outs, lost = _outcomes(pool, difficulty, settings, specialised, willpower, automatic)
        dist: Counter[int] = Counter()
        botch = Fraction(0)
        for faces, p in outs:
            want = count(faces, pool, difficulty, settings, specialised=specialised, willpower=willpower,
                         automatic=automatic)  # fmt: skip
            got = count_dice(pool, difficulty, faces, rules=rules, willpower=willpower, automatic=automatic)
            assert (got.final_successes, got.outcome.value) == (want.final, want.outcome), (settings, faces)
            dist[want.final] += p
            botch += p if want.outcome == "botch" else 0
            checked += 1
        try:
            odds = roll_distribution(pool, difficulty, rules=rules, willpower=willpower, automatic=automatic)
        except InvalidValue:
            # the one combination without exact odds: 10s that both cancel 1s and roll again
            assert settings["tens-cancel-ones"] == "on" and settings["ones-cancel"] == "on" and lost
            continue
        assert odds.p_botch == botch, settings
        for k in range(max(dist) + 1):
            assert abs(odds.p_exactly(k) - dist[k]) <= lost, (settings, specialised, willpower, automatic, k)
        if not lost:
            assert odds.distribution == tuple(dist[k] for k in range(len(odds.distribution)))
    assert checked > 10


def _counted(faces: tuple[int, ...], settings: dict, specialised: bool, willpower: bool, extra: int):
    rules = rules_from_settings(settings).dice_rules(specialised)
    given = faces + ((5, 5, 5) if willpower and settings.get("willpower") == "three-dice" else ())
    if rules.explodes:
        given += (extra,) * given.count(10)
    got = count_dice(len(faces), 6, given, rules=rules, willpower=willpower)
    return got.final_successes, got.outcome


def test_each_scoring_key_changes_some_count():
    """A key the engine ignored would leave every count alone: each value of each key changes one."""
    for key, values in SCORING_KEYS.items():
        base = {"tens": "explode"} if key == "extra-ones-cancel" else {}
        for value in values:
            text = ("yes" if value else "no") if key == "specialty-botch" else setting_text(value)
            if text == setting_text(getattr(STANDARD_CHRONICLE_RULES, SCORING_FIELD[key])) or (
                key == "specialty-botch" and value
            ):
                continue
            changed = any(
                _counted(faces, base | {key: text}, specialised, willpower, extra)
                != _counted(faces, base, specialised, willpower, extra)
                for faces in ((10, 1, 6, 1), (1, 2, 3, 4), (10, 10, 1, 1), (10, 1, 1, 1), (10, 6, 6, 2))
                for specialised in (False, True)
                for willpower in (False, True)
                for extra in (6, 1)
            )
            assert changed, (key, text)


SCORING_FIELD = {key: HOUSE_KEYS[key][0] for key in SCORING_KEYS}


@pytest.mark.parametrize("pool", [2, 3])
def test_tens_cancel_ones_on_pools_where_a_10_meets_a_1(pool):
    """Two dice or more, where a 10 and a 1 can fall together: the die-by-die count of the odds agrees."""
    cases = []
    for specialised, willpower, automatic in itertools.product((False, True), (False, True), (0, 1)):
        settings = dict(COMBOS[0]) | {"tens-cancel-ones": "on"}
        cases.append(
            (settings, specialised, willpower, automatic, rules_from_settings(settings).dice_rules(specialised))
        )
    _check(pool, 6, cases)
