"""PostgreSQL over libpq itself (through :mod:`ctypes`), for the fast path of one-shot commands.

Importing psycopg costs about 70 ms on an idle machine (it loads asyncio, ssl, importlib.metadata and some
hundred classes), more than the whole rest of a roll's work on PostgreSQL; ``ctypes`` and libpq load in a
few. This module speaks to libpq's C API directly (PQconnectdbParams, PQexecParams in text format; see
https://www.postgresql.org/docs/current/libpq-exec.html) and gives :class:`stkit.store.db.gateway.PgGateway`
the little of psycopg's interface it uses (``execute(sql, params)``, a result's ``description`` and
``fetchall()``, errors with a ``sqlstate``), with psycopg's types:

- parameters: None is NULL; bool, int (int2, int4, int8 or numeric by size, as psycopg picks), float,
  Decimal, datetime (timestamptz when aware, timestamp when naive), date and bytes are sent with their
  type; str is sent untyped, so the server takes it as the column's type (psycopg's StrDumperUnknown).
- results: bool, the integers, float, numeric (Decimal), json and jsonb (parsed), timestamp(tz) (datetime,
  aware in the session's time zone), date, bytea (bytes); anything else as text.

libpq is the system's (``libpq.so.5``) or the one the psycopg-binary wheel carries; when neither loads,
:func:`load` returns None and the caller uses psycopg. Not thread-safe: one connection per thread.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

_NAMED = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")
#: Result statuses (libpq-fe.h, ExecStatusType).
_COMMAND_OK, _TUPLES_OK = 1, 2
#: PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY (postgres_ext.h).
_SQLSTATE, _MESSAGE = ord("C"), ord("M")
_CONNECTION_OK = 0


class PgError(Exception):
    """A statement or the connection failed; ``sqlstate`` is the server's SQLSTATE code (None: no server
    answer, e.g. the connection was lost)."""

    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def _candidates() -> list[str]:
    """Where libpq may be: the system's, then the copy inside an installed psycopg-binary wheel."""
    found = ["libpq.so.5", "libpq.5.dylib"]
    for entry in sys.path:
        libs = os.path.join(entry or ".", "psycopg_binary.libs")
        try:
            names = sorted(n for n in os.listdir(libs) if n.startswith("libpq"))
        except OSError:
            continue
        found += [os.path.join(libs, n) for n in names]
    return found


@lru_cache(maxsize=1)
def load() -> Any | None:
    """libpq as a :class:`ctypes.CDLL` with the signatures used here, or None when none loads."""
    for name in _candidates():
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        p, c, i, u = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_uint
        for fname, res, args in (
            ("PQconnectdbParams", p, [ctypes.POINTER(c), ctypes.POINTER(c), i]),
            ("PQstatus", i, [p]),
            ("PQerrorMessage", c, [p]),
            ("PQfinish", None, [p]),
            ("PQsetNoticeProcessor", p, [p, p, p]),
            ("PQexecParams", p, [p, c, i, ctypes.POINTER(u), ctypes.POINTER(c), p, p, i]),
            ("PQresultStatus", i, [p]),
            ("PQresultErrorField", c, [p, i]),
            ("PQresultErrorMessage", c, [p]),
            ("PQclear", None, [p]),
            ("PQntuples", i, [p]),
            ("PQnfields", i, [p]),
            ("PQfname", c, [p, i]),
            ("PQftype", u, [p, i]),
            ("PQgetisnull", i, [p, i, i]),
            ("PQgetvalue", c, [p, i, i]),
        ):
            fn = getattr(lib, fname)
            fn.restype, fn.argtypes = res, args
        return lib
    return None


#: A notice processor that drops the server's notices (libpq's default prints them on stderr).
_QUIET = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)(lambda arg, message: None)


