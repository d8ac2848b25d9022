"""Attacks on a real `stkit serve` on loopback: slow headers from more sockets than the server may hold
(the Storyteller's page keeps answering, the log stays small), a stream flood from one player's link,
and the deadline that closes a client too slow to send its request. Every loop here is bounded in count
and time, and only 127.0.0.1 is used."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.web.conftest import ThreadServer, free_port

#: The open-files limit the attacked server runs under (its connection limit is this less 192).
FILE_LIMIT = 256
#: Sockets of the slow-header attack: more than the file limit itself.
ATTACK_SOCKETS = 400
ATTACK_SECONDS = 8.0


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


class Serve:
    """`stkit serve` in a subprocess with a small file limit; ``links`` as --json printed them."""

    def __init__(self, url: str) -> None:
        self.port = free_port()
        env = os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stkit", "serve", "--port", str(self.port), "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_limit_files,
        )
        assert self.proc.stdout is not None
        self.links = json.loads(self.proc.stdout.readline())
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

    def token(self, who: str) -> str:
        url = self.links["storyteller"] if who == "storyteller" else self.links["players"][who]
        return url.rsplit("/", 1)[1]

    def stop(self) -> str:
        """Stop the server (Ctrl-C) and return what it wrote on stderr."""
        self.proc.send_signal(2)
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate(timeout=5)
        return err


def _slow_socket(port: int) -> socket.socket | None:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=0.5)
        s.setblocking(False)
        s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        return s
    except OSError:
        return None


def _slow_header_attack(port: int, stop: threading.Event, stats: dict) -> None:
    """ATTACK_SOCKETS sockets, each sending one more header line every second and never the blank line
    that ends the headers; a socket the server closes is opened again. Ends when ``stop`` is set."""
    socks: list[socket.socket | None] = [None] * ATTACK_SOCKETS
    line = 0
    while not stop.is_set():
        line += 1
        for i in range(ATTACK_SOCKETS):
            if stop.is_set():
                break
            s = socks[i]
            if s is not None:
                try:
                    s.send(f"X-Slow-{line}: {'a' * 20}\r\n".encode())
                    continue
                except OSError:
                    s.close()
                    stats["closed_by_server"] += 1
            socks[i] = _slow_socket(port)
            stats["opened"] += 1
        stats["held"] = max(stats["held"], sum(1 for s in socks if s is not None))
        stop.wait(1.0)
    for s in socks:
        if s is not None:
            s.close()


@pytest.mark.slow
def test_slow_headers_from_more_sockets_than_the_limit_leave_the_storyteller_answered(table):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < ATTACK_SOCKETS + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, ATTACK_SOCKETS + 200), hard))
    server = Serve(table.url)
    stop = threading.Event()
    stats = {"opened": 0, "closed_by_server": 0, "held": 0}
    attacker = threading.Thread(target=_slow_header_attack, args=(server.port, stop, stats), daemon=True)
    times: list[float] = []
    failures: list[str] = []
    try:
        attacker.start()
        time.sleep(2.0)  # the attack is in full swing: every slot the server has is taken
        cookies = {"stkit_table": server.token("storyteller")}
        end = time.monotonic() + ATTACK_SECONDS
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                r = httpx.get(server.base + "/", cookies=cookies, timeout=5)
                if r.status_code != 200:
                    failures.append(str(r.status_code))
            except httpx.HTTPError as exc:
                failures.append(type(exc).__name__)
            times.append(time.monotonic() - started)
            time.sleep(0.25)
    finally:
        stop.set()
        attacker.join(10)
        err = server.stop()
    print(
        f"\nslow-header attack: {ATTACK_SOCKETS} sockets at a time, {stats['opened']} opened, "
        f"{stats['closed_by_server']} closed by the server; the Storyteller's page answered {len(times)} times, "
        f"slowest {max(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s; log {len(err.encode())} bytes"
    )
    assert stats["opened"] > ATTACK_SOCKETS  # the server closed slow sockets and they came back
    assert failures == [] and len(times) >= 10
    assert max(times) < 2.0
    assert len(err.encode()) < 4096, err[-2000:]
    assert "Traceback" not in err and "Too many open files" not in err, err


@pytest.mark.slow
def test_a_stream_flood_from_one_link_holds_a_few_streams_and_the_table_goes_on(live, table):
    from tests.web.conftest import read_events
    from tests.web.test_authority import _newest, _roll

    after = _newest(table.url)
    flood: list[httpx.Response] = []
    client = httpx.Client(timeout=1.5, limits=httpx.Limits(max_connections=100))
    archibald: list = []
    reader = threading.Thread(
        target=lambda: archibald.extend(
            read_events(live, table.token("Archibald"), after=after, seconds=6, until=lambda g: bool(g))
        )
    )
    try:
        for _ in range(40):  # one player's link opens stream after stream
            request = client.build_request(
                "GET", live + f"/events?after={after}", cookies={"stkit_table": table.token("Weston")}
            )
            flood.append(client.send(request, stream=True))
        reader.start()
        time.sleep(1.0)
        ended = 0
        for r in flood:
            try:
                body = b"".join(r.iter_raw())  # an ended stream finishes; a live one would time out
                ended += 1 if b"stkit table" in body else 0
            except httpx.ReadTimeout:
                break
        started = time.monotonic()
        page = httpx.get(live + "/", cookies={"stkit_table": table.token("storyteller")}, timeout=5)
        answered = time.monotonic() - started
        _roll(table.url, 5, seed=11)
        reader.join(10)
    finally:
        for r in flood:
            r.close()
        client.close()
    from stkit.web.bus import STREAMS_PER_LINK

    assert ended == 40 - STREAMS_PER_LINK  # the oldest ended; the newest few are still open
    assert page.status_code == 200 and answered < 2.0
    assert [g[1] for g in archibald] == ["roll"]


@pytest.fixture
def guarded(app):
    from stkit.web.server import GuardedH11Protocol

    class Quick(GuardedH11Protocol):  # a one-second deadline, room for eight connections
        request_seconds = 1.0
        max_connections = 8

    server = ThreadServer(app, http=Quick)
    yield server
    server.stop()


def _closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    s.settimeout(seconds)
    got = b""
    try:
        while chunk := s.recv(4096):
            got += chunk
        return True, got
    except TimeoutError:
        return False, got
    except OSError:
        return True, got


@pytest.mark.slow
def test_a_request_that_never_ends_its_headers_gets_408_at_the_deadline(guarded):
    s = socket.create_connection(("127.0.0.1", guarded.port), timeout=2)
    s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
    started = time.monotonic()
    closed, got = _closed_within(s, 3.0)
    took = time.monotonic() - started
    s.close()
    assert closed and got.startswith(b"HTTP/1.1 408") and 0.8 < took < 2.0
    # an idle keep-alive connection after one answer is closed by the same deadline
    s = socket.create_connection(("127.0.0.1", guarded.port), timeout=2)
    s.send(b"GET /static/table.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    closed, got = _closed_within(s, 3.0)
    s.close()
    assert closed and got.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in got


@pytest.mark.slow
def test_at_the_connection_limit_a_new_client_takes_the_slowest_ones_place(guarded, table):
    slow = [socket.create_connection(("127.0.0.1", guarded.port), timeout=2) for _ in range(12)]
    for s in slow:
        s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(0.2)
    r = httpx.get(guarded.base + "/", cookies={"stkit_table": table.token("storyteller")}, timeout=0.8)
    assert r.status_code == 200
    refused = sum(_closed_within(s, 0.05)[0] for s in slow)
    for s in slow:
        s.close()
    assert refused >= 12 + 1 - 8  # the oldest slow clients made room
