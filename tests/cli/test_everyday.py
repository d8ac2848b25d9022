"""Everyday dice flags: --need on roll, Willpower on one action of multi and one side of resisted."""

import pytest

from tests.clirun import ok_json, run


def test_need_met_and_not_met_human() -> None:
    # the three-success example of Chapter Five: 5 4 8 8 2 6 at difficulty 6
    met = run("roll", "6", "--dice", "5,4,8,8,2,6", "--need", "3")
    assert met.stdout.splitlines()[-1] == "Needed 3 successes: met"
    short = run("roll", "6", "--dice", "5,4,8,8,2,6", "--need", "4")
    assert short.stdout.splitlines()[-1] == "Needed 4 successes: not met (3)"
    one = run("roll", "2", "--dice", "7,1", "--need", "1")  # the 1 cancels the only success
    assert one.stdout.splitlines()[-1] == "Needed 1 success: not met (0)"


def test_need_in_json() -> None:
    data = ok_json("roll", "6", "--dice", "5,4,8,8,2,6", "--need", "4")
    assert (data["need"], data["need_met"], data["result"]) == (4, False, 3)
    assert "need" not in ok_json("roll", "6", "--dice", "5,4,8,8,2,6")


@pytest.mark.parametrize("bad", ["0", "-2", "1001"])
def test_need_out_of_range_is_one_line(bad: str) -> None:
    result = run("roll", "5", "--need", bad)
    assert result.exit_code == 1
    assert f"required successes (--need) {bad} is outside the allowed range 1 to 1000" in result.output


def test_multi_willpower_on_one_action() -> None:
    # 7 6 6 declared: 4, 2 and 1 dice; Willpower on the second action only
    data = ok_json("multi", "7", "6", "6", "-w", "2", "--dice", "2,3,4,5", "--dice", "7,1", "--dice", "3")
    rolls = [a["roll"] for a in data["actions"]]
    assert [r["willpower"] for r in rolls] == [False, True, False]
    assert [r["result"] for r in rolls] == [0, 1, 0]  # 7 cancelled by the 1, Willpower's success stays


@pytest.mark.parametrize(
    ("action", "message"),
    [("4", "Willpower action 4 is outside the allowed range 1 to 3"), ("3", "action 3 has no dice left")],
)
def test_multi_willpower_refused(action: str, message: str) -> None:
    result = run("multi", "7", "6", "2", "-w", action)
    assert result.exit_code == 1
    assert message in result.output


def test_resisted_willpower_on_one_side() -> None:
    data = ok_json("resisted", "3", "3", "-w", "B", "--dice-a", "7,8,2", "--dice-b", "9,2,2")
    assert (data["a"]["result"], data["b"]["result"]) == (2, 2)  # B's Willpower ties it
    assert data["winner"] is None
    assert (data["a"]["willpower"], data["b"]["willpower"]) == (False, True)
    bad = run("resisted", "3", "3", "-w", "c")
    assert bad.exit_code == 1
    assert "--willpower 'c' names no side; allowed: a or b" in bad.output
