"""Character files refuse YAML tags other than plain data's (``!!binary`` builds bytes, ``!!set`` a set,
``!!python/...`` an object) and merge-key bombs, each in one line naming the place; plain dates still load."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError
from stkit.store.files import load_file

TAGS = [
    ("!!binary aGVsbG8=", "!!binary"),
    ("!!set {a, b}", "!!set"),
    ("!!omap [a: 1]", "!!omap"),
    ("!!pairs [a: 1]", "!!pairs"),
    ("!!python/name:os.system", "!!python/name"),
    ("!!python/object/apply:os.system [id]", "!!python/object/apply"),
    ("!SECRET x", "(a tag that is not shown)"),
    ("!a%E2%80%AEb y", "(a tag that is not shown)"),  # a right-to-left override, once decoded
    ("!<tag:" + "b" * 100 + "> y", "(a tag that is not shown)"),
]


@pytest.mark.parametrize(("value", "shown"), TAGS)
def test_a_tag_other_than_plain_data_is_one_line(tmp_path, value, shown):
    path = tmp_path / "t.yaml"
    path.write_text(f"name: Bob\nconcept: {value}\n")
    with pytest.raises(DataFileError) as info:
        load_file(path)
    assert str(info.value) == (
        f"{path}: malformed YAML at line 2, column 10: the YAML tag {shown} is not allowed; allowed: plain text,"
        " numbers, true/false, dates, lists and mappings"
    )


def test_a_merge_bomb_is_refused(tmp_path):
    lines = ["a0: &a0 {k: 1}"] + [f"a{i}: &a{i} {{<<: [*a{i - 1}, *a{i - 1}]}}" for i in range(1, 40)]
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(lines) + "\nname: Bob\n")
    with pytest.raises(DataFileError, match=r"malformed YAML at line 1, column 1: expands to \d+ values"):
        load_file(path)


def test_plain_tags_and_dates_still_load(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text(
        "name: !!str Bob\nconcept: !!str 12\nexperience:\n  total: !!int '3'\n  log:\n"
        "  - {at: 2024-05-01, kind: award, amount: 3, reason: moot}\n"
    )
    sheet = load_file(path).sheet
    assert (sheet.name, sheet.concept) == ("Bob", "12")


def test_the_command_says_so_and_stores_nothing(db_url, tmp_path):
    path = tmp_path / "bin.yaml"
    path.write_text("name: Bob\nconcept: !!binary aGVsbG8=\n")
    runner = CliRunner()
    result = runner.invoke(app, ["char", "import", str(path)], env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: {path}: malformed YAML at line 2, column 10: the YAML tag !!binary is not allowed; allowed: plain"
        " text, numbers, true/false, dates, lists and mappings; nothing was imported"
    ]
    listed = runner.invoke(app, ["char", "list", "--json"], env={"NO_COLOR": "1"})
    assert json.loads(listed.stdout) == {"characters": []}
