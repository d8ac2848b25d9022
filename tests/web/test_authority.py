"""A link's authority is checked on every event, not once per stream: a rotated, revoked or expired link
ends its open streams and they carry nothing more (secret rolls included); a garbled Last-Event-ID
replays nothing. How soon a stream ends is a speed figure, not checked here."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.waiting import DEADLINE
from tests.web.conftest import follow, read_events, through


def _roll(url: str, n: int = 5, *, secret: bool = False, seed: int = 1) -> None:

    from stkit.store.db.gateway import run_unit
    from tests.rolls import bare_roll

    run_unit(url, lambda gw: bare_roll(gw, n, seed=seed, secret=secret))


def _newest(url: str) -> int:
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import last_event_id

    return run_unit(url, lambda gw: last_event_id(gw, "default"), readonly=True)


class Follower:
    """A stream read in a thread from the moment it is open: what it got, and whether the server ended
    it (``closed``) or ``until`` held first."""

    def __init__(self, base: str, token: str, *, after: int, until=lambda got: False) -> None:
        self.thread, self.got = follow(base, token, after=after, until=until)

    def join(self) -> None:
        self.thread.join(DEADLINE + 10)
        assert not self.thread.is_alive()

    @property
    def closed(self) -> bool:
        return self.got.closed


@pytest.mark.slow
def test_rotating_links_ends_an_open_storyteller_stream(live, table):
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
    _roll(table.url, 9, secret=True, seed=2)  # after the rotation: never on the old link's stream
    _roll(table.url, 4, seed=3)
    follower.join()
    assert follower.closed and follower.got == []


def test_revoking_one_player_ends_only_their_stream(live, table):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.links import revoke_links

    start = _newest(table.url)
    weston = Follower(live, table.token("Weston"), after=start)
    archibald = Follower(live, table.token("Archibald"), after=start, until=bool)
    run_unit(table.url, lambda gw: revoke_links(gw, "default", "Weston"))
    _roll(table.url, 6, seed=4)
    weston.join()
    archibald.join()
    assert weston.closed and weston.got == []
    assert not archibald.closed and [g[1] for g in archibald.got] == ["roll"]  # still live, and got the roll


def test_an_expiring_link_ends_its_stream_when_it_expires(live, table):
    from datetime import UTC, datetime, timedelta

    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import hash_token

    token = table.token("Weston")
    # the stream is open first (however long that takes on a busy machine), then its link is given an
    # expiry: the server's periodic read of the links picks it up, and the stream ends once it has passed
    follower = Follower(live, token, after=_newest(table.url))
    soon = datetime.now(UTC) + timedelta(seconds=1)
    run_unit(
        table.url,
        lambda gw: gw.execute(
            "UPDATE table_links SET expires_at = :t WHERE token_hash = :h", t=gw.timestamp(soon), h=hash_token(token)
        ),
    )
    follower.join()
    assert follower.closed and datetime.now(UTC) >= soon  # ended by the server, and not before the expiry
    _roll(table.url, 2, seed=5)
    assert follower.got == []


def test_an_unreadable_last_event_id_replays_nothing(live, table):
    for seed in range(3):
        _roll(table.url, seed=seed)
    newest = _newest(table.url)
    token = table.token("storyteller")
    garbled = ("abc", "-1", "\u0661\u0662".encode(), "9" * 40, "3.0", "0x10")
    who = ("storyteller", "Weston")  # three streams each: under the streams-per-link limit
    readers = [follow(live, table.token(who[i % 2]), last_event_id=g, until=bool) for i, g in enumerate(garbled)]
    # a number past the newest event waits for the next one instead of skipping it
    readers.append(follow(live, table.token("Archibald"), last_event_id=newest + 1000, until=bool))
    _roll(table.url, 7, seed=9)  # every stream is open: the first event each gets is this one, or one replayed
    for thread, got in readers:
        thread.join()
        assert [g[0] for g in got] == [newest + 1]
    from stkit.store.db.gateway import run_unit

    rolls = run_unit(table.url, lambda gw: [r[0] for r in gw.rows("SELECT id FROM table_events WHERE kind = 'roll'")])
    replay = [g[0] for g in read_events(live, token, last_event_id=0, until=through(rolls[-1])) if g[1] == "roll"]
    assert replay == rolls and len(rolls) == 4  # a readable 0 still replays everything
