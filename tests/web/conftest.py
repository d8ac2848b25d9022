"""Fixtures for the table server: a store with two characters and join links, an in-process client per
link, and a real uvicorn server in a thread (for the event stream)."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

import pytest


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
    from stkit.store.events import issue_links

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
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
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


def read_events(
    base: str,
    token: str,
    *,
    last_event_id: int | str | bytes | None = None,
    after: int | None = None,
    seconds: float = 1.0,
    until=None,
):
    """The (id, event, data) triples a stream sends within ``seconds`` (or until ``until(triples)`` is true)."""
    import httpx

    header = last_event_id if isinstance(last_event_id, bytes) else str(last_event_id).encode()
    headers = {"Last-Event-ID": header} if last_event_id is not None else {}
    url = base + "/events" + (f"?after={after}" if after is not None else "")
    got: list[tuple[int, str, str]] = []
    current: dict = {}
    deadline = time.monotonic() + seconds
    try:
        with httpx.stream("GET", url, cookies={"stkit_table": token}, headers=headers, timeout=seconds) as r:
            assert r.status_code == 200, r.status_code
            for line in r.iter_lines():
                if line.startswith("id:"):
                    current["id"] = int(line[3:].strip())
                elif line.startswith("event:"):
                    current["event"] = line[6:].strip()
                elif line.startswith("data:"):
                    current["data"] = current.get("data", "") + line[5:].strip()
                elif line == "" and "id" in current:
                    got.append((current["id"], current["event"], current.get("data", "")))
                    current = {}
                    if until is not None and until(got):
                        break
                if time.monotonic() > deadline:
                    break
    except httpx.ReadTimeout:
        pass
    return got
