"""Attacks on a real `stkit serve` on loopback: slow headers from more sockets than the server may hold
(the Storyteller's page keeps answering, the log stays small), a stream flood from one player's link,
the deadline that closes a client too slow to send its request, and which connection makes room at the
limit. Every loop here is bounded in count and waits for conditions with a deadline (never for a fixed
time, so a busy machine only makes them slower); only 127.0.0.1 is used. How fast the Storyteller is
answered under attack is a speed figure: printed, not asserted."""

from __future__ import annotations

import json
import resource
import socket
import subprocess
import threading
import time

import httpx
import pytest

from tests.waiting import DEADLINE, wait_until
from tests.web.conftest import ThreadServer, free_port, listening, start_serve

#: The open-files limit the attacked server runs under (its connection limit is this less 320).
FILE_LIMIT = 512
#: Sockets of the slow-header attack: more than the file limit itself.
ATTACK_SOCKETS = 600
#: Rounds of the attack (one header line on every socket) the Storyteller's requests span.
ATTACK_ROUNDS = 5


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


class Serve:
    """`stkit serve` in a subprocess with a small file limit; ``links`` as --json printed them."""

    def __init__(self, url: str) -> None:
        self.port = free_port()
        self.proc = start_serve(url, "--port", str(self.port), "--json", preexec_fn=_limit_files)
        assert self.proc.stdout is not None
        self.links = json.loads(self.proc.stdout.readline())
        self.base = f"http://127.0.0.1:{self.port}"
        wait_until(self._listening, "the server to listen")

    def _listening(self) -> bool:
        assert self.proc.poll() is None, "the server stopped"
        return listening(self.port)

    def token(self, who: str) -> str:
        url = self.links["storyteller"] if who == "storyteller" else self.links["players"][who]
        return url.rsplit("/", 1)[1]

    def stop(self) -> str:
        """Stop the server (Ctrl-C) and return what it wrote on stderr."""
        self.proc.send_signal(2)
        try:
            _, err = self.proc.communicate(timeout=DEADLINE)
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
    that ends the headers; a socket the server closes is opened again. Ends when ``stop`` is set;
    ``stats["rounds"]`` counts the rounds done."""
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
        stats["rounds"] += 1
        stop.wait(1.0)  # the attack's pace: one header line a second on each socket
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
    stats = {"opened": 0, "closed_by_server": 0, "held": 0, "rounds": 0}
    attacker = threading.Thread(target=_slow_header_attack, args=(server.port, stop, stats), daemon=True)
    times: list[float] = []
    failures: list[str] = []
    try:
        attacker.start()
        # the attack is in full swing: every slot the server has is taken, and it is closing slow sockets
        wait_until(lambda: stats["rounds"] >= 2 and stats["closed_by_server"] > 0, "the server to be full")
        cookies = {"stkit_table": server.token("storyteller")}
        last_round = stats["rounds"] + ATTACK_ROUNDS
        while len(times) < 10 or stats["rounds"] < last_round:  # spread over several rounds of the attack
            assert attacker.is_alive()
            started = time.monotonic()
            try:
                r = httpx.get(server.base + "/", cookies=cookies, timeout=DEADLINE)
                if r.status_code != 200:
                    failures.append(str(r.status_code))
            except httpx.HTTPError as exc:
                failures.append(type(exc).__name__)
            times.append(time.monotonic() - started)
            stop.wait(0.1)  # pacing: a page's own requests, not a flood of them
    finally:
        stop.set()
        attacker.join(DEADLINE)
        err = server.stop()
    print(
        f"\nslow-header attack: {ATTACK_SOCKETS} sockets at a time, {stats['opened']} opened, "
        f"{stats['closed_by_server']} closed by the server; the Storyteller's page answered {len(times)} times, "
        f"slowest {max(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s; log {len(err.encode())} bytes"
    )
    assert stats["opened"] > ATTACK_SOCKETS  # the server closed slow sockets and they came back
    assert failures == [] and len(times) >= 10
    assert len(err.encode()) < 4096, err[-2000:]
    assert "Traceback" not in err and "Too many open files" not in err, err


@pytest.mark.slow
def test_a_stream_flood_from_one_link_holds_a_few_streams_and_the_table_goes_on(live, table):
    from stkit.web.bus import STREAMS_PER_LINK
    from tests.web.conftest import follow
    from tests.web.test_authority import _newest, _roll

    after = _newest(table.url)
    flood: list[httpx.Response] = []
    client = httpx.Client(timeout=DEADLINE, limits=httpx.Limits(max_connections=100))
    try:
        for _ in range(40):  # one player's link opens stream after stream
            request = client.build_request(
                "GET", live + f"/events?after={after}", cookies={"stkit_table": table.token("Weston")}
            )
            flood.append(client.send(request, stream=True))
        reader, archibald = follow(live, table.token("Archibald"), after=after, until=bool)
        old, kept = flood[:-STREAMS_PER_LINK], flood[-STREAMS_PER_LINK:]
        # the oldest streams were ended by the server: each body is complete (a live one would never end)
        ended = sum(1 for r in old if b"stkit table" in b"".join(r.iter_raw()))
        page = httpx.get(live + "/", cookies={"stkit_table": table.token("storyteller")}, timeout=DEADLINE)
        _roll(table.url, 5, seed=11)
        # the newest few are still open: each carries the roll
        live_streams = sum(1 for r in kept if any(line == "event: roll" for line in r.iter_lines()))
        reader.join(DEADLINE)
    finally:
        for r in flood:
            r.close()
        client.close()
    assert ended == 40 - STREAMS_PER_LINK
    assert live_streams == STREAMS_PER_LINK
    assert page.status_code == 200
    assert [g[1] for g in archibald] == ["roll"]


def _guarded(app, **settings) -> ThreadServer:
    from stkit.web.server import GuardedH11Protocol

    server = ThreadServer(app, http=type("Small", (GuardedH11Protocol,), settings))
    server.waiting = lambda: list(getattr(server.server.server_state, "stkit_waiting", ()))  # type: ignore[attr-defined]
    return server


@pytest.fixture
def guarded(app):
    """A server with a one-second request deadline and room for eight connections."""
    server = _guarded(app, request_seconds=1.0, max_connections=8)
    yield server
    server.stop()


@pytest.fixture
def crowded(app):
    """A server with room for eight connections and deadlines long enough that only the limit closes any."""
    server = _guarded(app, request_seconds=DEADLINE * 2, grace_seconds=DEADLINE * 2, max_connections=8)
    yield server
    server.stop()


def _closed(s: socket.socket, seconds: float = DEADLINE) -> tuple[bool, bytes]:
    """Read ``s`` until the server closes it (True and what it sent) or ``seconds`` pass (False)."""
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


def _is_closed(s: socket.socket) -> bool:
    """Whether the server has closed ``s`` (a slow client is sent nothing else); never blocks."""
    import select

    return bool(select.select([s], [], [], 0)[0])


def _read(protocol) -> bool:
    """Whether the server has read some of the request ``protocol`` waits for."""
    return bool(getattr(protocol, "_received", True))


def _slow(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
    s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return s


@pytest.mark.slow
def test_a_request_that_never_ends_its_headers_gets_408_at_the_deadline(guarded):
    started = time.monotonic()  # before the connection: the deadline starts later, when it is accepted
    s = socket.create_connection(("127.0.0.1", guarded.port), timeout=DEADLINE)
    s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
    closed, got = _closed(s)
    took = time.monotonic() - started
    s.close()
    # closed by the deadline, not before it (a lower bound only: a busy machine can make it later)
    assert closed and got.startswith(b"HTTP/1.1 408") and took >= 1.0
    # an idle keep-alive connection after one answer is closed by the same deadline
    s = socket.create_connection(("127.0.0.1", guarded.port), timeout=DEADLINE)
    s.send(b"GET /static/table.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    closed, got = _closed(s)
    s.close()
    assert closed and got.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in got


@pytest.mark.slow
def test_at_the_connection_limit_a_new_client_takes_the_slowest_ones_place(crowded, table):
    slow = []
    for _ in range(8):
        slow.append(_slow(crowded.port))
    # the server holds all eight and has read each one's first bytes: partial requests, not fresh sockets
    wait_until(lambda: len([p for p in crowded.waiting() if _read(p)]) == 8, "eight partial requests")
    for _ in range(4):
        slow.append(_slow(crowded.port))
    wait_until(lambda: sum(map(_is_closed, slow)) >= 4, "four slow clients closed")
    r = httpx.get(crowded.base + "/", cookies={"stkit_table": table.token("storyteller")}, timeout=DEADLINE)
    assert r.status_code == 200
    wait_until(lambda: sum(map(_is_closed, slow)) >= 12 + 1 - 8, "the slow clients closed to make room")
    refused = [s for s in slow if _is_closed(s)]
    assert len(refused) == 12 + 1 - 8  # room was made for each newcomer, and no more was closed
    assert all(_closed(s)[1].startswith(b"HTTP/1.1 408") for s in refused)
    for s in slow:
        s.close()


@pytest.mark.slow
def test_a_fresh_connection_is_never_the_one_closed_at_the_limit(crowded, table):
    """The Storyteller's page connects while the server is full of slow requests; before its request is
    read, more slow clients arrive. The connections that have waited longest are slow ones and then the
    Storyteller's: it must not be the one closed to make room (it was, when the longest wait went first)."""
    slow = [_slow(crowded.port) for _ in range(7)]
    wait_until(lambda: len([p for p in crowded.waiting() if _read(p)]) == 7, "seven partial requests")
    storyteller = socket.create_connection(("127.0.0.1", crowded.port), timeout=DEADLINE)
    wait_until(lambda: len(crowded.waiting()) == 8, "the Storyteller's connection accepted")
    for _ in range(10):  # newer slow clients, each at the limit
        slow.append(_slow(crowded.port))
    wait_until(lambda: sum(map(_is_closed, [*slow, storyteller])) >= 10, "ten clients closed to make room")
    assert not _is_closed(storyteller)
    cookie = f"stkit_table={table.token('storyteller')}"
    storyteller.send(f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
    storyteller.settimeout(DEADLINE)
    assert storyteller.recv(64).startswith(b"HTTP/1.1 200")
    storyteller.close()
    for s in slow:
        s.close()
