"""`stkit tcg cards fetch`: a fresh install reaches the community card list in one command.

Tested against a real HTTP server on the loopback interface serving fixtures with the real list's traits:
``fixtures/community_cards.json`` is shaped like the public JSON copy of the list (records under the
plugin's column names, keyed by card name, and one value holding several plugin rows glued together by
that copy's maker), ``fixtures/plugin_sample.txt`` like the plugin's own tab-separated file.
"""

import json
import os
import pathlib
import socket
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue
from stkit.tcg.db import CardDB
from stkit.tcg.fetch import COMMUNITY_LIST_URL, FETCHED_NAME, download, records_to_plugin_text
from tests.tcg.loopback import serving

FIX = pathlib.Path(__file__).parent / "fixtures"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}
FILES = {
    "/rage_cards.json": (FIX / "community_cards.json").read_bytes(),
    "/carddata.txt": (FIX / "plugin_sample.txt").read_bytes(),
    "/broken.json": b'{"Bite": {"Name": "Bite"',
}


@pytest.fixture(scope="module")
def server():
    with serving(FILES) as url:
        yield url


@pytest.fixture
def closed_port():
    # a port nothing listens on: bound, then closed, so a connection is refused at once
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return port


def test_fetch_imports_the_json_copy_and_gives_the_glued_rows_back(server, _cards_db_in_tmp):
    result = runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/rage_cards.json", "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["file"] == server + "/rage_cards.json" and report["format"] == "lackey"
    # 5 records plus the 3 plugin rows one record's Name held
    assert report["imported"] == 8 and report["playtest"] == 1 and report["skipped"] == []
    with CardDB(_cards_db_in_tmp) as db:
        assert db.imported_count() == 8
        juno = db.exact("Juno, 'Storm Crow'")
        assert (juno.renown, juno.crinos_side["health"], juno.set) == (2, 2, "TheWarOfTheAmazon")
        assert db.exact("Quarry Warden").type == "Enemy"
        assert db.exact("Shield Wall").block == 3
        assert db.show("Gnaw").origin == FETCHED_NAME


def test_fetch_takes_the_plugin_file_from_a_mirror_and_a_second_fetch_replaces_the_first(server, _cards_db_in_tmp):
    first = runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/rage_cards.json"], env=ENV)
    assert "Imported 8 cards (1 playtest) from http://127.0.0.1:" in first.stdout
    result = runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/carddata.txt", "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    imported = json.loads(result.stdout)["imported"]
    with CardDB(_cards_db_in_tmp) as db:
        assert db.imported_count() == imported  # the JSON copy's cards are gone, not kept beside
        assert db.lookup("Quarry Warden") is None


def test_offline_is_one_clear_line_and_nothing_changes(closed_port, _cards_db_in_tmp):
    result = runner.invoke(app, ["tcg", "cards", "fetch", "--url", f"http://127.0.0.1:{closed_port}/x.txt"], env=ENV)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot reach 127.0.0.1 (")
    assert "are you offline?" in lines[0] and "--url" in lines[0]
    with CardDB(_cards_db_in_tmp) as db:
        assert db.imported_count() == 0


def test_a_missing_file_or_a_broken_list_is_one_line(server, _cards_db_in_tmp):
    missing = runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/nothing.txt"], env=ENV)
    assert missing.exit_code == 1
    assert (
        missing.stderr.strip()
        == f"Error: {server}/nothing.txt: the server answered 404 Not Found; give a copy with --url"
    )
    broken = runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/broken.json"], env=ENV)
    assert broken.exit_code == 1 and broken.stderr.startswith(f"Error: {server}/broken.json: not readable JSON")
    assert len(broken.stderr.strip().splitlines()) == 1


def test_only_web_addresses_are_fetched():
    result = runner.invoke(app, ["tcg", "cards", "fetch", "--url", "file:///etc/passwd"], env=ENV)
    assert result.exit_code == 1
    assert "is not an http:// or https:// address" in result.stderr
    with pytest.raises(InvalidValue, match="--timeout 0 is out of range"):
        download("http://127.0.0.1/", timeout=0)
    assert COMMUNITY_LIST_URL.startswith("https://")


def test_a_json_copy_becomes_the_plugin_rows():
    text = records_to_plugin_text({"Bite": {"Name": "Bite", "Type": "Combat Action", "Rage": "2"}}, "x")
    header, row = text.splitlines()
    assert header.split("\t")[:5] == ["Name", "Expansion", "ImageFile", "Sealed", "Type"]
    assert row.split("\t")[0] == "Bite" and row.split("\t")[4] == "Combat Action" and row.split("\t")[9] == "2"


def test_a_fresh_install_says_no_list_is_imported(_cards_db_in_tmp):
    search = runner.invoke(app, ["tcg", "cards", "search", "rage"], env=ENV)
    assert search.exit_code == 0
    note = search.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("no card list imported: stkit knows only its")
    assert "`stkit tcg cards fetch`" in note[0]
    data = json.loads(runner.invoke(app, ["tcg", "cards", "search", "rage", "--json"], env=ENV).stdout)
    assert data["card_list_imported"] is False
    check = runner.invoke(app, ["tcg", "deck", "check", str(FIX / "legal_deck.txt")], env=ENV)
    assert check.exit_code == 1 and check.stdout == ""
    assert check.stderr.strip().splitlines() == ["Error: " + note[0]]  # one line, and no deck line listed as unknown


def test_after_a_fetch_the_note_is_gone(server, _cards_db_in_tmp):
    runner.invoke(app, ["tcg", "cards", "fetch", "--url", server + "/rage_cards.json"], env=ENV)
    search = runner.invoke(app, ["tcg", "cards", "search", "frost"], env=ENV)
    assert search.stderr == "" and "Ingrid Frost-Howl" in search.stdout


@pytest.mark.slow
def test_subprocess_fetch(server, tmp_path):
    env = {**os.environ, **ENV, "STKIT_CARDS_DB": str(tmp_path / "sub.sqlite")}
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "cards", "fetch", "--url", server + "/rage_cards.json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Imported 8 cards (1 playtest) from http://127.0.0.1:")
