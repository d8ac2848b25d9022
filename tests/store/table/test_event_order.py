"""Event ordering per chronicle: writers of different chronicles never wait for each other, and readers
that keep one cursor per chronicle see every event once while many writers commit at once."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from stkit.store.db.gateway import run_unit
from stkit.store.table.events import event_lock_keys, events_after, events_after_each, record_event


def _write(url: str, chronicle: str, n: int) -> None:
    run_unit(url, lambda gw: record_event(gw, chronicle=chronicle, kind="scene", data={"n": n}))


def _wait_for(condition, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.01)


def test_lock_keys_are_per_chronicle_and_stable():
    assert event_lock_keys("default") == event_lock_keys("default")
    assert event_lock_keys("default")[0] == event_lock_keys("other")[0] == 0x57A8
    assert len({event_lock_keys(f"c{i}")[1] for i in range(200)}) == 200
    assert all(-(2**31) <= event_lock_keys(f"c{i}")[1] < 2**31 for i in range(200))


@pytest.mark.postgres
def test_a_writer_holding_one_chronicles_lock_does_not_stop_another_chronicle(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("the advisory lock is PostgreSQL's")
    import psycopg
    from sqlalchemy.engine import make_url

    # advisory locks are the whole database's: names of this test's own, so no parallel test shares them
    a, b = (f"{c}-{uuid.uuid4().hex[:12]}" for c in "ab")
    _write(db_url, a, 0)  # migrated
    plain = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
    done = {a: threading.Event(), b: threading.Event()}
    with psycopg.connect(plain) as holder:
        holder.execute("SELECT pg_advisory_xact_lock(%s, %s)", event_lock_keys(a))
        threads = [
            threading.Thread(target=lambda c=c: (_write(db_url, c, 1), done[c].set()), daemon=True) for c in (a, b)
        ]
        for t in threads:
            t.start()
        _wait_for(done[b].is_set, "chronicle b's event while a's lock is held")
        assert not done[a].is_set()  # a waits for its own chronicle's lock
        holder.rollback()
    _wait_for(done[a].is_set, "chronicle a's event once its lock is free")
    for t in threads:
        t.join(10)


@pytest.mark.postgres
@pytest.mark.slow
def test_many_writers_on_many_chronicles_lose_and_repeat_nothing(db_url):
    """8 writers on 4 chronicles, 60 events each, while a reader per chronicle (and one reading all four
    through :func:`events_after_each`) follows with its own cursors: each sees every event of its chronicle
    exactly once, in id order."""
    chronicles = ["c0", "c1", "c2", "c3"]
    per_writer = 60
    _write(db_url, "warm", 0)
    stop = threading.Event()
    seen: dict[str, list[int]] = {c: [] for c in chronicles}
    seen_all: dict[str, list[int]] = {c: [] for c in chronicles}

    def follow_one(chronicle: str) -> None:
        last = 0
        while True:
            ending = stop.is_set()
            for e in run_unit(db_url, lambda gw, last=last: events_after(gw, chronicle, last, include_secret=True)):
                seen[chronicle].append(e.id)
                last = e.id
            if ending:
                return

    def follow_all() -> None:
        cursors = dict.fromkeys(chronicles, 0)
        while True:
            ending = stop.is_set()
            for e in run_unit(db_url, lambda gw: events_after_each(gw, dict(cursors), include_secret=True)):
                seen_all[e.chronicle].append(e.id)
                cursors[e.chronicle] = e.id
            if ending:
                return

    def write(chronicle: str) -> None:
        for n in range(per_writer):
            _write(db_url, chronicle, n)

    readers = [threading.Thread(target=follow_one, args=(c,)) for c in chronicles]
    readers.append(threading.Thread(target=follow_all))
    writers = [threading.Thread(target=write, args=(chronicles[i % 4],)) for i in range(8)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join(120)
    stop.set()
    for t in readers:
        t.join(60)
    for c in chronicles:
        stored = [e.id for e in run_unit(db_url, lambda gw, c=c: events_after(gw, c, 0, include_secret=True))]
        assert len(stored) == 2 * per_writer
        assert seen[c] == stored, f"{c}: lost {sorted(set(stored) - set(seen[c]))}"
        assert seen_all[c] == stored, f"{c} (all): lost {sorted(set(stored) - set(seen_all[c]))}"
