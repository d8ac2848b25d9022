"""Regression tests for the store defects found replaying public bug reports: exact names beat folded ones,
invisible characters in names, one damaged row in `char list`, a duplicate experience award, an imported
experience log that disagrees with its totals."""

from __future__ import annotations

import json

import pytest

from stkit.errors import RuleRefusal
from stkit.sheet.sheet import Sheet
from tests.clirun import error, ok


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
    err = error("char", "xp", "Weston", "award", "3", "-r", "session 4")
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


# ----- rows an older stkit wrote -------------------------------------------------------------------------
def _sql(db_url: str, statement: str, **params) -> None:
    """Change the store behind stkit's back, as an older version (or another tool) left it."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text(statement), params)
    finally:
        engine.dispose()


def test_exact_name_beats_the_folded_one(db_url):
    """'Zoe' and 'Zoë' in one chronicle, as a store made before accents were folded keeps them: each is
    reached by its own name, and editing or deleting one never touches the other."""
    ok("char", "new", "Zoe")
    ok("char", "new", "Zoë", "--chronicle", "elsewhere")
    _sql(db_url, "UPDATE characters SET chronicle = 'default', name_key = 'zoë' WHERE name = 'Zoë'")
    ok("char", "set", "Zoë", "Wits", "4")
    assert json.loads(ok("char", "show", "Zoë", "--json"))["attributes"]["Wits"] == 4
    assert json.loads(ok("char", "show", "Zoe", "--json"))["attributes"]["Wits"] == 1
    assert json.loads(ok("char", "show", "zoë", "--json"))["name"] == "Zoë"  # the accent still tells them apart
    assert json.loads(ok("char", "show", "ZOE", "--json"))["name"] == "Zoe"
    ok("char", "delete", "Zoë", "--yes")
    listed = json.loads(ok("char", "list", "--json"))["characters"]
    assert [c["name"] for c in listed] == ["Zoe"]


def test_invisible_characters_never_make_a_second_bob(db_url):
    ok("char", "new", "Bob")
    for name in ("Bob\u200b", "B\u00adob"):
        err = error("char", "new", name)
        assert "character name contains the invisible character U+" in err
        assert json.loads(ok("char", "show", name, "--json"))["name"] == "Bob"  # a lookup drops them
    assert [c["name"] for c in json.loads(ok("char", "list", "--json"))["characters"]] == ["Bob"]


def test_one_out_of_range_row_does_not_break_the_list(db_url):
    ok("char", "new", "Weston")
    ok("char", "new", "Archibald")
    doc = json.loads(ok("char", "export", "Weston", "--format", "json"))
    doc["experience"]["total"] = 2_000_000
    _sql(db_url, "UPDATE characters SET sheet = :s WHERE name = 'Weston'", s=json.dumps(doc))
    out = ok("char", "list")
    assert "Archibald" in out
    assert (
        "Warning: Weston (default) cannot be read: stored character 'Weston': experience.total: 2000000 is outside "
        "the allowed range 0 to 1000000; re-import it with `char import --replace` or delete it"
    ) in " ".join(out.split())  # the terminal may wrap the line
    data = json.loads(ok("char", "list", "--json"))
    assert [c["name"] for c in data["characters"]] == ["Archibald"]
    assert data["damaged"] == [
        {
            "id": data["damaged"][0]["id"],
            "name": "Weston",
            "chronicle": "default",
            "problem": "stored character 'Weston': experience.total: 2000000 is outside the allowed range 0 to 1000000",
        }
    ]
    assert "experience.total: 2000000 is outside" in error("char", "show", "Weston")
    ok("char", "delete", "Weston", "--yes")
    assert "damaged" not in json.loads(ok("char", "list", "--json"))


@pytest.mark.empty_store
def test_migration_0007_recomputes_keys_and_reports_look_alike_names(db_url, capfd):
    """Rows at revision 0003: 'Bob', 'Bob\u200b' (an older stkit accepted it), 'Zoe' and 'Zoë' (0003 kept the
    old key). 0007 drops invisible characters from the keys where it can and reports each pair once."""
    from sqlalchemy import text

    from stkit.store.db import engine as DB

    engine = DB.make_engine(db_url)
    DB.upgrade(engine, "0003")
    rows = [
        (1, "Bob", "bob"),
        (2, "Bob\u200b", "bob\u200b"),
        (3, "Zoe", "zoe"),
        (4, "Zoë", "zoë"),
        (5, "Al\u00ad", "al\u00ad"),
    ]
    with engine.begin() as conn:
        for row_id, name, key in rows:
            conn.execute(
                text(
                    "INSERT INTO characters (id, chronicle, name, name_key, player, breed, auspice, tribe, form, "
                    "sheet, version, created_at, updated_at) VALUES (:id, 'default', :n, :k, '', '', '', '', "
                    "'Homid', :sheet, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"id": row_id, "n": name, "k": key, "sheet": json.dumps(Sheet(name=name).to_dict())},
            )
    capfd.readouterr()
    DB.upgrade(engine, "0007")
    err = capfd.readouterr().err
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, name_key FROM characters ORDER BY id")).all())
    engine.dispose()
    assert keys == {1: "bob", 2: "bob\u200b", 3: "zoe", 4: "zoë", 5: "al"}
    assert err.splitlines() == [
        "stkit: in chronicle 'default', 'Bob' and 'Bob\\u200b' read as the same name; both are kept, each found by "
        "its exact name as `stkit char list` shows it",
        "stkit: in chronicle 'default', 'Zoe' and 'Zoë' read as the same name; both are kept, each found by its "
        "exact name as `stkit char list` shows it",
    ]


def test_replace_overwrites_the_exact_name_not_its_look_alike(db_url, tmp_path):
    ok("char", "new", "Zoe")
    ok("char", "new", "Zoë", "--chronicle", "elsewhere")
    _sql(db_url, "UPDATE characters SET chronicle = 'default', name_key = 'zoë' WHERE name = 'Zoë'")
    f = tmp_path / "zoe.yaml"
    f.write_text("name: Zoë\nattributes: {Wits: 5}\n", encoding="utf-8")
    ok("char", "import", f, "--replace")
    assert json.loads(ok("char", "show", "Zoë", "--json"))["attributes"]["Wits"] == 5
    assert json.loads(ok("char", "show", "Zoe", "--json"))["attributes"]["Wits"] == 1
    assert sorted(c["name"] for c in json.loads(ok("char", "list", "--json"))["characters"]) == ["Zoe", "Zoë"]
