"""A JSON card list an adversary writes: a key given twice in one card is refused as in a YAML list (one
line naming the file and the key, no card imported), never read as whichever value came last; NaN and
Infinity, which are not JSON, are refused by name."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests import hostile_cases as H

runner = CliRunner()


def _import(path, cards_db):
    return runner.invoke(app, ["tcg", "cards", "import", str(path), "--cards-db", str(cards_db)], env={"NO_COLOR": "1"})


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[{"name": "X", "name": "Y", "type": "Gift"}]', "the key 'name' appears twice"),
        ('{"cards": [], "cards": [{"name": "Y", "type": "Gift"}]}', "the key 'cards' appears twice"),
        ('[{"name": "Y", "type": "Gift", "rage": Infinity}]', "Infinity is not a JSON number; write a number"),
    ],
)
def test_a_card_key_given_twice_or_a_non_json_number_is_refused(tmp_path, text, reason):
    path = tmp_path / "cards.json"
    path.write_text(text)
    cards_db = tmp_path / "cards.sqlite"
    result = _import(path, cards_db)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stderr == f"Error: {path}: malformed JSON: {reason}\n"
    assert not H.raw_controls(result.stderr)
    shown = runner.invoke(app, ["tcg", "cards", "show", "Y", "--cards-db", str(cards_db)], env={"NO_COLOR": "1"})
    assert shown.exit_code == 1  # nothing was imported


def test_a_card_list_with_each_key_once_still_imports(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text('[{"name": "X", "type": "Gift"}]')
    result = _import(path, tmp_path / "cards.sqlite")
    assert result.exit_code == 0 and "Imported 1 cards" in result.stdout
