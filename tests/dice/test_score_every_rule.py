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
from stkit.dice.house import SCORING_KEYS, STANDARD_CHRONICLE_RULES, rules_from_settings, setting_text
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
DEPTH = 2


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
    """One case per distinct (rules, Willpower, automatic) the engine sees; Willpower's three dice only on
    a pool of one (four dice to enumerate)."""
    seen = set()
    for settings, specialised, willpower, automatic in CASES:
        if willpower and settings["willpower"] == "three-dice" and pool > 1:
            continue
        rules = rules_from_settings(settings).dice_rules(specialised)
        if (rules, willpower, automatic) in seen:
            continue
        seen.add((rules, willpower, automatic))
        yield settings, specialised, willpower, automatic, rules


@pytest.mark.parametrize(
    ("pool", "difficulty"), [(1, 2), (1, 6), (1, 10), pytest.param(2, 6, marks=pytest.mark.slow),
                             pytest.param(2, 9, marks=pytest.mark.slow)]
)  # fmt: skip
def test_every_face_under_every_combination_of_keys(pool, difficulty):
    checked = 0
    for settings, specialised, willpower, automatic, rules in _distinct(pool):
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
    assert checked > 1000


def test_each_scoring_key_changes_some_count():
    """A key the engine ignored would leave every count alone: each one changes at least one."""
    faces, pool = (10, 1, 6, 1), 4
    written = {k: setting_text(v) for k, v in STANDARD_CHRONICLE_RULES.to_dict().items()}
    for key, values in SCORING_KEYS.items():
        changed = False
        for value in values:
            text = setting_text(value) if key != "specialty-botch" else ("yes" if value else "no")
            base = {"specialty": "reroll"} if key == "extra-ones-cancel" else {}
            for specialised, willpower, extra in itertools.product((False, True), (False, True), ((), (1,), (9,))):
                faces_all = faces + ((5, 5, 5) if willpower and text == "three-dice" else ()) + extra
                settings = written | base | {key: text}
                rules = rules_from_settings(base | {key: text}).dice_rules(specialised)
                plain = rules_from_settings(base).dice_rules(specialised)
                try:
                    a = count_dice(pool, 6, faces_all, rules=rules, willpower=willpower)
                    b = count_dice(pool, 6, faces_all[: len(faces_all) - len(extra)] if not plain.explodes
                                   else faces_all, rules=plain, willpower=willpower)  # fmt: skip
                except InvalidValue:
                    continue
                del settings
                changed |= (a.final_successes, a.outcome) != (b.final_successes, b.outcome)
        assert changed, key
