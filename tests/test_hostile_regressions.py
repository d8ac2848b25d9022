"""One regression test per class of hostile input: terminal escapes and rich markup, huge and odd numbers,
undecodable bytes, device files and FIFOs, store messages, and permissions.

Each refused command must end with exit 1 (2 for usage errors), exactly one "Error: ..." line naming the
value and what is allowed, and nothing stored.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.hostile_cases import raw_controls

runner = CliRunner()
H30 = "9" * 30
WESTON = Path(__file__).resolve().parents[1] / "characters" / "weston.yaml"


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Relative paths a command writes land in the test's folder, never in the repository."""
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")


def run(*args: str, env: dict | None = None):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120", **(env or {})})


def ok(*args: str, env: dict | None = None) -> str:
    result = run(*args, env=env)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert not raw_controls(result.stdout + result.stderr)
    return result.stdout


def error(*args: str, code: int = 1, env: dict | None = None) -> str:
    """The one stderr line of a refused command (no traceback, no raw control character)."""
    result = run(*args, env=env)
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert not raw_controls(result.stdout + result.stderr), result.stderr
    assert "internal error" not in result.stderr
    return lines[0]


def roll_log_count() -> int:
    return len(json.loads(ok("log", "--json", "-n", "10000"))["rolls"])


# ----- terminal escapes and rich markup ---------------------------------------------------------------------
def test_safe_escapes_markup_and_shows_control_characters():
    from rich.text import Text

    from stkit.cli.render import safe, safe_text

    assert safe("zzqq[/bold]") == "zzqq\\[/bold]"
    assert safe("[link=https://evil.example]x[/link]") == "\\[link=https://evil.example]x\\[/link]"
    assert safe("a\x1b[31mb\x9b\u202e") == "a\\x1b[31mb\\x9b\\u202e"  # '[31m' is no markup tag
    assert safe("two\nlines") == "two\\nlines" and safe("two\nlines", multiline=True) == "two\nlines"
    shown = safe_text("[bold]x\x07", style="red")
    assert isinstance(shown, Text) and shown.plain == "[bold]x\\x07" and str(shown.style) == "red"


def test_the_console_guard_escapes_what_a_call_missed_and_drops_links():
    """Even text printed without safe() (markup with a link, a raw ESC inside a Text) reaches a colour
    terminal only as styles: no OSC-8 link, no raw ESC, BEL or C1 byte."""
    import io
    import re

    from rich.text import Text

    from stkit.cli.render import new_console

    console = new_console()
    console.file = io.StringIO()
    console._force_terminal = True  # colour on, as on a terminal
    console._color_system = console._detect_color_system()
    console.no_color = False
    console.print("[bold][link=https://evil.example]click[/link][/bold]")
    console.print(Text("Ev\x1b]0;owned\x07il\x9b2J", style="green"))
    out = console.file.getvalue()
    assert "\x1b[" in out  # styles are there: the checks below are not vacuous
    assert "\x1b]8" not in out and "\x07" not in out and "\x9b" not in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert plain == "click\nEv\\x1b]0;ownedil\\x9b2J\n"  # rich's Text drops BEL itself


def test_the_error_line_shows_user_values_as_escapes():
    assert error("char", "show", "Nobody\x1b[2J").startswith("Error: ")
    err = error("char", "import", "/no/such\x1b]0;owned\x07.yaml")
    assert err == "Error: /no/such\\x1b]0;owned\\x07.yaml: no such file or folder; nothing was imported"


def test_the_unknown_trait_suggestion_and_the_wrote_line_are_escaped(tmp_path):
    ok("char", "import", str(WESTON))
    err = error("char", "set", "Weston", "Dexteri\x1b[31mty", "3")
    assert "\\x1b[31m" in err
    target = tmp_path / "out\x1b]0;t\x07.yaml"
    result = run("char", "export", "Weston", "-o", str(target))
    assert result.exit_code == 0 and target.exists()
    assert result.stderr == f"Wrote {tmp_path}/out\\x1b]0;t\\x07.yaml\n"


def test_a_name_made_of_markup_prints_as_typed():
    link = "[link=https://evil.example]x[/link]"
    ok("char", "new", link)
    assert link in ok("char", "show", link)
    assert link in ok("char", "list")
    assert "zzqq[/bold]" in ok("char", "new", "zzqq[/bold]")


