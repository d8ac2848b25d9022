"""Fetching the community Rage card list: download it, then import it like a file.

The community's card data is the LackeyCCG plugin's list (tab-separated, one card a row, the plugin's own
column names). A public copy is kept in the ``robgreenuk-cmyk/rageccg`` repository as ``public/rage_cards.json``:
the plugin's rows as JSON records under the plugin's column names (``Name``, ``Expansion``, ``ImageFile``,
``Sealed``, ``Type``, ``Notes``, ``Requires``, ``Keywords``, ``Renown`` ... ``Errata``), keyed by card name, the
plugin's own faults included (a text fragment in a name, a sentence in ``Expansion``). That copy is the default
source; ``url`` takes a mirror holding either shape: the plugin's tab-separated file as is, or such JSON, which
is turned back into the plugin's tab-separated rows so that one reader (:mod:`stkit.tcg.lackey`) judges every
row whichever way it came.

Only ``http`` and ``https`` addresses are fetched, at most MAX_CARD_FILE_BYTES, the whole download within
``timeout`` seconds. A redirect is followed only to an ``http``/``https`` address on the same host and port
(or from ``http`` up to ``https`` on the standard ports), never from ``https`` down to ``http``; any other
redirect is refused with one line naming where it pointed, so that a mirror that moved is given again with
``--url`` on purpose. JSON is read as written: numbers stay the text they were (no 100,000-digit integer is
built; one over MAX_JSON_NUMBER characters is refused), and nesting deeper than MAX_JSON_DEPTH levels is
refused.
"""

from __future__ import annotations

import json
import tempfile
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from stkit.deadline import Deadline, DeadlinePassed, within
from stkit.errors import DataFileError, InvalidValue, StkitError
from stkit.tcg.cards import MAX_CARD_FILE_BYTES
from stkit.text import printable

if TYPE_CHECKING:
    from stkit.tcg.db import CardDB, ImportReport

#: The public copy of the community card list (see the module docstring); a mirror goes in ``url``.
COMMUNITY_LIST_URL = "https://raw.githubusercontent.com/robgreenuk-cmyk/rageccg/main/public/rage_cards.json"
#: The file name the fetched list is imported under: a later fetch replaces the cards of the earlier one.
FETCHED_NAME = "community-cards.txt"
#: The plugin's columns, in the plugin's order (a JSON copy's other keys follow, in the order first seen).
#: Source: the header row of the plugin's card data, as the JSON copy's keys give it.
PLUGIN_COLUMNS = (
    "Name", "Expansion", "ImageFile", "Sealed", "Type", "Notes", "Requires", "Keywords", "Renown", "Rage",
    "Gnosis", "Health", "CRage", "CGnosis", "CHealth", "Damage", "Text", "Errata",
)  # fmt: skip
DEFAULT_TIMEOUT = 30.0
#: Deepest nesting of lists and mappings read from a JSON card list (the real list nests two levels).
MAX_JSON_DEPTH = 20
#: Longest number read from a JSON card list, in characters (the real list's are one to three digits).
MAX_JSON_NUMBER = 100
#: Longest address shown in a message (a hostile redirect may name one of megabytes).
_SHOWN_URL = 200


class FetchError(StkitError):
    """The card list could not be downloaded (offline, refused, not found, too large). One line naming the
    address and what to do."""


def _check_url(url: str) -> str:
    bad = InvalidValue(f"--url '{_shown_url(url)}' is not an http:// or https:// address of a card list")
    try:
        parts = urlsplit(url.strip())
        host, _ = parts.hostname, parts.port  # each raises ValueError for a malformed host or port
    except ValueError:
        raise bad from None
    if (
        parts.scheme not in ("http", "https")
        or not host
        or any(ch.isspace() or not ch.isprintable() for ch in url.strip())
    ):
        raise bad
    return url.strip()


def _shown_url(url: str) -> str:
    """``url`` as a message may show it: control characters escaped, cut to _SHOWN_URL characters."""

    text = printable(url)
    return text if len(text) <= _SHOWN_URL else text[:_SHOWN_URL] + "..."


