"""Combat files naming cards of the database, and derangements: checked by name, modelled where the
resolvers decide what they affect (Equinox Update, "Special Abilities: Derangements")."""

import json
import pathlib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, RuleRefusal
from stkit.tcg.db import CardDB
from stkit.tcg.resolvers.alpha import parse_alphas, resolve_alpha_order
from stkit.tcg.resolvers.combat import parse_combat, resolve_combat
from stkit.tcg.resolvers.moot import parse_moots

FIX = pathlib.Path(__file__).parent / "fixtures"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(_cards_db_in_tmp):
    with CardDB(_cards_db_in_tmp) as d:
        d.import_file(FIX / "plugin_sample.txt")
        yield d


def garou(name="Janus", player="Ann", **extra):
    return {"name": name, "player": player, "rage": 3, "health": 3, "crinos": {"rage": 5, "health": 6}, **extra}


def enemy(**extra):
    return {"name": "Fomor", "player": "Bob", "type": "Enemy", "keywords": ["Wyrm"], "rage": 4, "health": 5, **extra}


def test_plays_may_name_database_cards_and_the_file_overrides(db):
    data = {
        "hunter": garou(),
        "prey": enemy(),
        "cards": {"Big Bite": {"card": "Bite", "damage": 4}},
        "rounds": [
            {"hunter": "Claw Slash", "prey": {"card": "Shield Block"}},
            {"prey": "Gut Rip"},
            {"hunter": "Big Bite"},
        ],
    }
    r = resolve_combat(parse_combat(data, card_lookup=db.exact))
    one = r["rounds"][0]["cards"]
    assert one["hunter"]["name"] == "Claw Slash" and one["hunter"]["rage_paid"] == 2
    assert r["rounds"][0]["state"]["prey"]["wounds"] == 0  # Damage 3 against the text's Block 4
    assert r["rounds"][1]["state"]["hunter"]["wounds"] == 4  # Gut Rip: Damage 4, Rage cost 3
    assert r["rounds"][2]["state"]["prey"]["wounds"] == 4  # Bite's numbers, Damage overridden to 4


def test_an_unknown_card_name_is_an_error_with_suggestions(db):
    data = {"hunter": garou(), "prey": enemy(), "rounds": [{"hunter": "Claw Slsh"}]}
    with pytest.raises(DataFileError, match=r"combat\.rounds\[1\]\.hunter: .*Claw Slash"):
        parse_combat(data, card_lookup=db.exact)
    data["rounds"] = [{"hunter": "Zzyzx Qqq"}]
    with pytest.raises(DataFileError, match=r"combat\.rounds\[1\]\.hunter: no card named 'Zzyzx Qqq'"):
        parse_combat(data, card_lookup=db.exact)
    # without a database the old message stands
    with pytest.raises(DataFileError, match="is not described in 'cards'"):
        parse_combat(data)


def test_a_card_with_damage_x_or_no_kind_needs_the_file_to_say(db):
    data = {"hunter": garou(), "prey": enemy(), "rounds": [{"hunter": "Throat Lunge"}]}
    with pytest.raises(DataFileError, match="Throat Lunge's damage is X; give its damage for this play"):
        parse_combat(data, card_lookup=db.exact)
    data["rounds"] = [{"hunter": {"card": "Throat Lunge", "damage": 3}}]
    with pytest.raises(DataFileError, match="damage is X"):
        parse_combat(data, card_lookup=db.exact)  # the base card is read first: name its own entry instead
    data["cards"] = {"Lunge": {"card": "Throat Lunge", "damage": 3}}
    data["rounds"] = [{"hunter": "Lunge"}]
    with pytest.raises(DataFileError, match="damage is X"):
        parse_combat(data, card_lookup=db.exact)
    data["rounds"] = [{"hunter": "Rage Surge"}]
    data.pop("cards")
    with pytest.raises(DataFileError, match="Rage Surge is a Combat Event, not a Combat Action"):
        parse_combat(data, card_lookup=db.exact)


