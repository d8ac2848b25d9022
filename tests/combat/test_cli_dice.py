"""`stkit roll --damage / --soak`, `stkit odds --damage / --soak` and `stkit odds attack`, in-process."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stkit.dice.combat import AttackSpec, p_attack
from tests.clirun import ok_json, run


def test_soak_roll_human_output():
    res = run("roll", "4", "--soak", "--dice", "2,1,8,9")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [
        "Soak roll (cannot botch): 4 dice at difficulty 6",
        "Dice: 2 <1> [8] [9]",
        "a 1 not cancelling (a soak roll)",
        "2 successes (marginal)",
    ]


def test_damage_roll_with_only_ones_is_a_failure():
    data = ok_json("roll", "3", "--damage", "--dice", "1,1,4")
    assert (data["kind"], data["outcome"], data["result"]) == ("damage", "failure", 0)
    assert data["house_rules"]["ones_cancel"] is False
    assert data["combat_rules"] == {"damage_ones_cancel": False, "rage_cap": None, "unsoakable": []}
    assert data["seed"] is None


def test_damage_ones_cancel_flag():
    data = ok_json("roll", "3", "--damage", "--dice", "1,8,4", "--damage-ones-cancel")
    assert (data["net"], data["result"], data["outcome"]) == (0, 0, "failure")


def test_seeded_damage_roll_replays():
    a = ok_json("roll", "6", "--damage", "--seed", "11")
    b = ok_json("roll", "6", "--damage", "--seed", "11")
    assert a == b and a["seed"] == 11


@pytest.mark.parametrize(
    "args,message",
    [
        (["roll", "3", "--damage", "--soak"], "two different rolls"),
        (["roll", "3", "--damage", "--auto"], "--auto is for actions"),
        (["roll", "3", "--soak", "--retry", "1"], "--retry is for actions"),
        (["roll", "3", "--damage-ones-cancel"], "only applies with --damage or --soak"),
        (["roll", "0", "--damage"], "cannot be attempted"),
        (["odds", "3", "--damage", "--soak"], "two different rolls"),
        (["odds", "3", "--soak", "--target", "5"], "a single roll"),
        (["odds", "attack", "150", "--damage", "60"], "at most 200 dice"),
        (["odds", "attack", "5", "--damage", "0"], "dice pool 0 has no dice"),
        (["odds", "attack", "5", "--damage", "3", "--soak", "-1"], "soak pool -1"),
        (["odds", "attack", "5", "--damage", "3", "--soak-difficulty", "11"], "difficulty 11"),
    ],
)
def test_bad_input_is_one_line(args, message):
    res = run(*args)
    assert res.exit_code == 1, res.output
    assert message in res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output


def test_odds_soak_has_no_botch():
    data = ok_json("odds", "2", "--soak")
    assert data["kind"] == "soak" and data["p_botch"] == 0.0
    # two dice at 6, 1s not cancelling: 0 successes 25/100, 1 50/100, 2 25/100
    assert [e["exact"] for e in data["distribution"]] == ["1/4", "1/2", "1/4"]
    assert data["p_failure"] == 0.25


def test_odds_damage_with_cancelling_ones():
    data = ok_json("odds", "2", "--damage", "--damage-ones-cancel")
    # as an action's distribution (7/20, 2/5, 1/4) but the 9/100 botch is a failure
    assert [e["exact"] for e in data["distribution"]] == ["7/20", "2/5", "1/4"]
    assert (data["p_botch"], data["p_failure"]) == (0.0, 0.35)


def test_odds_soak_human_output():
    res = run("odds", "1", "--soak")
    assert res.exit_code == 0, res.output
    assert "1 die at difficulty 6 (a soak roll: never a botch, 1s don't cancel)" in res.stdout
    assert "Botch" not in res.stdout


def test_odds_attack_exact_small():
    data = ok_json("odds", "attack", "1", "--damage", "1")
    assert [e["exact"] for e in data["wounds"]] == ["3/4", "1/4"]
    assert (data["p_hit"], data["p_botch"], data["expected_wounds"]) == (0.5, 0.1, 0.25)


def test_odds_attack_agrees_with_the_engine():
    data = ok_json("odds", "attack", "7", "--damage", "5", "--soak", "4", "-d", "7")
    odds = p_attack(AttackSpec(attack_pool=7, damage_pool=5, soak_pool=4, attack_difficulty=7))
    assert [Fraction(e["exact"]) for e in data["wounds"]] == list(odds.distribution)
    assert sum(Fraction(e["exact"]) for e in data["wounds"]) == 1
    assert data["at_least"][1]["exact"] == str(odds.at_least[1])


def test_odds_attack_human_output():
    res = run("odds", "attack", "1", "--damage", "1", "--exact")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Attack 1 die at 6; damage 1 + 1 per extra success at 6; no soak" in out
    assert "Attack hits" in out and "1/2" in out and "Expected wound levels" in out
