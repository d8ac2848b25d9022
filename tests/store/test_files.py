"""Character files: YAML/JSON round trips, bad files, the example characters, Foundry VTT import."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stkit.errors import DataFileError
from stkit.formats.foundry import from_foundry
from stkit.sheet.pools import build_pool
from stkit.store import characters as C
from stkit.store.db.engine import open_store
from stkit.store.db.gateway import gateway_transaction
from stkit.store.files import dump, import_files, load_file

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "characters"
FOUNDRY = Path(__file__).with_name("data") / "foundry-werewolf-small.json"


@pytest.fixture
def engine(db_url):
    return open_store(db_url)


def stored(engine, name):
    with gateway_transaction(engine, readonly=True) as s:
        return C.get_character(s, name).to_sheet()


def count(engine):
    with gateway_transaction(engine, readonly=True) as s:
        return len(C.list_characters(s))


def test_examples_import_with_chapter_pools(engine):
    with gateway_transaction(engine) as s:
        loaded = import_files(s, [EXAMPLES])
    assert sorted(lf.sheet.name for lf in loaded) == [
        "Archibald",
        "Ears-of-the-Wind",
        "Flashburn",
        "Paper Clip",
        "Red-of-Teeth",
        "Shadow-in-the-Wood",
        "Weston",
    ]
    pools = {
        ("Archibald", "Dexterity + Drive"): 5,
        ("Paper Clip", "Intelligence + Repair"): 5,
        ("Paper Clip", "Dexterity + Firearms"): 4,
        ("Flashburn", "Dexterity + Firearms"): 5,
        ("Shadow-in-the-Wood", "Dexterity + Brawl"): 7,
        ("Shadow-in-the-Wood", "Dexterity + Dodge"): 6,
        ("Ears-of-the-Wind", "Charisma + Leadership"): 6,
        ("Red-of-Teeth", "Charisma + Leadership"): 7,
    }
    for (name, expr), dice in pools.items():
        assert build_pool(stored(engine, name), expr).dice == dice, (name, expr)
    assert stored(engine, "Paper Clip").tribe == "Bone Gnawer"
    assert stored(engine, "Weston").auspice == "Ahroun"


def test_example_rolls_from_sheet(engine):
    from tests.rolls import sheet_roll

    with gateway_transaction(engine) as s:
        import_files(s, [EXAMPLES])
    with gateway_transaction(engine) as s:  # Flashburn's botch: 4, 7, 5, 8, 1 at difficulty 9
        done = sheet_roll(s, "Flashburn", "Dexterity + Firearms", difficulty=9, faces=[4, 7, 5, 8, 1])
        assert done.roll.outcome.value == "botch"
        done = sheet_roll(s, "Paper Clip", "Intelligence + Repair", difficulty=7, faces=[4, 3, 5, 5, 6])
        assert done.roll.outcome.value == "failure"
        done = sheet_roll(s, "Archibald", "Dexterity + Drive", rng=random.Random(5))
        assert done.roll.pool == 5


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_export_reimport_round_trip(engine, tmp_path, fmt):
    s0 = load_file(EXAMPLES / "paper-clip.yaml").sheet
    s0.set_trait("gift:Scent of Running Water", 1)
    s0.set_trait("rite:Rite of Cleansing", 2)
    s0.set_trait("background:Kinfolk", 3)
    s0.set_trait("merit:Common Sense", 1)
    s0.set_trait("flaw:Nightmares", 1)
    s0.set_trait("ability:Scrounging", 2)
    s0.set_trait("temporary honor", 4)
    s0.set_trait("storyteller notes", "Knows about the mob's ledger.")
    s0.damage(2, "aggravated")
    s0.shift("lupus")
    s0.xp("award", 7, "the car chase")
    with gateway_transaction(engine) as s:
        C.create_character(s, s0)
    text = dump(stored(engine, "Paper Clip"), fmt)
    f = tmp_path / f"pc.{fmt}"
    f.write_text(text)
    with gateway_transaction(engine) as s:
        import_files(s, [f], replace=True)
    again = stored(engine, "paper clip")
    assert again == s0
    assert again.to_dict() == (json.loads(text) if fmt == "json" else again.to_dict())
    assert load_file(f).sheet == s0


def test_player_view_leaves_storyteller_notes_out():
    s = load_file(EXAMPLES / "red-of-teeth.yaml").sheet
    assert "Storyteller" in dump(s)
    assert "storyteller_notes" not in dump(s, "yaml", player_view=True)
    assert "storyteller_notes" not in json.loads(dump(s, "json", player_view=True))


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.yaml", "name: A\nattributes: {Dexterity: 3\n", r"bad.yaml: malformed YAML at line \d+"),
        ("bad.json", '{"name": "A", ', r"bad.json: malformed JSON at line 1"),
        ("bad.yaml", "name: A\nabilities:\n  Brwal: 3\n", r"bad.yaml: abilities.Brwal: unknown Ability"),
        (
            "bad.yaml",
            "name: A\nattributes:\n  Strength: 6\n",
            r"bad.yaml: attributes.Strength: 6 is outside the allowed range 0 to 5",
        ),
        ("bad.yaml", "name: A\nrage: 12\n", r"bad.yaml: rage: 12 is outside the allowed range 0 to 10"),
        ("bad.yaml", "name: A\nbreed: Wolf\n", r"bad.yaml: breed: unknown breed; allowed"),
        ("bad.yaml", "- just\n- a list\n", r"bad.yaml: expected a mapping"),
        ("bad.yaml", "name: A\n!!python/object:os.system {}\n", r"bad.yaml: malformed YAML"),
    ],
)
def test_bad_file_imports_nothing(engine, tmp_path, name, content, message):
    good = tmp_path / "a-good.yaml"
    good.write_text("name: Good\n")
    (tmp_path / name).write_text(content)
    with pytest.raises(DataFileError, match=message), gateway_transaction(engine) as s:
        import_files(s, [tmp_path])
    assert count(engine) == 0


def test_duplicate_names(engine, tmp_path):
    (tmp_path / "one.yaml").write_text("name: Weston\n")
    (tmp_path / "two.yaml").write_text("name: WESTON\n")
    with (
        pytest.raises(DataFileError, match=r"two.yaml: name: duplicate name 'WESTON'"),
        gateway_transaction(engine) as s,
    ):
        import_files(s, [tmp_path])
    assert count(engine) == 0
    with gateway_transaction(engine) as s:
        import_files(s, [tmp_path / "one.yaml"])
    with pytest.raises(DataFileError, match=r"two.yaml: name: .*already exists"), gateway_transaction(engine) as s:
        import_files(s, [tmp_path / "two.yaml"])
    assert count(engine) == 1


def test_foundry_import(engine):
    loaded = load_file(FOUNDRY)
    assert loaded.format == "foundry"
    s = loaded.sheet
    assert (s.name, s.breed, s.auspice, s.tribe, s.pack, s.rank) == (
        "Runs-Through-Rain",
        "Lupus",
        "Galliard",
        "Silent Strider",
        "Dust Road",
        2,
    )
    assert s.attributes["Dexterity"] == 4 and s.attributes["Wits"] == 3
    assert s.abilities == {
        "Alertness": 3,
        "Athletics": 4,
        "Brawl": 2,
        "Primal-Urge": 3,
        "Animal Ken": 1,
        "Stealth": 2,
        "Survival": 3,
        "Enigmas": 2,
        "Rituals": 1,
    }
    assert s.custom_abilities == {"Larceny": 1}
    assert s.powers["Rage"].to_dict() == {"permanent": 3, "temporary": 2}
    assert s.powers["Gnosis"].to_dict() == {"permanent": 5, "temporary": 4}
    assert s.powers["Willpower"].to_dict() == {"permanent": 4, "temporary": 1}
    assert s.renown["Wisdom"].to_dict() == {"permanent": 3, "temporary": 5}
    assert s.health == {"aggravated": 1, "lethal": 1, "bashing": 1}
    assert s.wound_penalty == 1
    assert s.form == "Hispo"
    assert s.gifts == [{"name": "Speed of Thought", "level": 1}, {"name": "Eye of the Cobra", "level": 2}]
    assert s.rites == [{"name": "Rite of the Cleansing", "level": 1}]
    with gateway_transaction(engine) as session:
        import_files(session, [FOUNDRY])
    # Hispo: Dexterity 4 + 2 = 6, + Brawl 2, - 1 wound
    assert build_pool(stored(engine, "runs through rain"), "Dexterity + Brawl").dice == 7


def test_foundry_bad_values_name_the_field(tmp_path):
    data = json.loads(FOUNDRY.read_text())
    data["system"]["advantages"]["willpower"]["temporary"] = 9
    with pytest.raises(
        DataFileError, match=r"system.advantages.willpower.temporary: 9 is outside the allowed range 0 to 4"
    ):
        from_foundry(data, source="x.json")
    data["type"] = "Vampire"
    with pytest.raises(DataFileError, match=r"type: 'Vampire' is not supported"):
        from_foundry(data, source="x.json")