def test_usage_errors_are_one_line_naming_the_help():
    assert error("roll", "5", "--bogus", "[bold]x", code=2) == (
        "Error: no such option --bogus (see 'stkit roll --help')"
    )
    assert error("nosuch\x1b[31m", code=2) == "Error: no such command 'nosuch\\x1b[31m' (see 'stkit --help')"
    assert error("bogus", code=2) == "Error: no such command 'bogus' (see 'stkit --help')"  # not "did you mean house"


# ----- numbers ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ("scene", "show", H30),
        ("extended", "roll", H30),
        ("extended", "status", H30),
        ("extended", "abandon", H30),
        ("contest", "roll", H30),
        ("contest", "status", H30),
        ("contest", "abandon", H30),
    ],
)
def test_a_30_digit_id_gets_the_range_message(args):
    name = "scene id" if args[0] == "scene" else ("action id" if args[0] == "extended" else "contest id")
    assert error(*args) == f"Error: {name} {H30} is outside the allowed range 1 to 9223372036854775807"


def test_numbers_in_pool_expressions_and_options_are_limited():
    ok("char", "import", str(WESTON))
    before = roll_log_count()
    assert error("roll", "Dexterity + " + "9" * 5000, "--char", "Weston") == (
        "Error: dice pool term 999999999999... is larger than stkit's limit of 1000 dice"
    )
    assert error("extended", "start", "Climb", "--pool", "9" * 5000, "--target", "3") == (
        "Error: dice pool term 999999999999... is larger than stkit's limit of 1000 dice"
    )
    assert error("roll", "5", "--seed", "9" * 5000) == (
        "Error: --seed is a number of 5000 digits; allowed: at most 30 digits"
    )
    assert error("roll", "5", "--seed", H30) == (
        f"Error: --seed {H30} is outside the allowed range 0 to 9223372036854775807"
    )
    # random.Random(-1) is random.Random(1): a negative seed would replay another roll's dice
    assert (
        error("roll", "5", "--seed", "-1") == "Error: --seed -1 is outside the allowed range 0 to 9223372036854775807"
    )
    assert error("char", "regain", "Weston", "willpower", H30) == (
        f"Error: points {H30} is outside the allowed range 1 to 100"
    )
    assert error("char", "damage", "Weston", "101") == "Error: health levels 101 is outside the allowed range 1 to 100"
    assert error("roll", "5", "--retry", "101") == "Error: --retry 101 is outside the allowed range 0 to 100"
    assert roll_log_count() == before


@pytest.mark.parametrize("digit", ["\u0663", "\uff17", "1_000", "5.0", ""])
def test_a_number_not_written_in_ascii_digits_is_a_usage_error(digit):
    assert error("roll", "5", "-d", digit, code=2) == (
        f"Error: Invalid value for '--difficulty' / '-d': {digit!r} is not a whole number; use the digits 0 to 9 "
        "(see 'stkit roll --help')"
    )


def test_a_negative_contest_difficulty_is_refused():
    assert error("contest", "start", "Chase", "--a", "4", "--b", "5", "-d", "-5", "--target", "3") == (
        "Error: difficulty -5 is outside the allowed range 2 to 10"
    )
    assert json.loads(ok("contest", "list", "--json"))["contests"] == []


def test_resisted_odds_with_vanishing_chances_do_not_divide_by_zero():
    out = ok("odds", "resisted", "1000", "250", "-d", "2", "--difficulty-b", "10")
    assert "A's winning margin" in out


# ----- undecodable bytes ------------------------------------------------------------------------------------
def test_undecodable_bytes_in_arguments_and_variables_store_nothing():
    ok("char", "import", str(WESTON))
    ok("scene", "start", "Night")
    before = roll_log_count()
    assert error("roll", "5", "--char", "Weston", "--task", "\udcff\udcfe") == (
        "Error: --task contains the byte 0xff at position 1, which is not UTF-8 text; give the value in UTF-8"
    )
    assert error("scene", "start", "Dawn", "--chronicle", "x\udcff").startswith("Error: --chronicle contains the byte")
    assert error("char", "new", "Ada", env={"STKIT_CHRONICLE": "\udcfe"}) == (
        "Error: STKIT_CHRONICLE contains the byte 0xfe at position 1, which is not UTF-8 text; give the value in UTF-8"
    )
    assert roll_log_count() == before
    assert [s["name"] for s in json.loads(ok("scene", "list", "--json"))["scenes"]] == ["Night"]


