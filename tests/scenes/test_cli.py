"""The scene, extended and contest commands, `roll --task` and `multi --char`: in-process and as a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

from .conftest import add_character

runner = CliRunner()
HIDE = [
    "extended",
    "start",
    "Stay hidden",
    "--char",
    "Weston",
    "--pool",
    "Stamina + Stealth",
    "-d",
    "7",
    "--target",
    "16",
    "--interval",
    "30 min",
]


def run(*args):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})


def ok_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def fails(*args, match):
    result = run(*args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and match in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_weston_hides_for_four_hours_from_the_cli(engine, weston):
    start = ok_json(*HIDE)
    assert (start["id"], start["target"], start["tally"], start["interval_seconds"]) == (1, 16, 0, 1800)
    for _ in range(7):
        ok_json("extended", "roll", "1", "--dice", "7,8,2,3,4,5")
    last = run("extended", "roll", "1", "--dice", "7,8,2,3,4,5")
    assert last.exit_code == 0
    assert "Weston (Stamina 3 + Stealth 3 = 6 dice): 6 dice at difficulty 7" in last.stdout
    assert "16/16  (8 rolls, 4 h in-game)  done" in last.stdout
    assert "Done: Stay hidden succeeds after 8 rolls." in last.stdout
    status = ok_json("extended", "status", "1")
    assert (status["status"], status["tally"], status["rolls"], status["time_spent"]) == ("done", 16, 8, "4 h")
    fails("extended", "roll", "1", match="extended action 1 ('Stay hidden') is done; it takes no more rolls")
    assert ok_json("extended", "list")["extended_actions"] == []
    assert [a["id"] for a in ok_json("extended", "list", "--all")["extended_actions"]] == [1]


def test_extended_roll_json_and_status_odds(engine, weston):
    ok_json(*HIDE)
    data = ok_json("extended", "roll", "1", "--seed", "3")
    assert data["roll"]["seed"] == 3 and data["roll"]["who"] == "Weston"
    assert data["tally"] == data["roll"]["result"] and data["history"][0]["dice"] == data["roll"]["dice"]
    status = ok_json("extended", "status", "1")
    if status["odds"] is not None:  # the odds engine is there: chances rise with more rolls
        within = [status["odds"]["within"][k]["probability"] for k in ("1", "2", "4", "8")]
        assert within == sorted(within) and 0 <= within[0] <= within[-1] <= 1
    human = run("extended", "status", "1")
    assert "Stay hidden" in human.stdout and "Weston" in human.stdout


def test_botch_message_and_abandon(engine, weston):
    ok_json(*HIDE)
    ok_json("extended", "roll", "1", "--dice", "7,8,2,3,4,5")
    out = run("extended", "roll", "1", "--dice", "1,2,3,4,5,6")
    assert "BOTCH!" in out.stdout and "wipes the 2 successes gathered" in out.stdout
    assert ok_json("extended", "abandon", "1")["status"] == "abandoned"
    fails("extended", "abandon", "1", match="is already abandoned")
    fails("extended", "roll", "1", match="is abandoned; it takes no more rolls")


def test_bad_input_is_one_line_and_changes_nothing(engine, weston):
    add_character(engine, "Stranger", chronicle="Elsewhere")
    fails("extended", "roll", "7", match="no extended action with id 7")
    fails("extended", "status", "7", match="no extended action with id 7")
    fails("contest", "roll", "7", match="no contest with id 7")
    fails("scene", "show", "7", match="no scene with id 7")
    fails("scene", "turn", match="no scene is open in chronicle 'default'")
    fails(*HIDE[:-4], "--target", "0", match="target 0 must be at least 1 success")
    fails(
        "extended",
        "start",
        "Sneak",
        "--char",
        "Stranger",
        "--pool",
        "Stamina + Stealth",
        "--target",
        "3",
        "--chronicle",
        "default",
        match="Stranger is in chronicle 'Elsewhere', not in 'default'",
    )
    fails("extended", "roll", "1", match="no extended action with id 1")
    assert ok_json("extended", "list", "--all")["extended_actions"] == []
    ok_json(*HIDE)
    fails("extended", "roll", "1", "--char", "Stranger", match="Stranger is in chronicle 'Elsewhere'")
    fails("extended", "roll", "1", "--dice", "7,8", match="give exactly 6 faces")
    assert ok_json("extended", "status", "1")["rolls"] == 0
    fails("roll", "5", "--task", "wall", match="--task needs --char")


def test_the_wall_and_willpower_in_a_scene(engine, weston):
    scene = ok_json("scene", "start", "The embassy")
    assert (scene["turn"], scene["status"]) == (1, "open")
    fails("scene", "start", "Another", match="'The embassy' (id 1) is still open")
    wall = ["roll", "Dexterity + Athletics", "--char", "Weston", "--task", "scale the wall", "--dice", "2,3,4,5,3"]
    assert [ok_json(*wall)["difficulty"] for _ in range(2)] == [6, 7]
    third = run(*wall)
    assert (
        "raise the difficulty from 6 to 8" in third.stdout
        and "difficulty 8 (try again #2: raised from 6)" in third.stdout
    )
    wp = ["roll", "Dexterity + Athletics", "--char", "Weston", "-w", "--dice", "2,3,4,5,3"]
    assert ok_json(*wp)["willpower_left"] == 2
    fails(*wp, match="Weston already spent Willpower in turn 1")
    assert ok_json("scene", "turn")["turn"] == 2
    assert ok_json(*wp)["willpower_left"] == 1
    show = ok_json("scene", "show")
    assert [[r["difficulty"] for r in t["rolls"]] for t in show["turns"]] == [[6, 7, 8, 6], [6]]
    assert ok_json("scene", "end")["status"] == "ended"
    assert ok_json("scene", "list")["scenes"][0]["status"] == "ended"
    assert ok_json(*wall)["difficulty"] == 6  # outside the scene the task starts afresh


def test_multi_with_char_applies_the_ladder_to_sheet_pools(engine):
    # Chapter Five, "Multiple Actions": Shadow-in-the-Wood's kick (7 dice) and two dodges (6 each) -> 4, 2, 1.
    add_character(engine, "Shadow-in-the-Wood", attributes={"Dexterity": 3}, abilities={"Brawl": 4, "Dodge": 3})
    data = ok_json(
        "multi",
        "Dexterity + Brawl",
        "Dexterity + Dodge",
        "Dexterity + Dodge",
        "--char",
        "shadow in the wood",
        "--seed",
        "4",
    )
    assert [(a["declared_pool"], a["penalty"], a["pool"]) for a in data["actions"]] == [(7, 3, 4), (6, 4, 2), (6, 5, 1)]
    assert all(a["log_id"] for a in data["actions"])
    four = ok_json(
        "multi",
        "Dexterity + Brawl",
        "Dexterity + Dodge",
        "Dexterity + Dodge",
        "Dexterity + Dodge",
        "--char",
        "Shadow-in-the-Wood",
        "--dice",
        "7,7,7",
        "--dice",
        "7",
    )
    assert [a["pool"] for a in four["actions"]] == [3, 1, 0, -1]
    assert [a["possible"] for a in four["actions"]] == [True, True, False, False]


def test_contest_debate_from_the_cli(engine):
    add_character(engine, "Ears-of-the-Wind", attributes={"Charisma": 4}, abilities={"Leadership": 2})
    add_character(engine, "Red-of-Teeth", attributes={"Charisma": 3}, abilities={"Leadership": 4})
    c = ok_json(
        "contest",
        "start",
        "Debate",
        "--a",
        "Ears-of-the-Wind",
        "--pool-a",
        "Charisma + Leadership",
        "--b",
        "Red-of-Teeth",
        "--pool-b",
        "Charisma + Leadership",
        "-d",
        "8",
        "--target",
        "5",
    )
    assert (c["id"], c["a"]["character"], c["b"]["character"], c["mode"]) == (
        1,
        "Ears-of-the-Wind",
        "Red-of-Teeth",
        "tally",
    )
    d = ok_json("contest", "roll", "1", "--side", "a", "--dice-a", "8,9,10,8,2,3")
    assert d["exchange"] is None and d["waiting_for"] == "b"
    out = run("contest", "roll", "1", "--side", "b", "--dice-b", "8,9,2,3,4,5,6")
    assert "Exchange 1: side A by 2 (4 vs 2)" in out.stdout
    assert ok_json("contest", "status", "1")["a"]["tally"] == 2
    assert [x["id"] for x in ok_json("contest", "list")["contests"]] == [1]
    fails("contest", "start", "X", "--a", "6", "--b", "5", "--target", "0", match="target 0 must be at least 1")
    assert ok_json("contest", "abandon", "1")["status"] == "abandoned"
    fails("contest", "roll", "1", match="is abandoned; it takes no more rolls")


@pytest.mark.slow
def test_as_a_real_subprocess(store_url, tmp_path):
    env = dict(os.environ, NO_COLOR="1", STKIT_DATABASE_URL=store_url)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")

    def stkit(*args):
        return subprocess.run(
            [sys.executable, "-m", "stkit", *args], capture_output=True, text=True, env=env, timeout=60
        )

    made = stkit("extended", "start", "The garage door", "--pool", "6", "--target", "15", "--json")
    assert made.returncode == 0, made.stderr
    aid = str(json.loads(made.stdout)["id"])
    rolled = stkit("extended", "roll", aid, "--dice", "6,7,8,9,10,1", "--json")
    assert rolled.returncode == 0 and json.loads(rolled.stdout)["tally"] == 4
    bad = stkit("extended", "roll", "99")
    assert bad.returncode == 1 and bad.stderr == "Error: no extended action with id 99; see: stkit extended list\n"


@pytest.mark.slow
def test_scene_commands_skip_sqlalchemy_on_sqlite(store_url, weston):
    """On an up-to-date SQLite file every scene, extended and contest command reads and writes through
    sqlite3 alone: SQLAlchemy is never imported, and the results are the ones the session path gives."""
    if not store_url.startswith("sqlite:///"):
        pytest.skip("the sqlite3 fast path is for SQLite files")
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    db = store_url
    commands = [
        ["scene", "start", "The embassy"],
        [*HIDE],
        ["extended", "roll", "1", "--dice", "7,8,2,3,4,5"],
        ["extended", "roll", "1", "--dice", "1,2,3,4,5,6"],
        ["extended", "status", "1"],
        ["extended", "list"],
        ["scene", "turn"],
        [
            "contest",
            "start",
            "Chase",
            "--a",
            "Weston",
            "--pool-a",
            "Dexterity + Athletics",
            "--b",
            "4",
            "--target",
            "5",
        ],
        ["contest", "roll", "1", "--dice-a", "8,8,2,2,2", "--dice-b", "9,2,2,2"],
        ["contest", "status", "1"],
        ["contest", "list"],
        ["contest", "abandon", "1"],
        ["scene", "show"],
        ["scene", "end"],
        ["scene", "list"],
    ]
    code = (
        "import json, sys\n"
        "from stkit.cli.app import main\n"
        f"for argv in {commands!r}:\n"
        f"    sys.argv = ['stkit', *argv, '--db', {db!r}, '--json']\n"
        "    try:\n        main()\n    except SystemExit as e:\n        assert not e.code, (argv, e.code)\n"
        "    print('\\x1e')\n"
        "print('HEAVY', sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy')))\n"
    )
    env = dict(os.environ, NO_COLOR="1")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    *outputs, heavy = p.stdout.split("\x1e\n")
    assert heavy.strip() == "HEAVY []"
    data = [json.loads(o) for o in outputs]
    roll, status, contest, show = data[3], data[4], data[8], data[12]
    assert (roll["tally_before"], roll["spoiled"], roll["tally"], roll["roll"]["pool_text"]) == (
        2,
        True,
        0,
        "Stamina 3 + Stealth 3 = 6 dice",
    )
    assert [h["tally_after"] for h in status["history"]] == [2, 0] and status["time_spent"] == "1 h"
    assert (contest["exchange"]["winner"], contest["exchange"]["margin"], contest["lead"]) == ("a", 1, 1)
    assert [[r["for"] for r in t["rolls"]] for t in show["turns"]] == [
        ["extended 1", "extended 1"],
        ["contest 1 side A", "contest 1 side B"],
    ]
    assert data[13]["status"] == "ended" and data[14]["scenes"][0]["turn"] == 2


def test_extended_status_chances_read_as_every_other_chance(engine, weston):
    # 6 dice cannot bring 16 successes in 1 or 2 rolls: exactly 0, shown "0%" (not "0.0%", which would
    # also be what a merely unlikely 0.04% rounds to); each chance as stkit.text.percent shows it
    from fractions import Fraction

    from stkit.text import percent

    ok_json(*HIDE)
    status = ok_json("extended", "status", "1")
    if status["odds"] is None:
        pytest.skip("no odds engine")
    within = status["odds"]["within"]
    assert Fraction(within["1"]["exact"]) == 0 == Fraction(within["2"]["exact"])
    line = next(x for x in run("extended", "status", "1").stdout.splitlines() if x.startswith("Chance to finish"))
    assert line.startswith("Chance to finish within the next 1 roll 0%, 2 rolls 0%, ")
    for k, v in within.items():
        assert f"{k} roll{'s' if k != '1' else ''} {percent(Fraction(v['exact']))}" in line