def test_cli_combat_reads_cards_from_the_database(db, tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        "hunter: {name: Janus, player: Ann, rage: 3, health: 3, crinos: {rage: 5, health: 6}}\n"
        "prey: {name: Fomor, player: Bob, type: Enemy, rage: 4, health: 5}\n"
        "rounds:\n  - {hunter: Claw Slash}\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["tcg", "combat", str(path), "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rounds"][0]["state"]["prey"]["wounds"] == 3


@pytest.mark.parametrize(
    "typed, suggestion", [("Hystrical", "Hysterical"), ("Amnesic", "Amnesiac"), ("powermadd", "Powermad")]
)
def test_misspelt_derangements_are_errors_with_a_suggestion(typed, suggestion):
    data = {"hunter": garou(derangements=[typed]), "prey": enemy(), "rounds": []}
    with pytest.raises(
        DataFileError,
        match=f"combat.hunter.derangements: derangement '{typed}' is not one the rules list.*{suggestion}",
    ):
        parse_combat(data)
    with pytest.raises(DataFileError, match=f"did you mean {suggestion}"):
        parse_moots({"characters": [{"name": "A", "renown": 1, "derangements": [typed]}], "moots": []})


def test_derangements_fold_case_and_spacing():
    data = {"hunter": garou(derangements=["MANIC DEPRESSIVE", "multiple persona"]), "prey": enemy(), "rounds": []}
    assert parse_combat(data).hunter.derangements == ["manic-depressive", "multiple-persona"]


def test_perfectionist_never_shifts_by_choice():
    data = {"hunter": garou(derangements=["Perfectionist"], form="crinos"), "prey": enemy(), "rounds": []}
    with pytest.raises(RuleRefusal, match="Perfectionist and never shifts to Crinos by choice"):
        parse_combat(data)
    # forced by its wounds, it still flips
    data["hunter"] = garou(derangements=["Perfectionist"], wounds=3)
    r = resolve_combat(parse_combat({**data, "rounds": [{}]}))
    assert r["final"]["hunter"]["form"] == "crinos"


def test_multiple_persona_kills_score_no_renown():
    cards = {"Claw": {"kind": "attack", "damage": 6, "rage": 1}}
    data = {
        "hunter": garou(derangements=["Multiple-Persona"]),
        "prey": enemy(),
        "cards": cards,
        "rounds": [{"hunter": "Claw"}],
    }
    r = resolve_combat(parse_combat(data))
    assert r["deaths"] == [
        {"name": "Fomor", "role": "prey", "killed_by": "Janus", "to": "victory_pile", "renown_scored": False}
    ]
    assert any("Multiple-Persona" in line for line in r.explanation)


def test_paranoid_and_demophobic_are_named_in_the_combat():
    data = {"hunter": garou(derangements=["Paranoid", "Demophobic"]), "prey": enemy(), "rounds": [{}]}
    lines = resolve_combat(parse_combat(data)).explanation
    assert any("Janus is Paranoid: in this combat it treats Fomor as having the Wyrm keyword" in x for x in lines)
    assert any("Demophobic: ignored, as the rules say" in x for x in lines)


def test_alpha_derangements():
    alphas = [
        {"name": "Proud", "renown": 5, "tribe_fury": 1, "derangements": ["Powermad", "Obsessive"]},
        {"name": "Grudge", "renown": 3, "tribe_fury": 1, "derangements": ["Vengeful"]},
        {"name": "Moody", "renown": 2, "tribe_fury": 1, "derangements": ["Manic-Depressive"]},
    ]
    r = resolve_alpha_order(*parse_alphas({"alphas": alphas}))
    text = "\n".join(r.explanation)
    assert "Proud is Powermad: its alpha action must be an attack on the most renowned opponent" in text
    assert "Proud is Obsessive: it names its alpha action now" in text
    assert "Grudge is Vengeful" in text
    assert "abilities.derangements" in r.rules
    alphas[2]["alpha_last_turn"] = True
    with pytest.raises(RuleRefusal, match="Moody is Manic-Depressive and was its pack's alpha last turn"):
        parse_alphas({"alphas": alphas})


def test_frenzy_derangement_option_names_the_closest_one():
    result = runner.invoke(
        app, ["tcg", "frenzy", "--health", "5", "--wounds", "2", "--derangement", "Hystrical"], env=ENV
    )
    assert result.exit_code == 1
    assert "derangement 'Hystrical' is not one the rules list; did you mean Hysterical?" in result.stderr
    result = runner.invoke(
        app, ["tcg", "frenzy", "--health", "5", "--wounds", "2", "--derangement", "amnesiac"], env=ENV
    )
    assert result.exit_code == 1
    assert "derangement Amnesiac does not change frenzy (allowed: Hysterical, Melancholic)" in result.stderr
