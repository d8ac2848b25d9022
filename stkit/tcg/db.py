"""The card database: a rebuildable SQLite file (stdlib sqlite3), separate from the character store.

Location: ``$STKIT_CARDS_DB`` if set, else ``cards.sqlite`` beside the SQLite store $STKIT_DATABASE_URL names,
else ``platformdirs.user_data_dir("stkit")/cards.sqlite``; the CLI's
``--cards-db PATH`` overrides both. Only the default folder is ever created: a path whose folder does not
exist, a folder, or a database URL is refused with one line (:func:`check_db_path`). The packaged cards
(``data/cards.yaml``) are loaded on open, so they are always searchable; an imported card is another
printing (its own set) beside a packaged card of the same name, and showing it keeps the packaged
rulings and errata visible.

Name matching (search and show, over one card pool): exact folded name (:func:`stkit.text.fold_name`),
then prefix, then word match, then fuzzy (rapidfuzz WRatio >= 80); text matches (FTS5 over rules text and
keywords) come last. Rows an import refused are remembered with their reason, so a deck naming such a
card is told why it is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, InvalidValue, NotFound, StoreError
from stkit.tcg.cardfiles import builtin_cards_path, load_builtin_cards, parse_card_file
from stkit.tcg.cards import (
    AmbiguousName,
    Card,
    ParsedFile,
    Progress,
    RowError,
)
from stkit.tcg.common import fold_name, fold_words
from stkit.text import MAX_SHORT_TEXT, check_text, counted, parse_whole_number, printable, without_surrogates

SCHEMA_VERSION = "2"
_FIELDS = {f for f in Card.__dataclass_fields__}
_URL_RE = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


def default_db_path() -> Path:
    """``$STKIT_CARDS_DB``, else ``cards.sqlite`` beside the SQLite store $STKIT_DATABASE_URL names, else
    ``<user data dir>/stkit/cards.sqlite`` (:func:`stkit.config.companion_path`)."""
    env = os.environ.get("STKIT_CARDS_DB")
    if env:
        return Path(env)
    return _default_location()


def _default_location() -> Path:
    from stkit.config import companion_path  # lazy: start-up (loaded when the card database is opened)

    return companion_path("cards.sqlite")


def check_db_path(path: str | Path, *, source: str = "--cards-db") -> Path:
    """``path`` when it can hold the card database: a file (or a new name) in an existing folder. Only the
    default folder may be created, and only with owner-only permissions.

    Raises InvalidValue naming ``source`` (``--cards-db`` or ``STKIT_CARDS_DB``) for an empty value, a
    database URL, a folder, control characters, or a path whose folder does not exist.
    """
    text = os.fspath(path)
    path = Path(text)
    shown = printable(text)
    if not text.strip():
        raise InvalidValue(f"{source} is empty; give the path of a card database file")
    if _URL_RE.match(text):
        # the rest of a URL may hold a password: name only its scheme
        scheme = text.split(":", 1)[0]
        raise InvalidValue(
            f"{source} is a URL ({printable(scheme)}://...); the card database is a local SQLite file path"
        )
    if shown != text:
        raise InvalidValue(f"{source} {shown!r} contains control characters; give a plain file path")
    if path.is_dir():
        raise InvalidValue(f"{source} {shown!r} is a folder; give the path of a card database file")
    if path.exists() and not path.is_file():
        raise InvalidValue(f"{source} {shown!r} is not a regular file (a device or a pipe); give a database file")
    if path.exists():
        if not _is_sqlite_file(path):
            # named, never quoted: the file may be anything the user pointed at
            raise InvalidValue(f"{source} {shown!r} is not an SQLite card database; nothing was changed")
    elif path.suffix.casefold() not in DB_SUFFIXES:
        raise InvalidValue(
            f"{source} {shown!r} is not a card database file name; a new one ends in "
            f"{', '.join(DB_SUFFIXES)} (e.g. cards.sqlite)"
        )
    parent = path.parent
    if not parent.is_dir():
        if path == _default_location():
            _make_private_folders(parent)
        else:
            raise InvalidValue(
                f"{source} {shown!r}: the folder {printable(os.fspath(parent))!r} does not exist; create it first"
            )
    return path


#: The endings a new card database file may have; an existing file is recognised by its SQLite header.
DB_SUFFIXES = (".sqlite", ".sqlite3", ".db")
_SQLITE_MAGIC = b"SQLite format 3\x00"


def _is_sqlite_file(path: Path) -> bool:
    """True for an SQLite database file (its 16-byte header) or an empty file SQLite would initialise."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_SQLITE_MAGIC))
    except OSError:
        return True  # unreadable: opening it reports the operating system's reason
    return head in (b"", _SQLITE_MAGIC)


