"""A real HTTP server on the loopback interface serving fixed answers, for the card fetch tests."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator, Mapping


@contextlib.contextmanager
def serving(
    files: Mapping[str, bytes], redirects: Mapping[str, str] | None = None, *, redirect_code: int = 302
) -> Iterator[str]:
    """``http://127.0.0.1:PORT`` of a server running for the ``with`` block. A GET of a path in ``files``
    answers 200 with its bytes; of a path in ``redirects``, ``redirect_code`` to that Location (``{port}``
    in it filled in with the server's port); of anything else, 404."""
    moved = dict(redirects or {})

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path in moved:
                self.send_response(redirect_code)
                self.send_header("Location", moved[self.path].format(port=self.server.server_address[1]))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = files.get(self.path)
            if body is None:
                self.send_error(404, "Not Found")
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
