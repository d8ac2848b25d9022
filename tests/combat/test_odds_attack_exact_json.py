"""`stkit odds attack --json` gives every chance it prints as an exact fraction ("n/d" strings, as `odds roll
--json`), checked against a brute-force count over every face written here (not the engine's scorer).

Counted: an attack of 2 dice at 6 and a damage pool of 1 die at 6, no soak. The attack's net successes are
its dice at 6 or more less its 1s (Chapter Five, "Botches"); a botch is no success and a 1; a hit is a net
success of 1 or more, and rolls 1 damage die plus one per net success beyond the first ("Try It Out"); a
damage die at 6 or more is one level, and damage rolls' 1s cancel nothing (docs/combat.md)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def _brute_force() -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    hit = botch = 0
    wounds: dict[int, Fraction] = {}
    for attack in itertools.product(range(1, 11), repeat=2):
        successes = sum(1 for f in attack if f >= 6)
        ones = attack.count(1)
        net = successes - ones
        if successes == 0 and ones:
            botch += 1
        if net < 1:
            wounds[0] = wounds.get(0, Fraction(0)) + Fraction(1, 100)
            continue
        hit += 1
        n = 1 + (net - 1)
        for damage in itertools.product(range(1, 11), repeat=n):
            levels = sum(1 for f in damage if f >= 6)
            wounds[levels] = wounds.get(levels, Fraction(0)) + Fraction(1, 100 * 10**n)
    return Fraction(hit, 100), Fraction(botch, 100), wounds


def test_golden_odds_attack_json_is_exact():
    p_hit, p_botch, wounds = _brute_force()
    res = runner.invoke(app, ["odds", "attack", "2", "--damage", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    exact = data["exact"]
    assert Fraction(exact["p_hit"]) == p_hit
    assert Fraction(exact["p_botch"]) == p_botch
    assert Fraction(exact["p_at_least_one_wound"]) == 1 - wounds[0]
    assert Fraction(exact["expected_wounds"]) == sum(k * p for k, p in wounds.items())
    assert [Fraction(row["exact"]) for row in data["wounds"]] == [wounds.get(k, 0) for k in range(len(data["wounds"]))]
    assert all(isinstance(v, str) and "/" in v for v in exact.values())
    assert data["p_hit"] == float(p_hit)  # the float beside it is the same chance
