"""`stkit log`: filters by scene, character and task; local time; CSV and JSON export; notes kept."""

import csv
import io
import json

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.cli.char.commands import local_time

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _night(db_url: str) -> None:
    ok("char", "new", "Ana", "--set", "Dexterity=3", "--set", "Stealth=2")
    ok("roll", "dex", "-c", "ana", "--dice", "7,2,3")  # before any scene
    ok("scene", "start", "The lock")
    ok(
        "roll",
        "dex+stealth",
        "-c",
        "ana",
        "--dice",
        "7,2,3,8,9",
        "--task",
        "Pick the lock",
        "--note",
        "=cmd|' /C calc'!A0",
    )
    ok("roll", "4", "--log", "--dice", "7,7,7,7", "--note", "the guard hears")


def test_filters(db_url: str) -> None:
    _night(db_url)
    everything = json.loads(ok("log", "--json"))["rolls"]
    assert [e["id"] for e in everything] == [3, 2, 1]
    in_scene = json.loads(ok("log", "--scene", "the l", "--json"))["rolls"]
    assert [e["id"] for e in in_scene] == [2]  # the plain --log roll is not tied to the scene
    task = json.loads(ok("log", "--task", "PICK THE LOCK", "--format", "json"))["rolls"]
    assert [(e["id"], e["detail"]["note"]) for e in task] == [(2, "=cmd|' /C calc'!A0")]
    mine = json.loads(ok("log", "-c", "an", "--scene", "1", "--json"))["rolls"]
    assert [e["id"] for e in mine] == [2]


def test_csv_export_is_spreadsheet_safe(db_url: str) -> None:
    _night(db_url)
    rows = list(csv.reader(io.StringIO(ok("log", "--format", "csv"))))
    assert rows[0][:3] == ["id", "time", "chronicle"] and rows[0][-1] == "note"
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["2"][-1] == "'=cmd|' /C calc'!A0"  # never read as a formula
    assert by_id["3"][-1] == "the guard hears"
    assert by_id["2"][7] == "7 2 3 8 9" and by_id["2"][13] == "Pick the lock"


def test_local_time() -> None:
    from datetime import datetime

    iso = "2026-12-01T09:40:01.134542+00:00"
    assert local_time(iso) == datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    assert local_time("not a time") == "not a time"
