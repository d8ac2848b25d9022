"""`stkit char`, `stkit log` and `stkit roll --char/--log`: in-process (CliRunner) and as subprocesses."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "characters"
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input, env={"NO_COLOR": "1", "COLUMNS": "120"})


def ok(*args, input=None) -> str:
    result = run(*args, input=input)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def js(*args) -> dict:
    return json.loads(ok(*args, "--json"))


def fails(*args, code=1, input=None) -> str:
    result = run(*args, input=input)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result.stderr


@pytest.fixture
def examples(db_url):
    ok("char", "import", str(EXAMPLES))
    return db_url


def test_new_show_list(db_url):
    assert "Created Archibald" in ok(
        "char", "new", "Archibald", "--player", "Kyle", "--set", "Dexterity=3", "--set", "drive=2"
    )
    shown = ok("char", "show", "archibald")
    assert "Archibald" in shown and "Dexterity     ●●●○○" in shown and "Drive         ●●○○○" in shown
    data = js("char", "show", "ARCHIBALD")
    assert data["attributes"]["Dexterity"] == 3 and data["abilities"] == {"Drive": 2} and data["player"] == "Kyle"
    assert [c["name"] for c in js("char", "list")["characters"]] == ["Archibald"]
    err = fails("char", "new", "archibald")
    assert err.startswith("Error: a character named 'Archibald' already exists") and err.count("\n") == 1


def test_set_spend_regain_damage_heal_shift_xp(db_url):
    ok("char", "new", "Flashburn", "--set", "Dexterity=3", "--set", "Firearms=2", "--set", "Willpower=4")
    assert js("char", "set", "Flashburn", "primal urge", "3")["value"] == 3
    assert js("char", "spend", "Flashburn", "willpower", "2")["temporary"] == 2  # created with 4 of 4
    assert js("char", "regain", "Flashburn", "willpower", "9")["temporary"] == 4
    rage = js("char", "regain", "Flashburn", "rage", "2")
    assert rage["temporary"] == 3 and "exceed" in rage["warnings"][0]
    hurt = js("char", "damage", "Flashburn", "3", "--type", "lethal")
    assert hurt["level"] == "Injured" and hurt["wound_penalty"] == 1
    assert js("char", "heal", "Flashburn", "2")["level"] == "Bruised"
    assert js("char", "shift", "Flashburn", "crinos", "--instant")["form"] == "Crinos"
    assert js("char", "xp", "Flashburn", "award", "5", "--reason", "saved the Kinfolk")["available"] == 5
    assert js("char", "xp", "Flashburn", "spend", "2", "-r", "Firearms 3")["available"] == 3
    log = js("char", "xp", "Flashburn")
    assert [e["reason"] for e in log["log"]] == ["saved the Kinfolk", "Firearms 3"]
    sheet = js("char", "show", "Flashburn")
    assert sheet["derived"]["attributes_in_form"]["Dexterity"] == 4
    assert sheet["derived"]["wound_penalty"] == 0 and sheet["abilities"]["Primal-Urge"] == 3


def test_refusals_change_nothing(db_url):
    ok("char", "new", "Weston", "--set", "Willpower=1")
    assert 'did you mean "Dexterity"' in fails("char", "set", "Weston", "Dextrity", "3")
    assert "outside the allowed range 0 to 5" in fails("char", "set", "Weston", "Dexterity", "6")
    assert "cannot spend 2" in fails("char", "spend", "Weston", "willpower", "2")
    assert "0 experience to spend" in fails("char", "xp", "Weston", "spend", "1")
    assert "unknown form" in fails("char", "shift", "Weston", "wolf")
    assert 'did you mean "Weston"' in fails("char", "show", "Westen")
    fails("char", "damage", "Weston", "2", "--type", "fire", code=2)  # a typer usage error
    sheet = js("char", "show", "Weston")
    assert sheet["willpower"] == {"permanent": 1, "temporary": 1}
    assert sheet["attributes"]["Dexterity"] == 1 and sheet["experience"]["log"] == []


def test_delete_asks(db_url):
    ok("char", "new", "Red-of-Teeth")
    fails("char", "delete", "red of teeth", input="n\n")
    assert js("char", "list")["characters"]
    assert "Deleted Red-of-Teeth" in ok("char", "delete", "red of teeth", input="y\n")
    ok("char", "new", "Red-of-Teeth")
    assert js("char", "delete", "Red-of-Teeth", "--yes") == {"deleted": "Red-of-Teeth"}
    assert js("char", "list")["characters"] == []


def test_roll_from_sheet_shows_the_pool(examples):
    out = ok("roll", "Dexterity + Drive", "--char", "Archibald", "-d", "6", "--seed", "1")
    assert out.splitlines()[0] == "Archibald: Dexterity 3 + Drive 2 = 5 dice"
    assert "Logged as roll #1" in out
    ok("char", "damage", "Archibald", "2")
    data = js("roll", "Dexterity + Drive - 1", "--char", "archibald", "--dice", "6,6,1")
    assert data["pool_breakdown"]["text"] == "Dexterity 3 + Drive 2 - 1 - 1 wound = 3 dice"
    assert (data["pool"], data["result"], data["dice"]) == (3, 1, [6, 6, 1])
    entries = js("log", "--char", "Archibald")["rolls"]
    assert [e["pool"] for e in entries] == [3, 5]
    assert entries[0]["dice"] == [6, 6, 1] and entries[0]["expression"] == "Dexterity + Drive - 1"


def test_roll_options_still_work_with_char(examples):
    data = js(
        "roll",
        "Dexterity + Brawl",
        "-c",
        "Shadow-in-the-Wood",
        "-d",
        "7",
        "--retry",
        "2",
        "--seed",
        "3",
        "--specialty",
        "double",
    )
    assert data["difficulty"] == 9 and data["retry"] == 2 and data["house_rules"]["specialty"] == "double"
    auto = js("roll", "Dexterity + Brawl", "-c", "Shadow-in-the-Wood", "-d", "6", "--auto")
    assert auto["automatic"] and auto["result"] == 1 and auto["pool"] == 7


def test_willpower_spent_and_refused(db_url):
    ok("char", "new", "Weston", "--set", "Dexterity=3", "--set", "Athletics=2", "--set", "Willpower=1")
    data = js("roll", "Dexterity + Athletics", "--char", "Weston", "--willpower", "--dice", "2,3,4,5,1")
    assert data["willpower"] and data["result"] == 1 and data["willpower_left"] == 0
    err = fails("roll", "Dexterity + Athletics", "--char", "Weston", "--willpower", "--seed", "1")
    assert err == "Error: Weston has no Willpower points left; nothing was spent or rolled\n"
    assert len(js("log")["rolls"]) == 1


def test_plain_roll_with_log(db_url):
    data = js("roll", "5", "-d", "7", "--log", "--dice", "7,7,1,2,3")
    assert data["character"] is None and data["log_id"] == 1 and data["result"] == 1
    (entry,) = js("log")["rolls"]
    assert (entry["pool"], entry["difficulty"], entry["character"]) == (5, 7, None)
    assert "need a character" in fails("roll", "Dexterity + Brawl")


def test_incapacitated_cannot_roll(examples):
    ok("char", "damage", "Shadow-in-the-Wood", "7", "--type", "aggravated")
    assert "Incapacitated and cannot act" in fails("roll", "Dexterity + Brawl", "--char", "Shadow-in-the-Wood")
    assert js("log")["rolls"] == []


def test_export_import_round_trip(db_url, tmp_path):
    ok("char", "import", str(EXAMPLES / "paper-clip.yaml"))
    ok("char", "set", "Paper Clip", "storyteller notes", "owes the mob")
    ok("char", "xp", "Paper Clip", "award", "3")
    for fmt in ("yaml", "json"):
        out = tmp_path / f"pc.{fmt}"
        ok("char", "export", "Paper Clip", "--format", fmt, "-o", str(out))
        before = js("char", "show", "Paper Clip")
        ok("char", "delete", "Paper Clip", "--yes")
        ok("char", "import", str(out))
        assert js("char", "show", "Paper Clip") | {"id": None} == before | {"id": None}
    player = ok("char", "export", "Paper Clip", "--player-view")
    assert "owes the mob" not in player and "Paper Clip" in player


def test_bad_import_message(db_url, tmp_path):
    (tmp_path / "a.yaml").write_text("name: A\n")
    (tmp_path / "b.yaml").write_text("name: B\nattributes:\n  Wits: 9\n")
    err = fails("char", "import", str(tmp_path))
    assert err.startswith("Error: ") and "b.yaml: attributes.Wits: 9 is outside the allowed range 0 to 5" in err
    assert js("char", "list")["characters"] == []


# ----- real subprocesses ---------------------------------------------------------------------------------
def sub(*args, env_db: str | None = None, check=True) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    if env_db:
        env["STKIT_DATABASE_URL"] = env_db
    p = subprocess.run([sys.executable, "-m", "stkit", *args], capture_output=True, text=True, env=env, timeout=60)
    if check:
        assert p.returncode == 0, p.stderr
    return p


@pytest.mark.slow
def test_subprocess_examples_and_roll(tmp_path):
    db = str(tmp_path / "troupe.sqlite")
    sub("char", "import", str(EXAMPLES), "--db", db)
    p = sub("roll", "Dexterity + Drive", "--char", "Archibald", "--db", db, "--json", "--seed", "1")
    assert json.loads(p.stdout)["pool"] == 5
    p = sub("log", "--char", "archibald", "--db", db, "--json")
    assert [e["pool"] for e in json.loads(p.stdout)["rolls"]] == [5]
    p = sub("char", "show", "Shadow in the Wood", "--db", db)
    assert "Brawl         ●●●●○" in p.stdout
    p = sub("char", "show", "Nobody", "--db", db, check=False)
    assert (
        p.returncode == 1 and p.stderr.startswith("Error: no character named 'Nobody'") and "Traceback" not in p.stderr
    )


def test_plain_roll_does_not_import_the_store():
    code = (
        "import sys\n"
        "from stkit.cli.app import main\n"
        "sys.argv = ['stkit', 'roll', '5', '-d', '6', '--seed', '1']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy', 'alembic', 'psycopg'))\n"
        "print('HEAVY', heavy)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "5 dice at difficulty 6" in p.stdout
    assert "HEAVY []" in p.stdout


def _without_sqlalchemy(*argvs: list[str]) -> tuple[str, list[str]]:
    """Run ``stkit ARGV`` for each of ``argvs`` (each must exit 0) in one fresh Python: what they printed,
    and the sqlmodel and sqlalchemy modules loaded by the end."""
    code = (
        "import sys\n"
        "from stkit.cli.app import main\n"
        f"for argv in {argvs!r}:\n"
        "    sys.argv = ['stkit', *argv]\n"
        "    try:\n        main()\n    except SystemExit as e:\n        assert not e.code, e.code\n"
        "print('HEAVY', sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy')))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    out, _, heavy = p.stdout.rpartition("HEAVY ")
    return out, ast.literal_eval(heavy)


@pytest.mark.slow
def test_show_and_log_skip_sqlalchemy_on_sqlite(tmp_path):
    db = str(tmp_path / "fast.sqlite")
    sub("char", "import", str(EXAMPLES / "archibald.yaml"), "--db", db)
    out, heavy = _without_sqlalchemy(["char", "show", "Archibald", "--db", db], ["log", "--db", db])
    assert heavy == [] and "Archibald" in out


@pytest.mark.slow
def test_roll_from_sheet_skips_sqlalchemy_on_sqlite(tmp_path):
    """`stkit roll ... --char` (and --log) on an up-to-date SQLite file write through sqlite3 alone."""
    db = str(tmp_path / "fast.sqlite")
    sub("char", "import", str(EXAMPLES / "archibald.yaml"), "--db", db)
    from_sheet = ["roll", "Dexterity + Drive", "--char", "Archibald", "--db", db, "--json"]
    text, heavy = _without_sqlalchemy(
        from_sheet,
        [*from_sheet, "--willpower", "--task", "swerve", "--dice", "1,2,3,4,5"],
        ["roll", "3", "--log", "--db", db, "--json", "--seed", "2"],
    )
    assert heavy == []
    objects, dec = [], json.JSONDecoder()
    while text.strip():
        obj, end = dec.raw_decode(text.strip())
        objects.append(obj)
        text = text.strip()[end:]
    first, second, plain = objects
    assert first["pool"] == 5 and first["pool_breakdown"]["text"] == "Dexterity 3 + Drive 2 = 5 dice"
    assert (second["willpower"], second["result"], second["task"], second["log_id"]) == (True, 1, "swerve", 2)
    assert plain["pool"] == 3 and plain["log_id"] == 3
    p = sub("log", "--char", "archibald", "--db", db, "--json")
    assert [(e["willpower"], e["task"]) for e in json.loads(p.stdout)["rolls"]] == [(True, "swerve"), (False, None)]


def test_bad_database_is_one_line_error(tmp_path):
    err = fails("char", "list", "--db", "nonsense://a@b/c")
    assert err.startswith("Error: cannot use the database URL 'nonsense://a@b/c'") and err.count("\n") == 1
    junk = tmp_path / "junk.sqlite"
    junk.write_text("this is not a database")
    assert "file is not a database" in fails("char", "list", "--db", str(junk))
    assert "file is not a database" in fails("char", "show", "X", "--db", str(junk))


def test_db_option_needs_an_existing_folder(tmp_path):
    db = tmp_path / "new" / "folder" / "troupe.sqlite"
    err = fails("char", "new", "Archibald", "--db", str(db))
    assert err == (f"Error: database {str(db)!r} (from --db): the folder {db.parent} does not exist; create it first\n")
    assert not (tmp_path / "new").exists()  # no folder made behind the user's back
    (tmp_path / "new" / "folder").mkdir(parents=True)
    ok("char", "new", "Archibald", "--db", str(db))
    assert db.is_file()
    assert [c["name"] for c in js("char", "list", "--db", str(db))["characters"]] == ["Archibald"]


def test_default_location_folder_is_created(tmp_path, monkeypatch, _isolated_store):
    monkeypatch.delenv("STKIT_DATABASE_URL")
    ok("char", "new", "Archibald")
    found = list(_isolated_store.rglob("stkit.sqlite"))
    assert len(found) == 1 and found[0].parent.name == "stkit"


# ----- regressions from the new-user trial -------------------------------------------------------------------
def test_new_with_a_rating_starts_with_full_points(db_url):
    ok("char", "new", "Runs-Through-Rain", "--set", "Willpower=5", "--set", "Rage=4", "--set", "Gnosis=2")
    sheet = js("char", "show", "Runs-Through-Rain")
    assert (sheet["willpower"], sheet["rage"], sheet["gnosis"]) == (
        {"permanent": 5, "temporary": 5},
        {"permanent": 4, "temporary": 4},
        {"permanent": 2, "temporary": 2},
    )
    assert "Runs-Through-Rain spends 1 Willpower: 4/5 left" in ok("char", "spend", "Runs-Through-Rain", "willpower")
    # points given as well win, whatever the order
    ok("char", "new", "Sam", "--set", "Willpower points=2", "--set", "Willpower=5")
    assert js("char", "show", "Sam")["willpower"] == {"permanent": 5, "temporary": 2}
    assert js("char", "new", "Low", "--set", "Willpower=1")["warnings"] == []


def test_set_on_a_character_in_play_keeps_points_and_clamps(db_url):
    ok("char", "new", "Weston")  # Willpower 3/3
    assert js("char", "set", "Weston", "Willpower", "6")["warnings"] == []
    assert js("char", "show", "Weston")["willpower"] == {"permanent": 6, "temporary": 3}
    edit = js("char", "set", "Weston", "Willpower", "2")
    assert edit["warnings"] == ["Willpower points lowered to the new rating 2"]
    assert js("char", "show", "Weston")["willpower"] == {"permanent": 2, "temporary": 2}


def test_import_without_points_gives_full_points(db_url, tmp_path):
    (tmp_path / "a.yaml").write_text("name: A\nwillpower: {permanent: 7}\ngnosis: 4\n")
    ok("char", "import", str(tmp_path / "a.yaml"))
    sheet = js("char", "show", "A")
    assert (sheet["willpower"], sheet["gnosis"]) == ({"permanent": 7, "temporary": 7}, {"permanent": 4, "temporary": 4})


def test_damage_past_incapacitated_says_what_happened(db_url):
    ok("char", "new", "Archibald")
    out = ok("char", "damage", "Archibald", "7", "--type", "aggravated")
    assert out.splitlines() == [
        "Archibald takes 7 aggravated: Incapacitated",
        "Warning: Archibald falls back to Homid form with lethal damage past Incapacitated; a Rage roll at "
        "difficulty 8 may keep them in the fight (stkit char stay-active)",
        "Warning: Archibald is now Incapacitated",
    ]
    assert "already filled" not in out
    # the same track in one hit of 9: the eighth level finds him downed and kills, as a later hit would
    ok("char", "new", "Bertram")
    assert ok("char", "damage", "Bertram", "9", "--type", "aggravated").splitlines() == [
        "Bertram takes 7 of 9 aggravated: Incapacitated",
        "Warning: Bertram is dead: 2 levels of aggravated damage came past Incapacitated",
    ]
    data = js("char", "damage", "Archibald", "1")
    assert data["damage"] == {
        "requested": 1,
        "kind": "bashing",
        "taken": 0,
        "marked": 0,
        "upgraded": {},
        "lost": 1,
        "overflowed": 0,
        "killed": True,  # already downed with aggravated damage: the next level kills
        "reverted_to": None,
    }
    assert data["summary"] == "Archibald takes 0 of 1 bashing: Incapacitated"
    assert data["warnings"] == ["Archibald is dead: 1 level of bashing damage came past Incapacitated"]


def list_at(columns: int) -> list[str]:
    result = runner.invoke(app, ["char", "list"], env={"NO_COLOR": "1", "COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return [ln.rstrip() for ln in result.stdout.splitlines()]


NAMES = ["Archibald", "Ears-of-the-Wind", "Flashburn", "Paper Clip", "Red-of-Teeth", "Shadow-in-the-Wood", "Weston"]


def test_list_fits_80_columns_without_cutting_names(examples):
    lines = list_at(80)
    assert max(map(len, lines)) <= 80 and "…" not in "\n".join(lines)
    assert lines[0] == "Chronicle: default"  # one chronicle: a title, not a column
    header = next(ln for ln in lines if ln.startswith("Name"))
    for col in ("Player", "Form", "Health", "Rage", "Gnosis", "Willpower"):
        assert col in header
    rows = [ln for ln in lines if ln.split("  ")[0] in NAMES]
    assert [r.split("  ")[0] for r in rows] == NAMES
    assert rows[0].split() == ["Archibald", "Kyle", "-", "Homid", "unhurt", "1/1", "1/1", "3/3"]
    # Breed / Auspice / Tribe wraps between words instead of being cut
    assert any("Theurge /" in ln for ln in lines) and any("Bone Gnawer" in ln for ln in lines)


def test_list_drops_less_needed_columns_when_narrow(examples):
    for columns, gone in ((66, {"Breed"}), (60, {"Breed", "Player"}), (52, {"Breed", "Player", "Form"})):
        lines = list_at(columns)
        header = next(ln for ln in lines if ln.startswith("Name"))
        assert all(col not in header for col in gone), (columns, header)
        assert "Health" in header and "Willpower" in header
        assert [ln.split("  ")[0] for ln in lines if ln.split("  ")[0] in NAMES] == NAMES
        assert "…" not in "\n".join(lines)
        assert max(map(len, lines)) <= columns
    # narrower than any table: one line per character, names whole
    result = runner.invoke(app, ["char", "list"], env={"NO_COLOR": "1", "COLUMNS": "40"})
    lines = [ln.rstrip() for ln in result.stdout.splitlines()]
    assert lines[:3] == ["Archibald (default)", "  Homid, unhurt", "  Rage 1/1  Gnosis 1/1  Willpower 3/3"]
    assert lines[::3] == [f"{n} (default)" for n in NAMES]
    assert max(map(len, lines)) <= 40


def test_list_shows_the_chronicle_column_for_several(examples):
    ok("char", "new", "Shadow-in-the-Wood", "--chronicle", "vegas")
    lines = list_at(100)
    assert not lines[0].startswith("Chronicle:")
    header = next(ln for ln in lines if ln.startswith("Name"))
    assert header.split()[:2] == ["Name", "Chronicle"] and any("vegas" in ln for ln in lines)
    assert sum(ln.startswith("Shadow-in-the-Wood") for ln in lines) == 2


@pytest.mark.slow
def test_list_at_80_columns_as_a_subprocess(tmp_path):
    db = str(tmp_path / "troupe.sqlite")
    sub("char", "import", str(EXAMPLES), "--db", db)
    sub("char", "new", "Runs-Through-Rain", "--set", "Willpower=5", "--db", db)
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80")
    p = subprocess.run(
        [sys.executable, "-m", "stkit", "char", "list", "--db", db], capture_output=True, text=True, env=env, timeout=60
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(len(ln.rstrip()) for ln in lines) <= 80 and "…" not in p.stdout
    row = next(ln for ln in lines if ln.startswith("Runs-Through-Rain "))
    assert row.split()[-1] == "5/5"  # full points at creation
    for name in NAMES:
        assert any(ln.startswith(name + " ") for ln in lines), name


@pytest.mark.slow
def test_damage_message_as_a_subprocess(tmp_path):
    db = str(tmp_path / "troupe.sqlite")
    sub("char", "import", str(EXAMPLES / "archibald.yaml"), "--db", db)
    p = sub("char", "damage", "Archibald", "9", "--type", "aggravated", "--db", db)
    assert p.stdout.splitlines() == [
        "Archibald takes 7 of 9 aggravated: Incapacitated",
        "Warning: Archibald is dead: 2 levels of aggravated damage came past Incapacitated",
    ]


def test_set_negative_value_reaches_the_range_check():
    from typer.testing import CliRunner

    from stkit.cli.app import app

    runner = CliRunner()
    env = {"NO_COLOR": "1"}
    assert runner.invoke(app, ["char", "new", "Negative-Test"], env=env).exit_code == 0
    result = runner.invoke(app, ["char", "set", "Negative-Test", "Gnosis points", "-1"], env=env)
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: Gnosis points -1 is outside the allowed range 0 to 1"