def _make_private_folders(folder: Path) -> None:
    """Create ``folder`` and each missing parent owner-only (0700), whatever the umask: mkdir's mode is
    masked by the umask and does not apply to the parents it creates."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=0o700, exist_ok=True)
        os.chmod(made, 0o700)


@dataclass
class ImportReport:
    """What an import did: cards written, rows refused (with line numbers and reasons), rows merged into
    the row before them or listed twice, warnings about cards kept, format and file."""

    path: str
    format: str
    imported: int
    skipped: list[RowError] = field(default_factory=list)
    playtest: int = 0
    merged: list[RowError] = field(default_factory=list)
    warnings: list[RowError] = field(default_factory=list)
    rows: int = 0
    text_only: int = 0
    untyped: list[RowError] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; ``skipped`` holds the refused rows, ``rows`` the non-blank rows read,
        ``untyped`` the Combat Actions whose kind nothing on the card gives."""
        return {
            "file": self.path,
            "format": self.format,
            "imported": self.imported,
            "playtest": self.playtest,
            "skipped": [{"line": e.line, "message": e.message} for e in self.skipped],
            "merged": [{"line": e.line, "message": e.message} for e in self.merged],
            "warnings": [{"line": e.line, "card": e.name, "message": e.message} for e in self.warnings],
            "rows": self.rows,
            "text_only": self.text_only,
            "untyped": [{"line": e.line, "card": e.name, "message": e.message} for e in self.untyped],
        }


@dataclass
class CardMatch:
    """A search hit: the card and how it matched (exact, prefix, word, fuzzy, text) with a score 0..100."""

    card: Card
    match: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        """Short JSON-ready mapping."""
        c = self.card
        return {
            "name": c.name,
            "type": c.type,
            "set": c.set,
            "playtest": c.playtest,
            "match": self.match,
            "score": round(self.score, 1),
            "keywords": c.keywords,
        }


@dataclass(frozen=True)
class NumberRange:
    """An inclusive range of a card number: ``low`` and ``high`` (None: unbounded on that side)."""

    low: int | None = None
    high: int | None = None

    @classmethod
    def parse(cls, text: str, what: str) -> NumberRange:
        """``"3"``, ``"2..4"``, ``"3.."`` or ``"..5"`` (0 to 999). Raises InvalidValue naming ``what``."""
        m = re.fullmatch(r"\s*([0-9]{1,3})?\s*(\.\.)?\s*([0-9]{1,3})?\s*", text or "")
        if not m or not (m.group(1) or m.group(3)) or (m.group(3) and not m.group(2)):
            raise InvalidValue(
                f"{what} {printable(text)!r} is not a number or range; use 3, 2..4, 3.. or ..5 (0 to 999)"
            )
        low = parse_whole_number(m.group(1), what, 0, 999) if m.group(1) else None
        high = parse_whole_number(m.group(3), what, 0, 999) if m.group(3) else (low if not m.group(2) else None)
        if low is not None and high is not None and low > high:
            raise InvalidValue(f"{what} {printable(text)!r}: the low end {low} is above the high end {high}")
        return cls(low, high)


#: Filters of a card search, each matched against its own column: name -> SQL column.
RANGE_FILTERS = {"renown": "renown", "rage": "rage", "gnosis": "gnosis", "health": "health"}
RANGE_FILTERS |= {"rage_cost": "rage_cost", "damage": "damage"}


@dataclass(frozen=True)
class CardFilter:
    """What a card search keeps: every given filter must hold (folded text, keywords as list items)."""

    type: str | None = None
    keywords: tuple[str, ...] = ()
    tribe: str | None = None
    breed: str | None = None
    auspice: str | None = None
    set: str | None = None
    crinos: bool | None = None
    playtest: bool = False
    ranges: tuple[tuple[str, NumberRange], ...] = ()


_TIERS = {"exact": 0, "prefix": 1, "word": 2, "fuzzy": 3, "text": 4}


def _card_from_json(data: str) -> Card:
    raw = json.loads(data)
    return Card(**{k: v for k, v in raw.items() if k in _FIELDS})


