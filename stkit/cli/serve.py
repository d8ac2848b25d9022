"""`stkit serve` and `stkit table links`: the whole table on one live page, joined by link or QR code.

Only typer and the standard library at module level; the web server (FastAPI, uvicorn, Jinja2), the
store and segno load inside the commands, so a plain `stkit roll` never imports them.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated

import typer

from stkit.cli.options import ChronicleOpt, DbOpt, JsonOpt

HostOpt = Annotated[
    str,
    typer.Option("--host", help="Address to listen on: 127.0.0.1 (this computer only) or 0.0.0.0 (the local network)."),
]
PortOpt = Annotated[int, typer.Option("--port", help="TCP port, 1 to 65535.")]
QrOpt = Annotated[bool, typer.Option("--qr/--no-qr", help="Print a QR code under each link for phone cameras.")]
ExpiresOpt = Annotated[
    str,
    typer.Option(
        "--expires",
        help="How long the new links work: a number and m, h or d (30m, 12h, 7d; at most 366d), or never.",
    ),
]


def _check_port(port: int) -> int:
    from stkit.text import check_range

    return check_range(port, "--port", 1, 65535)


def check_host(host: str) -> str:
    """``host`` when it is an IP address or a host name (letters, digits, dots and hyphens, at most 253);
    InvalidValue naming the value otherwise."""
    import re

    from stkit.errors import InvalidValue

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
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def check_port_free(host: str, port: int) -> None:
    """Refuse (StkitError) a ``host``:``port`` that another program already listens on, before any link
    is issued or printed."""
    import socket

    from stkit.errors import StkitError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise StkitError(f"cannot listen on {host}:{port}: {reason} (is another server using the port?)") from None


def issue(db: str | None, chronicle: str, base: str, *, rotate: bool, lifetime: int | None = None) -> dict:
    """Issue join links for ``chronicle`` (``rotate``: revoke every earlier one; ``lifetime``: seconds they
    last, None: until revoked) and return ``{"storyteller": URL, "players": {"Character Name": URL},
    "expires_at": ISO 8601 UTC or None}``."""
    from stkit.store.events import issue_links
    from stkit.store.gateway import run_unit

    links = run_unit(db, lambda gw: issue_links(gw, chronicle, rotate=rotate, lifetime=lifetime))
    expires = links[0].expires_at if links else None
    out: dict = {"storyteller": None, "players": {}, "expires_at": expires.isoformat() if expires else None}
    for link in links:
        url = f"{base}/join/{link.token}"
        if link.role == "storyteller":
            out["storyteller"] = url
        else:
            out["players"][link.character] = url
    return out


def print_links(links: dict, *, qr: bool, json_out: bool, rotated: bool = False) -> None:
    """The links as JSON, or one line per person (each with a QR code in the terminal when ``qr``)."""
    from stkit.cli import render

    if json_out:
        render.print_json(links, indent=None)
        return
    import sys

    from stkit.text import printable

    people = [("Storyteller", links["storyteller"])] + [(f"Player: {n}", u) for n, u in links["players"].items()]
    if rotated:
        render.print_text("Earlier links no longer work.", style="yellow")
    if links.get("expires_at"):
        render.print_text(f"These links stop working at {links['expires_at'][:16].replace('T', ' ')} UTC.")
    for label, url in people:
        render.print_text(f"{printable(label)}: {url}", style="bold")
        if qr:
            import segno

            segno.make(url, error="m").terminal(out=sys.stdout, compact=True, border=2)
    if not links["players"]:
        render.print_text("No characters in this chronicle yet: add them with `stkit char new` or `stkit char import`.")


def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    db: DbOpt = None,
    chronicle: ChronicleOpt = None,
    qr: QrOpt = True,
    expires: ExpiresOpt = "never",
    json_out: JsonOpt = False,
) -> None:
    """Serve the live table: a page for the Storyteller and each player.

    Prints a join link (and QR code) per person; rolls, Willpower, damage, scenes, extended actions and
    contests show on every page as they happen, whichever process made them. Ctrl-C stops the server;
    every change is already stored.
    """
    import os

    from stkit.config import database_url, default_chronicle
    from stkit.store.db import open_store
    from stkit.store.events import parse_lifetime

    _check_port(port)
    check_host(host)
    lifetime = parse_lifetime(expires)
    chron = default_chronicle(chronicle)
    from stkit.text import MAX_NAME, check_text

    check_text(chron, "chronicle", limit=MAX_NAME)
    url = database_url(db)
    open_store(url)  # a bad --db or an old schema is reported (or migrated) before anything is printed
    check_port_free(host, port)  # last: every value is checked even when the port is taken
    shown_host = link_host(host)
    links = issue(url, chron, f"http://{shown_host}:{port}", rotate=False, lifetime=lifetime)
    if not _is_loopback(host):
        from stkit.cli import render

        render.print_text(
            f"Sharing on the local network ({host}:{port}): anyone on it with a link can join.",
            style="yellow",
            stderr=json_out,
        )
    print_links(links, qr=qr and not json_out, json_out=json_out)
    import sys

    sys.stdout.flush()
    import uvicorn

    # The web adapter is loaded by name: the CLI and the web layer never import each other. The app reads
    # the store and chronicle from the environment, as every stkit command does.
    os.environ["STKIT_DATABASE_URL"] = url
    os.environ["STKIT_CHRONICLE"] = chron
    os.environ["STKIT_TABLE_LISTEN"] = host  # the Host names the server answers to (stkit.web.security)
    os.environ["STKIT_TABLE_LINK_HOST"] = shown_host
    try:
        uvicorn.run(
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
        )
    except SystemExit as exc:  # uvicorn exits when the port is taken
        if exc.code:
            from stkit.errors import StkitError

            raise StkitError(f"cannot listen on {host}:{port} (is another server using the port?)") from None


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
    db: DbOpt = None,
    chronicle: ChronicleOpt = None,
    qr: QrOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Print new join links: one for the Storyteller and one per character.

    Only a hash of each link's token is stored, so every run hands out new links; the earlier ones keep
    working until --rotate revokes them (or --expires runs out). A revoked link's open pages stop within
    a second. --revoke NAME cuts off one person only. --host and --port say where `stkit serve` listens.
    """
    from stkit.config import default_chronicle
    from stkit.store.events import parse_lifetime

    _check_port(port)
    check_host(host)
    lifetime = parse_lifetime(expires)
    chron = default_chronicle(chronicle)
    if revoke is not None:
        if rotate:
            raise typer.BadParameter("--revoke and --rotate do not go together: --rotate already revokes every link")
        _revoke(db, chron, revoke, json_out=json_out)
        return
    links = issue(db, chron, f"http://{link_host(host)}:{port}", rotate=rotate, lifetime=lifetime)
    print_links(links, qr=qr and not json_out, json_out=json_out, rotated=rotate)


def _revoke(db: str | None, chronicle: str, who: str, *, json_out: bool) -> None:
    """`table links --revoke WHO`: revoke one person's links and say how many."""
    from stkit.cli import render
    from stkit.store.gateway import run_unit
    from stkit.store.links import revoke_links
    from stkit.text import printable

    count = run_unit(db, lambda gw: revoke_links(gw, chronicle, who))
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
