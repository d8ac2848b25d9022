"""Regression tests for the store defects found replaying public bug reports: exact names beat folded ones,
invisible characters in names, one damaged row in `char list`, a duplicate experience award, an imported
experience log that disagrees with its totals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import RuleRefusal
from stkit.store.sheet import Sheet

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], env={"NO_COLOR": "1", "COLUMNS": "120"})


def ok(*args) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def fails(*args, code: int = 1) -> str:
    result = run(*args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result.stderr


# ----- the same experience award twice ------------------------------------------------------------------
def test_same_award_the_same_night_is_refused_without_again():
    s = Sheet(name="Weston")
    s.xp("award", 3, "session 4", at="2026-11-30T21:00:00+00:00")
    with pytest.raises(RuleRefusal) as err:
        s.xp("award", 3, "session 4", at="2026-12-01T02:30:00+00:00")  # after midnight: the same night
    assert str(err.value) == (
        "Weston was already awarded 3 experience for 'session 4' at 2026-11-30 21:00 UTC, the same night; "
        "add --again to award it a second time"
    )
    assert (s.xp_total, len(s.xp_log)) == (3, 1)
    s.xp("award", 3, "session 4", at="2026-12-01T02:30:00+00:00", again=True)
    assert s.xp_total == 6


@pytest.mark.parametrize(
    ("amount", "reason", "at"),
    [
        (2, "session 4", "2026-11-30T22:00:00+00:00"),  # another amount
        (3, "session 5", "2026-11-30T22:00:00+00:00"),  # another reason
        (3, "session 4", "2026-12-01T09:00:01+00:00"),  # 12 hours later: another night
    ],
)
def test_different_awards_need_no_again(amount, reason, at):
    s = Sheet(name="Weston")
    s.xp("award", 3, "session 4", at="2026-11-30T21:00:00+00:00")
    s.xp("award", amount, reason, at=at)
    assert s.xp_total == 3 + amount


def test_spending_twice_is_not_a_duplicate():
    s = Sheet(name="Weston")
    s.xp("award", 10, "", at="2026-11-30T21:00:00+00:00")
    s.xp("spend", 2, "Brawl 1", at="2026-11-30T21:10:00+00:00")
    s.xp("spend", 2, "Brawl 1", at="2026-11-30T21:11:00+00:00")
    assert s.xp_spent == 4


def test_cli_duplicate_award_asks_for_again(db_url):
    ok("char", "new", "Weston")
    ok("char", "xp", "Weston", "award", "3", "-r", "session 4")
    err = fails("char", "xp", "Weston", "award", "3", "-r", "session 4")
    assert "Weston was already awarded 3 experience for 'session 4' at " in err
    assert err.rstrip().endswith("the same night; add --again to award it a second time")
    assert json.loads(ok("char", "xp", "Weston", "--json"))["total"] == 3
    ok("char", "xp", "Weston", "award", "3", "-r", "session 4", "--again")
    assert json.loads(ok("char", "xp", "Weston", "--json"))["total"] == 6


# ----- an imported log that disagrees with its totals ---------------------------------------------------
def test_import_warns_when_the_log_disagrees_with_the_totals(db_url, tmp_path):
    f = tmp_path / "w.yaml"
    f.write_text(
        "name: Weston\nexperience:\n  total: 10\n  spent: 2\n  log:\n"
        "    - {at: 2026-11-30, kind: award, amount: 7, reason: the car chase}\n"
        "    - {at: 2026-11-30, kind: spend, amount: 2, reason: Drive 1}\n",
        encoding="utf-8",
    )
    data = json.loads(ok("char", "import", f, "--json"))
    assert data["imported"][0]["warnings"] == [
        "experience: the log's awards add up to 7 but the total experience is 10; "
        "stkit keeps the total 10 and the log as written"
    ]
    shown = json.loads(ok("char", "show", "Weston", "--json"))
    assert (shown["experience"]["total"], shown["experience"]["spent"], len(shown["experience"]["log"])) == (10, 2, 2)