def _listed(values: Iterable[str]) -> str:
    return "|" + "|".join(fold_name(v) for v in values if fold_name(v)) + "|"


def _num(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class Printing:
    """One printing of a card name: its set, where it came from (``builtin`` or the file's name), and
    whether its text and numbers differ from the printing shown."""

    set: str | None
    origin: str
    differs: bool

    def to_dict(self) -> dict[str, Any]:
        return {"set": self.set, "origin": self.origin, "differs": self.differs}


@dataclass(frozen=True)
class CardView:
    """A card as ``cards show`` presents it: the printing chosen, every printing of its name, and the
    rulings and errata of the packaged card of that name merged in (``merged_from`` names their source)."""

    card: Card
    origin: str
    printings: tuple[Printing, ...]
    merged_from: str | None = None

    @property
    def printings_differ(self) -> bool:
        """True when some other printing of the name has other text or numbers."""
        return any(p.differs for p in self.printings)

    def to_dict(self) -> dict[str, Any]:
        """The card's fields plus ``origin``, ``printings`` and ``printings_differ``."""
        return {
            **self.card.to_dict(),
            "origin": self.origin,
            "printings": [p.to_dict() for p in self.printings],
            "printings_differ": self.printings_differ,
        }


def _comparable(card: Card) -> dict[str, Any]:
    data = card.to_dict()
    for key in ("set", "playtest", "extra", "rulings", "possibly_truncated"):
        data.pop(key, None)
    return data


class CardDB:
    """An open card database. Use as a context manager or call close()."""

    def __init__(self, path: str | Path | None = None, *, source: str = "--cards-db"):
        """Open (creating if needed) the database at ``path`` (default: default_db_path(), checked as
        ``STKIT_CARDS_DB`` when that variable names it).

        Raises InvalidValue for a path that cannot hold the database (see check_db_path), StoreError if
        the file cannot be opened or is not a card database.
        """
        if path is not None:
            self.path = check_db_path(path, source=source)
        else:
            env = os.environ.get("STKIT_CARDS_DB")
            self.path = check_db_path(env or default_db_path(), source="STKIT_CARDS_DB" if env else "the card database")
        shown = printable(os.fspath(self.path))
        new = not self.path.exists()
        try:
            self.conn = sqlite3.connect(str(self.path))
            if new:
                # reference data, but the user's own: owner-only whatever the umask
                self.conn.execute("PRAGMA user_version")
                os.chmod(self.path, 0o600)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"card database {shown}: cannot open: {exc}") from None
        try:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self._create()
            self._ensure_builtins()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(f"card database {shown}: {exc}") from None
        except OSError as exc:
            self.conn.close()
            raise StoreError(f"card database {shown}: {exc.strerror or exc}") from None

    def __enter__(self) -> CardDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def _create(self) -> None:
        c = self.conn
        c.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        row = c.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row and row[0] != SCHEMA_VERSION:
            # rebuildable reference data: drop and recreate rather than migrate
            c.executescript(
                "DROP TABLE IF EXISTS cards; DROP TABLE IF EXISTS cards_fts; DROP TABLE IF EXISTS refused;"
                " DELETE FROM meta;"
            )
        c.executescript(
            """
            CREATE TABLE IF NOT EXISTS cards (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                norm TEXT NOT NULL,
                words TEXT NOT NULL,
                name TEXT NOT NULL,
                type TEXT,
                types TEXT NOT NULL DEFAULT '|',
                set_name TEXT,
                set_key TEXT NOT NULL DEFAULT '',
                playtest INTEGER NOT NULL DEFAULT 0,
                kw TEXT NOT NULL DEFAULT '|',
                tribe TEXT,
                breed TEXT,
                auspice TEXT,
                renown INTEGER,
                rage INTEGER,
                gnosis INTEGER,
                health INTEGER,
                rage_cost INTEGER,
                damage INTEGER,
                crinos INTEGER NOT NULL DEFAULT 0,
                origin TEXT NOT NULL,
                data TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS cards_norm ON cards(norm);
            CREATE TABLE IF NOT EXISTS refused (
                norm TEXT NOT NULL,
                name TEXT NOT NULL,
                file TEXT NOT NULL,
                line INTEGER NOT NULL,
                reason TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS refused_norm ON refused(norm);
            CREATE VIRTUAL TABLE IF NOT EXISTS cards_fts USING fts5(
                name, body, tokenize = 'porter unicode61 remove_diacritics 2');
            """
        )
        c.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        c.commit()

    def _ensure_builtins(self) -> None:
        digest = hashlib.sha256(builtin_cards_path().read_bytes()).hexdigest()
        row = self.conn.execute("SELECT value FROM meta WHERE key='builtin'").fetchone()
        if row and row[0] == digest:
            return
        cards = load_builtin_cards()
        with self.conn:
            ids = [r[0] for r in self.conn.execute("SELECT id FROM cards WHERE origin='builtin'")]
            self.conn.executemany("DELETE FROM cards_fts WHERE rowid=?", [(i,) for i in ids])
            self.conn.execute("DELETE FROM cards WHERE origin='builtin'")
            self._write(cards, origin="builtin", replace=False)
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('builtin', ?)", (digest,))

    def _write(self, cards: Iterable[Card], origin: str, replace: bool) -> int:
        n = 0
        for card in cards:
            set_key = fold_name(card.set or "")
            key = card.key + "|" + set_key
            crinos = card.crinos_side or {}
            columns = (
                card.key,
                fold_words(card.name),
                card.name,
                card.type,
                _listed(card.types),
                card.set,
                set_key,
                int(card.playtest),
                _listed([*card.keywords, *card.types]),
                fold_name(card.tribe) if card.tribe else None,
                fold_name(card.breed) if card.breed else None,
                fold_name(card.auspice) if card.auspice else None,
                _num(card.renown),
                _num(card.rage),
                _num(card.gnosis),
                _num(card.health),
                _num(card.rage_cost),
                _num(card.damage),
                int(any(v is not None for k, v in crinos.items() if k != "text")),
                origin,
                json.dumps(card.to_dict(), ensure_ascii=False),
            )
            old = self.conn.execute("SELECT id FROM cards WHERE key=?", (key,)).fetchone()
            if old and not replace:
                continue
            if old:
                self.conn.execute("DELETE FROM cards_fts WHERE rowid=?", (old[0],))
                self.conn.execute("DELETE FROM cards WHERE id=?", (old[0],))
            cur = self.conn.execute(
                "INSERT INTO cards (key, norm, words, name, type, types, set_name, set_key, playtest, kw, tribe,"
                " breed, auspice, renown, rage, gnosis, health, rage_cost, damage, crinos, origin, data)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, *columns),
            )
            rowid = cur.lastrowid
            body = " ".join(
                filter(
                    None,
                    [
                        card.text or "",
                        " ".join(card.keywords),
                        " ".join(card.types),
                        " ".join(card.requirements),
                        " ".join(card.errata),
                    ],
                )
            )
            self.conn.execute("INSERT INTO cards_fts (rowid, name, body) VALUES (?, ?, ?)", (rowid, card.name, body))
            n += 1
        return n

    # --- import ----------------------------------------------------------------------------------------

    def import_file(
        self, path: str | Path, progress: Progress | None = None, strict: bool = False, *, refresh: bool = False
    ) -> ImportReport:
        """Validate a whole card file, then store its cards in one transaction (all or nothing).

        ``refresh``: first drop every card an earlier import of a file of the same name stored, in the same
        transaction, so the new list replaces the old one whole (a card the new list no longer has is gone).

        ``strict``: refuse the whole file if any Lackey row is refused or warned about (a value that
        could not be read, an unknown type, a possibly cut text, ...). The refused rows are remembered
        (name, file, line, reason) for deck checks. Raises DataFileError for bad files (naming file and
        place); StoreError if the database write fails (nothing is kept).
        """

        parsed: ParsedFile = parse_card_file(path, progress)
        shown = printable(os.fspath(path))
        problems = sorted([*parsed.errors, *parsed.warnings], key=lambda e: e.line)
        if strict and problems:
            first = problems[0]
            raise DataFileError(
                f"{shown}: line {first.line}: {first.message} "
                f"({counted(len(problems), 'problem row')}; nothing imported)"
            )
        origin = Path(path).name
        try:
            with self.conn:
                if refresh:
                    self.conn.execute(
                        "DELETE FROM cards_fts WHERE rowid IN (SELECT id FROM cards WHERE origin=?)", (origin,)
                    )
                    self.conn.execute("DELETE FROM cards WHERE origin=?", (origin,))
                n = self._write(parsed.cards, origin=origin, replace=True)
                self.conn.execute("DELETE FROM refused WHERE file=?", (origin,))
                self.conn.executemany(
                    "INSERT INTO refused (norm, name, file, line, reason) VALUES (?, ?, ?, ?, ?)",
                    [(fold_name(e.name), e.name, origin, e.line, e.message) for e in parsed.errors if e.name],
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"card database {printable(os.fspath(self.path))}: import failed, nothing imported: {exc}"
            ) from None
        return ImportReport(
            shown,
            parsed.format,
            n,
            parsed.errors,
            sum(c.playtest for c in parsed.cards),
            parsed.merged,
            parsed.warnings,
            parsed.lines or len(parsed.cards),
            sum(1 for c in parsed.cards if c.text_only),
            parsed.untyped,
        )

    # --- queries ---------------------------------------------------------------------------------------

    def count(self, include_playtest: bool = True) -> int:
        """Number of cards stored."""
        q = "SELECT COUNT(*) FROM cards" + ("" if include_playtest else " WHERE playtest=0")
        return int(self.conn.execute(q).fetchone()[0])

    def imported_count(self) -> int:
        """Number of cards stored from imported or fetched lists (stkit's built-in cards left out): 0 on a
        fresh install."""
        return int(self.conn.execute("SELECT COUNT(*) FROM cards WHERE origin != 'builtin'").fetchone()[0])

    def types(self) -> list[str]:
        """Every card type present (types and subtypes), sorted."""
        found: set[str] = set()
        for (data,) in self.conn.execute("SELECT DISTINCT data FROM cards WHERE types != '|'"):
            found.update(_card_from_json(data).types)
        return sorted(found)

    def _rows(self, flt: CardFilter) -> list[tuple[int, str, str]]:
        for what, value in (("--type", flt.type), ("--tribe", flt.tribe), ("--breed", flt.breed)):
            _check_query(value, what)
        for what, value in (("--auspice", flt.auspice), ("--set", flt.set)):
            _check_query(value, what)
        for keyword in flt.keywords:
            _check_query(keyword, "--keyword")
        sql = "SELECT id, norm, words FROM cards WHERE 1=1"
        args: list[Any] = []
        if not flt.playtest:
            sql += " AND playtest=0"
        if flt.type:
            k = fold_name(flt.type)
            sql += " AND types LIKE ?"
            args.append(f"%|{_like(k)}|%")
            if not self.conn.execute("SELECT 1 FROM cards WHERE types LIKE ? LIMIT 1", (f"%|{_like(k)}|%",)).fetchone():
                shown = ", ".join(self.types())
                raise InvalidValue(f"card type {printable(flt.type)!r} is not a type of any card; known: {shown}")
        self._refuse_values_no_card_has(flt)
        for keyword in flt.keywords:
            sql += " AND kw LIKE ?"
            args.append(f"%|{_like(fold_name(keyword))}|%")
        for column, value in (("tribe", flt.tribe), ("breed", flt.breed), ("auspice", flt.auspice)):
            if value:
                k = fold_name(value)
                if column == "tribe":
                    sql += " AND (tribe=? OR tribe=? OR kw LIKE ?)"
                    args += [k, k.rstrip("s") + "s", f"%|{_like(k)}|%"]
                else:
                    sql += f" AND {column}=?"
                    args.append(k)
        if flt.set:
            sql += " AND set_key=?"
            args.append(fold_name(flt.set))
        if flt.crinos is not None:
            sql += " AND crinos=?"
            args.append(int(flt.crinos))
        for name, rng in flt.ranges:
            column = RANGE_FILTERS[name]
            if rng.low is not None:
                sql += f" AND {column} >= ?"
                args.append(rng.low)
            if rng.high is not None:
                sql += f" AND {column} <= ?"
                args.append(rng.high)
            if rng.low is None and rng.high is None:
                sql += f" AND {column} IS NOT NULL"
        return self.conn.execute(sql + " ORDER BY id", args).fetchall()

    def _refuse_values_no_card_has(self, flt: CardFilter) -> None:
        """Raise InvalidValue (one line) for a filter value no card in the database has, naming the values
        that exist (for keywords, the close ones): an empty answer would look like "no such card" when the
        value itself is the mistake."""
        checks = (
            ("--tribe", "tribe", flt.tribe, "(tribe=? OR tribe=? OR kw LIKE ?)"),
            ("--breed", "breed", flt.breed, "breed=?"),
            ("--auspice", "auspice", flt.auspice, "auspice=?"),
            ("--set", "set", flt.set, "set_key=?"),
        )
        for option, field_name, value, test in checks:
            if not value:
                continue
            k = fold_name(value)
            args = [k, k.rstrip("s") + "s", f"%|{_like(k)}|%"] if field_name == "tribe" else [k]
            if self.conn.execute(f"SELECT 1 FROM cards WHERE {test} LIMIT 1", args).fetchone():
                continue
            found = sorted(self._values(field_name), key=str.casefold)
            known = f"the {field_name}s on cards are {', '.join(found)}" if found else f"no card has a {field_name}"
            if (
                field_name != "tribe"
                and self.conn.execute("SELECT 1 FROM cards WHERE kw LIKE ? LIMIT 1", (f"%|{_like(k)}|%",)).fetchone()
            ):
                # a keyword asked for as a breed ("Feline", "Hyaena" are animal kinds, not breeds)
                written = next((v for v in self._values("keywords") if fold_name(v) == k), value)
                known += f"; {printable(written)} is a keyword: use --keyword {printable(written)}"
            raise InvalidValue(f"{option} {printable(value)!r}: no card has that {field_name}; {known}")
        for keyword in flt.keywords:
            k = fold_name(keyword)
            if self.conn.execute("SELECT 1 FROM cards WHERE kw LIKE ? LIMIT 1", (f"%|{_like(k)}|%",)).fetchone():
                continue
            from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

            names = {fold_name(v): v for v in self._values("keywords")}
            close = process.extract(k, list(names), scorer=fuzz.WRatio, limit=5, score_cutoff=75)
            hint = f"; close ones: {', '.join(names[c[0]] for c in close)}" if close else ""
            raise InvalidValue(f"--keyword {printable(keyword)!r}: no card has that keyword (a whole list item){hint}")

    def _values(self, field_name: str) -> set[str]:
        """Every value of a card field (a list field's items) among the stored cards, as written."""
        out: set[str] = set()
        for (data,) in self.conn.execute("SELECT data FROM cards"):
            value = json.loads(data).get(field_name)
            if isinstance(value, list):
                out.update(str(v) for v in value if v)
            elif value:
                out.add(str(value))
        return out

    def search(
        self,
        query: str = "",
        type_: str | None = None,
        keyword: str | None = None,
        playtest: bool = False,
        limit: int = 20,
        filters: CardFilter | None = None,
    ) -> list[CardMatch]:
        """Cards matching ``query`` best first: exact folded name, prefix, word, fuzzy, then text.

        Empty query lists every card passing the filters (``filters``; ``type_`` / ``keyword`` /
        ``playtest`` are shorthands added to it). Raises InvalidValue for a type no card has or a limit
        outside 1..500.
        """
        if not 1 <= limit <= 500:
            raise InvalidValue(f"limit {limit} is out of range 1..500")
        flt = filters or CardFilter()
        if type_ or keyword or playtest:
            flt = replace(
                flt,
                type=type_ or flt.type,
                keywords=flt.keywords + ((keyword,) if keyword else ()),
                playtest=playtest or flt.playtest,
            )
        rows = self._rows(flt)
        _check_query(query, "search text")
        q = fold_name(query)
        qwords = fold_words(query)
        if not q:
            data = self._data([rid for rid, _, _ in rows[:limit]])
            return [CardMatch(_card_from_json(data[rid]), "all", 100.0) for rid, _, _ in rows[:limit]]
        found: dict[int, tuple[int, float]] = {}
        for rid, norm, words in rows:
            if norm == q:
                found[rid] = (0, 100.0)
            elif norm.startswith(q):
                found[rid] = (1, 100.0 * len(q) / len(norm))
            elif qwords and f" {qwords}" in f" {words}":
                found[rid] = (2, 100.0 * len(q) / len(norm))
        if len(found) < limit:
            from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

            choices = {rid: words for rid, _, words in rows if rid not in found}
            for _, score, rid in process.extract(qwords, choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=80):
                found[rid] = (3, score)
        if len(found) < limit and qwords:
            allowed = {rid for rid, _, _ in rows}
            terms = " OR ".join(f'"{w}"' for w in qwords.split())
            try:
                text_hits = self.conn.execute(
                    "SELECT rowid, bm25(cards_fts) FROM cards_fts WHERE cards_fts MATCH ? ORDER BY 2 LIMIT ?",
                    (terms, limit * 4),
                ).fetchall()
            except sqlite3.OperationalError:
                text_hits = []
            for rid, score in text_hits:
                if rid in allowed and rid not in found:
                    found[rid] = (4, -score)
        order = sorted(found, key=lambda r: (found[r][0], -found[r][1], r))[:limit]
        data = self._data(order)
        names = {0: "exact", 1: "prefix", 2: "word", 3: "fuzzy", 4: "text"}
        return [CardMatch(_card_from_json(data[r]), names[found[r][0]], found[r][1]) for r in order]

    def find(self, name: str, include_playtest: bool = True, set_: str | None = None) -> Card:
        """The one card ``name`` means: exact folded name, else a unique prefix, else a clear fuzzy match,
        among the cards a search would list (playtest cards only with ``include_playtest``).

        ``set_``: that printing (NotFound naming the sets there are). Several printings with the same
        exact name: the most recently stored wins. Raises AmbiguousName listing candidates when several
        different names fit, NotFound with suggestions when none does (and saying so when the name is a
        playtest card left out).
        """
        return self._find(name, include_playtest, set_)[0]

    def _find(self, name: str, include_playtest: bool, set_: str | None) -> tuple[Card, int]:
        _check_query(name, "card name")
        _check_query(set_, "--set")
        q = fold_name(name)
        if not q:
            raise InvalidValue("card name is empty")
        rows = self._rows(CardFilter(playtest=include_playtest))
        exact = _same_spelling(self._data, [rid for rid, norm, _ in rows if norm == q], name)
        if exact:
            rid = self._printing(exact, name, set_)
            return self._card(rid), rid
        by_name: dict[str, int] = {}
        for rid, norm, _ in rows:
            by_name[norm] = rid  # the latest printing of each name
        prefixed = [n for n in by_name if n.startswith(q)]
        if len(prefixed) == 1:
            return self._find(self._card(by_name[prefixed[0]]).name, include_playtest, set_)
        if len(prefixed) > 1:
            raise AmbiguousName(name, sorted({self._card(by_name[n]).name for n in prefixed})[:12])
        from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

        matches = process.extract(q, list(by_name), scorer=fuzz.WRatio, limit=5, score_cutoff=85)
        if matches:
            best = matches[0][1]
            top = [m[0] for m in matches if m[1] >= best - 3]
            if len(top) == 1:
                return self._find(self._card(by_name[top[0]]).name, include_playtest, set_)
            raise AmbiguousName(name, sorted({self._card(by_name[n]).name for n in top}))
        if (
            not include_playtest
            and self.conn.execute("SELECT 1 FROM cards WHERE norm=? AND playtest=1", (q,)).fetchone()
        ):
            raise NotFound(f"{printable(name)!r} is a playtest card, hidden unless asked: add --playtest")
        raise NotFound(f"no card named {printable(name)!r}{self._hint(q)}")

    def _printing(self, ids: list[int], name: str, set_: str | None) -> int:
        if set_ is None:
            return ids[-1]
        want = fold_name(set_)
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(f"SELECT id, set_key, set_name FROM cards WHERE id IN ({marks})", ids).fetchall()
        for rid, key, _ in rows:
            if key == want:
                return int(rid)
        sets = ", ".join(sorted(s or "(no set: built in)" for _, _, s in rows))
        raise NotFound(f"{printable(name)!r} has no printing in set {printable(set_)!r}; its sets: {sets}")

    def show(self, name: str, include_playtest: bool = False, set_: str | None = None) -> CardView:
        """The card ``name`` means (see find), with every printing of its name and, for an imported
        printing, the packaged card's rulings and errata merged in. Errors as for find."""
        card, rid = self._find(name, include_playtest, set_)
        rows = self.conn.execute("SELECT id, origin, data FROM cards WHERE norm=? ORDER BY id", (card.key,)).fetchall()
        if any(_spelling(_card_from_json(d).name) != _spelling(card.name) for _, _, d in rows):
            # another card folds to the same name ("Dis-Arm" beside "Disarm"): its rows are not printings of this one
            rows = [r for r in rows if _spelling(_card_from_json(r[2]).name) == _spelling(card.name)]
        mine = _comparable(card)
        origin = next(o for i, o, _ in rows if i == rid)
        printings = []
        merged_from = None
        for other_id, other_origin, data in rows:
            other = _card_from_json(data)
            printings.append(Printing(other.set, other_origin, other_id != rid and _comparable(other) != mine))
            if other_origin == "builtin" and other_id != rid:
                card = replace(
                    card,
                    rulings=list(dict.fromkeys([*card.rulings, *other.rulings])),
                    errata=list(dict.fromkeys([*card.errata, *other.errata])),
                )
                merged_from = "builtin"
        return CardView(card, origin, tuple(printings), merged_from)

    def _data(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.conn.execute(f"SELECT id, data FROM cards WHERE id IN ({marks})", ids).fetchall())

    def _card(self, rid: int) -> Card:
        return _card_from_json(self._data([rid])[rid])

    def lookup(self, name: str) -> Card | None:
        """Exact folded-name lookup (any printing, playtest included); None if absent."""
        rows = self.conn.execute("SELECT id, data FROM cards WHERE norm=? ORDER BY id", (fold_name(name),)).fetchall()
        if not rows:
            return None
        data = dict(rows)
        return _card_from_json(data[_same_spelling(lambda ids: data, list(data), name)[-1]])

    def exact(self, name: str) -> Card:
        """The card whose folded name is ``name``'s (the latest printing, playtest cards included), for files
        that name cards: no prefix or fuzzy guess is taken. Raises NotFound naming close names, or why an
        import refused a row of that name."""
        card = self.lookup(name)
        if card is not None:
            return card
        refusal = self.refusal(name)
        if refusal is not None:
            raise NotFound(
                f"card {printable(name)!r} is not in the card database: its import refused it ({refusal.message})"
            )
        raise NotFound(f"no card named {printable(name)!r}{self._hint(name)}")

    def refusal(self, name: str) -> RowError | None:
        """Why the last import that met a row named ``name`` refused it (file and line in the message), or
        None when no import refused such a row."""
        row = self.conn.execute(
            "SELECT name, file, line, reason FROM refused WHERE norm=? ORDER BY rowid DESC LIMIT 1", (fold_name(name),)
        ).fetchone()
        if row is None:
            return None
        return RowError(int(row[2]), f"{row[1]} line {row[2]}: {row[3]}", row[0])

    def suggestions(self, name: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` card names close to ``name``: rapidfuzz WRatio >= 80 on the folded names and a
        whole-name similarity (ratio) >= 65, so that a name merely containing a short card name ("gift"
        inside a sentence) or sharing a few letters is never offered."""
        from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

        names = {norm: nm for norm, nm in self.conn.execute("SELECT norm, name FROM cards")}
        q = fold_name(name)
        if not q:
            return []
        hits = process.extract(q, list(names), scorer=fuzz.WRatio, limit=limit * 4, score_cutoff=80)
        return [names[h[0]] for h in hits if fuzz.ratio(q, h[0]) >= 65][:limit]

    def _hint(self, q: str) -> str:
        close = self.suggestions(q)
        return f"; did you mean {', '.join(printable(c) for c in close)}?" if close else ""


def _check_query(value: str | None, what: str) -> None:
    """A name or word typed to look cards up: printable and at most MAX_SHORT_TEXT characters (no card
    name is longer), else InvalidValue naming ``what``. Undecodable bytes are dropped by the fold."""
    if value:
        check_text(without_surrogates(value), what, limit=MAX_SHORT_TEXT)


def _like(text: str) -> str:
    # fold_name output holds only letters, digits and signs: nothing LIKE treats specially
    return text


def _spelling(name: str) -> str:
    """A name as spelled, case and spaces and apostrophes aside: "Dis-Arm" and "Disarm" fold to one
    :func:`fold_name` but are two cards of the community list (TheWyrm's attack and Unlimited's action)."""
    return re.sub(r"[\s'\u2018\u2019\u00b4`]+", "", name.casefold())


def _same_spelling(data_of: Callable[[list[int]], dict[int, str]], ids: list[int], name: str) -> list[int]:
    """Of ``ids`` (rows whose folded name is ``name``'s, oldest first), those spelled as ``name`` is, when
    any is and the rows hold more than one spelling; else all of ``ids``."""
    if len(ids) < 2:
        return ids
    data = data_of(ids)
    spelled = [rid for rid in ids if _spelling(_card_from_json(data[rid]).name) == _spelling(name)]
    return spelled or ids
