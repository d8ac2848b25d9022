"""`stkit serve` and `stkit table links`: the whole table on one live page, joined by link or QR code.

Only typer and the standard library at module level; the web server (FastAPI, uvicorn, Jinja2), the
store and segno load inside the commands, so a plain `stkit roll` never imports them.
"""

from __future__ import annotations

import atexit
import ipaddress
import json
import os
import re
import signal
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from stkit.cli.options import ChronicleOpt, DbOpt, JsonOpt
from stkit.errors import DataFileError, InvalidValue, StkitError
from stkit.text import MAX_NAME, check_range, check_text, printable

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle

HostOpt = Annotated[
    str,
    typer.Option("--host", help="Address to listen on: 127.0.0.1 (this computer only) or 0.0.0.0 (the local network)."),
]
PortOpt = Annotated[int, typer.Option("--port", help="TCP port, 1 to 65535.")]
QrOpt = Annotated[bool, typer.Option("--qr/--no-qr", help="Print a QR code under each link for phone cameras.")]
CertOpt = Annotated[
    str | None,
    typer.Option("--certfile", help="Serve HTTPS with this PEM certificate (needs --keyfile).", show_default=False),
]
KeyOpt = Annotated[str | None, typer.Option("--keyfile", help="The PEM private key of --certfile.", show_default=False)]
ExpiresOpt = Annotated[
    str,
    typer.Option(
        "--expires",
        help="How long the new links work: a number and m, h or d (30m, 12h, 7d; at most 366d), or never.",
    ),
]


#: The largest certificate or key file read (a PEM chain is a few kilobytes).
MAX_PEM_BYTES = 1_000_000


def check_tls(certfile: str | None, keyfile: str | None) -> tuple[str, str] | None:
    """(certfile, keyfile) for HTTPS, both readable files loaded by :mod:`ssl` as a pair; None for plain
    HTTP. StkitError naming the option otherwise (one without the other, a missing file, a key that does
    not match the certificate)."""
    if certfile is None and keyfile is None:
        return None

    if certfile is None or keyfile is None:
        raise StkitError("--certfile and --keyfile go together: give the certificate and its private key")
    import ssl  # lazy: start-up (loaded when the command runs)

    from stkit.safefile import describe, read_bytes  # lazy: start-up (loaded when the command runs)

    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        try:  # a regular file, read without blocking (a FIFO) or without end (/dev/zero)
            read_bytes(path, max_bytes=MAX_PEM_BYTES)
        except DataFileError as exc:
            shown = describe(path)
            reason = str(exc).removeprefix(f"{shown}: ")
            raise StkitError(f"{option}: {shown if len(shown) <= 200 else shown[:200] + '...'}: {reason}") from None
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc)
        raise StkitError(f"--certfile/--keyfile: cannot load the certificate and key ({reason})") from None
    return certfile, keyfile


def _check_port(port: int) -> int:

    return check_range(port, "--port", 1, 65535)


