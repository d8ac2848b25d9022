"""The card database: a rebuildable SQLite file (stdlib sqlite3), separate from the character store.

Location: ``$STKIT_CARDS_DB`` if set, else ``platformdirs.user_data_dir("stkit")/cards.sqlite``; the CLI's
``--cards-db PATH`` overrides both. The packaged cards (``data/cards.yaml``) are loaded on open, so they are
always searchable; an imported card with the same name and set replaces a packaged one.

Name matching (search and show): exact normalized name, then prefix, then word match, then fuzzy
(rapidfuzz WRatio >= 80); text matches (FTS5 over rules text and keywords) come last.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stkit.errors import InvalidValue, NotFound, StoreError
from stkit.tcg.cards import (
    CARD_TYPES,
    AmbiguousName,
    Card,
    ParsedFile,
    Progress,
    RowError,
    builtin_cards_path,
    load_builtin_cards,
    normalize_name,
    parse_card_file,
)

SCHEMA_VERSION = "1"
_FIELDS = {f for f in Card.__dataclass_fields__}


def default_db_path() -> Path:
    """``$STKIT_CARDS_DB`` or ``<user data dir>/stkit/cards.sqlite``."""
    env = os.environ.get("STKIT_CARDS_DB")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("stkit")) / "cards.sqlite"


@dataclass
class ImportReport:
    """What an import did: cards written, rows skipped (with line numbers), format and file."""

    path: str
    format: str
    imported: int
    skipped: list[RowError] = field(default_factory=list)
    playtest: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping."""
        return {
            "file": self.path,
            "format": self.format,
            "imported": self.imported,
            "playtest": self.playtest,
            "skipped": [{"line": e.line, "message": e.message} for e in self.skipped],
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


_TIERS = {"exact": 0, "prefix": 1, "word": 2, "fuzzy": 3, "text": 4}


def _card_from_json(data: str) -> Card:
    raw = json.loads(data)
    return Card(**{k: v for k, v in raw.items() if k in _FIELDS})


class CardDB:
    """An open card database. Use as a context manager or call close()."""

    def __init__(self, path: str | Path | None = None):
        """Open (creating if needed) the database at ``path`` (default: default_db_path()).

        Raises StoreError if the file cannot be opened or is not a card database.
        """
        self.path = Path(path) if path else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path))
            self.conn.execute("PRAGMA journal_mode=WAL")
            self._create()
            self._ensure_builtins()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"card database {self.path}: {exc}") from None
        except OSError as exc:
            raise StoreError(f"card database {self.path}: {exc.strerror or exc}") from None

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
            c.executescript("DROP TABLE IF EXISTS cards; DROP TABLE IF EXISTS cards_fts; DELETE FROM meta;")
        c.executescript(
            """
            CREATE TABLE IF NOT EXISTS cards (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                norm TEXT NOT NULL,
                name TEXT NOT NULL,
                type TEXT,
                set_name TEXT,
                playtest INTEGER NOT NULL DEFAULT 0,
                kw TEXT NOT NULL DEFAULT '|',
                origin TEXT NOT NULL,
                data TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS cards_norm ON cards(norm);
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
            key = card.key + "|" + normalize_name(card.set or "")
            kw = "|" + "|".join(normalize_name(k) for k in card.keywords) + "|"
            data = json.dumps(card.to_dict(), ensure_ascii=False)
            old = self.conn.execute("SELECT id FROM cards WHERE key=?", (key,)).fetchone()
            if old and not replace:
                continue
            if old:
                self.conn.execute("DELETE FROM cards_fts WHERE rowid=?", (old[0],))
                self.conn.execute(
                    "UPDATE cards SET norm=?, name=?, type=?, set_name=?, playtest=?, kw=?, origin=?, data=? WHERE id=?",
                    (card.key, card.name, card.type, card.set, int(card.playtest), kw, origin, data, old[0]),
                )
                rowid = old[0]
            else:
                cur = self.conn.execute(
                    "INSERT INTO cards (key, norm, name, type, set_name, playtest, kw, origin, data)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (key, card.key, card.name, card.type, card.set, int(card.playtest), kw, origin, data),
                )
                rowid = cur.lastrowid
            body = " ".join(
                filter(
                    None,
                    [
                        card.text or "",
                        " ".join(card.keywords),
                        card.type or "",
                        " ".join(card.requirements),
                        " ".join(card.errata),
                    ],
                )
            )
            self.conn.execute("INSERT INTO cards_fts (rowid, name, body) VALUES (?, ?, ?)", (rowid, card.name, body))
            n += 1
        return n

    # --- import ----------------------------------------------------------------------------------------

    def import_file(self, path: str | Path, progress: Progress | None = None, strict: bool = False) -> ImportReport:
        """Validate a whole card file, then store its cards in one transaction (all or nothing).

        ``strict``: refuse the whole file if any Lackey row is unreadable. Raises DataFileError for bad
        files (naming file and place); StoreError if the database write fails (nothing is kept).
        """
        from stkit.errors import DataFileError

        parsed: ParsedFile = parse_card_file(path, progress)
        if strict and parsed.errors:
            first = parsed.errors[0]
            raise DataFileError(
                f"{path}: line {first.line}: {first.message} ({len(parsed.errors)} unreadable row(s); nothing imported)"
            )
        try:
            with self.conn:
                n = self._write(parsed.cards, origin=str(Path(path).name), replace=True)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"card database {self.path}: import failed, nothing imported: {exc}") from None
        return ImportReport(str(path), parsed.format, n, parsed.errors, sum(c.playtest for c in parsed.cards))

    # --- queries ---------------------------------------------------------------------------------------

    def count(self, include_playtest: bool = True) -> int:
        """Number of cards stored."""
        q = "SELECT COUNT(*) FROM cards" + ("" if include_playtest else " WHERE playtest=0")
        return self.conn.execute(q).fetchone()[0]

    def _rows(self, type_: str | None, keyword: str | None, playtest: bool) -> list[tuple[int, str]]:
        sql = "SELECT id, norm FROM cards WHERE 1=1"
        args: list[Any] = []
        if not playtest:
            sql += " AND playtest=0"
        if type_:
            folded = {normalize_name(t): t for t in CARD_TYPES}
            if normalize_name(type_) not in folded:
                raise InvalidValue(f"card type {type_!r} is not one of {', '.join(CARD_TYPES)}")
            sql += " AND type=?"
            args.append(folded[normalize_name(type_)])
        if keyword:
            k = normalize_name(keyword)
            sql += " AND (kw LIKE ? OR lower(type)=?)"
            args += [f"%|{k}|%", k]
        return self.conn.execute(sql + " ORDER BY id", args).fetchall()

    def search(
        self,
        query: str = "",
        type_: str | None = None,
        keyword: str | None = None,
        playtest: bool = False,
        limit: int = 20,
    ) -> list[CardMatch]:
        """Cards matching ``query`` best first: exact normalized name, prefix, word, fuzzy, then text.

        Empty query lists every card passing the filters. ``playtest`` includes playtest cards (hidden by
        default). Raises InvalidValue for an unknown type or a limit outside 1..500.
        """
        if not 1 <= limit <= 500:
            raise InvalidValue(f"limit {limit} is out of range 1..500")
        rows = self._rows(type_, keyword, playtest)
        q = normalize_name(query)
        if not q:
            data = self._data([rid for rid, _ in rows[:limit]])
            return [CardMatch(_card_from_json(data[rid]), "all", 100.0) for rid, _ in rows[:limit]]
        found: dict[int, tuple[int, float]] = {}
        for rid, norm in rows:
            if norm == q:
                found[rid] = (0, 100.0)
            elif norm.startswith(q):
                found[rid] = (1, 100.0 * len(q) / len(norm))
            elif f" {q}" in f" {norm}":
                found[rid] = (2, 100.0 * len(q) / len(norm))
        if len(found) < limit:
            from rapidfuzz import fuzz, process

            choices = {rid: norm for rid, norm in rows if rid not in found}
            for _, score, rid in process.extract(q, choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=80):
                found[rid] = (3, score)
        if len(found) < limit:
            allowed = {rid for rid, _ in rows}
            terms = " OR ".join(f'"{w}"' for w in q.split())
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

    def find(self, name: str, include_playtest: bool = True) -> Card:
        """The one card ``name`` means: exact normalized name, else a unique prefix, else a clear fuzzy match.

        Several printings with the same exact name: the most recently stored wins. Raises AmbiguousName
        listing candidates when several different names fit, NotFound with suggestions when none does.
        """
        q = normalize_name(name)
        if not q:
            raise InvalidValue("card name is empty")
        rows = self._rows(None, None, include_playtest)
        exact = [rid for rid, norm in rows if norm == q]
        if exact:
            return _card_from_json(self._data(exact[-1:])[exact[-1]])
        by_name: dict[str, int] = {}
        for rid, norm in rows:
            by_name[norm] = rid  # the latest printing of each name
        prefixed = [n for n in by_name if n.startswith(q)]
        if len(prefixed) == 1:
            return self._card(by_name[prefixed[0]])
        if len(prefixed) > 1:
            raise AmbiguousName(name, sorted(self._card(by_name[n]).name for n in prefixed)[:12])
        from rapidfuzz import fuzz, process

        matches = process.extract(q, list(by_name), scorer=fuzz.WRatio, limit=5, score_cutoff=85)
        if matches:
            best = matches[0][1]
            top = [m[0] for m in matches if m[1] >= best - 3]
            if len(top) == 1:
                return self._card(by_name[top[0]])
            raise AmbiguousName(name, sorted(self._card(by_name[n]).name for n in top))
        raise NotFound(f"no card named {name!r}{self._hint(q, by_name)}")

    def _data(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.conn.execute(f"SELECT id, data FROM cards WHERE id IN ({marks})", ids).fetchall())

    def _card(self, rid: int) -> Card:
        return _card_from_json(self._data([rid])[rid])

    def lookup(self, name: str) -> Card | None:
        """Exact normalized-name lookup (any printing, playtest included); None if absent."""
        row = self.conn.execute(
            "SELECT data FROM cards WHERE norm=? ORDER BY id DESC LIMIT 1", (normalize_name(name),)
        ).fetchone()
        return _card_from_json(row[0]) if row else None

    def suggestions(self, name: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` card names close to ``name`` (rapidfuzz WRatio >= 70)."""
        from rapidfuzz import fuzz, process

        names = {norm: nm for norm, nm in self.conn.execute("SELECT norm, name FROM cards")}
        hits = process.extract(normalize_name(name), list(names), scorer=fuzz.WRatio, limit=limit, score_cutoff=70)
        return [names[h[0]] for h in hits]

    def _hint(self, q: str, by_name: dict[str, str]) -> str:
        close = self.suggestions(q)
        return f"; did you mean {', '.join(close)}?" if close else ""
