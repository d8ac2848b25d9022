"""Regressions from the adversarial tester: bad input to the character store and the tracked actions gets one
`Error: ...` line on stderr (exit 1), names the value and the allowed range, and changes nothing stored."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args, env=None):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120", **(env or {})})


def ok(*args, env=None) -> str:
    result = run(*args, env=env)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def error(*args, env=None) -> str:
    """The one stderr line of a refused command (exit 1, nothing on stdout, no traceback)."""
    result = run(*args, env=env)
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def sheet(name: str) -> dict:
    return json.loads(ok("char", "show", name, "--json"))


def sub(*args, env_extra=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "stkit", *args], capture_output=True, text=True, env=env, timeout=60)


# ----- 1. experience that would not read back -------------------------------------------------------------
def test_xp_award_past_the_stored_limit_is_refused_and_nothing_changes(db_url):
    ok("char", "new", "Weston")
    assert error("char", "xp", "Weston", "award", "1000001") == (
        "Error: Weston has 0 experience in all; awarding 1000001 would make 1000001, outside the allowed range "
        "0 to 1000000"
    )
    ok("char", "xp", "Weston", "award", "1000000")
    assert error("char", "xp", "Weston", "award", "1") == (
        "Error: Weston has 1000000 experience in all; awarding 1 would make 1000001, outside the allowed range "
        "0 to 1000000"
    )
    data = sheet("Weston")
    assert data["experience"]["total"] == 1000000 and len(data["experience"]["log"]) == 1
    # the whole chronicle still reads
    assert [c["name"] for c in json.loads(ok("char", "list", "--json"))["characters"]] == ["Weston"]
    assert "1000000 earned" in ok("char", "xp", "Weston")


def test_rage_points_past_the_stored_limit_are_refused(db_url):
    ok("char", "new", "Weston")
    assert error("char", "regain", "Weston", "rage", "99") == (
        "Error: Weston has 1 Rage points; regaining 99 would make 100, outside the allowed range 0 to 99"
    )
    ok("char", "regain", "Weston", "rage", "98")
    assert sheet("Weston")["rage"] == {"permanent": 1, "temporary": 99}


# ----- 2. numbers too big for the database ------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["extended", "start", "X", "--pool", "5", "--target", "100000000000000000000"],
            "Error: target 100000000000000000000 is outside the allowed range 1 to 1000 successes",
        ),
        (
            ["extended", "start", "X", "--pool", "5", "--target", "1001"],
            "Error: target 1001 is outside the allowed range 1 to 1000 successes",
        ),
        (
            ["extended", "start", "X", "--pool", "5", "--target", "3", "--interval", "99999999999999999999 h"],
            "Error: interval '99999999999999999999 h' is too long; allowed: 1 second to 1 year (e.g. '30 min', '365 d')",
        ),
        (
            ["extended", "start", "X", "--pool", "5", "--target", "3", "--interval", "9" * 400 + " h"],
            "Error: interval '" + "9" * 400 + " h' is too long; allowed: 1 second to 1 year (e.g. '30 min', '365 d')",
        ),
        (
            ["extended", "start", "X", "--pool", "5", "--target", "3", "--interval", "366 d"],
            "Error: interval '366 d' is too long; allowed: 1 second to 1 year (e.g. '30 min', '365 d')",
        ),
        (
            ["contest", "start", "C", "--a", "5", "--b", "4", "--target", "100000000000000000000"],
            "Error: target 100000000000000000000 is outside the allowed range 1 to 1000 successes",
        ),
    ],
)
def test_huge_targets_and_intervals_are_refused(db_url, args, message):
    assert error(*args) == message
    assert json.loads(ok("extended", "list", "--all", "--json"))["extended_actions"] == []
    assert json.loads(ok("contest", "list", "--all", "--json"))["contests"] == []


def test_the_largest_target_and_interval_are_accepted(db_url):
    out = ok("extended", "start", "X", "--pool", "5", "--target", "100", "--interval", "365 d")
    assert "100 successes needed, one roll every 365 d" in out


# ----- 3. character files that break parsers ----------------------------------------------------------------
def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _bomb() -> str:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\nname: B\n"


@pytest.mark.parametrize(
    "name, text, message",
    [
        (
            "n.json",
            '{"name": "A", "rank": %s}' % ("9" * 5000),
            "malformed JSON: a number has thousands of digits; allowed: whole numbers in the ranges of docs/characters.md",
        ),
        ("d.json", "[" * 100_000 + "]" * 100_000, "malformed JSON: nested too deep; allowed: 20 levels"),
        ("d2.json", "[" * 50 + "]" * 50, "malformed JSON: nested too deep; allowed: 20 levels"),
        (
            "n.yaml",
            "name: A\nrank: %s\n" % ("9" * 5000),
            "malformed YAML: a number has thousands of digits; allowed: whole numbers in the ranges of docs/characters.md",
        ),
        (
            "d.yaml",
            "name: " + "[" * 100_000 + "]" * 100_000 + "\n",
            "malformed YAML at line 1, column 26: nested more than 20 levels deep",
        ),
        (
            "bomb.yaml",
            _bomb(),
            "malformed YAML at line 1, column 1: expands to 490329066 values once its aliases are followed; "
            "allowed: at most 100000",
        ),
        ("dup.yaml", "name: A\nrank: 1\nrank: 2\n", "malformed YAML at line 3, column 1: the key 'rank' appears twice"),
        (
            "big.yaml",
            'name: A\nnotes: "' + "x" * 1_100_000 + '"\n',
            "1100018 bytes is larger than the 1000000 bytes allowed",
        ),
        (
            "at.yaml",
            'name: A\nexperience:\n  total: 3\n  log:\n  - {at: "not a date", kind: award, amount: 3}\n',
            "experience.log[0].at: not a date; write e.g. 2024-05-01 or 2024-05-01T20:30:00+00:00",
        ),
        (
            "esc.yaml",
            'name: A\nnotes: "\\e]0;PWNED\\a"\n',
            "Notes contains the control character '\\x1b' at position 1; only printable text is allowed "
            "(newline and tab are allowed)",
        ),
        (
            "escname.json",
            '{"name": "A\\u001b[2J"}',
            "character name contains the control character '\\x1b' at position 2; only printable text is allowed",
        ),
        (
            "long.yaml",
            'name: A\nnotes: "' + "x" * 10_001 + '"\n',
            "Notes is 10001 characters long; allowed: at most 10000",
        ),
    ],
)
def test_hostile_character_files_get_one_line_naming_the_file(db_url, tmp_path, name, text, message):
    path = _write(tmp_path, name, text)
    assert error("char", "import", str(path)) == f"Error: {path}: {message}; nothing was imported"
    assert json.loads(ok("char", "list", "--json")) == {"characters": []}


def test_a_few_yaml_aliases_and_dates_still_import(db_url, tmp_path):
    path = _write(
        tmp_path,
        "ok.yaml",
        "name: Ada\nattributes: &a {Strength: 2}\nexperience:\n  total: 3\n  log:\n"
        "  - {at: 2024-05-01, kind: award, amount: 3, reason: moot}\n",
    )
    ok("char", "import", str(path))
    data = sheet("Ada")
    assert data["attributes"]["Strength"] == 2 and data["experience"]["log"][0]["at"] == "2024-05-01"


# ----- 4. export to places that cannot be written -----------------------------------------------------------
def test_export_to_a_folder_a_missing_folder_or_a_full_disk(db_url, tmp_path):
    ok("char", "new", "Weston")
    tmp_path = tmp_path / "out"
    tmp_path.mkdir()
    assert error("char", "export", "Weston", "-o", str(tmp_path)) == (
        f"Error: {tmp_path}: is a folder; give a file name, e.g. {tmp_path / 'character.yaml'}"
    )
    missing = tmp_path / "nope" / "w.yaml"
    assert error("char", "export", "Weston", "-o", str(missing)) == (
        f"Error: {missing}: the folder {missing.parent} does not exist; create it first"
    )
    assert not missing.parent.exists()
    if Path("/dev/full").exists():
        assert error("char", "export", "Weston", "-o", "/dev/full") == (
            "Error: /dev/full: is a device, not a regular file to write"
        )
    assert list(tmp_path.iterdir()) == []  # no partial or temporary file left behind


def test_failed_export_leaves_no_partial_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    from stkit.errors import DataFileError
    from stkit.store import files

    target = tmp_path / "w.yaml"
    target.write_text("old\n", encoding="utf-8")

    def boom(*_a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(DataFileError, match=r"w\.yaml: cannot be written: disk full \(No space left on device\)"):
        files.write_file(target, "name: Weston\n", force=True)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["w.yaml"]
    monkeypatch.undo()
    files.write_file(target, "name: Weston\n", force=True)
    assert target.read_text(encoding="utf-8") == "name: Weston\n"


# ----- 5, 6. database locations -----------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["sqlite:///", "sqlite://", "sqlite:///:memory:", ":memory:"])
def test_in_memory_databases_are_refused(url):
    line = error("char", "new", "Ghost", env={"STKIT_DATABASE_URL": url})
    assert line.startswith(
        f"Error: database {url!r} (from STKIT_DATABASE_URL): an in-memory SQLite database "
        "loses everything when the command ends"
    )


def test_a_bare_word_is_not_a_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert error("char", "new", "Ghost", env={"STKIT_DATABASE_URL": "garbage"}) == (
        "Error: database 'garbage' (from STKIT_DATABASE_URL): not a database path or URL; give a path containing "
        "a folder (./stkit.sqlite), a file ending in .sqlite, .sqlite3 or .db, or a URL such as "
        "postgresql+psycopg://host/db"
    )
    assert list(tmp_path.iterdir()) == []
    ok("char", "new", "Ghost", "--db", "troupe.db")  # a bare file name with a database suffix is fine
    assert (tmp_path / "troupe.db").is_file()


def test_explicit_path_in_a_missing_folder_is_refused(tmp_path):
    where = tmp_path / "nonexistent" / "dir" / "s.sqlite"
    assert error("char", "new", "Ghost", env={"STKIT_DATABASE_URL": str(where)}) == (
        f"Error: database {str(where)!r} (from STKIT_DATABASE_URL): the folder {where.parent} does not exist; "
        "create it first"
    )
    url = "sqlite:///" + str(where)
    assert error("char", "list", "--db", url) == (
        f"Error: database {url!r} (from --db): the folder {where.parent} does not exist; create it first"
    )
    assert not (tmp_path / "nonexistent").exists()


def test_sqlite_url_options_are_one_line(tmp_path):
    url = "sqlite:///" + str(tmp_path / "s.sqlite") + "?mode=ro"
    done = sub("char", "list", env_extra={"STKIT_DATABASE_URL": url})
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"Error: database {url!r} (from STKIT_DATABASE_URL): SQLite URLs take no options here "
        "(such as ?mode=ro); give the plain file URL\n"
    )


# ----- 7, 8. who may take part ------------------------------------------------------------------------------
def test_character_of_another_chronicle_is_refused_while_a_scene_is_open(db_url):
    ok("char", "new", "Weston", "--set", "Stamina=3")
    ok("char", "new", "Outsider", "--chronicle", "other", "--set", "Stamina=2")
    ok("scene", "start", "Night")
    expected = (
        "Error: Outsider is a character not in the scene's chronicle: scene 1 'Night' is open in chronicle "
        "'default' and Outsider is in 'other'; give --chronicle other to track it there"
    )
    assert error("extended", "start", "B", "--char", "Outsider", "--pool", "Stamina", "--target", "5") == expected
    assert (
        error("contest", "start", "C", "--a", "Outsider", "--pool-a", "Stamina", "--b", "4", "--target", "3")
        == expected
    )
    assert (
        error("contest", "start", "C", "--a", "4", "--b", "Outsider", "--pool-b", "Stamina", "--target", "3")
        == expected
    )
    assert json.loads(ok("extended", "list", "--all", "--json", "--chronicle", "other"))["extended_actions"] == []
    # said outright, it is tracked in the character's own chronicle
    ok("extended", "start", "B", "--char", "Outsider", "--pool", "Stamina", "--target", "5", "--chronicle", "other")


def test_one_character_on_both_sides_is_refused(db_url):
    ok("char", "new", "Weston", "--set", "Stamina=3")
    assert error(
        "contest",
        "start",
        "C",
        "--a",
        "Weston",
        "--pool-a",
        "Stamina",
        "--b",
        "WESTON",
        "--pool-b",
        "Stamina",
        "--target",
        "3",
    ) == ("Error: Weston is on both sides of the contest; side B needs another character or a number of dice")
    assert json.loads(ok("contest", "list", "--all", "--json"))["contests"] == []


# ----- 9. terminal escapes ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "field, label",
    [("notes", "Notes"), ("player", "Player"), ("concept", "Concept"), ("storyteller notes", "Storyteller notes")],
)
def test_control_characters_are_refused_on_write(db_url, field, label):
    ok("char", "new", "Weston")
    assert error("char", "set", "Weston", field, "\x1b]0;PWNED\x07\x1b[2J") == (
        f"Error: {label} contains the control character '\\x1b' at position 1; only printable text is allowed"
        + (" (newline and tab are allowed)" if "notes" in field else "")
    )
    assert sheet("Weston")[field.replace(" ", "_")] == ""


def test_names_and_other_free_text_are_checked(db_url):
    assert error("char", "new", "Bad\x1b[2J") == (
        "Error: character name contains the control character '\\x1b' at position 4; only printable text is allowed"
    )
    assert error("char", "new", "Ok", "--player", "a\u202eb") == (
        "Error: Player contains the control character '\\u202e' at position 2; only printable text is allowed"
    )
    assert error("char", "new", "N" * 101) == "Error: character name is 101 characters long; allowed: at most 100"
    ok("char", "new", "Weston")
    assert (
        error("char", "set", "Weston", "notes", "x" * 10_001)
        == "Error: Notes is 10001 characters long; allowed: at most 10000"
    )
    ok("char", "set", "Weston", "notes", "line one\nline\ttwo")
    assert sheet("Weston")["notes"] == "line one\nline\ttwo"
    assert error("char", "xp", "Weston", "award", "2", "-r", "\x07") == (
        "Error: experience reason contains the control character '\\x07' at position 1; only printable text is allowed"
    )
    assert error("extended", "start", "\x1b[2J", "--pool", "5", "--target", "3") == (
        "Error: extended action name contains the control character '\\x1b' at position 1; only printable text is "
        "allowed"
    )
    assert json.loads(ok("char", "list", "--json"))["characters"][0]["name"] == "Weston"


@pytest.mark.slow
def test_text_stored_before_the_checks_is_escaped_on_display(tmp_path):
    db = tmp_path / "old.sqlite"
    ok("char", "new", "Weston", "--db", str(db))
    conn = sqlite3.connect(db)
    data = json.loads(conn.execute("SELECT sheet FROM characters").fetchone()[0])
    data["notes"], data["player"] = "\x1b]0;PWNED\x07\x1b[2J", "P\x1b[31m"
    conn.execute("UPDATE characters SET sheet = ?, player = ?", (json.dumps(data), data["player"]))
    conn.commit()
    conn.close()
    for args in (["char", "show", "Weston"], ["char", "list"], ["char", "set", "Weston", "Stamina", "2"]):
        done = sub(*args, "--db", str(db))
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    shown = sub("char", "show", "Weston", "--db", str(db)).stdout
    assert "Notes: \\x1b]0;PWNED\\x07\\x1b[2J" in shown and "P\\x1b[31m" in shown


# ----- 10. a deleted character's extended action --------------------------------------------------------------
def test_status_of_an_action_whose_character_was_deleted(db_url):
    ok("char", "new", "Temp", "--set", "Stamina=2")
    ok("extended", "start", "T", "--char", "Temp", "--pool", "Stamina", "--target", "4")
    ok("char", "delete", "Temp", "--yes")
    out = ok("extended", "status", "1")
    assert "A deleted character: Stamina at difficulty 6; a botch wipes the tally" in out
    assert (
        "No exact chances: the character who rolls this was deleted; roll on with --char NAME --pool ..., or abandon it"
    ) in out
    data = json.loads(ok("extended", "status", "1", "--json"))
    assert data["character_deleted"] is True and data["odds"] is None


# ----- 11. accents in names -----------------------------------------------------------------------------------
def test_names_fold_accents(db_url):
    ok("char", "new", "Zoë")
    assert sheet("zoe")["name"] == "Zoë"
    assert sheet("ZOË")["name"] == "Zoë"
    ok("char", "new", "Archibald")
    assert error("char", "new", "Ärchibald") == (
        "Error: a character named 'Archibald' already exists in chronicle 'default' (names are compared ignoring "
        "case and accents)"
    )


def test_name_key_folds_accents():
    from stkit.sheet.traits import name_key

    assert name_key("Zoë") == name_key("ZOE") == "zoe"
    assert name_key("Ärchibald") == "archibald"
    assert name_key("Red-of  Teeth") == "red of teeth"
    assert name_key("Straße") == "strasse"


# ----- 12. pool expressions -----------------------------------------------------------------------------------
def test_two_signs_in_a_row_are_named(db_url):
    ok("char", "new", "Weston", "--set", "Dexterity=3")
    assert error("roll", "Dexterity + -2", "--char", "Weston") == (
        "Error: dice pool 'Dexterity + -2' has two signs in a row ('+ -'); write one sign per term, "
        "e.g. 'Dexterity - 2'"
    )


# ----- 13. waiting for another process's lock --------------------------------------------------------------------
@pytest.mark.slow
def test_a_write_waiting_for_a_lock_says_so_once(tmp_path):
    db = tmp_path / "lock.sqlite"
    assert sub("char", "new", "Weston", "--set", "Stamina=3", "--db", str(db)).returncode == 0
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    proc = subprocess.Popen(
        [sys.executable, "-m", "stkit", "char", "set", "Weston", "Stamina", "2", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    # The notice is printed only while the write is blocked on the lock this test holds: reading it is
    # the proof that the command waited (no sleep to guess how long a start takes).
    notice = proc.stderr.readline()
    assert notice == "Waiting for another player's roll to finish...\n"
    assert proc.poll() is None  # still waiting, nothing written
    holder.execute("COMMIT")
    holder.close()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert err == ""  # said once
    assert "Weston: Stamina = 2" in out
    shown = json.loads(sub("char", "show", "Weston", "--db", str(db), "--json").stdout)
    assert shown["attributes"]["Stamina"] == 2


def test_scene_and_contest_names_are_checked(db_url):
    assert error("scene", "start", "Night\x1b[2J") == (
        "Error: scene name contains the control character '\\x1b' at position 6; only printable text is allowed"
    )
    assert error("contest", "start", "C" * 101, "--a", "5", "--b", "4", "--target", "3") == (
        "Error: contest name is 101 characters long; allowed: at most 100"
    )
    assert json.loads(ok("scene", "list", "--json"))["scenes"] == []