def check_host(host: str) -> str:
    """``host`` when it is an IP address or a host name (letters, digits, dots and hyphens, at most 253);
    InvalidValue naming the value otherwise."""

    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}", host):
        return host
    shown = repr(host[:40]) + ("..." if len(host) > 40 else "")
    raise InvalidValue(f"--host {shown} is not an IP address or a host name; e.g. 127.0.0.1, or 0.0.0.0 to share")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def link_host(host: str) -> str:
    """The host name to put in links: the listening address, or for 0.0.0.0 / :: this computer's address
    on the local network (found by asking the OS which interface would route out; nothing is sent)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    import socket  # lazy: start-up (loaded when the command runs)

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def check_port_free(host: str, port: int) -> None:
    """Refuse (StkitError) a ``host``:``port`` that another program already listens on, before any link
    is issued or printed."""
    import socket  # lazy: start-up (loaded when the command runs)

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise StkitError(f"cannot listen on {host}:{port}: {reason} (is another server using the port?)") from None


#: The file beside the store (:func:`stkit.config.companion_path`, mode 0600) that keeps the join links
#: `stkit serve` and `stkit table links` last issued, so a restart hands out the same links.
LINKS_FILE = "table_links.json"


def issue(
    handle: StoreHandle,
    chronicle: str,
    base: str,
    *,
    rotate: bool,
    lifetime: int | None = None,
    reuse: bool = False,
) -> dict:
    """Join links for ``chronicle`` in the store ``handle``: one for the Storyteller and one per player's
    character (an NPC, played from the Storyteller's screen, and the dead get none). ``reuse``: the links
    kept in :data:`LINKS_FILE` that are still in force (not revoked, not expired, their character still a
    player's) are handed out again and only the missing ones issued; else all are new. ``rotate``: revoke
    every earlier link first; ``lifetime``: seconds new links last (None: until revoked). The tokens are
    kept in the file (0600) for the next start. Returns ``{"storyteller": URL, "players": {"Character
    Name": URL}, "expires_at": ISO 8601 UTC or None, "reused": how many links were reused}``."""
    from stkit.store.table.events import find_link_holder, issue_links  # lazy: start-up (loaded when the command runs)

    keep = _links_path(handle.url)
    saved = _read_kept(keep, handle.url, chronicle) if reuse and not rotate else {}

    def work(gw) -> tuple[str, dict[int, tuple[str, str]], Any, int]:
        players = _players(gw, chronicle)
        tokens: dict[int, tuple[str, str]] = {}
        st_token = ""
        expiries = []
        for key, token in saved.items():
            holder = find_link_holder(gw, token) if isinstance(token, str) else None
            if holder is None or holder.chronicle != chronicle:
                continue
            if key == "storyteller" and holder.is_storyteller:
                st_token = token
            elif key.isdigit() and holder.character_id == int(key) and int(key) in players:
                tokens[int(key)] = (players[int(key)], token)
            else:
                continue
            expiries.append(holder.expires_at)
        reused = len(expiries)
        missing = [cid for cid in players if cid not in tokens]
        if rotate or not st_token or missing:
            new = issue_links(
                gw, chronicle, rotate=rotate, lifetime=lifetime, storyteller=not st_token, characters=missing
            )
            for link in new:
                if link.role == "storyteller":
                    st_token = link.token
                elif link.character_id is not None:
                    tokens[link.character_id] = (link.character or "", link.token)
                expiries.append(link.expires_at)
        soonest = min((e for e in expiries if e is not None), default=None)
        return st_token, tokens, soonest, reused

    st_token, tokens, expires, reused = handle.run(work)
    _write_kept(keep, handle.url, chronicle, st_token, {cid: t for cid, (_, t) in tokens.items()})
    players_out = {name: f"{base}/join/{token}" for name, token in sorted(tokens.values(), key=lambda nt: nt[0])}
    return {
        "storyteller": f"{base}/join/{st_token}",
        "players": players_out,
        "expires_at": expires.isoformat() if expires else None,
        "reused": reused,
    }


def _players(gw, chronicle: str) -> dict[int, str]:
    """{id: name} of ``chronicle``'s characters a player plays (not NPCs) who are not dead."""
    from stkit.store.characters import list_characters  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight.rules import is_dead  # lazy: start-up (loaded when the command runs)
    from stkit.store.table.prompts import is_npc  # lazy: start-up (loaded when the command runs)

    rows = list_characters(gw, chronicle)
    return {r.id: r.name for r in rows if not is_npc(r.to_sheet()) and not is_dead(gw, r.id)}


def _links_path(url: str):
    from stkit.config import companion_path  # lazy: start-up (loaded when the command runs)

    return companion_path(LINKS_FILE, url)


def _kept_key(url: str, chronicle: str) -> str:
    """The file's key for one store and chronicle: a hash, so no database address (or password) is kept."""
    import hashlib  # lazy: start-up (loaded when the command runs)

    return hashlib.sha256(f"{url}\0{chronicle}".encode()).hexdigest()[:32]


def _read_kept(path, url: str, chronicle: str) -> dict[str, str]:
    """The tokens kept for ``url``'s ``chronicle``: {"storyteller" or a character id: token}; {} when the
    file is missing or damaged (the links are then issued again)."""

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        table = data["tables"][_kept_key(url, chronicle)]
        return {str(k): v for k, v in table.items() if isinstance(v, str) and len(v) <= 200}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}


def _write_kept(path, url: str, chronicle: str, storyteller: str, players: dict[int, str]) -> None:
    """Keep the tokens of ``url``'s ``chronicle`` in ``path`` (mode 0600, in a 0700 folder, replaced whole
    so a reader never sees half a file). A file that cannot be written is reported on stderr, not fatal:
    the next start then issues new links."""

    from stkit.config import FILE_MODE, make_private_folder  # lazy: start-up (loaded when the command runs)

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or not isinstance(data.get("tables"), dict):
            raise ValueError
    except (OSError, ValueError, RecursionError):
        data = {"tables": {}}
    data["about"] = "stkit's join links in force, by store and chronicle; secret (each one opens a page)"
    data["tables"][_kept_key(url, chronicle)] = {"storyteller": storyteller} | {str(k): v for k, v in players.items()}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        make_private_folder(path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), FILE_MODE)
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
    except OSError as exc:
        from stkit.cli import render  # lazy: start-up (loaded when the command runs)
        from stkit.text import printable  # lazy: start-up (loaded when the command runs)

        tmp.unlink(missing_ok=True)
        reason = exc.strerror or str(exc)
        render.print_text(
            f"Warning: cannot keep the links in {printable(str(path))}: {reason}; the next start issues new ones",
            style="yellow",
            stderr=True,
        )


def print_links(
    links: dict, *, qr: bool, json_out: bool, rotated: bool = False, hidden: frozenset[str] = frozenset()
) -> None:
    """The links as JSON, or one line per person (each with a QR code in the terminal when ``qr``); the
    characters named in ``hidden`` (no player plays them, or they are dead) are left out of the lines."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json(links, indent=None)
        return

    people = [("Storyteller", links["storyteller"])] + [
        (f"Player: {n}", u) for n, u in links["players"].items() if n not in hidden
    ]
    if rotated:
        render.print_text("Earlier links no longer work.", style="yellow")
    elif links.get("reused"):
        render.print_text("The links in force, as before (--new-links issues new ones):")
    if links.get("expires_at"):
        render.print_text(f"These links stop working at {links['expires_at'][:16].replace('T', ' ')} UTC.")
    for label, url in people:
        render.print_text(f"{printable(label)}: {url}", style="bold")
        if qr:
            import segno  # lazy: start-up (loaded when the command runs)

            segno.make(url, error="m").terminal(out=sys.stdout, compact=True, border=2)
    if not links["players"]:
        render.print_text("No characters in this chronicle yet: add them with `stkit char new` or `stkit char import`.")


def _print_served(base: str, issued: dict, *, qr: bool, json_out: bool, hidden: dict | None = None) -> None:
    """What a server of several chronicles prints: ``{"url": base, "chronicles": {name: links}}`` as JSON
    (``"chronicles": "all"`` for --all), else each chronicle's links under its name."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json({"url": base, "chronicles": issued or "all"}, indent=None)
        return
    if not issued:
        render.print_text(f"Serving every chronicle of the store at {base}.", style="bold")
        render.print_text("A chronicle's links: `stkit table links --chronicle NAME` (or `stkit chronicle new`).")
        return

    for name, links in issued.items():
        render.print_text(f"Chronicle {printable(name)}:", style="bold underline")
        print_links(links, qr=qr, json_out=False, hidden=(hidden or {}).get(name, frozenset()))


PublicUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        help="The address players reach (a reverse proxy), e.g. https://table.example.org.",
        show_default=False,
    ),
]


ChroniclesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--chronicle",
        help="Chronicle to serve; give it several times to serve several (default: $STKIT_CHRONICLE, else 'default').",
        show_default=False,
    ),
]
AllOpt = Annotated[
    bool, typer.Option("--all", help="Serve every chronicle of the store, each link in its own (no links printed).")
]


def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    public_url: PublicUrlOpt = None,
    db: DbOpt = None,
    chronicle: ChroniclesOpt = None,
    every: AllOpt = False,
    qr: QrOpt = False,
    certfile: CertOpt = None,
    keyfile: KeyOpt = None,
    expires: ExpiresOpt = "never",
    new_links: Annotated[
        bool,
        typer.Option("--new-links", help="Issue new links instead of handing out the ones in force again."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Serve the live table: a page for the Storyteller and each player.

    Prints one join link per player (a QR code under each with --qr; none for NPCs or the dead): the
    links in force from the last start or `stkit table links`, kept in table_links.json beside the store
    (mode 0600), so phones that joined stay joined; --new-links (or --expires) issues new ones; rolls,
    Willpower, damage, scenes, extended actions and contests show on every page as they happen,
    whichever process made them. With --certfile and --keyfile the server speaks HTTPS (phones then allow
    the screen wake lock and adding the page to the home screen off localhost). --public-url names the
    address of a reverse proxy in front of it: the links carry it and the server answers to its host
    name. Ctrl-C stops the server; every change is already stored. --chronicle given several times, or
    --all, serves several chronicles from one process: each link reaches only its own chronicle.
    """

    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.extras import require  # lazy: start-up (loaded when the command runs)
    from stkit.store.table.events import parse_lifetime  # lazy: start-up (loaded when the command runs)

    require("table")  # before any link is issued: nothing half done
    _check_port(port)
    check_host(host)
    lifetime = parse_lifetime(expires)

    if every and chronicle:
        raise typer.BadParameter("--all serves every chronicle: give either --all or --chronicle, not both")
    served = [check_text(c, "chronicle", limit=MAX_NAME) for c in dict.fromkeys(chronicle or [])]
    chron = served[0] if served else default_chronicle(None)
    check_text(chron, "chronicle", limit=MAX_NAME)
    tls = check_tls(certfile, keyfile)
    public = check_public_url(public_url) if public_url is not None else None
    handle = store(db)
    handle.engine()  # a bad --db or an old schema is reported (or migrated) before anything is printed
    check_port_free(host, port)  # last: every value is checked even when the port is taken
    shown_host = link_host(host)
    scheme = "https" if tls else "http"
    base = public or f"{scheme}://{shown_host}:{port}"
    reuse = not new_links and lifetime is None
    issued = (
        {}
        if every
        else {c: issue(handle, c, base, rotate=False, lifetime=lifetime, reuse=reuse) for c in served or [chron]}
    )
    if not _is_loopback(host):
        from stkit.cli import render  # lazy: start-up (loaded when the command runs)

        render.print_text(
            f"Sharing on the local network ({host}:{port}): anyone on it with a link can join.",
            style="yellow",
            stderr=json_out,
        )

    stop = _Interrupted()
    previous = signal.signal(signal.SIGINT, stop.handle)  # from here on a Ctrl-C is exit 130, wherever it lands
    try:
        if every or len(issued) > 1:
            hidden = {name: handle.read(_not_players(name)) for name in issued}
            _print_served(base, issued, qr=qr, json_out=json_out, hidden=hidden)
        else:
            hidden_here = handle.read(_not_players(chron))
            print_links(issued[chron], qr=qr and not json_out, json_out=json_out, hidden=hidden_here)
        import sys  # lazy: start-up (loaded when the command runs)

        sys.stdout.flush()
        # The web adapter is loaded by name: the CLI and the web layer never import each other. The app
        # reads the store and chronicle from the environment, as every stkit command does.
        os.environ["STKIT_DATABASE_URL"] = handle.url
        os.environ["STKIT_CHRONICLE"] = chron
        if every or len(issued) > 1:  # read by stkit.web.app.create_app
            os.environ["STKIT_TABLE_CHRONICLES"] = "*" if every else json.dumps(list(issued))
        else:
            os.environ.pop("STKIT_TABLE_CHRONICLES", None)
        os.environ["STKIT_TABLE_LISTEN"] = host  # the Host names the server answers to (stkit.web.security)
        os.environ["STKIT_TABLE_LINK_HOST"] = shown_host
        if public is not None:
            from urllib.parse import urlsplit  # lazy: start-up (loaded when the command runs)

            os.environ["STKIT_TABLE_PUBLIC_HOST"] = urlsplit(public).hostname or ""
        _run_uvicorn(host, port, tls, stop)
    except KeyboardInterrupt:  # a second Ctrl-C before the server ran: stop now
        stop.count += 1
    except BaseException as exc:  # the tasks cancelled by a Ctrl-C while stopping are that stop, not an error
        if not (stop.count and type(exc).__name__ == "CancelledError"):
            raise
    finally:
        if not stop.count:  # once interrupted, a further Ctrl-C while exiting is counted, not raised
            signal.signal(signal.SIGINT, previous)
    if stop.count:
        _exit_quietly(signal)
        raise typer.Exit(130)


def _exit_quietly(signal: Any) -> None:
    """From here until the process ends, a further Ctrl-C changes nothing: the exit status stays 130.

    While Python code still runs (other threads being joined) a Ctrl-C leaves at once with 130; for the
    last moments SIGINT is ignored, because the interpreter, as it finishes, puts the system's default
    action back in place of every Python handler, and a Ctrl-C landing then would end the process by the
    signal (status -2) instead of exit 130."""

    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(130))
    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)


class _Interrupted:
    """The SIGINT handler of `stkit serve` from the moment its links are printed: it counts the Ctrl-Cs
    and asks the server (once there is one) to stop, instead of raising KeyboardInterrupt at whatever line
    runs then (where a clean-up could swallow it and leave the server running). uvicorn puts its own
    handler in place while it serves and, once stopped, raises each signal it caught again, which lands
    here. A second Ctrl-C before the server runs raises KeyboardInterrupt, so a stuck start can still be
    left."""

    def __init__(self) -> None:
        self.count = 0
        self.server: Any = None  # the uvicorn Server, once made

    def handle(self, signum: int, frame: object) -> None:
        self.count += 1
        if self.server is not None:
            self.server.should_exit = True
        elif self.count > 1:
            raise KeyboardInterrupt


def _run_uvicorn(host: str, port: int, tls: tuple[str, str] | None, stop: _Interrupted) -> None:
    """Run the table server until it is stopped (at once when ``stop`` already counts a Ctrl-C).

    uvicorn is run through its Server, not ``uvicorn.run``: that catches the KeyboardInterrupt of a
    Ctrl-C and returns as if nothing happened (exit 0). StkitError when it cannot listen."""
    import logging  # lazy: start-up (the server's log is set up only when it runs)

    import uvicorn  # lazy: start-up (the web server loads only for `stkit serve`)

    logging.getLogger("uvicorn.error").addFilter(_quiet_stop)
    config = uvicorn.Config(
        "stkit.web.server:serving_app",  # create_app, with the file limit raised and a quiet log
        factory=True,
        host=host,
        port=port,
        http="stkit.web.server:GuardedH11Protocol",  # request deadline and connection limit
        backlog=64,  # stkit.web.server.BACKLOG: counted against the file limit
        h11_max_incomplete_event_size=16 * 1024,
        timeout_keep_alive=5,
        proxy_headers=False,  # no proxy in front: X-Forwarded-For is whatever a client says
        server_header=False,
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=3,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
    )
    server = uvicorn.Server(config)
    stop.server = server
    if stop.count:
        return
    try:
        server.run()
    except SystemExit as exc:  # uvicorn exits when the port is taken
        if exc.code:
            from stkit.errors import StkitError  # lazy: start-up (loaded when the command runs)

            raise StkitError(f"cannot listen on {host}:{port} (is another server using the port?)") from None


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash when it is http(s)://HOST[:PORT] (no path, no credentials, a host
    :func:`check_host` accepts); StkitError naming it otherwise."""

    match = re.fullmatch(r"(https?)://([^/:@\s]+)(?::(\d{1,5}))?/?", url.strip())
    if match is None:
        raise InvalidValue(
            f"--public-url {printable(url)[:60]!r} is not http(s)://HOST[:PORT], e.g. https://table.example.org"
        )
    check_host(match.group(2))
    if match.group(3):
        _check_port(int(match.group(3)))
    return url.strip().rstrip("/")


def _quiet_stop(record) -> bool:
    """Drop the server log's report of the tasks it cancels when stopped at once (a second Ctrl-C): a
    stop, not an error. Every other record passes."""
    import asyncio  # lazy: start-up (loaded when the command runs)

    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt)):
        return False
    text = str(record.msg)  # the lifespan's report is the traceback as text
    return not (text.startswith("Traceback") and text.rstrip().endswith(("CancelledError", "KeyboardInterrupt")))


