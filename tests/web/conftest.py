"""Fixtures for the table server: a store with two characters and join links, an in-process client per
link, and a real uvicorn server in a thread (for the event stream)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import pytest

from tests.waiting import DEADLINE, wait_until


def add_character(
    url: str, name: str, *, attributes=None, abilities=None, willpower=3, chronicle="default", player=None
) -> int:
    """Store a character through the store's use case; returns its id. ``player``: who plays it (None:
    'player of NAME'; '' for an NPC, which players' pages do not show)."""
    from stkit.sheet.sheet import Sheet, Track
    from stkit.store.characters import create_character
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import gateway_transaction

    sheet = Sheet(name=name, chronicle=chronicle, player=f"player of {name}" if player is None else player)
    sheet.attributes.update(attributes or {})
    sheet.abilities.update(abilities or {})
    sheet.powers["Willpower"] = Track(willpower, willpower)
    with gateway_transaction(open_store(url)) as s:
        return create_character(s, sheet).id


@dataclass
class TableSetup:
    url: str
    weston: int
    archibald: int
    links: dict  # role/character name -> token

    def token(self, who: str) -> str:
        return self.links[who]


def issue(url: str, *, rotate: bool = False, chronicle: str = "default") -> dict:
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import issue_links

    out = {}
    for link in run_unit(url, lambda gw: issue_links(gw, chronicle, rotate=rotate)):
        out["storyteller" if link.role == "storyteller" else link.character] = link.token
    return out


@pytest.fixture
def table(db_url) -> TableSetup:
    """Weston (Dexterity 3, Stamina 3, Stealth 3, Athletics 2, Brawl 2) and Archibald (Wits 2, Dexterity 2,
    Drive 3) in chronicle 'default', and a link for the Storyteller and each of them."""
    weston = add_character(
        db_url,
        "Weston",
        attributes={"Dexterity": 3, "Stamina": 3},
        abilities={"Stealth": 3, "Athletics": 2, "Brawl": 2},
    )
    archibald = add_character(db_url, "Archibald", attributes={"Wits": 2, "Dexterity": 2}, abilities={"Drive": 3})
    from stkit.store.db.gateway import run_unit

    # the table opens on an empty feed: the two characters' creation events are not what the tests watch
    run_unit(db_url, lambda gw: gw.execute("DELETE FROM table_events"))
    return TableSetup(db_url, weston, archibald, issue(db_url))


@pytest.fixture
def app(table):
    from stkit.web.app import create_app

    return create_app(table.url, "default", interval=0.02)


@pytest.fixture
def clients(app, table):
    """``clients(who)``: a TestClient holding ``who``'s cookie ('storyteller', 'Weston', 'Archibald', or None
    for no cookie). The app's lifespan runs once for all of them."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    made = []
    base = TestClient(app, base_url="http://127.0.0.1:8000")
    base.__enter__()

    def make(who: str | None):
        # a browser posting from the table's page names its origin
        client = TestClient(app, base_url="http://127.0.0.1:8000", headers={"origin": "http://127.0.0.1:8000"})
        if who is not None:
            client.cookies.set("stkit_table", table.token(who))
        made.append(client)
        return client

    yield make
    base.__exit__(None, None, None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:``port``."""
    with socket.socket() as probe:
        probe.settimeout(DEADLINE)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def start_serve(url: str, *args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    """`stkit serve ARGS` on the store ``url`` in a subprocess, with text pipes and no colour; ``env``: more
    environment variables, ``popen``: more arguments to :class:`subprocess.Popen`."""
    return subprocess.Popen(
        [sys.executable, "-m", "stkit", "serve", *args],
        env=os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1"} | (env or {}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


class ThreadServer:
    """A real uvicorn server for ``app`` in a thread on a free loopback port (``base`` is its URL)."""

    def __init__(self, app, **config) -> None:
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", **config)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), "the server to start")
        assert self.server.started, "the server did not start"
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def live(app):
    """A real uvicorn server in a thread on a free loopback port; yields its base URL."""
    server = ThreadServer(app)
    yield server.base
    server.stop()


class Events(list):
    """The (id, event, data) triples a stream sent; ``closed`` when the server ended the stream."""

    closed: bool = False


def read_events(
    base: str,
    token: str,
    *,
    until,
    last_event_id: int | str | bytes | None = None,
    after: int | None = None,
    seconds: float = DEADLINE,
    opened: threading.Event | None = None,
) -> Events:
    """The (id, event, data) triples a stream sends until ``until(triples)`` is true, the server ends
    the stream (``closed``) or ``seconds`` pass (a deadline for a test that is failing, not a window to
    read in). ``opened`` is set once the stream's first line came: its starting point is fixed then, so
    an event committed afterwards reaches it."""
    import httpx

    header = last_event_id if isinstance(last_event_id, bytes) else str(last_event_id).encode()
    headers = {"Last-Event-ID": header} if last_event_id is not None else {}
    url = base + "/events" + (f"?after={after}" if after is not None else "")
    got = Events()
    current: dict = {}
    deadline = time.monotonic() + seconds
    try:
        with httpx.stream("GET", url, cookies={"stkit_table": token}, headers=headers, timeout=seconds) as r:
            assert r.status_code == 200, r.status_code
            for line in r.iter_lines():
                if opened is not None:
                    opened.set()
                if line.startswith("id:"):
                    current["id"] = int(line[3:].strip())
                elif line.startswith("event:"):
                    current["event"] = line[6:].strip()
                elif line.startswith("data:"):
                    current["data"] = current.get("data", "") + line[5:].strip()
                elif line == "" and "id" in current:
                    got.append((current["id"], current["event"], current.get("data", "")))
                    current = {}
                    if until(got):
                        return got
                if time.monotonic() > deadline:
                    return got
            got.closed = True
    except httpx.ReadTimeout:
        pass
    return got


def through(event_id: int):
    """``until`` for :func:`read_events`: true once an event at or past ``event_id`` came (a stream sends
    in id order, so everything before it that the stream carries has come too)."""
    return lambda got: any(g[0] >= event_id for g in got)


def mark(url: str) -> int:
    """Log a plain roll every link sees and return its event id: a stream read :func:`through` it has
    carried every earlier event it ever will, so "nothing else came" is checked without a time window."""
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import last_event_id
    from tests.rolls import bare_roll

    run_unit(url, lambda gw: bare_roll(gw, 1, seed=0))
    return run_unit(url, lambda gw: last_event_id(gw, "default"), readonly=True)


def follow(base: str, token: str, **kwargs) -> tuple[threading.Thread, Events]:
    """:func:`read_events` in a thread, returned once the stream is open (its starting point fixed);
    join the thread, then read the events."""
    opened = threading.Event()
    got = Events()

    def run() -> None:
        events = read_events(base, token, opened=opened, **kwargs)
        got.extend(events)
        got.closed = events.closed

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    wait_until(lambda: opened.is_set() or not thread.is_alive(), "the event stream to open")
    return thread, got
