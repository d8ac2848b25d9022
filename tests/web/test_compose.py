"""A roll's composition (stkit.sheet.compose) decided once below the doors: the unskilled rule, the player's
extra dice and difficulty, the house rules read once per roll; the command line, the shell, saved rolls,
the table page and Discord get the same.

Expected values are stated here from the rules text, not computed by the module under test:
- an untrained Skill: difficulty +1 (Revised, "Abilities": Skills; docs/quick.md `unskilled-skill`);
- a Talent: the Attribute alone, no penalty; a Knowledge with no dots: no roll;
- Chapter Five, "Difficulties": "The Storyteller is the final authority on difficulty numbers".
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice.house import STANDARD_CHRONICLE_RULES, ChronicleRules, RuleOverrides
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.compose import compose_roll
from stkit.sheet.pools import build_pool
from stkit.sheet.sheet import Sheet
from stkit.store.db.gateway import run_unit
from stkit.store.rolling import RollOrder, make_roll, odds_for
from tests.web.conftest import add_character

runner = CliRunner()
HX = {"hx-request": "true"}


def _cy() -> Sheet:
    sheet = Sheet(name="Cy")
    sheet.attributes.update({"Dexterity": 3, "Intelligence": 2})
    sheet.abilities.update({"Brawl": 0, "Melee": 0, "Occult": 0, "Stealth": 2})
    return sheet


def _compose(expression: str, rules: ChronicleRules = STANDARD_CHRONICLE_RULES, **kw):
    sheet = _cy()
    return compose_roll(
        rules, kw.pop("overrides", RuleOverrides()), sheet=sheet, pool=build_pool(sheet, expression), **kw
    )


# ---------------------------------------------------------------------------------------------- pure


def test_an_untrained_skill_is_one_harder_a_talent_is_not_a_knowledge_is_refused():
    assert _compose("Dexterity + Melee").overrides.difficulty == 7  # 6 as written, +1
    assert _compose("Dexterity + Melee", overrides=RuleOverrides(difficulty=8)).overrides.difficulty == 9
    assert _compose("Dexterity + Melee", overrides=RuleOverrides(difficulty=10)).overrides.difficulty == 10
    assert _compose("Dexterity + Melee", ChronicleRules(difficulty=5)).overrides.difficulty == 6
    assert _compose("Dexterity + Brawl").overrides.difficulty is None  # a Talent: no penalty
    assert _compose("Dexterity + Stealth").overrides.difficulty is None
    with pytest.raises(RuleRefusal, match="Occult is a Knowledge"):
        _compose("Intelligence + Occult")
    dice = _compose("Dexterity + Melee", ChronicleRules(unskilled_skill="dice"))
    assert (dice.dice_change, dice.overrides.difficulty) == (-2, None)


def test_a_players_difficulty_counts_only_under_player_difficulty_yes():
    own = RuleOverrides(difficulty=4)
    assert _compose("Dexterity + Stealth", overrides=own, by_player=True).overrides.difficulty is None
    assert _compose("Dexterity + Stealth", overrides=own, by_player=True, preset_difficulty=8).overrides.difficulty == 8
    allowed = ChronicleRules(player_difficulty=True)
    assert _compose("Dexterity + Stealth", allowed, overrides=own, by_player=True).overrides.difficulty == 4
    assert _compose("Dexterity + Stealth", overrides=own).overrides.difficulty == 4  # the Storyteller's own
    assert _compose("Dexterity + Stealth", overrides=own, preset_difficulty=8).overrides.difficulty == 4
    # and the untrained Skill's +1 goes on top of whichever difficulty stands
    assert _compose("Dexterity + Melee", overrides=own, by_player=True, preset_difficulty=8).overrides.difficulty == 9


def test_a_players_rule_choices_are_dropped_the_storytellers_kept():
    double = RuleOverrides(specialty="double", ones_cancel=False)
    assert _compose("Dexterity + Stealth", overrides=double, by_player=True).overrides == RuleOverrides()
    assert _compose("Dexterity + Stealth", overrides=double).overrides == double


def test_a_players_extra_dice_stay_within_table_extra_dice_either_way():
    assert _compose("Dexterity + Stealth + 3", by_player=True).overrides == RuleOverrides()
    for expression in ("Dexterity + Stealth + 4", "Dexterity + Stealth - 4", "Dexterity + Stealth + 2 + 2"):
        with pytest.raises(InvalidValue, match="at most 3 either way"):
            _compose(expression, by_player=True)
    with pytest.raises(InvalidValue, match="at most 0"):
        _compose("Dexterity + Stealth + 1", ChronicleRules(table_extra_dice=0), by_player=True)
    assert _compose("Dexterity + Stealth + 10").notes == ()  # the Storyteller is not bound


# ---------------------------------------------------------------------------------------------- doors


@pytest.fixture
def cy(db_url):
    add_character(db_url, "Cy", attributes={"Dexterity": 3}, abilities={"Stealth": 2})
    return db_url


def _cli(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_golden_the_command_line_rolls_an_untrained_skill_at_the_pages_difficulty(cy, clients, table):
    """`stkit roll "Dexterity + Melee" -c Cy` with Melee 0: difficulty 7 (6 +1 for the untrained Skill),
    as the table page rolls it. Before the rule moved below the doors, the command line rolled at 6."""
    out = _cli("roll", "Dexterity + Melee", "-c", "Cy", "--seed", "3")
    assert out["difficulty"] == 7
    assert any("Melee 0: an untrained Skill, difficulty +1" in n for n in out["notes"])
    odds = _cli("odds", "Dexterity + Melee", "-c", "Cy")
    assert odds["difficulty"] == 7
    st = clients("storyteller")
    r = st.post("/roll", data={"character_id": str(table.weston), "trait": ["Dexterity", "Melee"]}, headers=HX)
    assert 'class="error"' not in r.text
    rows = run_unit(cy, lambda gw: gw.rows("SELECT character_name, difficulty FROM roll_log ORDER BY id"))
    assert [tuple(r) for r in rows] == [("Cy", 7), ("Weston", 7)]
    refused = runner.invoke(app, ["roll", "Wits + Occult", "-c", "Cy"])
    assert refused.exit_code == 1 and "Occult is a Knowledge" in refused.output


def test_saved_rolls_and_the_shell_path_get_the_same_composition(cy):
    from stkit.store.saved import roll_saved, save_roll

    run_unit(cy, lambda gw: save_roll(gw, "Cy", "swing", "Dexterity + Melee", difficulty=5, chronicle="default"))
    done = run_unit(cy, lambda gw: roll_saved(gw, "Cy", "swing", seed=1))
    assert done.roll.difficulty == 6  # the saved 5, +1 untrained
    by_name = run_unit(cy, lambda gw: make_roll(gw, RollOrder("swing", character="Cy", seed=1)))
    assert by_name.roll.difficulty == 6
    # a player's saved roll keeps the saved difficulty (preset), not one the player names
    mine = run_unit(cy, lambda gw: roll_saved(gw, "Cy", "swing", seed=1, difficulty=3, by_player=True))
    assert mine.roll.difficulty == 6
    assert run_unit(cy, lambda gw: odds_for(gw, RollOrder("swing", character="Cy"))).odds.difficulty == 6


def test_a_player_roll_through_the_use_case(cy):
    order = RollOrder("Dexterity + Stealth", character="Cy", overrides=RuleOverrides(difficulty=3), by_player=True)
    assert run_unit(cy, lambda gw: make_roll(gw, order)).roll.difficulty == 6
    called = RollOrder("Dexterity + Stealth", character="Cy", preset_difficulty=8, by_player=True)
    assert run_unit(cy, lambda gw: make_roll(gw, called)).roll.difficulty == 8
    with pytest.raises(InvalidValue, match="at most 3"):
        run_unit(cy, lambda gw: make_roll(gw, RollOrder("Dexterity + Stealth + 5", character="Cy", by_player=True)))
    from stkit.store.house import set_house_rule

    run_unit(cy, lambda gw: set_house_rule(gw, "default", "player-difficulty", "yes"))
    assert run_unit(cy, lambda gw: make_roll(gw, order)).roll.difficulty == 3


def test_the_house_rules_are_read_once_per_roll(clients, table, monkeypatch):
    import stkit.store.house as house

    reads = []
    real = house.get_house_rules
    monkeypatch.setattr(house, "get_house_rules", lambda gw, c: reads.append(c) or real(gw, c))
    c = clients("Weston")
    form = {"character_id": str(table.weston), "trait": ["Dexterity", "Melee"], "dice": "2"}
    r = c.post("/roll", data=form, headers=HX)
    assert 'class="error"' not in r.text
    assert len(reads) == 1
    reads.clear()
    runner.invoke(app, ["roll", "Dexterity + Melee", "-c", "Weston", "--seed", "1"])
    assert len(reads) == 1


def test_the_players_page_offers_the_difficulty_only_under_player_difficulty_yes(clients, table):
    from stkit.store.house import set_house_rule

    c = clients("Weston")
    form = {"character_id": str(table.weston), "trait": ["Dexterity", "Stealth"], "difficulty": "4"}
    assert f'id="diff-{table.weston}"' not in c.get("/").text
    assert 'class="error"' not in c.post("/roll", data=form, headers=HX).text
    run_unit(table.url, lambda gw: set_house_rule(gw, "default", "player-difficulty", "yes"))
    assert f'id="diff-{table.weston}"' in c.get("/").text
    assert 'class="error"' not in c.post("/roll", data=form, headers=HX).text
    rows = run_unit(table.url, lambda gw: gw.rows("SELECT difficulty FROM roll_log ORDER BY id"))
    assert [r[0] for r in rows] == [6, 4]


def test_the_dice_reading_of_an_untrained_skill_takes_two_dice_at_every_door(cy):
    """`unskilled-skill dice`: Dexterity 3 + Melee 0 is 3 - 2 = 1 die at difficulty 6, rolled or counted."""
    from stkit.store.house import set_house_rule

    run_unit(cy, lambda gw: set_house_rule(gw, "default", "unskilled-skill", "dice"))
    done = run_unit(cy, lambda gw: make_roll(gw, RollOrder("Dexterity + Melee", character="Cy", seed=2)))
    assert (done.roll.pool, done.roll.difficulty) == (1, 6)
    answer = run_unit(cy, lambda gw: odds_for(gw, RollOrder("Dexterity + Melee", character="Cy")))
    assert (answer.pool, answer.odds.difficulty) == (1, 6)
    assert _cli("roll", "Dexterity + Melee", "-c", "Cy", "--seed", "2")["pool"] == 1


def test_the_odds_of_a_specialised_roll_read_its_specialty(db_url):
    """Specialty `double` doubles a 10 only on a roll naming a specialty: one die at difficulty 6 gives two
    successes with probability 1/10 with --spec, none without."""
    from stkit.sheet.sheet import Sheet
    from stkit.store.characters import create_character
    from stkit.store.house import set_house_rule

    sheet = Sheet(name="Sy")
    sheet.attributes.update({"Dexterity": 4})
    sheet.specialties["Dexterity"] = "Quick"
    run_unit(db_url, lambda gw: create_character(gw, sheet))
    run_unit(db_url, lambda gw: set_house_rule(gw, "default", "specialty", "double"))
    order = RollOrder("Dexterity - 3", character="Sy")
    plain = run_unit(db_url, lambda gw: odds_for(gw, order))
    special = run_unit(db_url, lambda gw: odds_for(gw, dataclasses.replace(order, spec=True)))
    assert (plain.pool, plain.odds.p_exactly(2), special.odds.p_exactly(2)) == (1, 0, Fraction(1, 10))
