"""A link's authority is checked on every event, not once per stream: a rotated, revoked or expired link
ends its open streams within a second and they carry nothing more (secret rolls included); a garbled
Last-Event-ID replays nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from tests.web.conftest import read_events


def _roll(url: str, n: int = 5, *, secret: bool = False, seed: int = 1) -> None:

    from stkit.store.db.gateway import run_unit
    from tests.rolls import bare_roll

    run_unit(url, lambda gw: bare_roll(gw, n, seed=seed, secret=secret))


def _newest(url: str) -> int:
    from stkit.store.db.gateway import run_unit
    from stkit.store.events import last_event_id

    return run_unit(url, lambda gw: last_event_id(gw, "default"), readonly=True)


class Follower:
    """A stream read in a thread: what it got, and when it ended (the server closed it)."""

    def __init__(self, base: str, token: str, *, after: int, seconds: float = 8.0) -> None:
        self.got: list = []
        self.ended: float | None = None

        def run() -> None:
            self.got.extend(read_events(base, token, after=after, seconds=seconds))
            self.ended = time.monotonic()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        time.sleep(0.6)  # the stream is open and live

    def join(self) -> None:
        self.thread.join(15)


@pytest.mark.slow
def test_rotating_links_ends_an_open_storyteller_stream_within_a_second(live, table):
    _roll(table.url, 3, secret=True, seed=1)
    follower = Follower(live, table.token("storyteller"), after=_newest(table.url))
    env = os.environ | {"STKIT_DATABASE_URL": table.url, "NO_COLOR": "1"}
    subprocess.run(
        [sys.executable, "-m", "stkit", "table", "links", "--rotate", "--json"],
        env=env,
        capture_output=True,
        timeout=60,
        check=True,
    )
    rotated = time.monotonic()
    _roll(table.url, 9, secret=True, seed=2)  # after the rotation: never on the old link's stream
    _roll(table.url, 4, seed=3)
    follower.join()
    assert follower.ended is not None and follower.ended - rotated < 1.0
    assert follower.got == []


def test_revoking_one_player_ends_only_their_stream(live, table):
    from stkit.store.db.gateway import run_unit
    from stkit.store.links import revoke_links

    start = _newest(table.url)
    weston = Follower(live, table.token("Weston"), after=start, seconds=3)
    archibald = Follower(live, table.token("Archibald"), after=start, seconds=3)
    run_unit(table.url, lambda gw: revoke_links(gw, "default", "Weston"))
    revoked = time.monotonic()
    _roll(table.url, 6, seed=4)
    weston.join()
    archibald.join()
    assert weston.ended - revoked < 1.0 and weston.got == []
    assert [g[1] for g in archibald.got] == ["roll"]  # still live, and got the roll


def test_an_expiring_link_ends_its_stream_when_it_expires(live, table):
    from datetime import UTC, datetime, timedelta

    from stkit.store.db.gateway import run_unit
    from stkit.store.events import hash_token

    token = table.token("Weston")
    soon = datetime.now(UTC) + timedelta(seconds=1.5)
    run_unit(
        table.url,
        lambda gw: gw.execute(
            "UPDATE table_links SET expires_at = :t WHERE token_hash = :h", t=gw.timestamp(soon), h=hash_token(token)
        ),
    )
    follower = Follower(live, token, after=_newest(table.url), seconds=6)
    follower.join()
    ended_at = datetime.now(UTC) - timedelta(seconds=time.monotonic() - follower.ended)
    assert timedelta(0) <= ended_at - soon < timedelta(seconds=1)
    _roll(table.url, 2, seed=5)
    assert follower.got == []


def test_an_unreadable_last_event_id_replays_nothing(live, table):
    for seed in range(3):
        _roll(table.url, seed=seed)
    newest = _newest(table.url)
    token = table.token("storyteller")
    for garbled in ("abc", "-1", "\u0661\u0662".encode(), "9" * 40, "3.0", "0x10"):
        got = read_events(live, token, last_event_id=garbled, seconds=0.5)
        assert got == [], garbled
    # a number past the newest event waits for the next one instead of skipping it
    later = threading.Thread(target=lambda: (time.sleep(0.3), _roll(table.url, 7, seed=9)))
    later.start()
    got = read_events(live, token, last_event_id=newest + 1000, seconds=1.5, until=bool)
    later.join()
    assert [g[0] for g in got] == [newest + 1]
    from stkit.store.db.gateway import run_unit

    rolls = run_unit(table.url, lambda gw: [r[0] for r in gw.rows("SELECT id FROM table_events WHERE kind = 'roll'")])
    replay = [g[0] for g in read_events(live, token, last_event_id=0, seconds=0.5) if g[1] == "roll"]
    assert replay == rolls and len(rolls) == 4  # a readable 0 still replays everything