def _refused_redirect(old_url: str, new_url: str) -> str | None:
    """Why a redirect from ``old_url`` to ``new_url`` is not followed, or None when it may be."""
    try:
        old, new = urlsplit(old_url), urlsplit(new_url)
        new_host, new_port, old_port = new.hostname, new.port, old.port
    except ValueError:  # brackets that are no IPv6 address, a port that is no number
        return "is not a well-formed address"
    if new.scheme not in ("http", "https") or not new_host:
        return "is not an http:// or https:// address; only those are fetched"
    if new_host.lower() != (old.hostname or "").lower():
        return f"is on another host than {old.hostname}; give it with --url if you trust it"
    if old.scheme == "https" and new.scheme == "http":
        return "is plain http, redirected from https; give it with --url if you trust it"
    default = {"http": 80, "https": 443}
    if (new_port or default[new.scheme]) != (old_port or default[old.scheme]) and not (
        new_port is None and old_port is None  # http to https on the standard ports: the usual upgrade
    ):
        return f"is on another port of {old.hostname}; give it with --url if you trust it"
    return None


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to http(s) on the same host, never from https to http; raises FetchError
    naming the refused address otherwise (before urllib's own scheme check, so every refusal reads alike)."""

    def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
        location = headers.get("location") or headers.get("uri")
        if location is not None:
            try:
                new_url = urljoin(req.full_url, location)
            except ValueError:
                new_url = location
            reason = _refused_redirect(req.full_url, new_url)
            if reason is not None:
                fp.close()
                raise FetchError(
                    f"{_shown_url(req.full_url)}: the server redirects to {_shown_url(new_url)}, which {reason};"
                    " nothing imported"
                )
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def download(url: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = MAX_CARD_FILE_BYTES) -> bytes:
    """The bytes at ``url`` (http or https), at most ``max_bytes``, the whole download (connecting,
    redirects, every byte) within ``timeout`` seconds. Raises InvalidValue for another kind of address or a
    timeout outside 1..600, FetchError (one line) when the address cannot be reached, answers with an error
    status, sends more than ``max_bytes`` or is not done within ``timeout``."""
    url = _check_url(url)
    if not 1 <= timeout <= 600:
        raise InvalidValue(f"--timeout {timeout:g} is out of range 1..600 seconds")
    host = urlsplit(url).hostname
    request = urllib.request.Request(url, headers={"User-Agent": "stkit card fetch"})

    opener = urllib.request.build_opener(_SameHostRedirects())

    def fetch(deadline: Deadline) -> bytes:
        with opener.open(request, timeout=timeout) as response:
            chunks: list[bytes] = []
            size = 0
            while size <= max_bytes:
                deadline.check()
                chunk = response.read1(min(65536, max_bytes + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks)

    try:
        data = within(timeout, fetch)
    except DeadlinePassed:
        raise FetchError(
            f"{url}: the download did not finish within --timeout {timeout:g} seconds; nothing imported"
        ) from None
    except urllib.error.HTTPError as exc:
        raise FetchError(
            f"{url}: the server answered {exc.code} {one_line(exc.reason)}; give a copy with --url"
        ) from None
    except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
        reason = one_line(getattr(exc, "reason", exc))
        raise FetchError(
            f"cannot reach {host} ({reason}); are you offline? Try again when connected, or give a mirror with"
            " --url, or import a downloaded copy with `stkit tcg cards import FILE`"
        ) from None
    if len(data) > max_bytes:
        raise FetchError(f"{url}: the card list is larger than {max_bytes} bytes; nothing imported")
    if not data.strip():
        raise FetchError(f"{url}: the server sent an empty file; nothing imported")
    return data


def one_line(text: object) -> str:
    """``text`` on one line: its line breaks and runs of spaces as single spaces."""
    return " ".join(str(text).split())


def _cell(value: Any) -> str:
    # A value is written back as the plugin held it: a JSON copy made by a quote-aware reader glued several
    # plugin rows into one value (tabs and line breaks inside), and writing it raw gives those rows back.
    if value is None:
        return ""
    return (value if isinstance(value, str) else json.dumps(value)).replace("\r\n", "\n").replace("\r", "\n")


def records_to_plugin_text(data: Any, source: str) -> str:
    """The plugin's tab-separated text for a JSON card list: a list of records, or a mapping of name to
    record, each record a mapping of plugin column to value. Raises DataFileError naming ``source`` when
    the JSON is not of that shape."""
    records = list(data.values()) if isinstance(data, dict) else data
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
        raise DataFileError(f"{source}: a JSON card list must be a list (or a name mapping) of card records")
    if not any("Name" in r for r in records):
        raise DataFileError(f"{source}: no record has a 'Name'; this is not a Rage card list in the plugin's columns")
    # every plugin column, even one no record uses: rows glued into one value carry all of them
    columns = [*PLUGIN_COLUMNS, *dict.fromkeys(k for r in records for k in r if k not in PLUGIN_COLUMNS)]
    lines = ["\t".join(columns)]
    lines += ["\t".join(_cell(r.get(c)) for c in columns) for r in records]
    return "\n".join(lines) + "\n"


class _NumberTooLong(Exception):
    def __init__(self, length: int) -> None:
        self.length = length


def _as_written(text: str) -> str:
    # a JSON number (or NaN, Infinity) kept as the text it was: the plugin's cell, judged by the one reader
    if len(text) > MAX_JSON_NUMBER:
        raise _NumberTooLong(len(text))
    return text


def _too_deep(data: Any, limit: int) -> bool:
    """True when ``data`` nests lists/mappings more than ``limit`` levels (iterative: no recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def plugin_bytes(data: bytes, source: str) -> bytes:
    """``data`` as a plugin file: JSON (first character ``{`` or ``[``) is turned into the plugin's rows
    (UTF-8), anything else is kept byte for byte for the importer to decode. Numbers are kept as written.
    Raises DataFileError (one line) for JSON that cannot be read, is nested more than MAX_JSON_DEPTH levels
    or is not a card list."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head not in (b"{", b"["):
        return data
    too_deep = f"{source}: the JSON is nested more than {MAX_JSON_DEPTH} levels deep; nothing imported"
    try:
        parsed = json.loads(
            data.decode("utf-8-sig"), parse_int=_as_written, parse_float=_as_written, parse_constant=_as_written
        )
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"{source}: not readable JSON (byte {exc.start + 1} is not UTF-8); nothing imported"
        ) from None
    except json.JSONDecodeError as exc:
        raise DataFileError(
            f"{source}: not readable JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); nothing imported"
        ) from None
    except RecursionError:
        raise DataFileError(too_deep) from None
    except _NumberTooLong as exc:
        raise DataFileError(
            f"{source}: the JSON holds a number {exc.length} characters long; allowed: at most"
            f" {MAX_JSON_NUMBER}; nothing imported"
        ) from None
    if _too_deep(parsed, MAX_JSON_DEPTH):
        raise DataFileError(too_deep)
    return records_to_plugin_text(parsed, source).encode("utf-8")


def fetch_cards(db: CardDB, url: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> ImportReport:
    """Download the community card list (``url``, default COMMUNITY_LIST_URL) and import it into ``db``
    in one transaction, under the name FETCHED_NAME (a later fetch replaces it). Raises what download
    raises, DataFileError for a list that cannot be read, StoreError if the database write fails; nothing
    is stored unless the whole list was read."""
    source = url or COMMUNITY_LIST_URL
    data = plugin_bytes(download(source, timeout=timeout), source)
    with tempfile.TemporaryDirectory(prefix="stkit-cards-") as folder:
        path = Path(folder) / FETCHED_NAME
        path.write_bytes(data)
        try:
            report = db.import_file(path, refresh=True)
        except DataFileError as exc:
            # the message names the downloaded list by its address, not by the temporary file
            raise DataFileError(str(exc).replace(str(path), source)) from None
    return replace(report, path=source)
