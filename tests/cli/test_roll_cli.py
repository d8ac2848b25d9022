"""`stkit roll` and friends, in-process (CliRunner) and as a real subprocess."""

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_three_successes_example_human_output():
    result = run("roll", "6", "--dice", "5,4,8,8,2,6")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "6 dice at difficulty 6",
        "Dice: 5 4 [8] [8] 2 [6]",
        "3 successes (complete)",
    ]


def test_botch_is_loud():
    result = run("roll", "5", "-d", "9", "--dice", "4,7,5,8,1")
    assert result.exit_code == 0  # a botch is a result, not an error
    assert "BOTCH!" in result.stdout
    assert "Dice: 4 7 5 8 <1>" in result.stdout


def test_json_keys_and_values_for_hot_wire_failure():
    data = run_json("roll", "5", "-d", "7", "--dice", "4,3,5,5,6")
    for key in (
        "pool",
        "difficulty",
        "dice",
        "successes",
        "ones",
        "net",
        "result",
        "outcome",
        "degree",
        "willpower",
        "automatic",
    ):
        assert key in data
    assert data["dice"] == [4, 3, 5, 5, 6]
    assert (data["pool"], data["difficulty"], data["successes"], data["ones"], data["net"]) == (5, 7, 0, 0, 0)
    assert (data["result"], data["outcome"], data["degree"]) == (0, "failure", None)


def test_one_success_seven_ones_is_failure():
    data = run_json("roll", "8", "--dice", "9,1,1,1,1,1,1,1")
    assert (data["net"], data["result"], data["outcome"]) == (-6, 0, "failure")
    human = run("roll", "8", "--dice", "9,1,1,1,1,1,1,1").stdout
    assert "rule of one: 1 success cancelled by 1s" in human


def test_pool_as_sum_dexterity_plus_drive():
    data = run_json("roll", "3+2", "--seed", "7")
    assert data["pool"] == 5 and len(data["dice"]) == 5


def test_willpower_json():
    data = run_json("roll", "3", "-d", "9", "--dice", "1,4,5", "--willpower")
    assert (data["result"], data["outcome"], data["willpower"], data["degree"]) == (1, "success", True, "marginal")


def test_retry_raises_difficulty_and_shows_it():
    data = run_json("roll", "5", "-d", "6", "--retry", "2", "--dice", "7,8,8,2,3")
    assert (data["difficulty"], data["base_difficulty"], data["successes"]) == (8, 6, 2)
    capped = run_json("roll", "5", "-d", "9", "--retry", "4", "--seed", "1")
    assert capped["difficulty"] == 10
    assert "try again #2: raised from 6" in run("roll", "5", "--retry", "2", "--seed", "1").stdout


def test_automatic_success():
    data = run_json("roll", "7", "--auto", "-d", "6")
    assert (data["automatic"], data["result"], data["dice"], data["degree"]) == (True, 1, [], "marginal")


def test_seed_reproducible():
    assert run_json("roll", "9", "--seed", "42") == run_json("roll", "9", "--seed", "42")


def test_specialty_flags():
    data = run_json("roll", "3", "-d", "7", "--specialty", "reroll", "--dice", "10,3,2,10,1")
    assert data["extra_dice"] == [10, 1] and data["result"] == 2
    data = run_json("roll", "3", "-d", "7", "--specialty", "reroll", "--extra-ones-cancel", "--dice", "10,3,2,10,1")
    assert data["result"] == 1
    data = run_json("roll", "2", "--specialty", "double", "--dice", "10,3")
    assert data["successes"] == 2
    data = run_json("roll", "2", "--ones-dont-cancel", "--dice", "7,1")
    assert (data["net"], data["result"]) == (1, 1)


def test_house_rules_documented_in_help():
    out = run("roll", "--help").stdout
    assert "HOUSE RULE" in out and "--specialty" in out and "--ones-dont-cancel" in out


