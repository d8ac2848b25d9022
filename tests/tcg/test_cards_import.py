"""Card schema validation and importers: stkit YAML/JSON/CSV (strict) and LackeyCCG lists (lenient, reported)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, StoreError
from stkit.tcg.cardfiles import load_builtin_cards, parse_card_file
from stkit.tcg.cards import card_from_mapping
from stkit.tcg.common import fold_words as normalize_name
from stkit.tcg.db import CardDB

FIX = pathlib.Path(__file__).parent / "fixtures"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(tmp_path):
    with CardDB(tmp_path / "cards.sqlite") as d:
        yield d


def test_normalize_name_folds_case_accents_quotes_and_punctuation():
    assert normalize_name("Gaia\u2019s  Fury!") == "gaias fury"
    assert normalize_name("GAIA'S FURY") == "gaias fury"
    assert normalize_name("Café Régulier") == "cafe regulier"
    assert normalize_name("Den of Rorth, Son of Bast") == "den of rorth son of bast"


def test_builtin_cards_carry_the_documented_facts():
    cards = {c.name: c for c in load_builtin_cards()}
    janus = cards["Janus"]
    assert (janus.type, janus.health, janus.frenzy, janus.renown, janus.rage) == ("Garou", 5, 2, None, None)
    mud = cards["Battle of Screaming Mud"]
    assert (mud.type, mud.renown) == ("Battlefield", 10)
    assert mud.defender_options[0]["option"] == "Black Spiral Dancers"
    rorth = cards["Den of Rorth, Son of Bast"]
    assert rorth.renown == 5 and [o["cards"] for o in rorth.defender_options] == [4, 2]
    assert rorth.errata


def test_builtin_cards_are_searchable_before_any_import(db):
    assert db.find("janus").health == 5
    assert db.count() == len(load_builtin_cards())


def test_yaml_import_reads_every_card(db):
    report = db.import_file(FIX / "deck_cards.yaml")
    assert (report.format, report.imported, report.skipped) == ("yaml", 34, [])
    kiri = db.find("Kiri Wind-Walker")
    assert kiri.crinos_side == {"rage": 6, "health": 7}
    assert kiri.kailindo is True and kiri.breed == "Homid"
    tribe = db.find("Stargazers")
    assert tribe.cohorts == {"Children of Gaia": 1, "Silent Striders": 2}
    assert db.find("Howl").damage == "X"


def test_reimport_replaces_instead_of_duplicating(db):
    db.import_file(FIX / "deck_cards.yaml")
    n = db.count()
    db.import_file(FIX / "deck_cards.yaml")
    assert db.count() == n


def test_lackey_quirks(db):
    report = db.import_file(FIX / "lackey_quirks.txt")
    assert report.format == "lackey"
    assert report.imported == 6
    assert report.playtest == 1
    assert report.skipped == []  # a row with a bad number still carries a card: kept, the number unknown
    assert [(e.line, e.message) for e in report.warnings] == [
        (5, "health '-2' is not a number from 0 to 999; kept as text"),
        (8, "renown 'lots' is not a number from 0 to 999; kept as text"),
    ]
    brute = db.find("Broken Brute")
    assert (brute.health, brute.extra) == (None, {"ImageFile": "bb", "health": "-2"})
    dog = db.find('Howling "Mad" Dog')
    assert dog.text == 'He says "grr and it is fine.'  # the stray quote is an ordinary character
    assert (dog.renown, dog.health, dog.keywords) == (4, 5, ["Wendigo", "Lupus"])
    short = db.find("Short Row Ally")
    assert (short.type, short.renown, short.text) == ("Ally", None, None)
    lunge = db.find("Test Lunge")
    assert (lunge.playtest, lunge.type, lunge.kind, lunge.moon, lunge.damage) == (
        True,
        "Combat Action",
        "attack",
        "full",
        3,
    )
    assert db.find("cafe regular").name == "Café Regular"


def test_lackey_strict_refuses_the_whole_file(db):
    before = db.count()
    with pytest.raises(
        DataFileError, match=r"lackey_quirks\.txt: line 5: health '-2' .*2 problem rows; nothing imported"
    ):
        db.import_file(FIX / "lackey_quirks.txt", strict=True)
    assert db.count() == before


def test_lackey_extra_fields_and_missing_name_column(tmp_path, db):
    path = tmp_path / "x.tsv"
    path.write_text("Name\tType\nA\tAlly\tsurplus\nB\tAlly\t\t\n", encoding="utf-8")
    report = db.import_file(path)
    assert report.imported == 2  # extra fields never cost the card: they are kept as 'overflow'
    assert report.warnings[0].line == 2 and "3 fields but the header has 2" in report.warnings[0].message
    assert db.find("A").extra == {"overflow": "surplus"}
    path.write_text("Title-less\tType\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"x\.tsv: line 1: header has no Name column"):
        db.import_file(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("- {name: A, type: Garou, health: 5\n", r"malformed YAML at line 2"),
        ("- {name: A, type: Garou, health: -1}\n", r"card 1 \(A\): field 'health': -1 is below 0"),
        (
            "- {name: A, type: Ally}\n- {name: B, type: Ally, keywords: [Wyrm, Flying Monkey]}\n",
            r"card 2 \(B\): field 'keywords': unknown keyword 'Flying Monkey'",
        ),
        ("- {name: A, type: Wizard}\n", r"card 1 \(A\): field 'type': 'Wizard' is not one of Tribe, Garou"),
        ("- {name: A, colour: red}\n", r"card 1 \(A\): unknown field colour"),
        ("- {type: Ally}\n", r"card 1: field 'name'"),
        (
            "- {name: A, type: Combat Action, moon: half}\n",
            r"card 1 \(A\): field 'moon': 'half' is not one of new, full",
        ),
        (
            "- {name: A, type: Gift, kind: attack}\n",
            r"card 1 \(A\): field 'kind': 'attack' is only for Combat Action cards",
        ),
        ("{cards: [], extra: 1}\n", r"top level: unknown key"),
    ],
)
def test_bad_stkit_files_name_file_and_place_and_import_nothing(tmp_path, db, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    before = db.count()
    with pytest.raises(DataFileError, match=r"bad\.yaml: " + message):
        db.import_file(path)
    assert db.count() == before


def test_declared_extra_keywords_are_accepted():
    card = card_from_mapping({"name": "A", "keywords": ["Wyrm"]})
    assert card.keywords == ["Wyrm"]
    # deck_cards.yaml declares "Test Extra" in its top-level keywords list
    parsed = parse_card_file(FIX / "deck_cards.yaml")
    assert ["Klaive", "Test Extra"] in [c.keywords for c in parsed.cards]


def test_json_and_csv_imports(tmp_path, db):
    j = tmp_path / "c.json"
    j.write_text(json.dumps([{"name": "Json Ally", "type": "Ally", "renown": 2}]), encoding="utf-8")
    assert db.import_file(j).imported == 1
    c = tmp_path / "c.csv"
    c.write_text("name,type,renown,keywords,cohorts\nCsv Tribe,Tribe,,Garou;Gaia,Fianna=1;Uktena=2\n", encoding="utf-8")
    assert db.import_file(c).imported == 1
    assert db.find("csv tribe").cohorts == {"Fianna": 1, "Uktena": 2}
    assert db.find("csv tribe").keywords == ["Garou", "Gaia"]
    c.write_text("name,health\nBad,-3\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"c\.csv: line 2 \(Bad\): field 'health': -3 is below 0"):
        db.import_file(c)
    j.write_text("[{", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"c\.json: malformed JSON at line 1"):
        db.import_file(j)


def test_unknown_extension_and_empty_file(tmp_path, db):
    p = tmp_path / "cards.xml"
    p.write_text("<cards/>", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"unknown card-list format \.xml"):
        db.import_file(p)
    e = tmp_path / "e.yaml"
    e.write_text("  \n", encoding="utf-8")
    with pytest.raises(DataFileError, match="the file is empty"):
        db.import_file(e)


def test_a_failing_write_keeps_nothing(db, monkeypatch):
    before = db.count()
    original = db._write

    def boom(cards, origin, replace):
        original(cards, origin, replace)
        import sqlite3

        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(db, "_write", boom)
    with pytest.raises(StoreError, match="nothing imported"):
        db.import_file(FIX / "deck_cards.yaml")
    assert db.count() == before


def test_cli_import_reports_rows_and_json(tmp_path):
    dbfile = tmp_path / "other.sqlite"
    result = runner.invoke(
        app, ["tcg", "cards", "import", str(FIX / "lackey_quirks.txt"), "--cards-db", str(dbfile)], env=ENV
    )
    assert result.exit_code == 0, result.output
    assert "Imported 6 cards (1 playtest)" in result.stdout
    assert "line 5: Broken Brute: health '-2' is not a number" in result.stdout
    assert dbfile.exists()
    result = runner.invoke(app, ["tcg", "cards", "import", str(FIX / "deck_cards.yaml"), "--json"], env=ENV)
    assert json.loads(result.stdout) == {
        "file": str(FIX / "deck_cards.yaml"),
        "format": "yaml",
        "imported": 34,
        "playtest": 0,
        "skipped": [],
        "merged": [],
        "warnings": [],
        "rows": 34,
        "text_only": 0,
        "untyped": [],
    }


def test_cli_bad_file_is_one_line_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {name: A, health: -1}\n", encoding="utf-8")
    result = runner.invoke(app, ["tcg", "cards", "import", str(bad)], env=ENV)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {bad}: card 1 (A): field 'health': -1 is below 0 (allowed 0 or more)\n"


@pytest.mark.slow
def test_subprocess_import_and_show(tmp_path):
    env = {**os.environ, **ENV, "STKIT_CARDS_DB": str(tmp_path / "sub.sqlite")}

    def run(*a):
        return subprocess.run(
            [sys.executable, "-m", "stkit", "tcg", "cards", *a], capture_output=True, text=True, env=env
        )

    out = run("import", str(FIX / "lackey_quirks.txt"), "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["imported"] == 6
    out = run("show", "howling mad dog", "--json")
    assert json.loads(out.stdout)["health"] == 5


def test_every_bad_card_is_counted(tmp_path, db):
    path = tmp_path / "many.yaml"
    path.write_text(
        "- {name: A, health: -1}\n- {name: B}\n- {name: C, rage: x}\n- {name: D, gnosis: -2}\n", encoding="utf-8"
    )
    with pytest.raises(DataFileError) as exc:
        db.import_file(path)
    assert str(exc.value) == (
        f"{path}: card 1 (A): field 'health': -1 is below 0 (allowed 0 or more) "
        "(and 2 more bad cards; nothing imported)"
    )


def test_builtin_card_rulings_and_rule_cards_cross_reference():
    from stkit.tcg.rules import load_rules

    rules = {e.id: e for e in load_rules()}
    cards = {c.name: c for c in load_builtin_cards()}
    for card in cards.values():
        for ruling in card.rulings:
            assert ruling in rules, (card.name, ruling)
    for rid in (
        "battlefield-faq.vampire-keyword",
        "battlefield-faq.exorcise-spirit",
        "battlefield-faq.escape",
        "battlefield-play.restricted-pack-action",
        "battlefield-play.away-from-pack",
    ):
        for name in rules[rid].cards:
            assert name in cards, (rid, name)
