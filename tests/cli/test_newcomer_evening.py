"""A newcomer's evening: the neighbouring commands speak alike (saved rolls by name, -c on odds and extended,
usage errors naming the command typed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture
def store(tmp_path, monkeypatch, _migrated_sqlite_template):
    shutil.copy(_migrated_sqlite_template, tmp_path / "s.sqlite")  # a store at the newest revision
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "s.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    for args in (
        ["char", "new", "Runs", "--set", "Dexterity=3", "--set", "Brawl=2", "--set", "Stealth=1"],
        ["saved", "add", "claws", "Dexterity + Brawl", "-c", "Runs", "-d", "7"],
        ["saved", "add", "stealth", "Dexterity + Stealth", "-c", "Runs", "-d", "8"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    return tmp_path


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def test_a_saved_roll_rolls_by_its_name(store):
    data = json.loads(ok("roll", "claws", "-c", "runs", "--seed", "1", "--json"))
    assert (data["pool"], data["difficulty"]) == (5, 7)
    out = ok("roll", "claws", "-c", "runs", "--seed", "1")
    assert "Runs: Dexterity 3 + Brawl 2 = 5 dice" in out and "5 dice at difficulty 7" in out
    # the roll's own -d wins over the saved difficulty
    assert json.loads(ok("roll", "claws", "-c", "runs", "-d", "5", "--seed", "1", "--json"))["difficulty"] == 5


def test_a_trait_of_the_same_name_comes_first(store):
    data = json.loads(ok("roll", "stealth", "-c", "runs", "--seed", "1", "--json"))
    assert (data["pool"], data["difficulty"]) == (1, 6)


def test_odds_take_a_character_and_a_saved_roll(store):
    out = ok("odds", "claws", "-c", "runs")
    assert "Runs: Dexterity 3 + Brawl 2 = 5 dice" in out and "5 dice at difficulty 7" in out
    assert "5 dice at difficulty 6" in ok("odds", "dex+brawl", "-c", "runs")


def test_extended_takes_c_and_p(store):
    out = ok("extended", "start", "Climb", "-c", "runs", "-p", "Dexterity + Brawl", "--target", "5")
    assert "Runs rolls Dexterity + Brawl" in out


def test_odds_attack_takes_p_as_attack_does(store):
    assert ok("odds", "attack", "-p", "5", "--damage", "3") == ok("odds", "attack", "5", "--damage", "3")


def test_a_usage_error_names_the_command_typed(store):
    result = runner.invoke(app, ["odds", "5", "--bogus"])
    assert result.exit_code == 2
    assert result.stderr == "Error: no such option --bogus (see 'stkit odds --help')\n"
    result = runner.invoke(app, ["odds", "resisted", "5", "4", "--bogus"])
    assert result.stderr == "Error: no such option --bogus (see 'stkit odds resisted --help')\n"


def test_char_hit_says_what_it_did_not_do(store):
    result = runner.invoke(app, ["char", "hit", "Runs", "2"])
    assert result.exit_code == 0
    assert "No --type given: taken as bashing" in result.stdout
    assert "Not soaked: Runs rolled no soak (add --soak to roll it first)." in result.stdout
    quiet = runner.invoke(app, ["char", "hit", "Runs", "1", "-t", "lethal", "--soak", "--seed", "1"])
    assert "No --type" not in quiet.stdout and "Not soaked" not in quiet.stdout
    data = json.loads(ok("char", "hit", "Runs", "1", "--json"))
    assert (data["soak_rolled"], data["type_given"]) == (False, False)


def test_a_secret_roll_is_marked_in_the_cli_and_the_log(store):
    assert ok("roll", "5", "--secret", "--seed", "1").startswith("Secret roll: for the Storyteller's screen only\n")
    assert json.loads(ok("roll", "5", "--secret", "--seed", "1", "--json"))["secret"] is True
    assert "Secret roll" in ok("saved", "roll", "claws", "-c", "runs", "--secret", "--seed", "1")
    assert "1 success (secret)" in ok("log", "-n", "1") or "(secret)" in ok("log", "-n", "1")


def test_the_default_chronicle_is_preferred_with_a_note(store):
    ok("char", "new", "Runs", "--chronicle", "other")
    result = runner.invoke(app, ["char", "show", "Runs", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["chronicle"] == "default"
    assert result.stderr == "Note: Runs is also in 'other'; took the one in 'default' (choose with --chronicle)\n"


def test_the_shell_answers_help_a_leading_stkit_and_a_pipe(capsys):
    from stkit.cli import shell

    assert shell.run_line("help") == 0
    out = capsys.readouterr().out
    assert "no pipes (|)" in out and "roll " in out and "char " in out
    assert shell.run_line("help roll") == 0
    assert "Usage: stkit roll [OPTIONS] POOL" in capsys.readouterr().out
    assert shell.run_line("stkit roll 6 --dice 5,4,8,8,2,6") == 0
    assert "Dice: 5 4 [8] [8] 2 [6]" in capsys.readouterr().out
    assert shell.run_line("roll 5 --json | head -2") == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: the shell runs stkit commands only: '|' belongs to your system shell")


def test_usage_lines_have_no_braces():
    from tests.cli.tree import leaf_commands

    braces = []
    for path, _command in leaf_commands():
        result = runner.invoke(app, [*path, "--help"], env={"NO_COLOR": "1", "COLUMNS": "200"})
        usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
        if "{" in usage:
            braces.append(usage.strip())
    assert braces == []


def test_specialties_are_printed_once(store):
    ok("char", "set", "Runs", "Brawl", "4")
    ok("char", "set", "Runs", "Brawl specialty", "Claws")
    out = ok("char", "show", "Runs")
    assert out.count("Claws") == 1, out


def test_char_xp_shows_local_time_and_json_the_utc_offset(store, monkeypatch):
    import time

    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30, no summer time
    time.tzset()
    try:
        ok("char", "xp", "Runs", "award", "3", "-r", "session")
        data = json.loads(ok("char", "xp", "Runs", "--json"))
        at = next(e["at"] for e in data["log"])
        assert at.endswith("+05:30")  # local time, with its UTC offset
        from datetime import datetime

        local = datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M:%S")
        assert local in ok("char", "xp", "Runs") and at[:19].replace("T", " ") == local
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


@pytest.mark.parametrize(
    ("args", "words", "never"),
    [
        (["roll", "1", "--dice", "1,2"], "give exactly 1 face", "1 faces"),
        (["roll", "3", "--dice", "1,5,6", "--ones-dont-cancel"], "a 1 not cancelling", "1 1s"),
    ],
)
def test_counts_in_the_right_number(store, args, words, never):
    result = runner.invoke(app, args)
    assert words in result.output and never not in result.output


def test_docs_walkthroughs_make_their_files_in_a_temporary_folder():
    """A page that makes a file by a relative name (a store, an export) moves to a temporary folder first,
    so that following it leaves the clone clean."""
    import re

    offenders = []
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        in_temp = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith('$ cd "$(mktemp -d)"'):
                in_temp = True
            made = re.search(r"sqlite:///([^/\s]\S*)|\s(?:-o|--output)\s+([^/~\s-]\S*)", line)
            if line.startswith("$ ") and made and not in_temp:
                offenders.append(f"{page.name}: {line}")
    assert offenders == []


def test_docs_walkthroughs_read_the_clone_only_from_the_clone():
    """After `cd "$(mktemp -d)"` a page's commands run in an empty folder: a relative path to the clone's
    characters/, docs/ or examples/ would name nothing there."""
    import re

    offenders = []
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        in_temp = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith('$ cd "$(mktemp -d)"'):
                in_temp = True
            if in_temp and line.startswith("$ ") and re.search(r"\s(?:characters|docs|examples)/", line):
                offenders.append(f"{page.name}: {line}")
    assert offenders == []


def test_the_readme_shows_a_virtual_environment_and_a_light_install():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    setup = text.split("<!-- setup:begin -->", 1)[1].split("<!-- setup:end -->", 1)[0]
    assert [ln for ln in setup.splitlines() if ln and not ln.startswith("```")] == [
        "pip install -e '.[test]'",
        "python -m pytest",
    ]
    after = text.split("<!-- setup:end -->", 1)[1].split("\n## ", 1)[0]
    assert "python3 -m venv .venv" in after
    assert "pipx install ." in after and "pip install ." in after


def test_healing_an_unhurt_character_says_there_is_nothing_to_heal(store):
    result = runner.invoke(app, ["char", "heal", "Runs"])
    assert result.exit_code == 0
    assert result.output.strip() == "Runs has no damage to heal: unhurt"
    ok("char", "damage", "Runs", "2", "-t", "bashing")
    assert ok("char", "heal", "Runs", "1", "-t", "lethal").strip() == "Runs has no lethal damage to heal: Hurt"
    result = runner.invoke(app, ["char", "heal", "Runs", "3"])
    assert result.output.splitlines() == ["Runs heals 2 levels: unhurt", "Warning: only 2 levels of damage to heal"]


def test_a_saved_roll_prints_what_a_sheet_roll_prints(store):
    """The house rules in force and the scene and turn of the log entry, as `stkit roll -c` shows them."""
    ok("scene", "start", "The den")
    ok("house", "set", "ones-cancel", "off")
    by_name = ok("saved", "roll", "claws", "-c", "Runs", "--seed", "1").splitlines()
    by_pool = ok("roll", "Dexterity + Brawl", "-c", "Runs", "-d", "7", "--seed", "1").splitlines()
    assert by_name[0].startswith("House rules: ") and "1s" in by_name[0]
    assert by_name[-1] == "Logged as roll #1 (scene 1, turn 1)"
    assert by_name[:-1] == by_pool[:-1]


@pytest.mark.parametrize("action", ["award", "spend"])
def test_char_xp_without_the_points_is_a_usage_error_naming_them(store, action):
    result = runner.invoke(app, ["char", "xp", "Runs", action])
    assert result.exit_code == 2
    assert f"char xp {action} needs the number of points: stkit char xp NAME {action} N" in result.output
    assert "0 experience points" not in result.output
