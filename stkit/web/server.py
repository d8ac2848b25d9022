"""How `stkit serve` runs uvicorn so that a flood sheds load instead of taking the server down.

uvicorn (h11) has a keep-alive timeout but no timeout for a request's headers: a client that sends one
header line every few seconds holds its socket for ever, and enough of them exhaust the process's file
limit (every later accept fails, nobody is answered). The pieces here close that hole:

- :class:`GuardedH11Protocol`, uvicorn's h11 protocol with a **request deadline**: from the moment a
  connection is waiting for a request (just opened, or its last response sent) the whole request, headers
  and body, must arrive within :attr:`~GuardedH11Protocol.request_seconds`, else the connection gets a 408
  and is closed. That is both the header timeout and the idle timeout. Requests being answered (pages,
  event streams) are not timed.
- A **connection limit** below the file limit (:func:`connection_limit`): when it is reached, a new
  connection takes the place of a waiting one, chosen by :meth:`GuardedH11Protocol._victim`: an idle
  keep-alive first, then the slowest partial request (fewest bytes a second since it began waiting), then
  a connection that has sent nothing for :attr:`~GuardedH11Protocol.grace_seconds`. A connection that has
  not yet had that long to send its request is never the one closed: just accepted, its request may
  already be in the socket, unread (the Storyteller's page while an attack keeps the server busy). When
  no connection may be closed, the new one gets a 503. A quick client therefore keeps getting answered
  while a slow-header attack has more sockets than the limit.
- :func:`raise_file_limit` raises the soft RLIMIT_NOFILE to the hard one at start.
- :class:`OncePerMinute`, a logging filter: one line per cause per minute, with the count of the lines it
  held back, and never a traceback (its exception is named on the same line).

The alternatives weighed: h11 and httptools offer no header deadline (h11 caps the size of an incomplete
event only; ``h11_max_incomplete_event_size`` is set too); uvicorn's ``limit_concurrency`` answers 503
only after a whole request was read, so a slow-header socket is never counted against it, and it would
refuse the Storyteller while the event streams are open. A protocol subclass is the one place that sees
a connection before its request is complete.
"""

from __future__ import annotations

import contextlib
import logging
import logging.config
import os
import time
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from stkit.text import printable
from stkit.web.app import create_app
from stkit.web.limits import BACKLOG, MAX_HEAD_BYTES, connection_limit, file_limit, raise_file_limit
from stkit.web.security import allowed_hosts

#: The log of the table server (uvicorn's own loggers go through the same filter).
log = logging.getLogger("stkit.web")


