"""Rolls from sheets on resisted (--char-a / --char-b) and teamwork (NAME:POOL), logged like any roll."""

import json

from tests.clirun import ok, run


def _two(db_url: str) -> None:
    ok("char", "new", "Ana", "--set", "Dexterity=3", "--set", "Athletics=2")
    ok("char", "new", "Bo", "--set", "Wits=2", "--set", "Subterfuge=3")


def test_resisted_from_two_sheets(db_url: str) -> None:
    _two(db_url)
    data = json.loads(
        ok(
            "resisted", "dex+ath", "wits+sub", "--char-a", "ana", "--char-b", "bo",
            "--dice-a", "7,8,9,2,3", "--dice-b", "6,2,2,2,2", "-w", "b", "--json",
        )
    )  # fmt: skip
    assert (data["a"]["character"], data["a"]["pool_text"]) == ("Ana", "Dexterity 3 + Athletics 2 = 5 dice")
    assert (data["a"]["result"], data["b"]["result"], data["winner"], data["margin"]) == (3, 2, "a", 1)
    assert data["b"]["willpower"] is True
    log = json.loads(ok("log", "--json"))["rolls"]
    assert [(e["character"], e["result"]) for e in log] == [("Bo", 2), ("Ana", 3)]
    bo = json.loads(ok("char", "show", "bo", "--json"))
    assert bo["willpower"]["temporary"] == 2  # spent from the sheet


def test_resisted_one_sheet_one_number(db_url: str) -> None:
    _two(db_url)
    data = json.loads(
        ok("resisted", "dex", "4", "--char-a", "ana", "--dice-a", "7,2,2", "--dice-b", "6,6,1,2", "--json")
    )
    assert (data["a"]["result"], data["b"]["result"], data["winner"]) == (1, 1, None)
    assert "character" not in data["b"]


def test_teamwork_name_pool_pairs(db_url: str) -> None:
    _two(db_url)
    data = json.loads(
        ok("teamwork", "Ana:dex+ath", "bo:wits+sub", "3", "--dice", "7,8,2,2,2", "--dice", "9,2,2,2,2",
           "--dice", "6,6,6", "--json")
    )  # fmt: skip
    assert [r.get("character") for r in data["rolls"]] == ["Ana", "Bo", None]
    assert data["total"] == 2 + 1 + 3
    assert len(json.loads(ok("log", "--json"))["rolls"]) == 2
    bad = run("teamwork", "Ana:", "3")
    assert bad.exit_code == 1
    assert "participant 'Ana:' needs NAME:POOL" in bad.output
    refused = run("teamwork", "Nobody:dex", "3")
    assert refused.exit_code == 1
    assert len(json.loads(ok("log", "--json"))["rolls"]) == 2  # nothing written for the refused roll