@pytest.mark.parametrize(
    "args,needle",
    [
        (["roll", "5", "-d", "1"], "difficulty 1 is outside the allowed range 2 to 10"),
        (["roll", "5", "-d", "11"], "difficulty 11 is outside the allowed range 2 to 10"),
        (["roll", "0"], "dice pool 0 has no dice"),
        (["roll", "-3"], "dice pool -3 has no dice"),
        (["roll", "abc"], "dice pool 'abc' is not a number of dice"),
        (["roll", "1001"], "limit of 1000"),
        (["roll", "3", "--dice", "1,-1,4"], "die face -1"),
        (["roll", "3", "--dice", "1,11,4"], "die face 11"),
        (["roll", "3", "--dice", "1,4"], "2 dice given but the dice pool is 3"),
        (["roll", "3", "--dice", "1,x,4"], "die face 'x'"),
        (["roll", "3", "--auto"], "pool 3 is below difficulty 6"),
        (["roll", "8", "--auto", "--stressful"], "stressful"),
        (["roll", "8", "--auto", "--willpower"], "cannot go with Willpower"),
        (["roll", "8", "--extra-ones-cancel"], "only applies with --specialty reroll"),
        (["roll", "8", "--retry", "-1"], "retry -1 must be 0 or more"),
        (["multi", "7", "6", "-d", "6", "-d", "7", "-d", "8"], "3 difficulties given for 2 actions"),
    ],
)
def test_bad_input_one_line_exit_1(args, needle):
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert needle in result.stderr
    assert "Traceback" not in result.output


def test_usage_error_keeps_exit_2():
    assert run("roll").exit_code == 2
    assert run("roll", "5", "-d", "abc").exit_code == 2


def test_multi_ladder_seed_example():
    data = run_json("multi", "7", "6", "6", "--seed", "3")
    assert [a["pool"] for a in data["actions"]] == [4, 2, 1]
    assert [a["penalty"] for a in data["actions"]] == [3, 4, 5]
    assert all(len(a["roll"]["dice"]) == a["pool"] for a in data["actions"])


def test_multi_impossible_action_not_rolled():
    data = run_json("multi", "3", "3", "--dice", "6")
    assert data["actions"][1] == {
        "action": 2,
        "declared_pool": 3,
        "penalty": 3,
        "pool": 0,
        "possible": False,
        "roll": None,
    }
    assert data["actions"][0]["roll"]["result"] == 1
    assert "cannot be attempted" in run("multi", "3", "3", "--seed", "1").stdout


@pytest.mark.parametrize("args", [["multi", "7"], ["multi", "7", "--dice", "5,5,5,5,5,5"], ["odds", "multi", "7"]])
def test_a_single_action_is_no_multiple_action(args):
    result = run(*args)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: 1 action declared; multiple actions need at least 2 (a single action takes no penalty: roll it "
        "on its own)"
    ]


def test_multi_two_actions_wording():
    out = run("multi", "7", "6", "--dice", "1,2,3,4,5", "--dice", "6,7,8").stdout
    assert out.splitlines()[0] == "2 actions declared: the first loses 2 dice, each later one a die more"
    assert "Action 2 (pool 6 - 3): 3 dice at difficulty 6" in out


def test_one_extra_die_is_singular():
    out = run("roll", "3", "-d", "7", "--specialty", "reroll", "--dice", "10,3,2,8").stdout
    assert "1 extra die from re-rolled 10s" in out
    out = run("roll", "3", "-d", "7", "--specialty", "reroll", "--dice", "10,3,2,10,8").stdout
    assert "2 extra dice from re-rolled 10s" in out


@pytest.mark.parametrize(
    ("args", "most"),
    [
        (["teamwork", "4"], 100),
        (["teamwork", "4", "--dice", "6,7,8,9"], 100),
        (["teamwork", "Ana:Wits + Alertness"], 100),
        (["odds", "teamwork", "4"], 100),
        (["odds", "teamwork", "4", "--specialty", "reroll"], 20),
    ],
)
def test_teamwork_needs_two_participants(args, most):
    result = run(*args)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: teamwork of 1 participant is no teamwork; allowed: 2 to {most} participants (one character alone "
        "makes an ordinary roll)"
    ]


def test_resisted_plea_example():
    data = run_json("resisted", "6", "7", "-d", "8", "--dice-a", "8,9,10,8,2,3", "--dice-b", "8,9,2,3,4,5,6")
    assert (data["a"]["result"], data["b"]["result"], data["winner"], data["margin"]) == (4, 2, "a", 2)
    assert data["botches"] == {"a": False, "b": False}
    human = run("resisted", "6", "7", "-d", "8", "--dice-a", "8,9,10,8,2,3", "--dice-b", "8,9,2,3,4,5,6").stdout
    assert "Side A wins with 2 successes (marginal) after 4 vs 2" in human


