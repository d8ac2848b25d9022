"""Fetching the community Rage card list: download it, then import it like a file.

The community's card data is the LackeyCCG plugin's list (tab-separated, one card a row, the plugin's own
column names). A public copy is kept in the ``robgreenuk-cmyk/rageccg`` repository as ``public/rage_cards.json``:
the plugin's rows as JSON records under the plugin's column names (``Name``, ``Expansion``, ``ImageFile``,
``Sealed``, ``Type``, ``Notes``, ``Requires``, ``Keywords``, ``Renown`` ... ``Errata``), keyed by card name, the
plugin's own faults included (a text fragment in a name, a sentence in ``Expansion``). That copy is the default
source; ``url`` takes a mirror holding either shape: the plugin's tab-separated file as is, or such JSON, which
is turned back into the plugin's tab-separated rows so that one reader (:mod:`stkit.tcg.lackey`) judges every
row whichever way it came.

Only ``http`` and ``https`` addresses are fetched, at most MAX_CARD_FILE_BYTES, within ``timeout`` seconds.
"""

from __future__ import annotations

import json
import tempfile
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from stkit.errors import DataFileError, InvalidValue, StkitError
from stkit.tcg.cards import MAX_CARD_FILE_BYTES

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


class FetchError(StkitError):
    """The card list could not be downloaded (offline, refused, not found, too large). One line naming the
    address and what to do."""


def _check_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidValue(f"--url {url!r} is not an http:// or https:// address of a card list")
    return url.strip()


def download(url: str, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = MAX_CARD_FILE_BYTES) -> bytes:
    """The bytes at ``url`` (http or https), at most ``max_bytes``, waiting at most ``timeout`` seconds
    for each network step. Raises InvalidValue for another kind of address or a timeout outside 1..600,
    FetchError (one line) when the address cannot be reached, answers with an error status, or sends more
    than ``max_bytes``."""
    url = _check_url(url)
    if not 1 <= timeout <= 600:
        raise InvalidValue(f"--timeout {timeout:g} is out of range 1..600 seconds")
    host = urlsplit(url).hostname
    request = urllib.request.Request(url, headers={"User-Agent": "stkit card fetch"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url}: the server answered {exc.code} {exc.reason}; give a copy with --url") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(
            f"cannot reach {host} ({reason}); are you offline? Try again when connected, or give a mirror with"
            " --url, or import a downloaded copy with `stkit tcg cards import FILE`"
        ) from None
    if len(data) > max_bytes:
        raise FetchError(f"{url}: the card list is larger than {max_bytes} bytes; nothing imported")
    if not data.strip():
        raise FetchError(f"{url}: the server sent an empty file; nothing imported")
    return data


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


def plugin_bytes(data: bytes, source: str) -> bytes:
    """``data`` as a plugin file: JSON (first character ``{`` or ``[``) is turned into the plugin's rows
    (UTF-8), anything else is kept byte for byte for the importer to decode. Raises DataFileError for JSON
    that cannot be read or is not a card list."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head not in (b"{", b"["):
        return data
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataFileError(f"{source}: not readable JSON ({exc}); nothing imported") from None
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