def _not_players(chronicle: str):
    """A read of the names of ``chronicle``'s characters whose links `stkit serve` does not print: those no
    player plays (NPCs) and the dead."""

    def read(gw) -> frozenset[str]:
        from stkit.store.characters import list_characters  # lazy: start-up (loaded when the command runs)
        from stkit.store.fight.rules import is_dead  # lazy: start-up (loaded when the command runs)
        from stkit.store.table.prompts import is_npc  # lazy: start-up (loaded when the command runs)

        rows = list_characters(gw, chronicle)
        return frozenset(r.name for r in rows if is_npc(r.to_sheet()) or is_dead(gw, r.id))

    return read


def table_links(
    rotate: Annotated[bool, typer.Option("--rotate", help="Revoke every earlier link of the chronicle first.")] = False,
    revoke: Annotated[
        str | None,
        typer.Option(
            "--revoke",
            help="Revoke the links of one person (a character's name, or storyteller) and issue none.",
        ),
    ] = None,
    expires: ExpiresOpt = "never",
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    public_url: PublicUrlOpt = None,
    db: DbOpt = None,
    chronicle: ChronicleOpt = None,
    qr: QrOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Print new join links: the Storyteller's and each player's.

    NPCs (played from the Storyteller's screen) and the dead get none.

    Only a hash of each link's token is stored, so every run hands out new links (kept beside the store,
    mode 0600, for `stkit serve` to hand out again); the earlier ones keep working until --rotate revokes
    them (or --expires runs out). A revoked link's open pages stop within
    a second. --revoke NAME cuts off one person only. --host and --port say where `stkit serve` listens;
    --public-url gives the address of a reverse proxy in front of it instead.
    """
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.store.table.events import parse_lifetime  # lazy: start-up (loaded when the command runs)

    _check_port(port)
    check_host(host)
    lifetime = parse_lifetime(expires)
    chron = default_chronicle(chronicle)
    if revoke is not None:
        if rotate:
            raise typer.BadParameter("--revoke and --rotate do not go together: --rotate already revokes every link")
        _revoke(db, chron, revoke, json_out=json_out)
        return
    base = check_public_url(public_url) if public_url is not None else f"http://{link_host(host)}:{port}"
    from stkit.cli.common import store  # lazy: start-up (loaded when the command runs)

    links = issue(store(db), chron, base, rotate=rotate, lifetime=lifetime)
    print_links(links, qr=qr and not json_out, json_out=json_out, rotated=rotate)


def _revoke(db: str | None, chronicle: str, who: str, *, json_out: bool) -> None:
    """`table links --revoke WHO`: revoke one person's links and say how many."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.table.links import revoke_links  # lazy: start-up (loaded when the command runs)

    count = run(db, lambda gw: revoke_links(gw, chronicle, who))
    if json_out:
        render.print_json({"revoked": count, "who": who}, indent=None)
        return
    render.print_text(f"Revoked {count} link{'s' if count != 1 else ''} of {printable(who)}; their pages stop now.")


def register(app: typer.Typer) -> None:
    """Add `serve` and the `table` group to the root app."""
    app.command("serve")(serve)
    group = typer.Typer(help="The table server's join links.", no_args_is_help=True)
    group.command("links")(table_links)
    app.add_typer(group, name="table")
