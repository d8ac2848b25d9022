"""A real loopback webhook receiver: an HTTP server on 127.0.0.1 that records every body it is sent and
answers from a script (a 429 with retry_after, a 500, then 204s), for the feed's tests and benchmark."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.waiting import DEADLINE


class Receiver:
    """Records (path, body, monotonic arrival time) of each accepted POST; ``script`` is a list of statuses
    answered first, in order (429 answers with ``retry_after``), then 204 for everything."""

    def __init__(self, script: list[int] | None = None, retry_after: float = 0.05) -> None:
        self.script = list(script or [])
        self.retry_after = retry_after
        self.accepted: list[tuple[str, dict, float]] = []
        self.refused: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with owner.lock:
                    status = owner.script.pop(0) if owner.script else 204
                    if status == 204:
                        owner.accepted.append((self.path, body, time.monotonic()))
                    else:
                        owner.refused.append((self.path, status))
                if status == 429:
                    payload = json.dumps({"message": "You are being rate limited.", "retry_after": owner.retry_after})
                    data = payload.encode()
                    self.send_response(429)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Retry-After", "1")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/api/webhooks/1/public") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def bodies(self, path_part: str) -> list[dict]:
        with self.lock:
            return [b for p, b, _ in self.accepted if path_part in p]

    def wait_for(self, path_part: str, count: int, deadline: float = DEADLINE) -> list[dict]:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            found = self.bodies(path_part)
            if len(found) >= count:
                return found
            time.sleep(0.01)
        raise AssertionError(f"{path_part}: {len(self.bodies(path_part))} of {count} messages arrived")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
