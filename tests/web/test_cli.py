"""`stkit table links` and `stkit serve` on the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app

runner = CliRunner()


def _holder(url: str, token: str):
    from stkit.store.events import find_link_holder
    from stkit.store.gateway import run_unit

    return run_unit(url, lambda gw: find_link_holder(gw, token), readonly=True)


def test_table_links_json_and_rotate(table):
    result = runner.invoke(app, ["table", "links", "--json", "--db", table.url, "--port", "8123"])
    assert result.exit_code == 0, result.output
    links = json.loads(result.stdout)
    assert set(links) == {"storyteller", "players", "expires_at"} and links["expires_at"] is None
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

    from stkit.store.gateway import run_unit

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


@pytest.mark.slow
def test_serve_on_the_network_says_so_and_prints_links(table):
    from tests.web.conftest import free_port

    port = free_port()
    env = os.environ | {"STKIT_DATABASE_URL": table.url, "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "stkit", "serve", "--host", "0.0.0.0", "--port", str(port), "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        links = json.loads(proc.stdout.readline())
        assert sorted(links["players"]) == ["Archibald", "Weston"]
        assert f":{port}/join/" in links["storyteller"]
    finally:
        proc.send_signal(2)
        _, err = proc.communicate(timeout=15)
    assert err.splitlines()[0] == (f"Sharing on the local network (0.0.0.0:{port}): anyone on it with a link can join.")
    assert "Traceback" not in err
    assert proc.returncode == 130  # interrupted (Ctrl-C), as every stkit command


def test_links_that_expire_stop_working_and_say_when(table):
    from datetime import UTC, datetime, timedelta

    from stkit.store.gateway import run_unit

    result = runner.invoke(app, ["table", "links", "--json", "--expires", "12h", "--db", table.url])
    assert result.exit_code == 0, result.output
    links = json.loads(result.stdout)
    expires = datetime.fromisoformat(links["expires_at"])
    assert timedelta(hours=11, minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=12)
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
    from stkit.store.gateway import run_unit

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
