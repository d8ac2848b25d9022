"""Character files an adversary writes: a JSON key given twice is refused as YAML's is (one line naming the
file and the key, nothing imported), never read as whichever value came last; NaN and Infinity, which are
not JSON, are refused by name."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests import hostile_cases as H

runner = CliRunner()


def _refused(path) -> str:
    result = runner.invoke(app, ["char", "import", str(path)], env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and not H.raw_controls(result.stderr), result.stderr
    listed = runner.invoke(app, ["char", "list", "--json"], env={"NO_COLOR": "1"})
    assert json.loads(listed.stdout) == {"characters": []}  # nothing was imported
    return lines[0]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"name": "A", "name": "B"}', "'name'"),
        ('{"name": "A", "attributes": {"Strength": 2, "Strength": 5}}', "'Strength'"),
        ('{"name": "A", "attributes": {"\\u001b[31mX": 2, "\\u001b[31mX": 5}}', "(a key that is not a field name)"),
    ],
)
def test_a_json_key_given_twice_is_refused(db_url, tmp_path, text, key):
    path = tmp_path / "twice.json"
    path.write_text(text)
    assert _refused(path) == f"Error: {path}: malformed JSON: the key {key} appears twice; nothing was imported"


def test_a_foundry_actor_with_a_key_given_twice_is_refused(db_url, tmp_path):
    actor = (H.REPO / "tests" / "formats" / "data" / "foundry-werewolf-marrow.json").read_text()
    path = tmp_path / "actor.json"
    path.write_text(actor.rstrip().removesuffix("}") + ', "name": "Someone Else"}')
    assert _refused(path) == f"Error: {path}: malformed JSON: the key 'name' appears twice; nothing was imported"


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(db_url, tmp_path, word):
    path = tmp_path / "nan.json"
    path.write_text('{"name": "A", "attributes": {"Strength": ' + word + "}}")
    assert _refused(path) == (
        f"Error: {path}: malformed JSON: {word} is not a JSON number; write a number; nothing was imported"
    )


def _grapevine(traits: int) -> str:
    rows = "".join(f'<trait name="Lore {i}" val="1"/>' for i in range(traits))
    return f'<grapevine><werewolf name="Bee"><traitlist name="Abilities">{rows}</traitlist></werewolf></grapevine>'


def test_a_grapevine_character_with_thousands_of_abilities_is_refused(db_url, tmp_path):
    """A troupe file may be 20 MB: one character of it holding 200,000 abilities would be stored, then
    printed on every `char show` and table page; a sheet holds at most MAX_ENTRIES of each kind."""
    from stkit.sheet.sheet import MAX_ENTRIES

    path = tmp_path / "troupe.gex"
    path.write_text(_grapevine(MAX_ENTRIES + 1))
    assert _refused(path) == (
        f"Error: {path}: werewolf 'Bee': custom abilities holds {MAX_ENTRIES + 1} entries; allowed: at most {MAX_ENTRIES}; "
        "nothing was imported"
    )


def test_a_yaml_character_with_thousands_of_gifts_is_refused(db_url, tmp_path):
    from stkit.sheet.sheet import MAX_ENTRIES

    path = tmp_path / "many.yaml"
    path.write_text("name: Bee\ngifts:\n" + "".join(f"  - name: Gift {i}\n" for i in range(MAX_ENTRIES + 1)))
    assert _refused(path) == (
        f"Error: {path}: gifts holds {MAX_ENTRIES + 1} entries; allowed: at most {MAX_ENTRIES}; nothing was imported"
    )


def test_a_sheet_at_the_limit_still_imports(db_url, tmp_path):
    from stkit.sheet.sheet import MAX_ENTRIES

    path = tmp_path / "troupe.gex"
    path.write_text(_grapevine(MAX_ENTRIES))
    result = runner.invoke(app, ["char", "import", str(path)], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
