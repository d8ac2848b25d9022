"""Card-game inputs read as numbers or paths: only ASCII digits are numbers (card YAML, plugin rows, deck
counts, Umbra events, search ranges), any rules-search text is one line, a card database path is checked
before anything is created, and error lines name the file and field without quoting the file."""

import json
import os
import pathlib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, InvalidValue
from stkit.tcg.cardfiles import parse_card_file
from stkit.tcg.db import CardDB, NumberRange, check_db_path
from stkit.tcg.deck import parse_deck_text
from stkit.tcg.resolvers.umbra import parse_umbra_event

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}
ARABIC_THREE = "\u0663"
FULLWIDTH_FOUR = "\uff14"


@pytest.mark.parametrize("digit", [ARABIC_THREE, FULLWIDTH_FOUR, "\u0969"])
def test_card_yaml_refuses_non_ascii_digits(tmp_path, digit):
    path = tmp_path / "cards.yaml"
    path.write_text(f"- name: Odd Ally\n  type: Ally\n  health: '{digit}'\n", encoding="utf-8")
    with pytest.raises(
        DataFileError, match=r"card 1 \(Odd Ally\): field 'health': not a whole number \(use the digits 0 to 9\)$"
    ):
        parse_card_file(path)


def test_lackey_rows_keep_non_ascii_digits_as_text(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text(f"Name\tType\tRenown\tHealth\nOdd Ally\tAlly\t{ARABIC_THREE}\t2\n", encoding="utf-8")
    parsed = parse_card_file(path)
    (card,) = parsed.cards
    assert (card.renown, card.health, card.extra) == (None, 2, {"renown": ARABIC_THREE})
    assert [w.message for w in parsed.warnings] == [
        f"renown '{ARABIC_THREE}' is not a number from 0 to 999; kept as text"
    ]


def test_deck_counts_are_ascii_digits_only():
    with pytest.raises(DataFileError, match=r"line 2: the count is not a number written with the digits 0 to 9"):
        parse_deck_text(f"Sept deck:\n{ARABIC_THREE} Old Man Harker\n")
    deck = parse_deck_text("Sept deck:\n3 Old Man Harker\n")
    assert [(d.count, d.name) for d in deck.lines] == [(3, "Old Man Harker")]


def test_umbra_events_read_ascii_digits_only():
    assert parse_umbra_event("points:+3")[0] == 3
    with pytest.raises(InvalidValue, match=r"unknown Umbra event"):
        parse_umbra_event(f"points:+{ARABIC_THREE}")
    result = runner.invoke(app, ["tcg", "umbra-track", f"level:-{FULLWIDTH_FOUR}"], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "unknown Umbra event" in result.stderr


def test_search_ranges_read_ascii_digits_only():
    assert NumberRange.parse("2..4", "--rage") == NumberRange(2, 4)
    for text in (ARABIC_THREE, f"1..{ARABIC_THREE}", f"{FULLWIDTH_FOUR}.."):
        with pytest.raises(InvalidValue, match=r"--rage .* is not a number or range"):
            NumberRange.parse(text, "--rage")
    result = runner.invoke(app, ["tcg", "cards", "search", "--rage", ARABIC_THREE], env=ENV)
    assert result.exit_code == 1 and "is not a number or range" in result.stderr


@pytest.mark.parametrize("query", ["[/]", "[/bold]", '"', "a AND", "NEAR(", "x:y", "*", "^", "(", "-"])
def test_rules_search_syntax_is_one_line_never_an_internal_error(query):
    result = runner.invoke(app, ["tcg", "rules", "search", query], env=ENV)
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["tcg", "rules", "search", query, "--json"], env=ENV)
    assert result.exit_code == 0 and json.loads(result.stdout)["query"] == query


def test_rules_search_prints_a_bracketed_query_literally():
    result = runner.invoke(app, ["tcg", "rules", "search", "[/]"], env=ENV)
    assert result.stdout == "No rule matches '[/]'.\n"


@pytest.mark.parametrize("name", ["garbage", "cards.txt", "notes"])
def test_a_new_cards_db_name_that_is_no_database_is_refused(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["tcg", "cards", "search", "x", "--cards-db", name], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "is not a card database file name" in result.stderr and ".sqlite" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_that_is_no_database_is_refused_and_untouched(tmp_path):
    path = tmp_path / "garbage"
    path.write_text("secret line one\nsecret line two\n", encoding="utf-8")
    result = runner.invoke(app, ["tcg", "cards", "search", "x", "--cards-db", str(path)], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "secret" not in result.stderr and "garbage" in result.stderr
    assert path.read_text(encoding="utf-8") == "secret line one\nsecret line two\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garbage"]


def test_database_suffixes_are_accepted(tmp_path):
    for name in ("a.sqlite", "b.sqlite3", "c.db"):
        assert check_db_path(tmp_path / name) == tmp_path / name


def test_default_folders_are_owner_only_whatever_the_umask(tmp_path, monkeypatch):
    import stkit.tcg.db as dbmod

    target = tmp_path / "home" / ".local" / "share" / "stkit" / "cards.sqlite"
    monkeypatch.setattr(dbmod, "_default_location", lambda: target)
    monkeypatch.delenv("STKIT_CARDS_DB", raising=False)
    old = os.umask(0)
    try:
        with CardDB():
            pass
    finally:
        os.umask(old)
    for folder in (tmp_path / "home", target.parents[2], target.parents[1], target.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    assert target.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("ext", ["csv", "yaml", "json", "txt"])
def test_error_lines_never_quote_the_file(tmp_path, ext):
    secret = tmp_path / "secret"
    secret.write_text("root:x:0:0:TOPSECRET:/root:/bin/bash\nadmin:TOPSECRET2\n", encoding="utf-8")
    link = tmp_path / f"cards.{ext}"
    link.symlink_to(secret)
    result = runner.invoke(app, ["tcg", "cards", "import", str(link)], env=ENV)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "TOPSECRET" not in result.stderr and "/bin/bash" not in result.stderr
    assert str(link) in result.stderr


def test_csv_unknown_columns_are_counted_not_quoted(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("name,type,hidden words here\nA,Ally,1\n", encoding="utf-8")
    result = runner.invoke(app, ["tcg", "cards", "import", str(path)], env=ENV)
    assert result.exit_code == 1
    assert (
        result.stderr
        == f"Error: {path}: line 1: column 3 is not a card field name (such as name, type, set, renown, text)\n"
    )


def test_refused_rows_name_the_field_not_the_content(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("Name\tType\tText\n\tAlly\tprivate words\nOk\tAlly\t\n", encoding="utf-8")
    parsed = parse_card_file(path)
    assert [(e.line, e.message) for e in parsed.errors] == [(2, "no card name (the Name field is empty)")]


def test_deck_lines_are_not_quoted_in_errors(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("root:x:0:0:TOPSECRET\n", encoding="utf-8")
    result = runner.invoke(app, ["tcg", "deck", "check", str(path)], env=ENV)
    assert result.exit_code == 1 and "TOPSECRET" not in result.stderr and str(path) in result.stderr


def test_check_db_path_refuses_garbage_without_creating(tmp_path):
    with pytest.raises(InvalidValue, match="is not a card database file name"):
        check_db_path(tmp_path / "garbage")
    assert not pathlib.Path(tmp_path / "garbage").exists()


def test_a_mapping_where_a_list_belongs_is_named_not_quoted(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("- name: x\n  keywords: {a: hunter2}\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        parse_card_file(path)
    assert str(err.value) == f"{path}: card 1 (x): field 'keywords': expected a list of text, got a mapping"
