"""The table server's limits on files and connections (see :mod:`stkit.web.server` for how they are used)."""

from __future__ import annotations

try:
    import resource
except ImportError:  # pragma: no cover - Windows has no file limits to read
    resource = None  # type: ignore[assignment]

#: The most connections a server holds, whatever the file limit (each open page holds one).
MAX_CONNECTIONS = 4096
#: Files kept free for the database, the templates and the log, beyond the listen backlog.
FILE_RESERVE = 64
#: The listen backlog `stkit serve` asks for: asyncio accepts up to this many sockets in one go before
#: the protocol can shed any of them, so they count against the file limit too.
BACKLOG = 64
#: The largest request head (request line and headers) h11 buffers, in bytes.
MAX_HEAD_BYTES = 16 * 1024


def raise_file_limit() -> int:
    """Raise the soft limit on open files to the hard one (where the platform has one) and return the
    soft limit now in force (RLIM_INFINITY read as 65536)."""
    if resource is None:  # pragma: no cover - Windows
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return 65536 if soft == resource.RLIM_INFINITY else int(soft)


def file_limit() -> int:
    """The soft limit on open files (RLIM_INFINITY read as 65536; 512 where there is none to read)."""
    if resource is None:  # pragma: no cover - Windows
        return 512
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 65536 if soft == resource.RLIM_INFINITY else int(soft)


def connection_limit(backlog: int = BACKLOG) -> int:
    """The most connections to hold open: the file limit less four times the listen ``backlog`` and
    :data:`FILE_RESERVE`; at most :data:`MAX_CONNECTIONS` and at least 8.

    asyncio accepts up to ``backlog`` sockets each time the listening socket is ready, and a protocol
    sees its socket two loop turns later; a socket closed to make room is released one turn after that.
    Under a flood every turn accepts a batch, so four batches are open beyond the connections counted:
    the newest, two not yet seen by their protocol, and the one just closed. With only two counted the
    server ran out of files under a slow-header attack (accept() failing, accepting paused for a second)."""
    return max(8, min(MAX_CONNECTIONS, file_limit() - 4 * backlog - FILE_RESERVE))
