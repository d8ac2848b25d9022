"""One server, many chronicles: each request is answered by the chronicle of its link, a stream carries
only its own chronicle's events, and the limits on streams and posts hold per chronicle."""

from __future__ import annotations

import threading
import warnings

import pytest

from tests.web.conftest import ThreadServer, add_character, issue, read_events, start_serve


@pytest.fixture
def two(db_url):
    """Chronicle 'north' (Ana) and 'south' (Bo), each with its links: {chronicle: (character id, links)}."""
    from stkit.store.db.gateway import run_unit

    ana = add_character(db_url, "Ana", attributes={"Dexterity": 3}, chronicle="north")
    bo = add_character(db_url, "Bo", attributes={"Dexterity": 2}, chronicle="south")
    run_unit(db_url, lambda gw: gw.execute("DELETE FROM table_events"))
    return {"north": (ana, issue(db_url, chronicle="north")), "south": (bo, issue(db_url, chronicle="south"))}


def _client(app, token: str | None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    client = TestClient(app, base_url="http://127.0.0.1:8000", headers={"origin": "http://127.0.0.1:8000"})
    if token is not None:
        client.cookies.set("stkit_table", token)
    return client


def _say(url: str, chronicle: str, text: str) -> None:
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.talk import say

    run_unit(url, lambda gw: say(gw, chronicle, text))


def _ids(url: str, chronicle: str) -> list[int]:
    from stkit.store.db.gateway import run_unit

    rows = run_unit(
        url, lambda gw: gw.rows("SELECT id FROM table_events WHERE chronicle = :c ORDER BY id", c=chronicle)
    )
    return [r[0] for r in rows]


def test_every_chronicle_from_one_server_each_link_in_its_own(db_url, two):
    from stkit.web.app import create_app

    app = create_app(db_url, chronicles=None, interval=0.02)
    (ana, north), (bo, south) = two["north"], two["south"]
    with _client(app, None) as base:
        assert base.get("/").status_code == 403  # no link, no chronicle
        assert base.get(f"/join/{south['storyteller']}", follow_redirects=False).status_code == 303
        assert "Bo" in base.get("/").text  # the join cookie
        st_north, st_south = _client(app, north["storyteller"]), _client(app, south["storyteller"])
        page_n, page_s = st_north.get("/").text, st_south.get("/").text
        assert "Ana" in page_n and "Bo" not in page_n
        assert "Bo" in page_s and "Ana" not in page_s
        assert st_north.get(f"/sheet/{ana}").status_code == 200
        assert st_north.get(f"/sheet/{bo}").status_code != 200  # another chronicle's sheet
        assert _client(app, north["Ana"]).get(f"/sheet/{bo}").status_code != 200
        assert st_south.post("/say", data={"text": "To the south"}).status_code in (200, 303)
        assert st_north.post("/say", data={"text": "To the north"}).status_code in (200, 303)
    from stkit.store.db.gateway import run_unit

    said = run_unit(db_url, lambda gw: gw.rows("SELECT chronicle, data FROM table_events WHERE kind = 'message'"))
    assert sorted((c, "north" in d.lower()) for c, d in said) == [("north", True), ("south", False)]


def test_a_server_of_some_chronicles_refuses_the_links_of_others(db_url, two):
    from stkit.web.app import create_app

    app = create_app(db_url, chronicles=("north",), interval=0.02)
    with _client(app, two["south"][1]["storyteller"]) as south, _client(app, two["north"][1]["storyteller"]) as north:
        assert south.get("/").status_code == 403
        assert north.get("/").status_code == 200


def test_a_stream_carries_only_its_own_chronicles_events(db_url, two):
    from stkit.web.app import create_app

    server = ThreadServer(create_app(db_url, chronicles=None, interval=0.02))
    try:
        got: dict[str, list] = {}
        readers = [
            threading.Thread(
                target=lambda c=c: got.__setitem__(
                    c,
                    read_events(
                        server.base, two[c][1]["storyteller"], last_event_id=0, seconds=30, until=lambda g: len(g) >= 2
                    ),
                )
            )
            for c in ("north", "south")
        ]
        # each stream replays from id 0 and then follows live: two events each, the other's in between
        _say(db_url, "south", "one")
        _say(db_url, "north", "one")
        for r in readers:
            r.start()
        _say(db_url, "south", "two")
        _say(db_url, "north", "two")
        for r in readers:
            r.join(40)
    finally:
        server.stop()
    for c in ("north", "south"):
        assert [g[0] for g in got[c]] == _ids(db_url, c)


def test_new_chronicles_reach_a_server_already_running(db_url, two):
    """A chronicle created after the server started is followed from its first page on, live."""
    from stkit.web.app import create_app

    server = ThreadServer(create_app(db_url, chronicles=None, interval=0.02))
    try:
        add_character(db_url, "Cy", chronicle="east")
        east = issue(db_url, chronicle="east")
        got: list = []
        reader = threading.Thread(
            target=lambda: got.extend(read_events(server.base, east["storyteller"], seconds=30, until=bool))
        )
        reader.start()
        for n in range(300):  # until the stream has one: it replays nothing older than its start
            _say(db_url, "east", f"hello {n}")
            reader.join(0.1)
            if not reader.is_alive():
                break
        reader.join(40)
    finally:
        server.stop()
    assert got and got[0][0] in _ids(db_url, "east")


def test_posts_are_limited_per_chronicle(db_url, two):
    from stkit.web.app import create_app

    app = create_app(db_url, chronicles=None, interval=0.02, posts_per_minute=5)  # a burst of 5
    with _client(app, two["north"][1]["storyteller"]) as north, _client(app, two["south"][1]["storyteller"]) as south:
        codes = [north.post("/say", data={"text": f"n{i}"}).status_code for i in range(6)]
        assert codes[:5] == [codes[0]] * 5 and codes[0] in (200, 303)
        assert codes[5] == 429
        assert south.post("/say", data={"text": "s"}).status_code in (200, 303)


def test_streams_are_limited_per_chronicle(monkeypatch):
    import asyncio

    from stkit.web import bus as B

    class Reader:
        url, dialect = "sqlite://", "sqlite"

        def of(self, chronicle):
            return None

    monkeypatch.setattr(B, "STREAMS_PER_CHRONICLE", 2)
    hub = B.EventHub(Reader())  # type: ignore[arg-type]

    async def fill():
        north, south = hub.bus("north"), hub.bus("south")
        for _ in range(2):
            assert north.refusal(100) is None
            north.subscribe()
        assert "chronicle 'north' (2)" in (north.refusal(100) or "")
        assert south.refusal(100) is None
        south.subscribe()
        assert "server (3)" in (south.refusal(3) or "")

    asyncio.run(fill())


def _page(base: str, token: str) -> str:
    """The page a link opens, once the server listens (the links are printed before it does)."""
    import time

    import httpx

    deadline = time.monotonic() + 60
    with httpx.Client(base_url=base, timeout=30) as client:
        while True:
            try:
                joined = client.get(f"/join/{token}")
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "the server did not start listening"
                time.sleep(0.05)
        assert joined.status_code == 303  # the cookie set
        return client.get("/").text


def test_serve_all_as_a_command_serves_each_link_its_own_chronicle(db_url, two):
    import json

    from tests.web.conftest import free_port

    port = free_port()
    proc = start_serve(db_url, "--all", "--port", str(port), "--json")
    try:
        said = json.loads(proc.stdout.readline())
        assert said == {"url": f"http://127.0.0.1:{port}", "chronicles": "all"}
        north, south = _page(said["url"], two["north"][1]["Ana"]), _page(said["url"], two["south"][1]["storyteller"])
        assert "Ana" in north and "Bo" not in north
        assert "Bo" in south and "Ana" not in south
    finally:
        proc.send_signal(2)
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err


def test_serve_several_chronicles_prints_the_links_of_each(db_url, two):
    import json

    from tests.web.conftest import free_port

    port = free_port()
    proc = start_serve(db_url, "--chronicle", "north", "--chronicle", "south", "--port", str(port), "--json", "--no-qr")
    try:
        said = json.loads(proc.stdout.readline())
        assert sorted(said["chronicles"]) == ["north", "south"]
        assert list(said["chronicles"]["south"]["players"]) == ["Bo"]
        page = _page(said["url"], said["chronicles"]["north"]["storyteller"].rsplit("/", 1)[1])
        assert "Ana" in page and "Bo" not in page
    finally:
        proc.send_signal(2)
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err


def test_serve_all_and_a_chronicle_do_not_go_together(db_url):
    from typer.testing import CliRunner

    from stkit.cli.app import app

    result = CliRunner().invoke(app, ["serve", "--all", "--chronicle", "x", "--db", db_url])
    assert result.exit_code == 2
    assert "give either --all or --chronicle" in result.output