def test_task_and_chronicle_follow_the_name_rules():
    ok("char", "import", str(WESTON))
    assert error("roll", "5", "--char", "Weston", "--task", "climb\nthe wall") == (
        "Error: --task contains the control character '\\n' at position 6; only printable text is allowed"
    )
    assert error("roll", "5", "--char", "Weston", "--task", "x" * 101) == (
        "Error: --task is 101 characters long; allowed: at most 100"
    )
    assert error("scene", "start", "Dawn", env={"STKIT_CHRONICLE": "a\x1b[2Jb"}) == (
        "Error: STKIT_CHRONICLE contains the control character '\\x1b' at position 2; only printable text is allowed"
    )
    assert error("char", "new", "Ada", "--chronicle", "c" * 101) == (
        "Error: --chronicle is 101 characters long; allowed: at most 100"
    )


def test_a_100k_character_argument_is_refused_at_once():
    assert error("tcg", "cards", "search", "x" * 100_000) == (
        "Error: query is 100000 characters long; allowed: at most 65536"
    )


# ----- files ------------------------------------------------------------------------------------------------
@pytest.mark.skipif(not Path("/dev/zero").exists() or not hasattr(os, "mkfifo"), reason="needs /dev/zero, FIFOs")
def test_device_files_fifos_and_folders_are_refused_by_name(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    ok("char", "import", str(WESTON))
    assert error("char", "import", "/dev/zero") == (
        "Error: /dev/zero: is a device, not a regular file; nothing was imported"
    )
    assert error("char", "import", str(link)) == f"Error: {link}: is a device, not a regular file; nothing was imported"
    assert error("char", "import", str(fifo)) == (
        f"Error: {fifo}: is a named pipe (FIFO), not a regular file; nothing was imported"
    )
    assert error("char", "export", "Weston", "-o", str(fifo)) == (
        f"Error: {fifo}: is a named pipe (FIFO), not a regular file to write"
    )
    # a folder holding a FIFO and a link to /dev/zero: they are passed over, the regular file is read
    (tmp_path / "ada.yaml").write_text("name: Ada\n", encoding="utf-8")
    assert "1 character imported" in ok("char", "import", str(tmp_path))


def test_empty_binary_utf16_and_crlf_character_files(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_bytes(b"")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"name: x\n\xff\xfe\x00\x01")
    nul = tmp_path / "nul.yaml"
    nul.write_bytes(b"name: A\x00da\n")
    assert error("char", "import", str(empty)) == (
        f"Error: {empty}: the file is empty; a character file needs at least a name; nothing was imported"
    )
    assert error("char", "import", str(binary)) == (
        f"Error: {binary}: not a text file: byte 9 (0xff) is not UTF-8; save the file as UTF-8; nothing was imported"
    )
    assert error("char", "import", str(nul)) == (
        f"Error: {nul}: not a text file: it contains NUL bytes; save the file as UTF-8 text; nothing was imported"
    )
    utf16 = tmp_path / "zoe.yaml"
    utf16.write_bytes("name: Zo\u00eb\nattributes:\n  Strength: 3\n".encode("utf-16"))
    crlf = tmp_path / "crlf.json"
    crlf.write_bytes(b'{\r\n  "name": "Crlf",\r\n  "attributes": {"Wits": 4}\r\n}\r\n')
    ok("char", "import", str(utf16), str(crlf))
    assert json.loads(ok("char", "show", "Zoe", "--json"))["attributes"]["Strength"] == 3
    assert json.loads(ok("char", "show", "Crlf", "--json"))["attributes"]["Wits"] == 4


# ----- store messages ---------------------------------------------------------------------------------------
def test_a_store_without_alembic_version_is_named(tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE characters (x)")
    assert error("char", "list", "--db", str(db)) == (
        f"Error: the database {db} has tables but no alembic_version table, so its schema version is unknown: "
        "it is not a stkit store, or its version record was lost; give another --db, or restore the store from "
        "a backup"
    )


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_as_database_is_refused_before_sqlite_opens_it():
    journal = Path("/dev/null-journal")
    existed = journal.exists()
    assert error("char", "list", "--db", "/dev/null") == (
        "Error: database /dev/null: is a device, not a regular file to write; give the path of a database file, "
        "e.g. ./stkit.sqlite"
    )
    assert journal.exists() == existed  # no stray -journal beside the device


def test_sqlite_errors_get_cause_and_remedy():
    from stkit.store.db.engine import sqlite_error_message

    full = sqlite_error_message(sqlite3.OperationalError("database or disk is full"), "/d/s.sqlite")
    assert full == "disk full: the database /d/s.sqlite could not be written; free some disk space and try again"
    io = sqlite_error_message(sqlite3.OperationalError("disk I/O error"), "/d/s.sqlite")
    assert io is not None and io.startswith("disk I/O error on the database /d/s.sqlite: the disk may be full")
    ro = sqlite_error_message(sqlite3.OperationalError("attempt to write a readonly database"), "/d/s.sqlite")
    assert ro is not None and ro.startswith("the database /d/s.sqlite is read-only for you") and "reads work" in ro
    assert sqlite_error_message(sqlite3.OperationalError("no such column: x"), "/d") is None


def _pretend_unwritable(monkeypatch, *paths: Path) -> None:
    """os.access as a user without write permission on ``paths`` sees it (tests may run as root, for whom
    permission bits do not stop anything)."""
    real = os.access
    denied = {str(p) for p in paths}

    def access(path, mode, *a, **k):
        if mode & os.W_OK and str(path) in denied:
            return False
        return real(path, mode, *a, **k)

    monkeypatch.setattr(os, "access", access)


def test_a_read_only_store_still_reads_and_leaves_no_wal_files(tmp_path, monkeypatch):
    from stkit.store.db.engine import dispose_engines

    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "s.sqlite"
    ok("char", "import", str(WESTON), "--db", str(db))
    dispose_engines()
    for suffix in ("-wal", "-shm"):
        assert not Path(str(db) + suffix).exists()
    _pretend_unwritable(monkeypatch, db, folder)
    assert "Weston" in ok("char", "list", "--db", str(db))
    assert json.loads(ok("char", "show", "Weston", "--db", str(db), "--json"))["name"] == "Weston"
    err = error("char", "new", "Ada", "--db", str(db))
    assert err.startswith(f"Error: the database {db} is read-only for you") and "reads work" in err
    dispose_engines()
    assert sorted(p.name for p in folder.iterdir()) == ["s.sqlite"]  # no -wal/-shm left behind


def test_an_unwritable_wal_file_is_named_with_the_remedy(tmp_path, monkeypatch):
    from stkit.store.db.engine import dispose_engines

    db = tmp_path / "s.sqlite"
    ok("char", "new", "Weston", "--db", str(db))
    dispose_engines()
    wal = Path(str(db) + "-wal")
    wal.write_bytes(b"")
    wal.chmod(0o444)
    _pretend_unwritable(monkeypatch, wal)
    assert error("char", "new", "Ada", "--db", str(db)) == (
        f"Error: the database file {wal} cannot be written (left by a read-only open?): make it writable "
        "(chmod u+w) or, when no stkit command is running, delete it"
    )


# ----- permissions ------------------------------------------------------------------------------------------
def test_folders_0700_and_database_files_0600_whatever_the_umask(tmp_path, monkeypatch):
    from stkit.store.db.engine import dispose_engines

    home = tmp_path / "home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("STKIT_DATABASE_URL")
    old = os.umask(0)
    try:
        ok("char", "new", "Weston")
        dispose_engines()
        explicit = tmp_path / "mine.sqlite"
        ok("char", "new", "Ada", "--db", str(explicit))
    finally:
        os.umask(old)
        dispose_engines()
    data = home / ".local" / "share" / "stkit"
    for folder in (home, home / ".local", home / ".local" / "share", data):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((data / "stkit.sqlite").stat().st_mode) == 0o600
    assert stat.S_IMODE(explicit.stat().st_mode) == 0o600


def test_text_stored_before_it_was_checked_never_reaches_stdout_raw(tmp_path):
    """A name holding ESC, C1 and bidi characters (written straight into the file, as an old store may
    hold) shows as escapes in tables, as JSON escapes in --json, and as YAML/JSON escapes in an export,
    which still reads back to the same text."""
    from stkit.store.db.engine import dispose_engines

    db = tmp_path / "old.sqlite"
    ok("char", "new", "Plain", "--db", str(db))
    dispose_engines()
    raw = "Ev\x1b[2Jil\x9b\u202egnik"
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT sheet FROM characters WHERE name = 'Plain'").fetchone()
        sheet = json.loads(text) | {"name": raw, "notes": raw}
        conn.execute("UPDATE characters SET name = ?, sheet = ? WHERE name = 'Plain'", (raw, json.dumps(sheet)))
    assert "Ev\\x1b[2Jil\\x9b\\u202egnik" in ok("char", "list", "--db", str(db))
    listed = ok("char", "list", "--db", str(db), "--json")
    assert json.loads(listed)["characters"][0]["name"] == raw  # the same value, escaped on the way out
    shown = ok("char", "show", "Plain", "--db", str(db), "--json")
    assert json.loads(shown)["notes"] == raw
    for fmt in ("yaml", "json"):
        exported = ok("char", "export", "Plain", "--db", str(db), "-f", fmt)
        if fmt == "json":
            assert json.loads(exported)["name"] == raw
        else:
            import yaml

            assert yaml.safe_load(exported)["name"] == raw


def test_a_full_disk_still_reads_and_says_disk_full_for_a_change(tmp_path, monkeypatch):
    """On a full disk SQLite cannot create the store's -shm file, so every command used to fail with
    "disk I/O error": reads now work (the store is opened immutable) and a change says "disk full"."""
    from stkit.store.db import engine as store_db

    path = tmp_path / "s.sqlite"
    ok("char", "import", str(WESTON), "--db", str(path))
    store_db.dispose_engines()
    monkeypatch.setattr(store_db, "disk_full", lambda folder: True)
    assert "Weston" in ok("char", "list", "--db", str(path))
    assert json.loads(ok("char", "show", "Weston", "--db", str(path), "--json"))["name"] == "Weston"
    assert error("char", "new", "Ada", "--db", str(path)) == (
        f"Error: disk full: the database {path} could not be written; free some disk space and try again "
        "(reads still work)"
    )
    assert error("roll", "5", "--char", "Weston", "--db", str(path)).startswith("Error: disk full: the database")
    store_db.dispose_engines()
    monkeypatch.setattr(store_db, "disk_full", lambda folder: False)
    assert "Ada" not in ok("char", "list", "--db", str(path))


# ----- one number reader ----------------------------------------------------------------------------------------
def test_numbers_in_text_options_are_ascii_digits_of_bounded_length():
    h5000 = "9" * 5000
    assert error("house", "set", "difficulty", h5000) == (
        "Error: house rule difficulty (a number of more than 30 digits) is outside the allowed range 2 to 10"
    )
    assert "'\u0663' is not allowed" in error("house", "set", "difficulty", "\u0663")
    assert error("extended", "start", "Climb", "--pool", "3", "--target", "5", "--interval", "\u0663 min") == (
        "Error: interval '\u0663 min' is not a time; write a number and a unit, e.g. '30 min', '1 h', '10 turns'"
    )
    assert "interval" in error("extended", "start", "Climb", "--pool", "3", "--target", "5", "--interval", h5000 + " h")
    assert "1.5 h" in ok("extended", "start", "Climb", "--pool", "3", "--target", "5", "--interval", "1.5 h")
    ok("char", "new", "Kim")
    assert error("char", "set", "Kim", "Dexterity", "\uff13") == (
        "Error: Dexterity value '\uff13' is not a whole number; allowed: 0 to 5"
    )
    assert error("char", "set", "Kim", "Dexterity", h5000) == (
        "Error: Dexterity value is a number of 5000 digits; allowed: 0 to 5"
    )
    assert "Dexterity = 4" in ok("char", "set", "Kim", "Dexterity", " 4 ")


def test_parse_interval_reads_only_ascii_digits():
    from stkit.dice.contest import parse_interval
    from stkit.errors import InvalidValue

    assert (parse_interval("30 min"), parse_interval("1.5 h"), parse_interval("45s"), parse_interval("2")) == (
        1800,
        5400,
        45,
        120,
    )
    for bad in ("\u0663 min", "\uff13h", "1_0 min", "0 min", "1." + "5" * 7 + " h"):
        with pytest.raises(InvalidValue):
            parse_interval(bad)
    for huge in ("9" * 5000, "1000000001 s"):  # the caller (check_interval) says how long an interval may be
        with pytest.raises(OverflowError):
            parse_interval(huge)


# ----- error lines name the file and the field, never its content ---------------------------------------------
SHADOW_LIKE = "root:$6$SECRET-HASH-1:19000:0:99999:7:::\ndaemon:*:SECRET-2:0:99999:7:::\n"


@pytest.mark.parametrize(
    "args",
    [
        ["char", "import", "{f}.yaml"],
        ["char", "import", "{f}.json"],
        ["tcg", "cards", "import", "{f}.yaml"],
        ["tcg", "combat", "{f}.yaml"],
        ["tcg", "moot", "{f}.yaml"],
        ["tcg", "alpha-order", "{f}.yaml"],
        ["tcg", "victory", "{f}.yaml"],
    ],
)
def test_a_link_to_a_secret_file_never_prints_its_lines(tmp_path, monkeypatch, args):
    """A file that is not what the command reads (a link to /etc/shadow, say) is named, not quoted."""
    monkeypatch.setenv("STKIT_CARDS_DB", str(tmp_path / "cards.sqlite"))
    secret = tmp_path / "shadow"
    secret.write_text(SHADOW_LIKE)
    for ext in ("yaml", "json"):
        (tmp_path / f"link.{ext}").symlink_to(secret)
    line = error(*[a.format(f=tmp_path / "link") for a in args])
    assert "SECRET" not in line and "99999" not in line and "daemon" not in line, line
    assert "link." in line


def test_values_and_odd_keys_read_from_a_character_file_are_not_quoted(tmp_path):
    cases = {
        "name: A\nattributes:\n  Strength: SECRET-VALUE\n": "attributes.Strength: a text is not a whole number",
        "name: A\nbreed: SECRET-BREED\n": "breed: unknown breed; allowed",
        "name: A\nhealth:\n  'x:SECRET:1': 1\n": "health.(a key that is not a field name): unknown damage type",
        "name: A\nsecret$field: 1\n": "(a key that is not a field name): unknown field",
        "name: A\ntag: !SECRET-TAG x\n": "malformed YAML at line 2, column 6",
    }
    for i, (text, want) in enumerate(cases.items()):
        path = tmp_path / f"c{i}.yaml"
        path.write_text(text)
        line = error("char", "import", str(path))
        assert want in line and "SECRET" not in line, line


# ----- the command line's last holes ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args", [["roll", "5"], ["char", "list"], ["log"], ["scene", "list"], ["house", "show"], ["shell"]]
)
def test_an_empty_db_option_is_refused_on_every_command(args):
    assert error(*args, "--db", "") == "Error: --db is empty; give a database file or URL, or leave the option out"
    assert error(*args, "--db", "  ") == "Error: --db is empty; give a database file or URL, or leave the option out"


def test_export_to_dash_writes_stdout_and_no_file():
    ok("char", "new", "Kim")
    out = ok("char", "export", "Kim", "-o", "-")
    assert out.startswith("name: Kim\n") and not Path("-").exists()


def test_teamwork_helpers_are_bounded_before_any_roll():
    import time

    start = time.process_time()  # CPU time: a busy machine does not stretch it
    line = error("teamwork", *(["1000"] * 2000))
    assert line == "Error: teamwork of 2000 participants is too many; allowed: at most 100"
    assert time.process_time() - start < 5
    assert "successes" in ok("teamwork", *(["1"] * 100), "--seed", "1")


def test_line_separators_and_stacked_marks_follow_the_text_rules():
    zalgo = "Ze" + "\u0301" * 6 + "d"
    assert "control character '\\u2028' at position 4" in error("char", "new", "Kim\u2028Lee")
    assert "stacks more than 4 combining marks" in error("char", "new", zalgo)
    ok("char", "new", "Ti\u1ebfng Vi\u1ec7t")  # real text with marks stays
    from stkit.text import printable

    assert printable("a\u2029b") == "a\\u2029b"
    assert printable(zalgo) == "Ze" + "\u0301" * 4 + "\\u0301\\u0301d"


@pytest.mark.slow
def test_a_closed_stdout_is_an_error(tmp_path):
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "roll", "5"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    assert proc.returncode == 0
    closed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; os.close(1); from stkit.cli.app import main; sys.argv[1:] = ['roll', '5']; main()",
        ],
        stderr=subprocess.PIPE,
        env=env,
        timeout=60,
        cwd=tmp_path,
    )
    err = closed.stderr.decode()
    assert (
        closed.returncode == 1 and err.startswith("Error: the standard output is closed") and len(err.splitlines()) == 1
    )
