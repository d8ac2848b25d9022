"""A new user's trial: exact fractions kept whole on a narrow terminal, a die face 0 read as 10, a botch that a
rule spared said so, errors as JSON under --json, sensible suggestions, one-line extended odds, counts in the
right number, forgiving power and Gift names, Trait names in the log, house values in the key's own words,
local times with their offset in JSON."""

from __future__ import annotations

import json
import re
import shutil
import time
from datetime import datetime

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


@pytest.fixture
def store(tmp_path, monkeypatch, _migrated_sqlite_template):
    shutil.copy(_migrated_sqlite_template, tmp_path / "s.sqlite")  # a store at the newest revision
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "s.sqlite"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("STKIT_CHRONICLE", raising=False)
    for args in (
        ["char", "new", "Runs", "--tribe", "Fianna", "--set", "Dexterity=3", "--set", "Brawl=4", "--set", "Rank=1"],
        ["char", "set", "Runs", "specialty:Brawl", "Claws"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    return tmp_path


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


# ---- exact fractions never wrap mid-number --------------------------------------------------------------------


def _fractions(text: str) -> set[str]:
    return set(re.findall(r"\b\d+/\d+\b", text))


@pytest.mark.parametrize("columns", ["60", "80"])
def test_exact_fractions_stay_whole_on_a_narrow_terminal(monkeypatch, columns):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", columns)
    out = ok("odds", "7", "-d", "6", "--exact")
    wanted = {d["exact"] for d in json.loads(ok("odds", "7", "-d", "6", "--json"))["distribution"]}
    assert len(wanted) == 8
    assert wanted <= _fractions(out), "a fraction was broken across lines"
    assert max(len(line) for line in out.splitlines()) <= int(columns)


def test_exact_fractions_longer_than_the_terminal_are_listed_whole(monkeypatch):
    from stkit.dice.odds import p_extended

    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "60")
    out = ok("odds", "3", "-d", "8", "--target", "20", "--exact", "--all-rows")
    ext = p_extended(3, 8, 20)
    wanted = {f"{p.numerator}/{p.denominator}" for p in ext.by_turn if p}
    assert any(len(w) > 60 for w in wanted)  # the case: fractions wider than the terminal
    assert wanted <= _fractions(out)


# ---- the extended action's one line, and long tables -----------------------------------------------------------


def test_extended_odds_lead_with_one_line_and_thin_a_long_table(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    data = json.loads(ok("odds", "3", "-d", "8", "--target", "20", "--json"))
    median = data["median_turns"]
    out = ok("odds", "3", "-d", "8", "--target", "20")
    assert out.splitlines()[1].startswith(f"Done within {median} rolls half the time")
    rows = [line for line in out.splitlines() if re.match(r"│\s+\d+ │", line)]
    assert len(rows) <= 25 and "--all-rows" in out
    every = ok("odds", "3", "-d", "8", "--target", "20", "--all-rows")
    rows = [line for line in every.splitlines() if re.match(r"│\s+\d+ │", line)]
    assert len(rows) == sum(1 for t in data["by_turn"] if t["p_done_by"] > 0)
    # the 90% point: the first roll by which the chance is at least 9 in 10, counted here from the JSON
    short = ok("odds", "5", "-d", "6", "--target", "5")
    nine = next(
        t["turn"]
        for t in json.loads(ok("odds", "5", "-d", "6", "--target", "5", "--json"))["by_turn"]
        if t["p_done_by"] >= 0.9
    )
    assert f"within {nine} rolls 9 times in 10" in short.splitlines()[1]


def test_a_long_distribution_is_thinned_unless_all_rows(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    rows = [line for line in ok("odds", "1000", "-d", "6").splitlines() if re.match(r"│\s+\d+ │", line)]
    assert len(rows) <= 25
    rows = [line for line in ok("odds", "1000", "-d", "6", "--all-rows").splitlines() if re.match(r"│\s+\d+ │", line)]
    assert len(rows) > 100


# ---- a die face 0 is 10 -----------------------------------------------------------------------------------------


def test_a_face_typed_0_is_ten(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    data = json.loads(ok("roll", "3", "--dice", "0,0,1", "--json"))
    # by hand: two 10s are two successes at difficulty 6, the 1 cancels one
    assert data["dice"] == [10, 10, 1] and data["result"] == 1
    result = runner.invoke(app, ["roll", "3", "--dice", "1,-1,4"])
    assert result.exit_code == 1 and "die face -1" in result.output


# ---- a spared botch is said so ----------------------------------------------------------------------------------


def test_a_botch_spared_by_willpower_is_shown_and_logged(store):
    out = ok("roll", "3", "--dice", "1,2,3", "-w", "--log")
    assert "No botch (Willpower was spent" in out
    assert "No botch" not in ok("roll", "3", "--dice", "1,2,7", "-w")  # a die hit: nothing was spared
    assert "No botch" not in ok("roll", "3", "--dice", "2,2,3", "-w")  # no 1: no botch to spare
    assert "(no botch: Willpower)" in ok("log", "-n", "1")


def test_a_botch_spared_by_the_specialty_house_rule_is_shown_and_logged(store):
    ok("house", "set", "specialty-botch", "no")
    out = ok("roll", "dex+brawl", "-c", "Runs", "--spec", "--dice", "1,2,3,4,5,5,2")
    assert "house rule specialty-botch no" in out
    assert "(no botch: specialty)" in ok("log", "-n", "1")
    # the same dice without --spec botch
    assert "BOTCH" in ok("roll", "dex+brawl", "-c", "Runs", "--dice", "1,2,3,4,5,5,2")


# ---- errors as JSON under --json --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["roll", "0", "--json"], 1, "dice pool 0"),
        (["roll", "3", "-d", "11", "--json"], 1, "difficulty 11"),
        (["roll", "3", "--bogus", "--json"], 2, "--bogus"),
        (["odds", "3", "-d", "12", "--json"], 1, "difficulty 12"),
        (["char", "show", "Nobody", "--json"], 1, "Nobody"),
        (["house", "set", "specialty", "triple", "--json"], 1, "triple"),
        (["log", "-n", "0", "--json"], 1, "0"),
    ],
)
def test_errors_under_json_are_json_on_stdout(store, args, code, words):
    result = runner.invoke(app, args)
    assert result.exit_code == code
    data = json.loads(result.stdout)
    assert data["exit"] == code and words in data["error"]
    plain = runner.invoke(app, [a for a in args if a != "--json"])
    assert plain.exit_code == code and plain.stdout == "" and plain.stderr.startswith("Error: ")


# ---- suggestions ------------------------------------------------------------------------------------------------


def test_suggestions_need_real_similarity(store):
    result = runner.invoke(app, ["roll", "fangs", "-c", "Runs"])
    assert result.exit_code == 1 and "did you mean" not in result.output
    from stkit.sheet.traits import ABILITIES, ATTRIBUTES, suggest

    assert suggest("claws", ATTRIBUTES + ABILITIES) is None  # not "Law"
    assert suggest("stamna", ATTRIBUTES + ABILITIES) == "Stamina"
    assert suggest("brwal", ATTRIBUTES + ABILITIES) == "Brawl"
    assert 'did you mean "Runs"' in runner.invoke(app, ["char", "show", "Rnus"]).output


# ---- counts, powers, tribes, Gifts ------------------------------------------------------------------------------


def test_counts_in_the_right_number(store):
    ok("char", "damage", "Runs", "2")  # Bruised and Hurt: -1 die
    assert "Wound penalty: -1 die" in ok("char", "show", "Runs")
    from stkit.sheet.sheet import Sheet

    assert Sheet(name="A", fera="Ajaba").creature_label == "an Ajaba"
    assert Sheet(name="G").creature_label == "a Garou"


def test_wp_is_willpower_for_spend_and_regain(store):
    assert "Willpower" in ok("char", "spend", "Runs", "wp")
    assert "regains Willpower" in ok("char", "regain", "Runs", "WP")
    result = runner.invoke(app, ["char", "regain", "Runs", "wisdom"])
    assert result.exit_code == 2 and "wisdom" in result.output


def test_an_unknown_tribe_is_warned_and_a_nameless_one_refused(store):
    result = runner.invoke(app, ["char", "set", "Runs", "tribe", "Space Wolves"])
    assert result.exit_code == 0 and "not one of the book's Garou tribes" in result.output
    result = runner.invoke(app, ["char", "set", "Runs", "tribe", "999"])
    assert result.exit_code == 1 and "999" in result.output
    assert "not one of" not in runner.invoke(app, ["char", "set", "Runs", "tribe", "Fianna"]).output


def test_an_unquoted_gift_name_stays_one_gift(store):
    ok("char", "xp", "Runs", "award", "20")
    out = ok("char", "raise", "Runs", "gift:Resist", "Pain", "Brawl", "--outside")
    assert "Gift Resist Pain (1)" in out and "Brawl 4->5" in out
    gifts = json.loads(ok("char", "show", "Runs", "--json"))["gifts"]
    assert [g["name"] for g in gifts] == ["Resist Pain"]


# ---- the log and house show -------------------------------------------------------------------------------------


def test_log_names_the_traits_not_the_abbreviations(store):
    ok("roll", "dex+brawl", "-c", "Runs", "--seed", "1")
    out = ok("log", "-n", "1")
    assert "Dexterity 3 + Brawl 4 = 7" in out and "dex+brawl" not in out


def test_house_show_says_yes_or_no_for_a_yes_no_key(store):
    assert re.search(r"^specialty-botch\s+yes\s", ok("house", "show"), re.M)
    ok("house", "set", "specialty-botch", "no")
    assert re.search(r"^specialty-botch\s+no\s+set", ok("house", "show"), re.M)


# ---- one date style ---------------------------------------------------------------------------------------------


def test_json_times_are_local_with_their_offset(store, monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+05:30, no summer time
    time.tzset()
    try:
        ok("roll", "3", "--log", "--seed", "1")
        ok("char", "xp", "Runs", "award", "2")
        times = [
            json.loads(ok("log", "--json"))["rolls"][0]["created_at"],
            json.loads(ok("char", "history", "Runs", "--json"))["history"][0]["at"],
            json.loads(ok("char", "xp", "Runs", "log", "--json"))["log"][0]["at"],
            ok("log", "--format", "csv").splitlines()[1].split(",")[1],
            ok("char", "history", "Runs", "--format", "csv").splitlines()[1].split(",")[0],
        ]
        for at in times:
            assert at.endswith("+05:30"), at
            assert datetime.fromisoformat(at).utcoffset().total_seconds() == 5.5 * 3600
        shown = datetime.fromisoformat(times[0]).strftime("%Y-%m-%d %H:%M:%S")
        assert shown in ok("log")  # the table and JSON give the same local time
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def _options(command) -> set[str]:
    return {o for p in command.params for o in getattr(p, "opts", [])}


def test_every_command_with_json_gives_its_errors_as_json(tmp_path, monkeypatch):
    from tests.cli.tree import leaf_commands

    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "s.sqlite"))
    tried = 0
    for path, command in leaf_commands():
        options = _options(command)
        if "--json" not in options:
            continue
        bad = ["--db", ""] if "--db" in options else ["--no-such-option"]
        result = runner.invoke(app, [*path, *bad, "--json"])
        assert result.exit_code in (1, 2), (path, result.output)
        data = json.loads(result.stdout)
        assert set(data) == {"error", "exit"} and data["exit"] == result.exit_code, path
        assert result.stderr == "", path
        tried += 1
    assert tried > 50
