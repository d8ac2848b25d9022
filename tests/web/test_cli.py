"""`stkit table links` and `stkit serve` on the command line."""

from __future__ import annotations

import json
import subprocess

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.waiting import DEADLINE, wait_until
from tests.web.conftest import listening, start_serve

runner = CliRunner()


def _holder(url: str, token: str):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import find_link_holder

    return run_unit(url, lambda gw: find_link_holder(gw, token), readonly=True)


def _serve(table, *args: str) -> subprocess.Popen:
    """`stkit serve ARGS` on the table's store, in a subprocess (text pipes)."""
    return start_serve(table.url, *args)


def test_table_links_json_and_rotate(table):
    result = runner.invoke(app, ["table", "links", "--json", "--db", table.url, "--port", "8123"])
    assert result.exit_code == 0, result.output
    links = json.loads(result.stdout)
    assert set(links) == {"storyteller", "players", "expires_at", "reused"} and links["expires_at"] is None
    assert links["reused"] == 0
    assert sorted(links["players"]) == ["Archibald", "Weston"]
    url = links["players"]["Weston"]
    assert url.startswith("http://127.0.0.1:8123/join/")
    token = url.rsplit("/", 1)[1]
    holder = _holder(table.url, token)
    assert holder.role == "player" and holder.character == "Weston" and holder.character_id == table.weston
    assert _holder(table.url, links["storyteller"].rsplit("/", 1)[1]).is_storyteller
    # the links the fixture issued earlier still work until --rotate
    assert _holder(table.url, table.token("Weston")) is not None
    result = runner.invoke(app, ["table", "links", "--rotate", "--db", table.url])
    assert result.exit_code == 0
    assert "Earlier links no longer work." in result.stdout
    assert "Player: Weston: http://127.0.0.1:8000/join/" in result.stdout
    assert _holder(table.url, token) is None and _holder(table.url, table.token("Weston")) is None


def test_table_links_prints_qr_codes(table):
    result = runner.invoke(app, ["table", "links", "--qr", "--db", table.url], env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    assert "Storyteller: http://" in result.stdout
    assert result.stdout.count("\u2588") > 100  # block characters of the codes


def test_bad_port_is_one_line(table):
    result = runner.invoke(app, ["table", "links", "--port", "70000", "--db", table.url])
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: --port 70000 is outside the allowed range 1 to 65535"
    result = runner.invoke(app, ["serve", "--port", "0", "--db", table.url])
    assert result.exit_code == 1


def test_a_port_in_use_is_one_line_and_no_link_is_issued(table):
    import socket

    from stkit.store.db.gateway import run_unit

    before = run_unit(table.url, lambda gw: gw.row("SELECT COUNT(*) FROM table_links")[0])
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--db", table.url])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == (
        f"Error: cannot listen on 127.0.0.1:{port}: Address already in use (is another server using the port?)"
    )
    assert run_unit(table.url, lambda gw: gw.row("SELECT COUNT(*) FROM table_links")[0]) == before


@pytest.mark.parametrize("host", ["\u202eevil", "a b", "-x", "http://x", ""])
def test_a_bad_host_is_one_line(table, host):
    for command in (["serve"], ["table", "links"]):
        result = runner.invoke(app, [*command, "--host", host, "--db", table.url])
        assert result.exit_code == 1, result.output
        assert "is not an IP address or a host name" in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_local_network_address_is_put_in_links():
    from stkit.cli.serve import link_host

    assert link_host("127.0.0.1") == "127.0.0.1"
    assert link_host("::1") == "[::1]"
    shared = link_host("0.0.0.0")
    assert shared != "0.0.0.0" and shared.count(".") == 3


def _stopped(proc: subprocess.Popen) -> str:
    """What ``proc`` wrote on stderr once it ended; it is killed (and the test fails) if it has not ended
    within the deadline, so that no server outlives its test."""
    try:
        return proc.communicate(timeout=DEADLINE)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        err = proc.communicate()[1]
        raise AssertionError(f"the server did not stop within {DEADLINE:g} s of Ctrl-C: {err[-1000:]}") from None


