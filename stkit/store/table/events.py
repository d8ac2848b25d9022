"""The table's event log, and the join links of the table server.

Every change a use case makes (a roll, a Willpower spend or other sheet change, damage and healing, a scene
opened, a turn, a scene closed, an extended action or contest started, rolled or abandoned) also writes one
row to ``table_events`` in the SAME transaction, through :func:`record_event`. The web server streams the
rows after the id a page last saw, so a roll made by any process reaches every page and a page that slept
catches up; a rolled-back change leaves no event.

Event ids grow in commit order, so "every id above the last one seen" never skips a row:

- SQLite: every write transaction holds the database's write lock (``BEGIN IMMEDIATE``), so writers commit
  one after another and each takes the next id (AUTOINCREMENT, never reused).
- PostgreSQL: a sequence hands out ids at insert time, not at commit time, so two writers could commit out
  of order. The rows are therefore held back until the transaction commits, then inserted under a
  transaction-scoped advisory lock PER CHRONICLE (:func:`event_lock_keys`; released when the commit is
  visible), with a ``NOTIFY`` for the servers' LISTEN. The locks are the last ones a transaction takes, in
  key order, so they cannot deadlock with row locks or with each other.

So ids grow in commit order WITHIN a chronicle, not across chronicles: on PostgreSQL an event of one
chronicle may commit after a higher id of another. A reader therefore keeps one cursor per chronicle
(``chronicle = :c AND id > :last_of_c``, as :func:`events_after` and :func:`events_after_each` read);
one cursor over several chronicles could skip a row.

``secret`` events (a Storyteller's secret roll) are returned only to readers allowed to see them.

Join links: a random token per person (:func:`secrets.token_urlsafe`, 192 bits); only its SHA-256 is
stored. :func:`issue_links` hands out new tokens (the old ones stay valid unless ``rotate``), and
:func:`find_link_holder` says who holds a token.

Data shapes are JSON objects; see :func:`roll_event_data` for a roll's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from stkit.errors import InvalidValue
from stkit.store.db.gateway import PgGateway, SessionGateway, iso_utc
from stkit.text import MAX_NAME, check_range, check_text, parse_whole_number, printable

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


if TYPE_CHECKING:  # pragma: no cover
    from stkit.dice import RollResult
    from stkit.store.db.gateway import Gateway

#: The kinds of event: what changed. 'links' (join links rotated or revoked) is always secret and no page
#: shows it: it tells the servers to check their open streams' links at once.
EVENT_KINDS = ("roll", "sheet", "scene", "extended", "contest", "message", "whisper", "links", "attack", "call")
#: The PostgreSQL NOTIFY channel; the payload is the chronicle (at most MAX_NAME characters, far below
#: PostgreSQL's 8,000-byte payload limit).
NOTIFY_CHANNEL = "stkit_table_events"
#: The first key of the two-key ``pg_advisory_xact_lock(int, int)`` that orders one chronicle's event
#: inserts on PostgreSQL; the second is the chronicle's hash (:func:`event_lock_keys`).
EVENT_LOCK_KEY = 0x57A8
#: Token size in bytes (192 bits; at least 128 are asked for).
TOKEN_BYTES = 24

_COLUMNS = "id, created_at, chronicle, kind, secret, character_id, data"
_INSERT = (
    "INSERT INTO table_events (created_at, chronicle, kind, secret, character_id, data) "
    "VALUES (:created_at, :chronicle, :kind, :secret, :character_id, :data)"
)
_PENDING = "stkit_table_events_pending"
#: Events kept in ``table_events``: the newest this many ids. The table is the live pages' feed and a
#: reconnecting page's catch-up, not the record: every roll stays in ``roll_log`` (and sheets, scenes and
#: tracked actions in their own tables), so older events are dropped.
EVENT_WINDOW = 10_000
#: How often (every this many event ids) the older events are dropped, in the writer's transaction.
PRUNE_EVERY = 500


@dataclass(frozen=True)
class TableEvent:
    """One stored event: ``id`` (grows in commit order), ``created_at`` (ISO 8601 UTC text), ``kind`` (one of
    :data:`EVENT_KINDS`), ``secret`` (Storyteller only), ``character_id`` (or None) and ``data`` (a dict)."""

    id: int
    created_at: str
    chronicle: str
    kind: str
    secret: bool
    character_id: int | None
    data: dict

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "chronicle": self.chronicle,
            "kind": self.kind,
            "secret": self.secret,
            "character_id": self.character_id,
            "data": self.data,
        }


def record_event(
    gw: Gateway,
    *,
    chronicle: str,
    kind: str,
    data: dict,
    secret: bool = False,
    character_id: int | None = None,
) -> None:
    """Write one event in the caller's transaction. ``kind`` is one of
    :data:`EVENT_KINDS`; ``data`` a JSON-ready dict. Raises InvalidValue for an unknown kind."""

    if kind not in EVENT_KINDS:
        raise InvalidValue(f"event kind {kind!r} is not one of {', '.join(EVENT_KINDS)}")
    params = {
        "created_at": gw.timestamp(datetime.now(UTC)),
        "chronicle": chronicle,
        "kind": kind,
        "secret": bool(secret),
        "character_id": character_id,
        "data": json.dumps(data, sort_keys=True, ensure_ascii=False, default=str),
    }
    if gw.dialect == "postgresql" and isinstance(gw, SessionGateway):
        _hold_until_commit(gw.session, params)
    elif isinstance(gw, PgGateway):
        gw.before_commit(_PENDING, params, _write_held)
    else:
        gw.execute(_INSERT, **params)
        prune_events(gw)


def prune_events(gw: Gateway, *, window: int | None = None, every: int | None = None) -> int:
    """Keep ``table_events`` to the newest ``window`` ids: when the newest id is a multiple of ``every``,
    delete the rows at least ``window`` ids older (one indexed range delete, in the caller's transaction).
    Returns the number of rows deleted (0 most of the time). Defaults: EVENT_WINDOW and PRUNE_EVERY."""
    window = EVENT_WINDOW if window is None else window
    every = PRUNE_EVERY if every is None else every
    row = gw.row("SELECT MAX(id) FROM table_events")
    newest = int(row[0]) if row and row[0] is not None else 0
    if newest % every:
        return 0
    old = gw.row("SELECT COUNT(*) FROM table_events WHERE id <= :edge", edge=newest - window)
    gw.execute("DELETE FROM table_events WHERE id <= :edge", edge=newest - window)
    return int(old[0]) if old else 0


def event_lock_keys(chronicle: str) -> tuple[int, int]:
    """The two 32-bit keys of the advisory lock that orders ``chronicle``'s event inserts on PostgreSQL:
    (:data:`EVENT_LOCK_KEY`, the first four bytes of the name's SHA-256 as a signed int). Two chronicles
    whose hashes meet share a lock: slower, never wrong."""
    import hashlib  # lazy: start-up (PostgreSQL's lock keys only)

    digest = hashlib.sha256(chronicle.encode("utf-8", "surrogatepass")).digest()
    return EVENT_LOCK_KEY, int.from_bytes(digest[:4], "big", signed=True)


def _hold_until_commit(session: Session, params: dict) -> None:
    """Queue an event on the Session; :func:`_insert_held` writes the queue just before the commit."""
    from sqlalchemy import event  # lazy: start-up (heavy library, loaded when needed)

    if _PENDING not in session.info:
        session.info[_PENDING] = []
        if not session.info.get(_PENDING + "_hooked"):
            event.listen(session, "before_commit", _insert_held)
            event.listen(session, "after_rollback", _drop_held)
            session.info[_PENDING + "_hooked"] = True
    session.info[_PENDING].append(params)


def _insert_held(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint ending; the events go in with the outer commit
    held = session.info.pop(_PENDING, None)
    if not held:
        return
    from sqlalchemy import text  # lazy: start-up (heavy library, loaded when needed)

    conn = session.connection()

    def run(sql: str, params: dict) -> list:
        result = conn.execute(text(sql), params)
        return list(result) if result.returns_rows else []

    _insert_under_locks(run, held)


def _write_held(gw: PgGateway, held: list[dict]) -> None:
    _insert_under_locks(lambda sql, params: gw.rows(sql, **params), held)


def _insert_under_locks(run: Callable[[str, dict], list], held: list[dict]) -> None:
    """Insert the ``held`` events of a transaction about to commit: first each chronicle's advisory lock,
    in key order, then the rows (pruning the window), then one NOTIFY per chronicle. ``run(sql, params)``
    returns the rows of a query."""
    for first, second in sorted({event_lock_keys(p["chronicle"]) for p in held}):
        run("SELECT pg_advisory_xact_lock(:a, :b)", {"a": first, "b": second})
    for params in held:
        run(_INSERT, params)
        newest = run("SELECT MAX(id) FROM table_events", {})[0][0] or 0
        if newest % PRUNE_EVERY == 0:
            run("DELETE FROM table_events WHERE id <= :edge", {"edge": newest - EVENT_WINDOW})
    for chronicle in sorted({p["chronicle"] for p in held}):
        run("SELECT pg_notify(:ch, :chronicle)", {"ch": NOTIFY_CHANNEL, "chronicle": chronicle})


def _drop_held(session: Session) -> None:
    session.info.pop(_PENDING, None)


def dice_marks(roll: RollResult) -> list[str]:
    """How each die of ``roll`` is shown, in roll order, as stored in a roll event: the values of
    :func:`stkit.dice.marks.die_marks` ('success', 'success cancelled', 'one', 'one cancelling' or '')."""

    from stkit.dice.marks import die_marks  # lazy: start-up (edits that roll nothing do not load the dice)

    return [str(m) for m in die_marks(roll)]


def roll_event_data(
    *,
    log_id: int,
    character: str,
    expression: str,
    breakdown: str | None,
    result: RollResult,
    scene_id: int | None,
    turn: int | None,
    task: str | None,
    kind: str,
) -> dict:
    """The data of a 'roll' event: ``log_id``, ``character`` ('' for a roll without one), ``expression``,
    ``breakdown`` (the pool as built: 'Dexterity 3 + Brawl 4 = 7 dice', or None), ``roll`` (the JSON of
    ``stkit roll --json``), ``marks`` (see :func:`dice_marks`), ``scene_id``, ``turn``, ``task`` and ``for``
    (the log entry's kind: 'roll', 'extended', 'contest')."""
    return {
        "log_id": log_id,
        "character": character,
        "expression": expression,
        "breakdown": breakdown,
        "roll": result.to_dict(),
        "marks": dice_marks(result),
        "scene_id": scene_id,
        "turn": turn,
        "task": task,
        "for": kind,
    }


def _event(row: tuple) -> TableEvent:

    rid, created, chronicle, kind, secret, character_id, data = row
    return TableEvent(int(rid), iso_utc(created), chronicle, kind, bool(secret), character_id, json.loads(data or "{}"))


def events_after(
    gw: Gateway, chronicle: str, after_id: int, *, include_secret: bool, limit: int = 500
) -> list[TableEvent]:
    """The events of ``chronicle`` with an id above ``after_id`` (0 or more), oldest first, at most ``limit``
    (1..10000); secret ones only when ``include_secret``. Raises InvalidValue for a bad ``after_id``/``limit``."""

    check_range(after_id, "event id", 0, 2**62)
    check_range(limit, "limit", 1, 10_000)
    sql = f"SELECT {_COLUMNS} FROM table_events WHERE chronicle = :chronicle AND id > :after"
    if not include_secret:
        sql += " AND secret = :no"
    params: dict[str, Any] = {"chronicle": chronicle, "after": after_id, "limit": limit}
    if not include_secret:
        params["no"] = False
    return [_event(r) for r in gw.rows(sql + " ORDER BY id LIMIT :limit", **params)]


def events_after_each(
    gw: Gateway, cursors: dict[str, int], *, include_secret: bool, limit: int = 500
) -> list[TableEvent]:
    """The events of several chronicles in one query, each after its own cursor: ``cursors`` maps a chronicle
    to the id its reader last saw (0 or more; at most 200 chronicles). Oldest id first, at most ``limit``
    (1..10000); whatever the limit cuts, each chronicle's rows are the oldest of its own, so moving each
    cursor to its chronicle's last row returned never skips one. Raises InvalidValue for a bad cursor,
    limit or count."""

    check_range(limit, "limit", 1, 10_000)
    check_range(len(cursors), "chronicles read at once", 0, 200)
    if not cursors:
        return []
    params: dict[str, Any] = {"limit": limit}
    terms = []
    for n, (chronicle, after_id) in enumerate(sorted(cursors.items())):
        check_range(after_id, "event id", 0, 2**62)
        terms.append(f"(chronicle = :c{n} AND id > :a{n})")
        params[f"c{n}"], params[f"a{n}"] = chronicle, after_id
    sql = f"SELECT {_COLUMNS} FROM table_events WHERE ({' OR '.join(terms)})"
    if not include_secret:
        sql, params["no"] = sql + " AND secret = :no", False
    return [_event(r) for r in gw.rows(sql + " ORDER BY id LIMIT :limit", **params)]


def recent_events(
    gw: Gateway, chronicle: str, *, kind: str | None = None, include_secret: bool, limit: int = 50
) -> list[TableEvent]:
    """The newest ``limit`` (1..10000) events of ``chronicle`` (of ``kind`` when given), NEWEST first; secret
    ones only when ``include_secret``."""
    return chronicle_events(gw, chronicle, kind=kind, include_secret=include_secret, limit=limit)


def chronicle_events(
    gw: Gateway,
    chronicle: str,
    *,
    kind: str | None = None,
    include_secret: bool = True,
    character_id: int | None = None,
    before: int | None = None,
    limit: int = 200,
) -> list[TableEvent]:
    """The events of ``chronicle``, NEWEST first: at most ``limit`` (1..10000), secret ones only when
    ``include_secret``, of ``kind`` and of ``character_id`` when given, with an id below ``before`` when
    given (to page back)."""

    check_range(limit, "limit", 1, 10_000)
    sql = f"SELECT {_COLUMNS} FROM table_events WHERE chronicle = :chronicle"
    params: dict[str, Any] = {"chronicle": chronicle, "limit": limit}
    if kind is not None:
        sql, params["kind"] = sql + " AND kind = :kind", kind
    if not include_secret:
        sql, params["no"] = sql + " AND secret = :no", False
    if character_id is not None:
        sql, params["character_id"] = sql + " AND character_id = :character_id", character_id
    if before is not None:
        sql, params["before"] = sql + " AND id < :before", before
    return [_event(r) for r in gw.rows(sql + " ORDER BY id DESC LIMIT :limit", **params)]


def last_event_ids(gw: Gateway, chronicles: list[str]) -> dict[str, int]:
    """{chronicle: the id of its newest event (0: none)} for each of ``chronicles`` (one query)."""
    if not chronicles:
        return {}
    names = {f"c{n}": c for n, c in enumerate(sorted(set(chronicles)))}
    marks = ", ".join(":" + k for k in names)
    rows = gw.rows(
        f"SELECT chronicle, MAX(id) FROM table_events WHERE chronicle IN ({marks}) GROUP BY chronicle", **names
    )
    found = {c: int(m) for c, m in rows if m is not None}
    return {c: found.get(c, 0) for c in names.values()}


def last_event_id(gw: Gateway, chronicle: str) -> int:
    """The id of the newest event of ``chronicle`` (any audience), 0 when there is none."""
    row = gw.row("SELECT MAX(id) FROM table_events WHERE chronicle = :chronicle", chronicle=chronicle)
    return int(row[0]) if row and row[0] is not None else 0


# ------------------------------------------------------------------------------------------------ links


@dataclass(frozen=True)
class IssuedLink:
    """A join link just issued: ``role`` 'storyteller' or 'player', the player's character (name, id), and
    the token (shown once; only its hash is stored)."""

    role: str
    character: str | None
    character_id: int | None
    token: str
    expires_at: datetime | None = None


@dataclass(frozen=True)
class LinkHolder:
    """Who holds a valid token: ``role`` 'storyteller' or 'player', the ``chronicle``, for a player the
    character's id and name, and when the link expires (None: when it is revoked)."""

    role: str
    chronicle: str
    character_id: int | None
    character: str | None
    expires_at: datetime | None = None

    @property
    def is_storyteller(self) -> bool:
        return self.role == "storyteller"


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256 as 64 hex digits."""
    import hashlib  # lazy: start-up (join links only)

    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: The longest a link may last when it expires (`table links --expires`): 366 days, in seconds.
MAX_LINK_SECONDS = 366 * 24 * 3600
_UNITS = {"m": 60, "h": 3600, "d": 86400}


def parse_lifetime(text: str, what: str = "--expires") -> int | None:
    """A link's lifetime typed as a whole number and a unit, ``m`` (minutes), ``h`` (hours) or ``d`` (days),
    as seconds (1 minute to 366 days); ``never`` (or an empty text) is None: the link lasts until revoked.
    Raises InvalidValue naming ``what`` for anything else ('12', '1.5h', '0m', '400d')."""

    body = str(text).strip().lower()
    if body in ("", "never"):
        return None
    unit = body[-1:]
    if unit not in _UNITS or not body[:-1].strip():
        raise InvalidValue(
            f"{what} {printable(text)[:40]!r} is not a lifetime; give a number and m, h or d (12h, 30m, 7d) or never"
        )
    count = parse_whole_number(body[:-1], what, 1, MAX_LINK_SECONDS // _UNITS[unit])
    return count * _UNITS[unit]


def _stored_datetime(value: object) -> datetime:

    return datetime.fromisoformat(iso_utc(value).replace("Z", "+00:00"))


def issue_links(
    gw: Gateway,
    chronicle: str,
    *,
    rotate: bool = False,
    lifetime: int | None = None,
    storyteller: bool = True,
    characters: Collection[int] | None = None,
) -> list[IssuedLink]:
    """New join links for ``chronicle``: one for the Storyteller (unless ``storyteller`` is False), then
    one per character (by name; only the ids in ``characters`` when given), each lasting ``lifetime``
    seconds (None: until revoked; see :func:`parse_lifetime`). With ``rotate`` every earlier link of the
    chronicle is revoked first, in the same transaction, with a 'links' event that ends the streams they
    hold. Raises InvalidValue for a bad chronicle name or lifetime."""

    check_text(chronicle, "chronicle", limit=MAX_NAME)
    if lifetime is not None:
        check_range(lifetime, "link lifetime (seconds)", 60, MAX_LINK_SECONDS)
    moment = datetime.now(UTC)
    now = gw.timestamp(moment)
    expires = moment + timedelta(seconds=lifetime) if lifetime is not None else None
    if rotate:
        gw.execute(
            "UPDATE table_links SET revoked_at = :now WHERE chronicle = :chronicle AND revoked_at IS NULL",
            now=now,
            chronicle=chronicle,
        )
        record_event(gw, chronicle=chronicle, kind="links", data={"change": "rotated"}, secret=True)
    people: list[tuple[str, str | None, int | None]] = [("storyteller", None, None)] if storyteller else []
    rows = gw.rows("SELECT id, name FROM characters WHERE chronicle = :c ORDER BY name_key", c=chronicle)
    people += [("player", name, cid) for cid, name in rows if characters is None or cid in characters]
    import secrets  # lazy: start-up (join links only)

    issued = []
    for role, name, cid in people:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        gw.execute(
            "INSERT INTO table_links (chronicle, role, character_id, token_hash, created_at, expires_at) "
            "VALUES (:chronicle, :role, :cid, :hash, :now, :expires)",
            chronicle=chronicle,
            role=role,
            cid=cid,
            hash=hash_token(token),
            now=now,
            expires=gw.timestamp(expires) if expires is not None else None,
        )
        issued.append(IssuedLink(role, name, cid, token, expires))
    return issued


_VALID = (
    "l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > :now) "
    "AND (l.role = 'storyteller' OR c.name IS NOT NULL)"
)


def find_link_holder(gw: Gateway, token: str | None) -> LinkHolder | None:
    """Who holds ``token`` (a link neither revoked nor expired, whose character still exists), or None for
    a missing, malformed, forged, revoked or expired token."""
    if not token or len(token) > 200:
        return None
    row = gw.row(
        "SELECT l.role, l.chronicle, l.character_id, c.name, l.expires_at FROM table_links l "
        f"LEFT JOIN characters c ON c.id = l.character_id WHERE l.token_hash = :hash AND {_VALID}",
        hash=hash_token(token),
        now=gw.timestamp(datetime.now(UTC)),
    )
    if row is None:
        return None
    role, chronicle, cid, name, expires = row
    return LinkHolder(role, chronicle, cid, name, _stored_datetime(expires) if expires is not None else None)


def links_in_force(gw: Gateway, chronicle: str) -> dict[str, datetime | None]:
    """{token hash: expiry (None: none)} of every link of ``chronicle`` that works now: what a server
    checks its open streams against."""
    return links_in_force_of(gw, [chronicle])


def links_in_force_of(gw: Gateway, chronicles: list[str]) -> dict[str, datetime | None]:
    """:func:`links_in_force` of several chronicles at once (one query; at most 1,000 chronicles)."""
    check_range(len(chronicles), "chronicles read at once", 0, 1000)
    if not chronicles:
        return {}
    names = {f"c{n}": c for n, c in enumerate(sorted(set(chronicles)))}
    marks = ", ".join(":" + k for k in names)
    rows = gw.rows(
        "SELECT l.token_hash, l.expires_at FROM table_links l LEFT JOIN characters c ON c.id = l.character_id "
        f"WHERE l.chronicle IN ({marks}) AND {_VALID}",
        now=gw.timestamp(datetime.now(UTC)),
        **names,
    )
    return {h: (_stored_datetime(e) if e is not None else None) for h, e in rows}


def record_tracked_event(gw: Gateway, row: Any, kind: str, change: str) -> None:
    """The event of a change to a tracked row: ``kind`` 'extended' (an extended action) or 'contest', with
    ``change`` 'started', 'rolled' or 'abandoned'; data: id, name, status, target and the tally (tallies)."""
    data = {"id": row.id, "name": row.name, "status": row.status, "target": row.target, "change": change}
    if kind == "contest":
        data |= {"tally_a": row.tally_a, "tally_b": row.tally_b, "winner": row.winner}
    else:
        data |= {"tally": row.tally, "rolls": row.rolls}
    record_event(gw, chronicle=row.chronicle, kind=kind, data=data)
