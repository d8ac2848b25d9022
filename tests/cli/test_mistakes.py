"""Command-line mistakes: unknown options name the nearest real one (exit 2), negative numbers are values."""

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["roll", "5", "--wilpower"], "no such option --wilpower; did you mean --willpower or --willpower-rule?"),
        (["roll", "5", "--jsn"], "no such option --jsn; did you mean --json?"),
        (["roll", "5", "--seed=3", "--difficultyy=7"], "no such option --difficultyy; did you mean --difficulty?"),
        (
            ["multi", "5", "5", "--speciality", "double"],
            "no such option --speciality; did you mean --specialty or --specialty-botch?",
        ),
        (["teamwork", "4", "5", "--botch-spoil"], "did you mean --botch-spoils"),
        (["resisted", "6", "7", "--dice-c", "1"], "did you mean --dice-b or --dice-a?"),
        (["char", "list", "--jsno"], "no such option --jsno; did you mean --json?"),
        (["odds", "5", "--difficlty", "6"], "no such option --difficlty; did you mean --difficulty?"),
        (["--versio"], "no such option --versio; did you mean --version?"),
    ],
)
def test_unknown_option_names_the_nearest_real_one(args: list[str], expected: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert expected in result.output
    assert "unexpected extra argument" not in result.output


def test_unknown_short_option_is_named() -> None:
    result = run("roll", "5", "-x")
    assert result.exit_code == 2
    assert "no such option -x" in result.output


@pytest.mark.parametrize(
    "args",
    [["roll", "-3"], ["roll", "--", "-3"], ["multi", "7", "-2"], ["teamwork", "4", "-1"], ["resisted", "-1", "3"]],
)
def test_negative_pool_reads_as_a_number(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 1
    assert "cannot be attempted" in result.output
    assert "no such option" not in result.output


def test_negative_option_value_reaches_the_range_check() -> None:
    result = run("roll", "5", "-d", "-3")
    assert result.exit_code == 1
    assert "difficulty -3 is outside the allowed range 2 to 10" in result.output


def test_negative_value_in_char_set_reaches_the_range_check() -> None:
    assert run("char", "new", "Ana", "--breed", "homid").exit_code == 0
    result = run("char", "set", "Ana", "Rage", "-1")
    assert result.exit_code == 1
    assert "-1" in result.output
    assert "no such option" not in result.output


def test_options_still_work_after_a_negative_number() -> None:
    result = run("roll", "-3", "--json")
    assert result.exit_code == 1  # the pool, not the option, is refused
    assert "cannot be attempted" in result.output


def test_automatic_successes_out_of_range_read_as_every_other_range() -> None:
    # as `--need 0` or `-d 11` do: "... is outside the allowed range 2 to 10", exit 1
    result = run("roll", "5", "--successes", "2000")
    assert result.exit_code == 1
    assert (
        result.output.strip() == "Error: automatic successes (--successes) 2000 is outside the allowed range 0 to 1000"
    )
    assert run("roll", "5", "--successes", "-1").exit_code == 1


def test_roll_help_states_each_range_once() -> None:
    out = run("roll", "--help").output
    assert "0<=x<=1000" not in out  # the help text already says "(0 to 1000)"


def test_automatic_successes_are_shown_where_they_come_from() -> None:
    # 5 dice 3 10 2 5 2 at 6: 1 success from the dice, 2 given: 3, and the line says where the 2 came from
    out = run("roll", "5", "--dice", "3,10,2,5,2", "--successes", "2").output
    assert "+2 automatic successes" in out and "3 successes" in out
    assert "+1 automatic success\n" in run("roll", "5+1s", "--dice", "3,10,2,5,2").output