@lru_cache(maxsize=512)
def dollar_sql(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` with ``:name`` parameters as ``$1``, ``$2``... (one number per name) and the names in order."""
    names: dict[str, int] = {}

    def number(match: re.Match) -> str:
        return f"${names.setdefault(match.group(1), len(names) + 1)}"

    return _NAMED.sub(number, sql), tuple(names)


def _param(value: Any) -> tuple[bytes | None, int]:
    """(the text of ``value`` for the server, its type OID; 0 lets the server infer it)."""
    if value is None:
        return None, 0
    if isinstance(value, bool):
        return (b"t" if value else b"f"), 16
    if isinstance(value, int):
        oid = 21 if -(2**15) <= value < 2**15 else 23 if -(2**31) <= value < 2**31 else 20
        return str(value).encode(), (oid if -(2**63) <= value < 2**63 else 1700)
    if isinstance(value, str):
        return value.encode("utf-8"), 0
    if isinstance(value, float):
        return repr(value).replace("inf", "Infinity").replace("nan", "NaN").encode(), 701
    if isinstance(value, Decimal):
        return str(value).encode(), 1700
    if isinstance(value, datetime):
        return value.isoformat(" ").encode(), (1184 if value.tzinfo is not None else 1114)
    if isinstance(value, date):
        return value.isoformat().encode(), 1082
    if isinstance(value, (bytes, bytearray, memoryview)):
        return b"\\x" + bytes(value).hex().encode(), 17
    raise PgError(f"cannot adapt type {type(value).__name__!r} as a query parameter")


def _timestamp(text: str) -> datetime:
    """A timestamp(tz) in PostgreSQL's ISO output ('2026-12-04 14:05:01.5+00', '+05:30'), as a datetime."""
    if len(text) > 3 and text[-3] in "+-" and text[-3:].replace("+", "").replace("-", "").isdigit():
        text += ":00"  # an offset of whole hours is written '+HH'
    return datetime.fromisoformat(text)


_LOADERS: dict[int, Any] = {
    16: lambda t: t == "t",
    20: int,
    21: int,
    23: int,
    26: int,
    700: float,
    701: float,
    1700: Decimal,
    114: json.loads,
    3802: json.loads,
    1114: _timestamp,
    1184: _timestamp,
    1082: date.fromisoformat,
    17: lambda t: bytes.fromhex(t[2:]),
}


class Result:
    """The rows of one statement: ``description`` (one (name,) per column, None when it returns none)
    and :meth:`fetchall`."""

    def __init__(self, description: list[tuple[str]] | None, rows: list[tuple]) -> None:
        self.description = description
        self._rows = rows

    def fetchall(self) -> list[tuple]:
        return self._rows


class Connection:
    """One libpq connection in autocommit mode (each statement commits unless a BEGIN is open)."""

    def __init__(self, lib: Any, handle: int) -> None:
        self._lib = lib
        self._conn: int | None = handle

    @property
    def closed(self) -> bool:
        return self._conn is None

    def execute(self, sql: str, params: dict[str, Any] | None = None, *, prepare: bool = False) -> Result:
        """Run one statement with ``:name`` parameters from ``params``; its rows. PgError when it fails."""
        if self._conn is None:
            raise PgError("the connection is closed")
        lib = self._lib
        text, names = dollar_sql(sql)
        values = [_param((params or {})[n]) for n in names]
        count = len(values)
        types = (ctypes.c_uint * count)(*(oid for _, oid in values))
        data = (ctypes.c_char_p * count)(*(v for v, _ in values))
        res = lib.PQexecParams(self._conn, text.encode("utf-8"), count, types, data, None, None, 0)
        if not res:
            raise PgError(_first_line(lib.PQerrorMessage(self._conn)) or "the server did not answer")
        try:
            status = lib.PQresultStatus(res)
            if status not in (_COMMAND_OK, _TUPLES_OK):
                message = lib.PQresultErrorField(res, _MESSAGE) or lib.PQresultErrorMessage(res)
                state = lib.PQresultErrorField(res, _SQLSTATE)
                raise PgError(_first_line(message) or "the statement failed", state.decode() if state else None)
            fields = lib.PQnfields(res)
            if not fields:
                return Result(None, [])
            names_out = [(lib.PQfname(res, f).decode("utf-8"),) for f in range(fields)]
            loaders = [_LOADERS.get(lib.PQftype(res, f)) for f in range(fields)]
            rows = []
            for r in range(lib.PQntuples(res)):
                row: list[Any] = []
                for f, load_value in enumerate(loaders):
                    if lib.PQgetisnull(res, r, f):
                        row.append(None)
                        continue
                    value = lib.PQgetvalue(res, r, f).decode("utf-8")
                    row.append(load_value(value) if load_value is not None else value)
                rows.append(tuple(row))
            return Result(names_out, rows)
        finally:
            lib.PQclear(res)

    def close(self) -> None:
        if self._conn is not None:
            self._lib.PQfinish(self._conn)
            self._conn = None

    def __del__(self) -> None:  # a connection never closed still ends its server session
        self.close()


def _first_line(raw: bytes | None) -> str:
    text = (raw or b"").decode("utf-8", "replace").strip()
    return text.splitlines()[0] if text else ""


def connect(conninfo: str, *, timeout: int) -> Connection | None:
    """A connection to the libpq URI ``conninfo`` (UTF-8, waiting at most ``timeout`` seconds); None when
    libpq does not load or the server cannot be reached (the caller's slower path then says why)."""
    lib = load()
    if lib is None:
        return None
    keys = [b"dbname", b"connect_timeout", b"client_encoding", None]
    values = [conninfo.encode("utf-8"), str(timeout).encode(), b"UTF8", None]
    handle = lib.PQconnectdbParams((ctypes.c_char_p * 4)(*keys), (ctypes.c_char_p * 4)(*values), 1)
    if not handle:
        return None
    if lib.PQstatus(handle) != _CONNECTION_OK:
        lib.PQfinish(handle)
        return None
    lib.PQsetNoticeProcessor(handle, ctypes.cast(_QUIET, ctypes.c_void_p), None)
    return Connection(lib, handle)
