"""Standard web hardening of the table server: response headers, allowed hosts (a forged Host with a
matching Origin fails), Origin or Referer required on changes, the POST rate per client, and a log that
says each cause once a minute without tracebacks."""

from __future__ import annotations

import logging

import pytest

from tests.web.test_routes import HX, _count

ORIGIN = "http://127.0.0.1:8000"


def _no_origin_client(app, table, who: str, **headers):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    client = TestClient(app, base_url="http://127.0.0.1:8000", headers=headers)
    client.cookies.set("stkit_table", table.token(who))
    return client


def test_every_page_carries_the_security_headers(clients, table):
    c = clients("Weston")
    for path in ("/", "/status", f"/sheet/{table.weston}", "/odds?dice=3", "/static/table.css"):
        r = c.get(path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert (r.headers.get("cache-control") == "no-store") == (not path.startswith("/static/")), path
    join = clients(None).get(f"/join/{table.token('Weston')}", follow_redirects=False)
    assert join.status_code == 303 and join.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in join.headers["content-security-policy"]
    forbidden = clients(None).get("/")
    assert forbidden.status_code == 403 and forbidden.headers["cache-control"] == "no-store"


def test_a_forged_host_with_a_matching_origin_is_refused(app, table):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    evil = TestClient(app, base_url="http://rebind.example:8000", headers={"origin": "http://rebind.example:8000"})
    evil.cookies.set("stkit_table", table.token("storyteller"))
    r = evil.post("/scene/start", data={"name": "Ambush"}, headers=HX)
    assert r.status_code == 400 and r.text.count("\n") == 1
    assert evil.get("/").status_code == 400
    assert _count(table.url, "scenes") == 0


def test_a_change_needs_its_origin_or_referer(app, table):
    st = _no_origin_client(app, table, "storyteller")
    r = st.post("/scene/start", data={"name": "Ambush"}, headers=HX)
    assert r.status_code == 403 and "named no Origin" in r.text
    r = st.post("/scene/start", data={"name": "Ambush"}, headers=HX | {"referer": "http://evil.example/page"})
    assert r.status_code == 403 and "another site" in r.text
    r = st.post("/scene/start", data={"name": "Ambush"}, headers=HX | {"origin": "null"})
    assert r.status_code == 403
    assert _count(table.url, "scenes") == 0
    r = st.post("/scene/start", data={"name": "Ambush"}, headers=HX | {"referer": ORIGIN + "/"})
    assert r.status_code == 200 and "opened" in r.text
    # a browser's own form post under no-referrer: Origin null, and its Sec-Fetch-Site vouches for it
    r = st.post("/scene/turn", headers=HX | {"origin": "null", "sec-fetch-site": "same-origin"})
    assert r.status_code == 200 and "Turn" in r.text
    r = st.post("/scene/turn", headers=HX | {"origin": "null", "sec-fetch-site": "cross-site"})
    assert r.status_code == 403


def test_the_post_rate_of_one_client_is_bounded_and_others_go_on(clients, table, monkeypatch):
    from types import SimpleNamespace

    from stkit.web import security
    from stkit.web.security import POST_BURST, POST_PER_SECOND

    # the rate's clock stands still unless the test moves it: however slow the machine, no token comes back
    clock = [1000.0]
    monkeypatch.setattr(security, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    weston = clients("Weston")

    def roll() -> int:
        form = {"character_id": str(table.weston), "trait": ["Dexterity"]}
        return weston.post("/roll", data=form, headers=HX).status_code

    codes = [roll() for _ in range(POST_BURST + 10)]
    assert codes == [200] * POST_BURST + [429] * 10
    refused = weston.post("/roll", data={"character_id": str(table.weston), "trait": ["Dexterity"]})
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1" and refused.text.count("\n") == 1
    other = clients("Archibald").post(
        "/roll", data={"character_id": str(table.archibald), "trait": ["Wits"]}, headers=HX
    )
    assert other.status_code == 200
    clock[0] += 1.0  # a second later: that second's changes are allowed again, and no more
    again = [roll() for _ in range(int(POST_PER_SECOND) + 1)]
    assert again == [200] * int(POST_PER_SECOND) + [429]
    assert _count(table.url, "roll_log") == POST_BURST + 1 + int(POST_PER_SECOND)


def test_a_body_with_no_length_or_too_long_is_refused(clients, table):
    c = clients("storyteller")
    r = c.post("/scene/start", content=b"name=x", headers={"transfer-encoding": "chunked", "content-length": ""})
    assert r.status_code in (411, 413)
    r = c.post("/scene/start", data={"name": "x" * 20_000})
    assert r.status_code == 413


def test_the_log_says_each_cause_once_a_minute_without_tracebacks():
    import io

    from stkit.web.server import OncePerMinute

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OncePerMinute())
    log = logging.getLogger("stkit.test.once")
    log.addHandler(handler)
    log.propagate = False
    try:
        for i in range(1000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.exception("accept failed on socket %d", i)
            log.warning("Invalid HTTP request received.")
    finally:
        log.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert lines == [
        "accept failed on socket 0 (OSError: [Errno 24] Too many open files)",
        "Invalid HTTP request received.",
    ]


def test_held_back_lines_are_counted_when_the_minute_is_over(monkeypatch):
    import io
    from types import SimpleNamespace

    from stkit.web.server import OncePerMinute

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OncePerMinute(seconds=0.2))
    log = logging.getLogger("stkit.test.once2")
    log.addHandler(handler)
    log.propagate = False
    from stkit.web import server

    clock = [1000.0]  # the filter's clock, moved by hand: the minute passes exactly when the test says
    monkeypatch.setattr(server, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    try:
        for _ in range(5):
            log.warning("slow client closed")
        clock[0] += 0.25
        log.warning("slow client closed")
    finally:
        log.removeHandler(handler)
    assert out.getvalue().splitlines() == [
        "slow client closed",
        "slow client closed [4 more like this in the last minute]",
    ]


@pytest.mark.parametrize(
    "listen, printed, expected",
    [
        ("127.0.0.1", ["127.0.0.1"], ("127.0.0.1", "localhost", "::1")),
        ("0.0.0.0", ["192.168.1.20"], ("192.168.1.20", "127.0.0.1", "localhost", "::1")),
        ("192.168.1.20", ["192.168.1.20"], ("192.168.1.20",)),
        ("::1", ["[::1]"], ("::1", "127.0.0.1", "localhost")),
    ],
)
def test_the_allowed_hosts_are_the_ones_the_server_prints(listen, printed, expected):
    from stkit.web.security import allowed_hosts

    assert set(allowed_hosts(listen, printed)) == set(expected)


def test_serve_behind_a_reverse_proxy_answers_to_its_public_name(tmp_path, monkeypatch):
    """`stkit serve --public-url https://table.example.org`: the printed links carry the public address and
    the server answers to that host name (a proxy such as Caddy forwards the original Host), on top of the
    loopback names it listens on; nothing is served here (uvicorn's Server.run is replaced)."""
    import json
    import socket

    import uvicorn
    from typer.testing import CliRunner

    from stkit.cli.app import app
    from stkit.web.server import ENV_LINK_HOST, ENV_LISTEN, ENV_PUBLIC_HOST, serving_hosts

    for name in (ENV_LISTEN, ENV_LINK_HOST, ENV_PUBLIC_HOST, "STKIT_DATABASE_URL", "STKIT_CHRONICLE"):
        monkeypatch.setenv(name, "")  # restored after the test: serve sets them for its app
    ran = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: ran.append(self.config))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = str(tmp_path / "t.sqlite")
    out = CliRunner().invoke(
        app, ["serve", "--public-url", "https://table.example.org", "--port", str(port), "--db", db, "--json"]
    )
    assert out.exit_code == 0, out.output
    assert ran and ran[0].host == "127.0.0.1"
    links = json.loads(out.stdout)
    assert links["storyteller"].startswith("https://table.example.org/join/")
    assert set(serving_hosts()) == {"table.example.org", "127.0.0.1", "localhost", "::1"}
    bad = CliRunner().invoke(app, ["serve", "--public-url", "ftp://x", "--port", str(port), "--db", db])
    assert bad.exit_code == 1 and "--public-url" in bad.output