def _answers(url: str, **kwargs) -> bool:
    """Whether the server at ``url`` answers yet (False while it is still starting)."""
    import httpx

    try:
        httpx.get(url, timeout=DEADLINE, **kwargs)
        return True
    except httpx.ConnectError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("when", ["at_once", "serving"])
def test_serve_on_the_network_says_so_and_prints_links(table, when):
    """Ctrl-C is exit 130 whether it lands while uvicorn starts or once it serves (uvicorn catches the
    signal then, and its own `run` turned it into exit 0)."""
    from tests.web.conftest import free_port

    port = free_port()
    proc = _serve(table, "--host", "0.0.0.0", "--port", str(port), "--json")
    try:
        links = json.loads(proc.stdout.readline())
        assert sorted(links["players"]) == ["Archibald", "Weston"]
        assert f":{port}/join/" in links["storyteller"]
        if when == "serving":
            wait_until(lambda: _answers(f"http://127.0.0.1:{port}/static/table.css"), "the server to answer")
    finally:
        proc.send_signal(2)
        err = _stopped(proc)
    assert err.splitlines()[0] == (f"Sharing on the local network (0.0.0.0:{port}): anyone on it with a link can join.")
    assert "Traceback" not in err
    assert proc.returncode == 130  # interrupted (Ctrl-C), as every stkit command