__all__ = [
    "BACKLOG",
    "MAX_HEAD_BYTES",
    "GuardedH11Protocol",
    "OncePerMinute",
    "connection_limit",
    "file_limit",
    "log_config",
    "raise_file_limit",
    "serving_app",
]


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request deadline and a connection limit (see the module's text).
    The class attributes are the settings; a test may subclass with smaller ones."""

    #: Seconds a connection may take to send a whole request once it is waiting for one.
    request_seconds: float = 10.0
    #: Seconds a connection that has sent nothing yet is safe from eviction (its request may be unread).
    grace_seconds: float = 2.0
    #: The connection limit; None: :func:`connection_limit` of the server's backlog.
    max_connections: int | None = None
    #: How many of the longest-waiting connections :meth:`_victim` weighs (bounds the work per accept).
    scan: int = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: Any = None
        self._since = 0.0  # loop time it began waiting for a request
        self._received = 0  # bytes of that request received so far
        self._answered = 0  # responses completed on this connection
        state = self.server_state
        waiting = getattr(state, "stkit_waiting", None)
        if waiting is None:
            waiting = OrderedDict()
            state.stkit_waiting = waiting  # type: ignore[attr-defined]
        self._waiting: OrderedDict[GuardedH11Protocol, None] = waiting

    def _limit(self) -> int:
        if self.max_connections is not None:
            return self.max_connections
        return connection_limit(self.config.backlog)

    # ----- the connection's life ------------------------------------------------------------------------
    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()
        if len(self.connections) > self._limit() and not self._make_room():
            log.warning("connection limit (%d) reached with every connection busy: new ones get 503", self._limit())
            self._disarm()
            self._refuse(b"503 Service Unavailable")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:
            self._received += len(data)
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if (
            self._deadline is not None
            and self.conn.their_state is not h11.IDLE
            and self.conn.their_state is not h11.SEND_BODY
        ):
            self._disarm()  # the whole request is in: it is being answered now

    def on_response_complete(self) -> None:
        self._answered += 1
        if not self.transport.is_closing():
            self._arm()  # waiting for the next request on this connection
        super().on_response_complete()

    # ----- the deadline -----------------------------------------------------------------------------------
    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)
        self._since = self.loop.time()
        self._received = 0
        self._waiting[self] = None

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting.pop(self, None)

    def _too_slow(self) -> None:
        self._deadline = None
        self._waiting.pop(self, None)
        log.warning(
            "closed connections that sent no whole request within %g s (slow or idle clients)", self.request_seconds
        )
        self._refuse(b"408 Request Timeout")

    def _victim(self) -> GuardedH11Protocol | None:
        """The waiting connection to close for a new one, among the :attr:`scan` that have waited longest:
        an idle keep-alive (answered before, nothing of its next request yet), oldest first; else the
        partial request receiving fewest bytes a second; else the oldest that has sent nothing for
        :attr:`grace_seconds`. None when every waiting connection is too fresh to judge."""
        now = self.loop.time()
        best: tuple[int, float] | None = None
        chosen: GuardedH11Protocol | None = None
        for count, other in enumerate(self._waiting):
            if count >= self.scan:
                break
            if other is self or other.transport.is_closing():
                continue
            waited = now - other._since
            if other._received == 0 and other._answered:
                rank = (0, -waited)
            elif other._received:
                rank = (1, other._received / max(waited, 1e-3))
            elif waited >= self.grace_seconds:
                rank = (2, -waited)
            else:
                continue  # just accepted: its request may be waiting, unread, in the socket
            if best is None or rank < best:
                best, chosen = rank, other
                if rank[0] == 0:
                    break  # the oldest idle keep-alive: nothing ranks before it
        return chosen

    def _make_room(self) -> bool:
        """Close the connection :meth:`_victim` names; False when there is none."""
        other = self._victim()
        if other is None:
            return False
        other._disarm()
        log.warning("connection limit (%d) reached: the slowest waiting clients were closed", self._limit())
        other._refuse(b"408 Request Timeout")
        return True

    def _refuse(self, status: bytes) -> None:
        """Answer ``status`` with no body when no response is under way, and close the connection."""
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            with contextlib.suppress(Exception):  # the peer may be gone already
                self.transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        self.transport.close()


class OncePerMinute(logging.Filter):
    """Lets the first record of each cause through per ``seconds`` (default 60), as one line: the message
    made printable and cut to 300 characters, the exception (if any) named after it, never a traceback.
    The next line of a cause says how many were held back. A cause is the logger, the message's template
    and the exception's type."""

    def __init__(self, name: str = "", seconds: float = 60.0) -> None:
        super().__init__(name)
        self.seconds = seconds
        self._last: dict[tuple, float] = {}
        self._held: dict[tuple, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        cause = (record.name, str(record.msg), type(exc).__name__ if exc is not None else None)
        now = time.monotonic()
        last = self._last.get(cause)
        if last is not None and now - last < self.seconds:
            self._held[cause] = self._held.get(cause, 0) + 1
            return False
        if len(self._last) > 1000:  # causes are few; a flood of distinct messages must not grow this
            self._last.clear()
            self._held.clear()
        self._last[cause] = now
        text = printable(record.getMessage()).replace("\n", " ")
        if exc is not None:
            first = printable(str(exc).splitlines()[0] if str(exc) else "")
            text += f" ({type(exc).__name__}{': ' + first if first else ''})"
        text = text[:300]
        held = self._held.pop(cause, 0)
        if held:
            text += f" [{held} more like this in the last minute]"
        record.msg, record.args = text, None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def log_config() -> dict:
    """The logging setup of `stkit serve` (for :func:`logging.config.dictConfig`): warnings and worse, one
    line each on stderr, through :class:`OncePerMinute`; uvicorn's and asyncio's loggers included."""
    quiet = {"level": "WARNING", "handlers": ["stderr"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"once": {"()": OncePerMinute}},
        "formatters": {"line": {"format": "stkit serve: %(levelname)s %(message)s"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["once"],
            }
        },
        "loggers": {name: dict(quiet) for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio", "stkit")},
    }


#: Set by `stkit serve`: the address it listens on, and the host name it put in the links.
ENV_LISTEN = "STKIT_TABLE_LISTEN"
ENV_LINK_HOST = "STKIT_TABLE_LINK_HOST"
#: The host name of `stkit serve --public-url` (a reverse proxy's address), answered to as well.
ENV_PUBLIC_HOST = "STKIT_TABLE_PUBLIC_HOST"


def serving_app() -> Any:
    """The app `stkit serve` runs (uvicorn's factory): the file limit raised, the log set up, then
    :func:`stkit.web.app.create_app` of the store and chronicle in the environment, answering to the
    host names of :func:`serving_hosts`."""

    raise_file_limit()
    logging.config.dictConfig(log_config())
    return create_app(hosts=serving_hosts())


def serving_hosts() -> tuple[str, ...]:
    """The Host names `stkit serve` answers to, from :data:`ENV_LISTEN`, :data:`ENV_LINK_HOST` and
    :data:`ENV_PUBLIC_HOST` (see :func:`stkit.web.security.allowed_hosts`)."""

    printed = [os.environ.get(ENV_LINK_HOST, ""), os.environ.get(ENV_PUBLIC_HOST, "")]
    return allowed_hosts(os.environ.get(ENV_LISTEN, "127.0.0.1"), printed)
