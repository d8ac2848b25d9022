"""Bad input to `stkit odds`: absurd teamwork and reroll extended queries are refused at once with one
`Error:` line (exit 1) instead of running for minutes; impossible actions never show negative dice left."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice import odds
from stkit.dice.model import HouseRules, Specialty
from stkit.errors import InvalidValue
from tests.clirun import one_error

runner = CliRunner()


def _children_cpu() -> float:
    """User + system CPU seconds used so far by finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


REROLL = HouseRules(specialty=Specialty.REROLL)


def _fails_fast(args: list[str], *needles: str) -> None:
    start = time.process_time()  # CPU time: other processes' load does not count
    res = runner.invoke(app, args)
    assert time.process_time() - start < 5
    one_error(res, *needles)


def test_teamwork_of_too_many_dice_is_refused():
    # two pools of 1000 took 4 s and ten with reroll over a minute before the limit
    with pytest.raises(InvalidValue, match=r"2000 dice in all.*at most 1000"):
        odds.p_teamwork([1000, 1000], 10)
    with pytest.raises(InvalidValue, match=r"reroll specialty.*at most 300"):
        odds.p_teamwork([200, 200], 10, rules=REROLL)
    _fails_fast(["odds", "teamwork", *(["1000"] * 10), "-d", "10", "--specialty", "reroll"], "10000 dice in all")


def test_teamwork_of_too_many_participants_is_refused():
    with pytest.raises(InvalidValue, match=r"101 participants.*2 to 100"):
        odds.p_teamwork([1] * 101, 6)
    with pytest.raises(InvalidValue, match=r"21 participants.*reroll.*2 to 20"):
        odds.p_teamwork([3] * 21, 6, rules=REROLL)


def test_teamwork_pool_errors_come_before_the_size_limit():
    with pytest.raises(InvalidValue, match="dice pool 10000000000 is larger"):
        odds.p_teamwork([10**10, 1], 6)


def test_teamwork_at_the_limits_still_answers_exactly():
    team = odds.p_teamwork([500, 500], 6)
    assert sum(team.total) == team.denominator == 10**1000  # every outcome listed, nothing lost
    # 20 participants of 1 die at difficulty 6: all botch only if every die shows 1
    small = odds.p_teamwork([1] * 20, 6)
    assert small.p_all_botch == Fraction(1, 10**20)
    assert sum(odds.p_teamwork([1] * 20, 6, rules=REROLL).distribution(False)) <= 1


def test_reroll_extended_limits():
    # 1 die at difficulty 10, target 100, reroll: 12 s before the limit
    with pytest.raises(InvalidValue, match=r"reroll specialty.*target must be at most 40"):
        odds.p_extended(1, 10, 100, rules=REROLL)
    with pytest.raises(InvalidValue, match=r"pool x target at most 500 \(here 520\)"):
        odds.p_extended(13, 10, 40, rules=REROLL)
    _fails_fast(
        ["odds", "1", "-d", "10", "--target", "100", "--specialty", "reroll", "--botch-ends"],
        "reroll specialty",
        "at most 40",
    )
    # inside the limits it still answers, and without reroll the old limits hold
    assert 0 < odds.p_extended(1, 10, 40, rules=REROLL).p_done_by(200) <= 1
    assert odds.p_extended(50, 6, 100).mean > 0


def test_multi_never_shows_negative_dice_left():
    res = runner.invoke(app, ["odds", "multi", "1", "1", "--json"])
    assert res.exit_code == 0, res.output
    actions = json.loads(res.stdout)["actions"]
    assert [(a["pool"], a["possible"], a["penalty"]) for a in actions] == [(0, False, 2), (0, False, 3)]
    table = runner.invoke(app, ["odds", "multi", "1", "1"])
    assert table.exit_code == 0
    assert "-1" not in table.stdout and "impossible" in table.stdout


@pytest.mark.slow
def test_subprocess_absurd_teamwork_is_quick_and_clean():
    # CPU seconds the child used, not wall-clock time: other processes on the machine cannot make it fail
    start = _children_cpu()
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "odds", "teamwork", *(["1000"] * 10), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert _children_cpu() - start < 10
    assert proc.returncode == 1 and proc.stderr == ""
    error = json.loads(proc.stdout)  # under --json the error is one JSON object on stdout
    assert error["exit"] == 1 and error["error"].startswith("teamwork of 10000 dice in all")