def test_resisted_separate_difficulties_and_botch():
    data = run_json("resisted", "2", "2", "-d", "6", "--difficulty-b", "9", "--dice-a", "1,2", "--dice-b", "8,9")
    assert data["b"]["difficulty"] == 9 and data["botches"]["a"] is True
    assert (data["winner"], data["margin"]) == ("b", 1)


def test_teamwork_botch_spoils_by_default():
    args = ["teamwork", "3", "2", "2", "--dice", "6,7,2", "--dice", "9,3", "--dice", "1,3"]
    data = run_json(*args)
    assert (data["total"], data["spoiled"], data["outcome"]) == (0, True, "botch")
    data = run_json(*args, "--no-botch-spoils")
    assert (data["total"], data["spoiled"], data["outcome"]) == (3, False, "success")


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("stkit ")


def _stkit(*args, env_extra=None):
    env = {**os.environ, "NO_COLOR": "1", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "stkit", *args], capture_output=True, text=True, env=env, timeout=60)


def test_subprocess_roll_json():
    proc = _stkit("roll", "5", "-d", "9", "--dice", "4,7,5,8,1", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["outcome"] == "botch"


@pytest.mark.slow
def test_subprocess_bad_input_no_traceback():
    for args in (["roll", "5", "-d", "11"], ["roll", "0"], ["roll", "abc"], ["roll", "3", "--dice", "1,2,11"]):
        proc = _stkit(*args)
        assert proc.returncode == 1
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("Error: ")


def test_installed_console_script():
    import shutil

    exe = shutil.which("stkit") or os.path.join(os.path.dirname(sys.executable), "stkit")
    proc = subprocess.run(
        [exe, "roll", "6", "--dice", "5,4,8,8,2,6", "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["result"] == 3


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 10), min_size=1, max_size=12), st.integers(2, 10), st.booleans())
def test_cli_dice_agree_with_engine(faces, difficulty, willpower):
    from stkit.dice import count_dice

    args = ["roll", str(len(faces)), "-d", str(difficulty), "--dice", ",".join(map(str, faces))]
    if willpower:
        args.append("--willpower")
    data = run_json(*args)
    expected = count_dice(len(faces), difficulty, faces, willpower=willpower).to_dict()
    data.pop("seed")
    assert data.pop("house_rules_in_force") == []  # no house rule set: the rules as written
    # Willpower spares a botch exactly when no die reached the difficulty and a 1 showed
    spared = data.pop("botch_spared", None)
    assert (spared is not None) == (willpower and 1 in faces and max(faces) < difficulty)
    assert data["house_rules"].pop("specialised") is False  # the roll names no specialty
    expected["house_rules"].pop("specialised")
    assert data == expected


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 20), st.integers(2, 10), st.integers(0, 2**31))
def test_cli_seeded_roll_agrees_with_engine(pool, difficulty, seed):
    import random

    from stkit.dice import roll_pool

    data = run_json("roll", str(pool), "-d", str(difficulty), "--seed", str(seed))
    assert data["seed"] == seed
    data.pop("seed")
    assert data.pop("house_rules_in_force") == []
    assert data["house_rules"].pop("specialised") is False  # the roll names no specialty
    expected = roll_pool(pool, difficulty, rng=random.Random(seed)).to_dict()
    expected["house_rules"].pop("specialised")
    assert data == expected


@pytest.mark.parametrize("pool", ["9" * 5000, "5+" + "9" * 5000, "0000000000000000000000005"])
def test_absurd_pool_numbers_get_one_line(pool):
    result = run("roll", pool, "--seed", "1")
    if pool.endswith("05"):
        assert result.exit_code == 0  # leading zeros are just a 5
        return
    assert result.exit_code == 1
    assert "larger than stkit's limit of 1000 dice" in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_disk_on_stdout_is_one_line_not_a_traceback():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "stkit", "roll", "5", "--json", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 1
    assert proc.stderr.strip() == "Error: cannot write: disk full (No space left on device)"
