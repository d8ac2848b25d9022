"""`stkit attack` in a scene's turn: one action a turn unless Rage buys more or the Storyteller forces it,
and the target soaks by its soak rules unless `--no-soak` (said in the output)."""

from __future__ import annotations

import pytest

from tests.clirun import ok, ok_json, run


@pytest.fixture
def bout(db_url):
    ok("char", "new", "Tooth", "--set", "Dexterity=3", "--set", "Brawl=2", "--set", "Strength=2", "--set", "Rage=3")
    ok("char", "new", "Post", "--set", "Stamina=3")
    return db_url


SWING = ["attack", "Tooth", "Post", "-p", "Dexterity + Brawl", "--damage", "Strength"]


def test_a_second_attack_in_one_turn_is_refused_without_rage_or_force(bout):
    ok("scene", "start", "Brawl")
    first = ok_json(*SWING, "--dice-attack", "2,2,2,2,2")
    res = run(*SWING, "--dice-attack", "2,2,2,2,2")
    assert res.exit_code == 1, res.output
    assert f"Tooth already acted in turn 1 (roll #{first['log_ids'][0]})" in res.stderr
    assert "--rage" in res.stderr and "--force" in res.stderr and "Traceback" not in res.output
    assert len(ok_json("log", "--limit", "100")["rolls"]) == 1  # nothing written by the refusal
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2", "--force")  # the Storyteller's call
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2", "--rage")  # Rage buys an extra action
    ok("scene", "next")
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2")  # a new turn, a new action


def test_outside_a_scene_there_is_no_turn_to_count(bout):
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2")
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2")


def test_the_target_soaks_by_its_rules_unless_no_soak(bout):
    """Attack 8, 9, 2, 2, 2: 2 successes, damage Strength 2 + 1 = 3 dice 6, 7, 8: 3 successes (bashing).
    By default Post soaks with Stamina 3 (a mortal soaks bashing): 6, 2, 2 is one success, 2 levels left.
    With --no-soak no soak roll: 3 levels, and the output says so."""
    done = ok_json(*SWING, "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8", "--dice-soak", "6,2,2")
    assert (done["soak_pool"], done["soaked"], done["wounds"], done["soaked_by"]) == (3, 1, 2, "rules")
    text = ok(*SWING, "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8", "--dice-soak", "6,2,2")
    assert "Soak (the soak rules): Stamina 3: 3 dice at difficulty 6" in text
    ok("char", "heal", "Post", "4")
    bare = ok_json(*SWING, "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8", "--no-soak")
    assert (bare["soak"], bare["wounds"], bare["soaked_by"]) == (None, 3, "none")
    assert "no soak: --no-soak" in bare["notes"]
    ok("char", "heal", "Post", "3")
    text = ok(*SWING, "--dice-attack", "8,9,2,2,2", "--dice-damage", "6,7,8", "--no-soak")
    assert "Not soaked: Post rolls no soak" in text
    res = run(*SWING, "--no-soak", "--soak-pool", "Stamina")
    assert res.exit_code == 2 and "--soak-pool or --no-soak" in res.output


def test_the_table_page_refuses_posting_a_second_attack_unless_the_storyteller_forces_it(bout):
    from stkit.errors import RuleRefusal
    from stkit.store.db.gateway import run_unit
    from stkit.store.table import prompts as P

    ok("scene", "start", "Brawl")
    ok_json(*SWING, "--dice-attack", "2,2,2,2,2")

    def post(force: bool):
        return lambda gw: P.post_attack(
            gw, "default", "Tooth", "Post", pool="Dexterity + Brawl", damage="Strength", force=force
        )

    with pytest.raises(RuleRefusal, match="Tooth already acted in turn 1"):
        run_unit(bout, post(False))
    posted = run_unit(bout, post(True))
    assert posted.asked["force"] is True
