"""`stkit odds` in-process (CliRunner) and as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["odds", *args])


def test_simple_roll_json_keys_and_values():
    res = run("2", "-d", "6", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    for key in ("pool", "difficulty", "p_botch", "p_failure", "p_success", "expected", "distribution", "at_least"):
        assert key in data
    assert (data["pool"], data["difficulty"]) == (2, 6)
    # hand-checked: 35/100, 40/100, 25/100; botch 9/100
    assert data["distribution"] == [
        {"successes": 0, "p": 0.35, "exact": "7/20"},
        {"successes": 1, "p": 0.4, "exact": "2/5"},
        {"successes": 2, "p": 0.25, "exact": "1/4"},
    ]
    assert [e["exact"] for e in data["at_least"]] == ["1/1", "13/20", "1/4"]
    assert data["p_botch"] == 0.09 and data["p_failure"] == 0.26 and data["p_success"] == 0.65
    assert data["expected"] == 0.9


def test_explicit_roll_subcommand_is_the_same():
    assert run("roll", "4", "-d", "7", "--json").stdout == run("4", "-d", "7", "--json").stdout


def test_options_before_pool_route_to_roll():
    res = run("-d", "7", "4", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["difficulty"] == 7


def test_house_rules_reach_the_engine():
    data = json.loads(run("1", "-d", "8", "--specialty", "double", "--json").stdout)
    assert [e["exact"] for e in data["distribution"]] == ["7/10", "1/5", "1/10"]
    wp = json.loads(run("1", "-d", "6", "--willpower", "--json").stdout)
    assert wp["p_botch"] == 0 and wp["p_success"] == 1 and wp["distribution"][0]["p"] == 0
    rr = json.loads(run("1", "-d", "10", "--specialty", "reroll", "--json").stdout)
    assert rr["distribution"][1]["exact"] == "9/100"
    assert 0 < rr["tail"]["p"] < 1e-12
    no = json.loads(run("2", "-d", "6", "--ones-dont-cancel", "--json").stdout)
    assert no["house_rules"]["ones_cancel"] is False
    assert no["distribution"][0]["exact"] == "1/4"  # no success die at all; a 1 no longer cancels


def test_extended_json():
    res = run("1", "-d", "6", "--target", "1", "--max-turns", "3", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["target"] == 1 and data["mean_turns"] == 2.0 and data["median_turns"] == 1
    assert data["by_turn"] == [
        {"turn": 1, "p_done_by": 0.5},
        {"turn": 2, "p_done_by": 0.75},
        {"turn": 3, "p_done_by": 0.875},
    ]
    assert "p_never" not in data
    ends = json.loads(run("1", "-d", "6", "--target", "2", "--botch-ends", "--json").stdout)
    assert ends["p_never"] == pytest.approx(float(1 - Fraction(25, 36)))


def test_resisted_teamwork_multi_json():
    r = json.loads(run("resisted", "6", "7", "-d", "8", "--json").stdout)
    assert r["p_a_wins"] + r["p_tie"] + r["p_b_wins"] == pytest.approx(1)
    assert r["margin_a"][0]["margin"] == 1
    t = json.loads(run("teamwork", "2", "1", "2", "-d", "7", "--json").stdout)
    assert t["botch_spoils"]["p_botch"] > t["no_spoils"]["p_botch"]
    m = json.loads(run("multi", "7", "6", "6", "--json").stdout)
    assert [a["pool"] for a in m["actions"]] == [4, 2, 1]
    # 2 dice and 1 die at difficulty 6, by hand: 65/100 and 1/2
    assert (m["actions"][1]["p_success"], m["actions"][2]["p_success"]) == (0.65, 0.5)
    impossible = json.loads(run("multi", "3", "2", "--json").stdout)
    assert impossible["actions"][1]["possible"] is False


def test_human_output_has_table_and_bars():
    res = run("5", "-d", "7")
    assert res.exit_code == 0
    assert "Botch" in res.stdout and "4.7%" in res.stdout and "█" in res.stdout
    exact = run("2", "-d", "6", "--exact")
    assert "7/20" in exact.stdout
    ext = run("5", "-d", "7", "--target", "16", "--max-turns", "10")
    assert "Median rolls" in ext.stdout and "█" in ext.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["5", "-d", "11"], "difficulty 11 is outside the allowed range 2 to 10"),
        (["0"], "dice pool 0 has no dice"),
        (["1001"], "limit of 1000"),
        (["5", "--target", "0"], "target 0 must be at least 1"),
        (["5", "--target", "101"], "limit of 100"),
        (["5", "--target", "0"], "target 0 must be at least 1 success; allowed: 1 to 100 for exact odds"),
        (["5", "--target", "1001"], "target 1001 is larger than stkit's limit of 100 successes for exact odds; "),
        (["resisted", "5", "5", "--difficulty-b", "1"], "difficulty 1 is outside"),
        (["multi", "3", "0"], "dice pool 0 has no dice"),
    ],
)
def test_bad_input_one_line_error(args, fragment):
    res = run(*args)
    assert res.exit_code == 1
    assert res.stderr.strip() == f"Error: {res.stderr.strip()[7:]}" and fragment in res.stderr
    assert "Traceback" not in res.output


def test_usage_errors_exit_2():
    assert run("5", "--specialty", "triple").exit_code == 2
    assert run("5", "--botch-ends").exit_code == 2  # needs --target


def test_help_explains_both_forms():
    res = run("--help")
    assert res.exit_code == 0
    for word in ("stkit odds POOL", "resisted", "teamwork", "multi", "--target"):
        assert word in res.stdout


def test_subprocess():
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "odds", "3", "-d", "6", "--json"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["p_botch"] == 0.061  # (5/10)^3 - (4/10)^3
    bad = subprocess.run(
        [sys.executable, "-m", "stkit", "odds", "3", "-d", "1"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 1
    assert bad.stderr == "Error: difficulty 1 is outside the allowed range 2 to 10\n"


def test_odds_display_details_from_the_user_trial():
    from typer.testing import CliRunner

    from stkit.cli.app import app

    env = {"NO_COLOR": "1", "COLUMNS": "120"}
    run = CliRunner().invoke
    wp = run(app, ["odds", "5", "-d", "7", "--willpower"], env=env).stdout
    assert "below 1" not in wp  # a Willpower roll cannot end at 0: no note about it
    slow = run(app, ["odds", "1", "-d", "10", "--target", "100", "--max-turns", "5"], env=env).stdout
    assert "100 successes with 1 die at difficulty 10" in slow
    assert "1.27e+31" in slow  # the mean, in significant figures rather than 32 digits
    assert "more than 200" in slow  # the median is searched up to 200 rolls, not just the 5 listed
    ext = run(app, ["odds", "5", "-d", "7", "--target", "16", "--max-turns", "6"], env=env).stdout
    assert "rolls 1 to 3: no chance to be done yet" in ext
    assert "│     3 │" not in ext and "│     4 │" in ext


def test_exact_output_leaves_the_int_digit_limit_alone():
    import sys

    from typer.testing import CliRunner

    from stkit.cli.app import app

    before = sys.get_int_max_str_digits()
    result = CliRunner().invoke(app, ["odds", "1000", "-d", "6", "--json"])
    assert result.exit_code == 0
    assert len(result.stdout) > 4300  # thousand-digit fractions were written
    assert sys.get_int_max_str_digits() == before
