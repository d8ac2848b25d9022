"""A loopback HTTP server that answers slowly: a byte at a time, so no socket timeout ever trips."""

from __future__ import annotations

import socket
import threading

from tests.waiting import DEADLINE


class Dripper:
    """A loopback HTTP server that answers every request with headers promising a large body, then sends
    one byte every ``every`` seconds until the client goes or the server is closed."""

    def __init__(self, every: float = 0.2) -> None:
        self.every = every
        self.stop = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(5)
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                while not self.stop.wait(self.every):
                    conn.sendall(b" ")
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


def ends_within(call, deadline: float = DEADLINE):
    """call()'s outcome (('ok', value) or ('raised', exception)), failing the test if it is not back within
    ``deadline`` seconds: a call that should end at its own deadline must not hang the suite."""
    box: list = []

    def run():
        try:
            box.append(("ok", call()))
        except Exception as exc:
            box.append(("raised", exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(deadline)
    assert box, f"still running after {deadline} s"
    return box[0]
