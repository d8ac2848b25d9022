"""The event stream over a real server: replay after Last-Event-ID, secret events kept from players, rolls
from other processes arriving live, nothing lost or sent twice while several processes write."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.web.conftest import ThreadServer, follow, mark, read_events, through


def _cli(url: str, *args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "stkit", *args], env=env, capture_output=True, text=True, timeout=60, check=True
    )


def _roll(url: str, n: int = 5, *, secret: bool = False, seed: int = 1) -> None:

    from stkit.store.db.gateway import run_unit
    from tests.rolls import bare_roll

    run_unit(url, lambda gw: bare_roll(gw, n, seed=seed, secret=secret))


def _event_ids(url: str, *, secret: bool | None = None) -> list[int]:
    from stkit.store.db.gateway import run_unit

    sql = "SELECT id FROM table_events"
    if secret is not None:
        sql += " WHERE secret = :s"
    return [r[0] for r in run_unit(url, lambda gw: gw.rows(sql + " ORDER BY id", s=secret))]


def test_reconnect_with_last_event_id_gets_exactly_the_missed_events(live, table):
    for seed in range(6):
        _roll(table.url, seed=seed)
    ids = _event_ids(table.url)
    assert len(ids) == 6
    last = through(ids[-1])
    got = read_events(live, table.token("Weston"), last_event_id=ids[2], until=last)
    assert [g[0] for g in got] == ids[3:]
    assert all(g[1] == "roll" for g in got)
    # the page's own starting point (?after=) gives the same; the Last-Event-ID header wins over it
    assert [g[0] for g in read_events(live, table.token("Weston"), after=ids[4], until=last)] == ids[5:]
    assert [g[0] for g in read_events(live, table.token("Weston"), after=0, last_event_id=ids[4], until=last)] == [
        ids[5]
    ]


def test_player_streams_carry_no_secret_event(live, table):
    _roll(table.url, 7, seed=1)
    _roll(table.url, 9, secret=True, seed=2)
    _roll(table.url, 4, seed=3)
    secret_ids = _event_ids(table.url, secret=True)
    assert len(secret_ids) == 1
    last = through(_event_ids(table.url)[-1])
    player = read_events(live, table.token("Archibald"), last_event_id=0, until=last)
    storyteller = read_events(live, table.token("storyteller"), last_event_id=0, until=last)
    assert [g[0] for g in player] == _event_ids(table.url, secret=False)
    assert [g[0] for g in storyteller] == _event_ids(table.url)
    assert "9 dice" in dict((g[0], g[2]) for g in storyteller)[secret_ids[0]]
    assert all("9 dice" not in g[2] and "secret" not in g[2] for g in player)


def test_a_cli_roll_in_another_process_arrives_on_an_open_stream(live, table):
    reader, got = follow(live, table.token("Weston"), until=lambda g: any(e[1] == "roll" for e in g))
    _cli(table.url, "roll", "Dexterity + Brawl", "--char", "Weston", "--seed", "9")
    reader.join()
    [roll] = [g for g in got if g[1] == "roll"]
    assert "Weston" in roll[2] and "Dexterity 3 + Brawl 2 = 5 dice" in roll[2]
    assert roll[0] == _event_ids(table.url)[-1]


@pytest.mark.slow
def test_many_writers_nothing_lost_nothing_twice(live, table):

    reader, got = follow(live, table.token("storyteller"), until=lambda g: len(g) >= 30)
    code = (
        "import random, sys\n"
        "from stkit.store.db.gateway import run_unit\n"
        "from tests.rolls import sheet_roll\n"
        "for i in range(15):\n"
        "    run_unit(sys.argv[1], lambda gw: sheet_roll(gw, sys.argv[2], 'Dexterity', rng=random.Random(i)))\n"
    )
    env = os.environ | {"PYTHONPATH": os.getcwd()}
    procs = [
        subprocess.Popen([sys.executable, "-c", code, table.url, name], env=env) for name in ("Weston", "Archibald")
    ]
    for p in procs:
        assert p.wait(timeout=60) == 0
    reader.join()
    ids = [g[0] for g in got]
    assert ids == sorted(set(ids))  # in order, none twice
    assert ids == _event_ids(table.url) and len(ids) == 30  # none lost


def test_two_servers_on_one_store_both_stay_live(live, table):
    from stkit.web.app import create_app

    other = ThreadServer(create_app(table.url, "default", interval=0.02))
    try:
        readers = [follow(base, table.token("Weston"), until=bool) for base in (live, other.base)]
        _roll(table.url, 6, seed=8)
        for thread, _ in readers:
            thread.join()
    finally:
        other.stop()
    ids = _event_ids(table.url)
    assert [g[0] for g in readers[0][1]] == ids == [g[0] for g in readers[1][1]]


def test_a_player_stream_carries_only_their_own_sheet_changes(live, table):
    from stkit.store.characters import damage
    from stkit.store.db.gateway import run_unit

    run_unit(table.url, lambda gw: damage(gw, "Archibald", 1, "bashing"))
    run_unit(table.url, lambda gw: damage(gw, "Weston", 2, "lethal"))
    marker = mark(table.url)  # every event before it has reached a stream read through it
    weston = read_events(live, table.token("Weston"), last_event_id=0, until=through(marker))
    storyteller = read_events(live, table.token("storyteller"), last_event_id=0, until=through(marker))
    assert [(g[1], "Weston" in g[2]) for g in weston if g[0] != marker] == [("sheet", True)]
    assert [g[1] for g in storyteller if g[0] != marker] == ["sheet", "sheet"]
