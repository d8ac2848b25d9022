"""One server, many chronicles: each request is answered by the chronicle of its link, a stream carries
only its own chronicle's events, and the limits on streams and posts hold per chronicle."""

from __future__ import annotations

import threading
import warnings

import pytest

from tests.waiting import DEADLINE, wait_until
from tests.web.conftest import ThreadServer, add_character, follow, issue, read_events, start_serve


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
        joined = base.get(f"/join/{south['storyteller']}", follow_redirects=False)
        assert joined.status_code == 303
        assert "Bo" in base.get(joined.headers["location"]).text  # the join cookie, under the chronicle's path
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


def test_one_browser_holds_the_storyteller_links_of_two_chronicles_at_once(db_url, two):
    """One cookie jar joins north's and then south's Storyteller link: both stay signed in, each under its
    own address with its own cookie (HttpOnly, SameSite=Strict, its own path), and each reaches only its
    own chronicle."""
    from stkit.web.table import chronicle_base

    app = create_app_all(db_url)
    (ana, north), (bo, south) = two["north"], two["south"]
    at_n, at_s = chronicle_base("north"), chronicle_base("south")
    with _client(app, None) as browser:
        cookies = []
        for token, at in ((north["storyteller"], at_n), (south["storyteller"], at_s)):
            joined = browser.get(f"/join/{token}", follow_redirects=False)
            assert joined.status_code == 303 and joined.headers["location"] == at
            cookies.append(joined.headers["set-cookie"])
        for cookie, at in zip(cookies, (at_n, at_s), strict=True):
            assert f"Path={at}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
            assert "Secure" not in cookie  # plain HTTP; over HTTPS it is Secure (below)
        assert len({c.split("=", 1)[0] for c in cookies}) == 2  # a cookie name per chronicle
        page_n, page_s = browser.get(at_n), browser.get(at_s)
        assert page_n.status_code == page_s.status_code == 200
        assert "Ana" in page_n.text and "Bo" not in page_n.text and f'data-base="{at_n}"' in page_n.text
        assert "Bo" in page_s.text and "Ana" not in page_s.text
        assert f'hx-post="{at_s}say"' in page_s.text  # the page's own changes go under its address
        assert browser.get(f"{at_n}sheet/{ana}").status_code == 200
        assert browser.get(f"{at_n}sheet/{bo}").status_code != 200  # south's sheet, under north's address
        assert browser.post(f"{at_s}say", data={"text": "To the south"}).status_code in (200, 303)
        assert browser.post(f"{at_n}say", data={"text": "To the north"}).status_code in (200, 303)
        assert browser.post(f"{at_n}say", data={"text": "x"}, follow_redirects=False).headers.get("location") in (
            None,
            at_n,
        )
        assert browser.get("/").status_code == 403  # the bare address holds neither link
    with _client(app, None) as other:  # north's link handed in under south's address
        other.cookies.set("stkit_table", north["storyteller"])
        assert other.get(at_s).status_code == 403
        assert "Ana" in other.get(at_n).text
    from stkit.store.db.gateway import run_unit

    said = run_unit(db_url, lambda gw: gw.rows("SELECT chronicle, data FROM table_events WHERE kind = 'message'"))
    assert sorted((c, "south" in d.lower()) for c, d in said if "To the" in d) == [("north", False), ("south", True)]


def test_the_chronicles_cookie_is_secure_over_https(db_url, two):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    app = create_app_all(db_url, hosts=None)
    with TestClient(app, base_url="https://table.example") as browser:
        joined = browser.get(f"/join/{two['north'][1]['storyteller']}", follow_redirects=False)
    assert "Secure" in joined.headers["set-cookie"] and "HttpOnly" in joined.headers["set-cookie"]


def create_app_all(url: str, **kw):
    from stkit.web.app import create_app

    return create_app(url, chronicles=None, interval=0.02, **kw)


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
                    read_events(server.base, two[c][1]["storyteller"], last_event_id=0, until=lambda g: len(g) >= 2),
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
            r.join(DEADLINE)
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
        # once the stream is open its starting point is fixed: the message said after it reaches it
        reader, got = follow(server.base, east["storyteller"], until=bool)
        _say(db_url, "east", "hello")
        reader.join(DEADLINE)
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

    import httpx

    def join(client):
        try:
            return client.get(f"/join/{token}")
        except httpx.ConnectError:
            return None

    with httpx.Client(base_url=base, timeout=DEADLINE) as client:
        joined = wait_until(lambda: join(client), "the server to start listening")
        assert joined.status_code == 303  # the cookie set, for the chronicle's own address
        return client.get(joined.headers["location"]).text


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
        _, err = proc.communicate(timeout=DEADLINE)
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
        _, err = proc.communicate(timeout=DEADLINE)
    assert "Traceback" not in err


def test_serve_all_and_a_chronicle_do_not_go_together(db_url):
    from typer.testing import CliRunner

    from stkit.cli.app import app

    result = CliRunner().invoke(app, ["serve", "--all", "--chronicle", "x", "--db", db_url])
    assert result.exit_code == 2
    assert "give either --all or --chronicle" in result.output
