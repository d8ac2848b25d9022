"""`char use`: a fetish activated at its own Gnosis, a Gift's cost spent and its pool rolled, through the one
roll use case; hand-checked dice."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet.sheet import Sheet, Track
from stkit.store.characters import create_character, find_character
from stkit.store.db.gateway import run_unit
from stkit.store.powers import power_table, use_power


def _garou() -> Sheet:
    s = Sheet(name="Hums-at-Night")
    s.attributes.update({"Manipulation": 2, "Perception": 3})
    s.abilities.update({"Stealth": 2, "Occult": 1, "Crafts": 2})
    s.powers["Gnosis"] = Track(3, 3)
    s.powers["Willpower"] = Track(4, 4)
    s.rank = 2
    s.gifts = [
        {"name": "Blur of the Milky Eye", "level": 1},
        {"name": "Jam Technology", "level": 2},
        {"name": "Resist Pain", "level": 1},
        {"name": "Call of the Wyld", "level": 1},
    ]
    s.fetishes = [{"name": "Spirit Whistle", "level": 2, "gnosis": 7}]
    return s


@pytest.fixture
def stored(db_url):
    run_unit(db_url, lambda gw: create_character(gw, _garou()))
    return db_url


def _sheet(url: str) -> Sheet:
    return run_unit(url, lambda gw: find_character(gw, "Hums-at-Night").to_sheet(), readonly=True)


def _last_log(url: str) -> tuple:
    return run_unit(
        url, lambda gw: gw.row("SELECT difficulty, detail FROM roll_log ORDER BY id DESC LIMIT 1"), readonly=True
    )


def test_a_fetish_rolls_gnosis_against_its_own_gnosis(stored):
    # Gnosis 3 at the fetish's Gnosis 7: 7 succeeds, 6 does not, the 1 cancels it: no success.
    use = run_unit(stored, lambda gw: use_power(gw, "Hums", "spirit whistle", faces=(7, 6, 1)))
    assert use.difficulty == 7 and use.outcome is not None
    assert use.outcome.roll.final_successes == 0
    difficulty, detail = _last_log(stored)
    assert difficulty == 7 and "activate fetish Spirit Whistle (Gnosis 7)" in detail


def test_a_fetish_activated_with_a_gnosis_point_rolls_nothing(stored):
    use = run_unit(stored, lambda gw: use_power(gw, "Hums", "Spirit Whistle", spend_gnosis=True))
    assert use.outcome is None and use.spent == {"Gnosis": 1}
    assert _sheet(stored).powers["Gnosis"].temporary == 2


def test_a_gift_rolls_its_pool_at_its_difficulty(stored):
    # Manipulation 2 + Stealth 2 at difficulty 8: 8 and 9 succeed, the 1 cancels one.
    use = run_unit(stored, lambda gw: use_power(gw, "Hums", "Blur of the Milky Eye", faces=(8, 7, 9, 1)))
    assert (use.difficulty, use.outcome.roll.final_successes) == (8, 1)
    assert use.spent == {}


def test_a_gift_that_costs_gnosis_spends_it_and_asks_for_its_difficulty(stored):
    with pytest.raises(InvalidValue, match="give --difficulty"):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Jam Technology", faces=(6, 6, 6, 6)))
    assert _sheet(stored).powers["Gnosis"].temporary == 3  # nothing spent on the refused use
    use = run_unit(stored, lambda gw: use_power(gw, "Hums", "Jam Technology", difficulty=7, faces=(7, 2, 10, 3)))
    assert use.spent == {"Gnosis": 1} and use.outcome.roll.final_successes == 2
    assert _sheet(stored).powers["Gnosis"].temporary == 2


@pytest.mark.parametrize("difficulty", [1, 11])
def test_a_difficulty_outside_2_to_10_is_refused_with_nothing_spent(stored, difficulty):
    # in the words of every other difficulty (`stkit roll 5 -d 11`), for the CLI and the table page alike
    with pytest.raises(InvalidValue, match=f"^difficulty {difficulty} is outside the allowed range 2 to 10$"):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Jam Technology", difficulty=difficulty))
    assert _sheet(stored).powers["Gnosis"].temporary == 3
    result = CliRunner().invoke(app, ["char", "use", "Hums", "Jam Technology", "-d", str(difficulty), "--db", stored])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: difficulty {difficulty} is outside the allowed range 2 to 10"


def test_a_gift_with_too_few_points_is_refused_with_nothing_spent(stored):
    for _ in range(4):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Resist Pain"))
    assert _sheet(stored).powers["Willpower"].temporary == 0
    with pytest.raises(RuleRefusal, match="costs 1 Willpower"):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Resist Pain"))


def test_unknown_powers_are_named(stored):
    with pytest.raises(InvalidValue, match="has no Gift or fetish 'Razor Claws'"):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Razor Claws"))
    with pytest.raises(InvalidValue, match="no roll for the Gift 'Call of the Wyld'"):
        run_unit(stored, lambda gw: use_power(gw, "Hums", "Call of the Wyld"))


def test_the_packaged_table_names_its_source_and_levels_one_and_two():
    table = power_table()
    assert "Revised" in table["source"] and table["fetish"]["pool"] == "Gnosis"
    assert {g["level"] for g in table["gifts"].values()} == {1, 2}


def test_cli_use_rolls_and_reports_json(stored, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", stored)
    result = CliRunner().invoke(app, ["char", "use", "Hums", "Spirit Whistle", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["kind"], data["difficulty"], data["seed"]) == ("fetish", 7, 5)
    result = CliRunner().invoke(app, ["char", "use", "Hums", "Jam Technology"])
    assert result.exit_code == 1 and "give --difficulty" in result.output