def test_table_links_with_a_public_url(table):
    result = runner.invoke(
        app, ["table", "links", "--json", "--db", table.url, "--public-url", "https://t.example.org/"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"]["Weston"].startswith("https://t.example.org/join/")
    for bad in ("ftp://t.example.org", "https://t.example.org/path", "https://user@t.example.org"):
        result = runner.invoke(app, ["table", "links", "--db", table.url, "--public-url", bad])
        assert result.exit_code == 1 and result.stderr.startswith(f"Error: --public-url {bad!r} is not http(s)://")
    result = runner.invoke(app, ["table", "links", "--db", table.url, "--public-url", "https://x:99999"])
    assert result.exit_code == 1 and result.stderr.startswith("Error: --port") and "65535" in result.stderr


def test_serve_refuses_a_bad_certificate_pair_before_anything_is_printed(table, tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("not a key\n")
    cases = [
        (["--certfile", str(key)], "Error: --certfile and --keyfile go together"),
        (["--certfile", str(tmp_path / "nope.pem"), "--keyfile", str(key)], "Error: --certfile: "),
        (["--certfile", str(key), "--keyfile", str(key)], "Error: --certfile/--keyfile: cannot load the certificate"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["serve", "--db", table.url, "--no-qr", *args])
        assert result.exit_code == 1 and result.stderr.startswith(message), result.stderr
        assert result.stdout == ""


@pytest.mark.slow
def test_serve_over_https(table, tmp_path):
    import shutil

    import httpx

    from tests.web.conftest import free_port

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    port = free_port()
    proc = _serve(table, "--port", str(port), "--json", "--no-qr", "--certfile", str(cert), "--keyfile", str(key))
    try:
        links = json.loads(proc.stdout.readline())
        assert links["storyteller"].startswith(f"https://127.0.0.1:{port}/join/")
        # the certificate is self-signed: the test checks the server speaks TLS, not who signed it
        wait_until(lambda: _answers(f"https://127.0.0.1:{port}/static/table.css", verify=False), "the server")
        r = httpx.get(links["storyteller"], verify=False, follow_redirects=False, timeout=DEADLINE)
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
    finally:
        proc.send_signal(2)
        _stopped(proc)


@pytest.mark.slow
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_is_quiet_with_pages_following(table, presses):
    """Ctrl-C (once, or twice in a row) with three event streams open: no error line, no traceback."""
    import threading

    import httpx

    from tests.web.conftest import free_port

    port = free_port()
    proc = _serve(table, "--port", str(port), "--json", "--no-qr")
    links = json.loads(proc.stdout.readline())
    token = links["storyteller"].rsplit("/", 1)[1]
    opened = threading.Semaphore(0)

    def follow() -> None:
        try:
            with httpx.stream(
                "GET", f"http://127.0.0.1:{port}/events", cookies={"stkit_table": token}, timeout=DEADLINE
            ) as r:
                for n, _ in enumerate(r.iter_lines()):
                    if n == 0:
                        opened.release()
        except httpx.HTTPError:
            pass

    wait_until(lambda: _answers(f"http://127.0.0.1:{port}/static/table.css"), "the server to answer")
    threads = [threading.Thread(target=follow, daemon=True) for _ in range(3)]
    for t in threads:
        t.start()
    for _ in threads:
        assert opened.acquire(timeout=DEADLINE), "an event stream did not open"
    proc.send_signal(2)
    if presses == 2:  # the second press once the first has landed (the server stops listening), not merged
        wait_until(lambda: not listening(port), "the server to stop listening")
        proc.send_signal(2)
    err = _stopped(proc)
    assert "Traceback" not in err and "ERROR" not in err, err
    assert proc.returncode == 130


@pytest.mark.slow
def test_ctrl_c_held_down_is_still_exit_130(table):
    """Ctrl-C pressed again and again until the server has exited, so that presses land at every step of
    its stop, the interpreter's own end included: always exit 130, never killed by the signal."""
    import time

    from tests.web.conftest import free_port

    port = free_port()
    proc = _serve(table, "--port", str(port), "--json", "--no-qr")
    json.loads(proc.stdout.readline())
    wait_until(lambda: _answers(f"http://127.0.0.1:{port}/static/table.css"), "the server to answer")
    presses, end = 0, time.monotonic() + DEADLINE
    while proc.poll() is None and time.monotonic() < end:
        proc.send_signal(2)
        presses += 1
        time.sleep(0.002)  # the pace of the presses, not a wait for anything
    err = _stopped(proc)
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, presses)


def test_links_that_expire_stop_working_and_say_when(table):
    from datetime import UTC, datetime, timedelta

    from stkit.store.db.gateway import run_unit

    before = datetime.now(UTC).replace(microsecond=0)  # bounds around the command, however long it takes
    result = runner.invoke(app, ["table", "links", "--json", "--expires", "12h", "--db", table.url])
    after = datetime.now(UTC)
    assert result.exit_code == 0, result.output
    links = json.loads(result.stdout)
    expires = datetime.fromisoformat(links["expires_at"])
    assert before + timedelta(hours=12) <= expires <= after + timedelta(hours=12)
    token = links["players"]["Weston"].rsplit("/", 1)[1]
    holder = _holder(table.url, token)
    assert holder is not None and abs((holder.expires_at - expires).total_seconds()) < 1
    # twelve hours later (moved back in the store): the link no longer works
    past = run_unit(table.url, lambda gw: gw.timestamp(datetime.now(UTC) - timedelta(seconds=1)))
    run_unit(
        table.url, lambda gw: gw.execute("UPDATE table_links SET expires_at = :t WHERE expires_at IS NOT NULL", t=past)
    )
    assert _holder(table.url, token) is None
    assert _holder(table.url, table.token("Weston")) is not None  # links issued without --expires last
    text = runner.invoke(app, ["table", "links", "--expires", "30m", "--db", table.url]).stdout
    assert "These links stop working at " in text and " UTC." in text


@pytest.mark.parametrize("bad", ["12", "1.5h", "0m", "400d", "12 hours", "\u0661\u0662h", "9" * 5000 + "h", "-3h"])
def test_a_bad_lifetime_is_one_line_and_issues_nothing(table, bad):
    from stkit.store.db.gateway import run_unit

    before = run_unit(table.url, lambda gw: gw.row("SELECT COUNT(*) FROM table_links")[0])
    result = runner.invoke(app, ["table", "links", "--expires", bad, "--db", table.url])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith("Error: --expires") and "\n" not in line and len(line) < 200
    assert run_unit(table.url, lambda gw: gw.row("SELECT COUNT(*) FROM table_links")[0]) == before


def test_revoke_one_player_leaves_the_others(table):
    result = runner.invoke(app, ["table", "links", "--revoke", "weston", "--json", "--db", table.url])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"revoked": 1, "who": "weston"}
    assert _holder(table.url, table.token("Weston")) is None
    assert _holder(table.url, table.token("Archibald")) is not None
    assert _holder(table.url, table.token("storyteller")) is not None
    again = runner.invoke(app, ["table", "links", "--revoke", "Weston", "--db", table.url])
    assert again.exit_code == 1 and "Weston has no link in force" in again.stderr
    nobody = runner.invoke(app, ["table", "links", "--revoke", "Nobody", "--db", table.url])
    assert nobody.exit_code == 1 and nobody.stderr.startswith("Error: ")
    both = runner.invoke(app, ["table", "links", "--revoke", "Weston", "--rotate", "--db", table.url])
    assert both.exit_code == 2
    st = runner.invoke(app, ["table", "links", "--revoke", "storyteller", "--db", table.url])
    assert st.exit_code == 0 and "Revoked 1 link of storyteller" in st.stdout
    assert _holder(table.url, table.token("storyteller")) is None


def test_serve_hands_out_the_links_in_force_again(table):
    import stat

    from tests.web.conftest import add_character
    from tests.web.test_browser import Server

    add_character(table.url, "Fomor", player="")  # an NPC: no link
    first = Server(table.url)
    first.stop()
    assert sorted(first.links["players"]) == ["Archibald", "Weston"] and first.links["reused"] == 0
    from stkit.config import companion_path

    kept = companion_path("table_links.json", table.url)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert table.url not in kept.read_text()  # the store's address is kept only as a hash
    again = Server(table.url, first.port)  # the same address: the same links
    again.stop()
    assert again.links["storyteller"] == first.links["storyteller"] and again.links["reused"] == 3
    assert again.links["players"] == first.links["players"]
    # a revoked link is replaced, the others stay; a new player gets one
    runner.invoke(app, ["table", "links", "--revoke", "Weston", "--db", table.url])
    add_character(table.url, "Mari")
    third = Server(table.url, first.port)
    third.stop()
    assert third.links["players"]["Archibald"] == first.links["players"]["Archibald"]
    assert third.links["players"]["Weston"] != first.links["players"]["Weston"] and "Mari" in third.links["players"]
    weston = third.links["players"]["Weston"].rsplit("/", 1)[1]
    assert _holder(table.url, weston).character == "Weston"
    # --new-links: all new (the earlier ones keep working until revoked)
    fresh = _issue_only(table, new_links=True)
    assert fresh["storyteller"] != first.links["storyteller"] and fresh["reused"] == 0
    assert _holder(table.url, first.links["storyteller"].rsplit("/", 1)[1]).is_storyteller
    # a damaged file: new links, no error
    kept.write_text("{not json")
    assert _issue_only(table, new_links=False)["reused"] == 0


def _issue_only(table, *, new_links: bool) -> dict:
    from stkit.cli.serve import issue
    from stkit.store.db.handle import StoreHandle

    return issue(StoreHandle(table.url), "default", "http://x:1", rotate=False, reuse=not new_links)


def test_table_links_prints_no_npc_and_no_dead(table):
    from stkit.store.characters import find_character
    from stkit.store.db.gateway import run_unit
    from stkit.store.fight.rules import mark_dead
    from tests.web.conftest import add_character

    add_character(table.url, "Fomor", player="")
    run_unit(table.url, lambda gw: mark_dead(gw, find_character(gw, "Archibald", "default"), None))
    text = runner.invoke(app, ["table", "links", "--db", table.url], env={"NO_COLOR": "1"}).stdout
    assert "Player: Weston:" in text and "Fomor" not in text and "Archibald" not in text
    links = json.loads(runner.invoke(app, ["table", "links", "--json", "--db", table.url]).stdout)
    assert sorted(links["players"]) == ["Weston"]
