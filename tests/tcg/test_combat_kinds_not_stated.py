"""The seven Combat Actions of the community list whose text and errata name no kind: read by hand, recorded
as "not stated" in ``data/combat_kinds.yaml``, and said so by the import and ``cards show``.

``fixtures/plugin_kinds.txt`` is made-up rows in the plugin's columns with the real rows' traits: a Rage
cost and no Damage or Block, a clarification saying what the card is not, a Fast Striking keyword, an errata
cut short with a stray quote, and one kindless card that nobody has read (the plain report line)."""

import json
import pathlib

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.tcg.cardfiles import parse_card_file
from stkit.tcg.cards import combat_kind_notes
from stkit.tcg.common import fold_name

KINDS = pathlib.Path(__file__).parent / "fixtures" / "plugin_kinds.txt"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}
SEVEN = ["Feint", "Disarm", "Passive Aggression", "Rapid Reload", "Redirected Attack", "Run Like Hell", "Umbral Escape"]


def test_the_seven_are_recorded_as_not_stated_with_what_the_card_says():
    notes = combat_kind_notes()
    assert sorted(notes) == sorted(fold_name(n) for n in SEVEN)
    assert all(kind is None and len(why) > 30 for kind, why in notes.values())
    assert "not an attack" in notes[fold_name("Disarm")][1]


def test_the_import_names_a_read_card_as_not_stated_and_an_unread_one_plainly():
    parsed = parse_card_file(KINDS)
    assert [c.kind for c in parsed.cards] == [None, None, None]
    messages = {e.name: e.message for e in parsed.untyped}
    assert messages["Disarm"].startswith("Combat Action whose kind is not stated (its text and errata were read:")
    assert messages["Umbral Escape"].startswith("Combat Action whose kind is not stated")
    assert messages["Glare of Nothing"] == "Combat Action with no kind: no keyword, text or number says which"


def test_import_and_show_say_not_stated(_cards_db_in_tmp):
    result = runner.invoke(app, ["tcg", "cards", "import", str(KINDS)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "  line 2: Disarm (read by hand: not stated on the card)\n" in result.stdout
    assert "  line 4: Glare of Nothing\n" in result.stdout
    shown = runner.invoke(app, ["tcg", "cards", "show", "Umbral Escape"], env=ENV)
    assert "not stated on the card: A Fast Striking card" in " ".join(shown.stdout.split())
    plain = runner.invoke(app, ["tcg", "cards", "show", "Glare of Nothing"], env=ENV)
    assert "not known: nothing on the card says" in plain.stdout
    data = json.loads(runner.invoke(app, ["tcg", "cards", "import", str(KINDS), "--json"], env=ENV).stdout)
    assert [u["card"] for u in data["untyped"]] == ["Disarm", "Umbral Escape", "Glare of Nothing"]
