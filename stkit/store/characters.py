"""Character use cases: create, find, list, edit, delete. Each function works inside the caller's
transaction (a Session from :func:`stkit.store.db.transaction`) and locks the row it edits, so two
concurrent edits of one character never lose each other's change (SQLite: the whole transaction holds the
write lock; PostgreSQL: SELECT ... FOR UPDATE).

Errors: NotFound (with a "did you mean"), InvalidValue, RuleRefusal; an edit that fails changes nothing
because the caller's transaction is rolled back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stkit.errors import InvalidValue, NotFound, StkitError
from stkit.store.sheet import Sheet
from stkit.store.traits import name_key, suggest

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from stkit.store.gateway import Gateway
    from stkit.store.models import Character


def sheet_from_json(text: str, name: str, chronicle: str) -> Sheet:
    """The validated Sheet stored as JSON ``text`` in the row of ``name`` in ``chronicle`` (the columns
    win over the document for the name and chronicle). Raises DataFileError for a damaged document."""
    s = Sheet.from_dict(json.loads(text), source=f"stored character {name!r}", strict=False)
    s.name, s.chronicle = name, chronicle
    return s


def sheet_columns(sheet: Sheet) -> dict[str, Any]:
    """The ``characters`` columns that follow from ``sheet``: the indexed identity columns and the JSON."""
    return {
        "name": sheet.name,
        "name_key": name_key(sheet.name),
        "chronicle": sheet.chronicle,
        "player": sheet.player,
        "breed": sheet.breed,
        "auspice": sheet.auspice,
        "tribe": sheet.tribe,
        "form": sheet.form,
        "sheet": json.dumps(sheet.to_dict(), ensure_ascii=False, sort_keys=False),
    }


@dataclass(frozen=True)
class CharacterRow:
    """A stored character read through the SQL gateway (no ORM): what the roll use case needs."""

    id: int
    chronicle: str
    name: str
    sheet_json: str

    def to_sheet(self) -> Sheet:
        return sheet_from_json(self.sheet_json, self.name, self.chronicle)


def _lookup_error(gw: Gateway, name: str, chronicle: str | None, chronicles: list[str]) -> StkitError:
    """The error for a name that matched ``chronicles`` (empty: none; several: ambiguous)."""
    if chronicles:
        listed = ", ".join(sorted(chronicles))
        return InvalidValue(f"{name!r} is in several chronicles ({listed}); choose one with --chronicle")
    sql, params = "SELECT name FROM characters", {}
    if chronicle:
        sql, params = sql + " WHERE chronicle = :chronicle", {"chronicle": chronicle}
    names = [r[0] for r in gw.rows(sql + " LIMIT 5000", **params)]
    best = suggest(name, names) if names else None
    where = f" in chronicle {chronicle!r}" if chronicle else ""
    hint = f' (did you mean "{best}"?)' if best else "; `stkit char list` shows the characters"
    return NotFound(f"no character named {name!r}{where}{hint}")


def find_character(
    gw: Gateway | Session, name: str, chronicle: str | None = None, *, for_update: bool = False
) -> CharacterRow:
    """:func:`get_character` through the SQL gateway (or a Session): the character called ``name``
    (case-insensitive; hyphens and spaces alike), in ``chronicle`` or in any. ``for_update`` locks the row
    (PostgreSQL). Raises NotFound with a "did you mean", InvalidValue for a name in several chronicles."""
    from stkit.store.gateway import as_gateway

    gw = as_gateway(gw)
    sql, params = "SELECT id, chronicle, name, sheet FROM characters WHERE name_key = :key", {"key": name_key(name)}
    if chronicle:
        sql, params = sql + " AND chronicle = :chronicle", params | {"chronicle": chronicle}
    rows = gw.rows(sql + (gw.lock if for_update else ""), **params)
    if len(rows) == 1:
        return CharacterRow(*rows[0])
    raise _lookup_error(gw, name, chronicle, [r[1] for r in rows])


def save_sheet(gw: Gateway, row: CharacterRow, sheet: Sheet) -> None:
    """Write ``sheet`` back into the character's row (as Character.store_sheet does: identity columns,
    the JSON, version + 1, updated_at)."""
    cols = sheet_columns(sheet)
    sets = ", ".join(f"{c} = :{c}" for c in cols)
    gw.execute(
        f"UPDATE characters SET {sets}, version = COALESCE(version, 0) + 1, updated_at = :now WHERE id = :id",
        **cols,
        now=gw.timestamp(datetime.now(UTC)),
        id=row.id,
    )
    gw.changed("characters", row.id)


@dataclass
class Edit:
    """The outcome of an edit: the new sheet, a one-line summary, and any warnings (nothing refused)."""

    sheet: Sheet
    summary: str
    warnings: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "name": self.sheet.name,
            "chronicle": self.sheet.chronicle,
            "summary": self.summary,
            "warnings": self.warnings,
            **self.data,
        }


def get_character(session: Session, name: str, chronicle: str | None = None, *, for_update: bool = False) -> Character:
    """The stored character called ``name`` (case-insensitive; hyphens and spaces alike).

    With ``chronicle`` None every chronicle is searched, and a name found in several asks for --chronicle.
    ``for_update`` locks the row until the transaction ends. Raises NotFound with a "did you mean"."""
    from sqlmodel import select

    from stkit.store.models import Character

    key = name_key(name)
    stmt = select(Character).where(Character.name_key == key)
    if chronicle:
        stmt = stmt.where(Character.chronicle == chronicle)
    if for_update:
        stmt = stmt.with_for_update()
    rows = list(session.exec(stmt))
    if len(rows) == 1:
        return rows[0]
    from stkit.store.gateway import as_gateway

    raise _lookup_error(as_gateway(session), name, chronicle, [r.chronicle for r in rows])


def create_character(session: Session, sheet: Sheet, *, replace: bool = False) -> Character:
    """Store a new character. A name already used in the chronicle raises InvalidValue, unless ``replace``
    (then the stored sheet is overwritten, keeping its id and roll log)."""
    from sqlalchemy.exc import IntegrityError
    from sqlmodel import select

    from stkit.store.models import Character
    from stkit.store.sheet import check_sheet_text

    check_sheet_text(sheet)
    existing = session.exec(
        select(Character)
        .where(Character.chronicle == sheet.chronicle, Character.name_key == name_key(sheet.name))
        .with_for_update()
    ).first()
    if existing is not None:
        if not replace:
            raise InvalidValue(
                f"a character named {existing.name!r} already exists in chronicle {sheet.chronicle!r} "
                f"(names are compared ignoring case and accents)"
            )
        existing.store_sheet(sheet)
        session.add(existing)
        session.flush()
        return existing
    row = Character(chronicle=sheet.chronicle, name=sheet.name, name_key=name_key(sheet.name), sheet="{}", version=0)
    row.store_sheet(sheet)
    session.add(row)
    try:
        with session.begin_nested():
            session.flush()
    except IntegrityError:
        raise InvalidValue(
            f"a character named {sheet.name!r} already exists in chronicle {sheet.chronicle!r}"
        ) from None
    return row


def list_characters(session: Session, chronicle: str | None = None) -> list[Character]:
    """All characters (of one chronicle, or of every chronicle), ordered by chronicle then name."""
    from sqlmodel import select

    from stkit.store.models import Character

    stmt = select(Character)
    if chronicle:
        stmt = stmt.where(Character.chronicle == chronicle)
    return list(session.exec(stmt.order_by(Character.chronicle, Character.name_key)))


def edit_character(session: Session, name: str, chronicle: str | None, change) -> Edit:
    """Lock the character, run ``change(sheet) -> Edit`` on its sheet, and store the result."""
    row = get_character(session, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    result = change(sheet)
    row.store_sheet(result.sheet)
    session.add(row)
    session.flush()
    from stkit.store.events import record_event

    record_event(
        session,
        chronicle=row.chronicle,
        kind="sheet",
        character_id=row.id,
        data={"character": row.name, "summary": result.summary},
    )
    return result


def set_trait(
    session: Session, name: str, trait: str, value: str, *, chronicle: str | None = None, custom: bool = False
) -> Edit:
    """``char set``: one trait to one value (see :meth:`Sheet.set_trait`)."""

    def change(s: Sheet) -> Edit:
        ref, new, warnings = s.set_trait(trait, value, custom=custom)
        label = {
            "identity": ref.name.replace("_", " "),
            "power_points": f"{ref.name} points",
            "renown_temporary": f"temporary {ref.name}",
        }.get(ref.kind, ref.name)
        if ref.kind in ("gift", "rite", "merit", "flaw", "background", "custom_ability"):
            label = f"{ref.kind.replace('_', ' ')} {ref.name}"
        return Edit(s, f"{s.name}: {label} = {new}", warnings, {"trait": ref.name, "kind": ref.kind, "value": new})

    return edit_character(session, name, chronicle, change)


def spend(session: Session, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
    """Spend points of Rage, Gnosis or Willpower; refused (RuleRefusal) with nothing spent when short."""

    def change(s: Sheet) -> Edit:
        track = s.spend(power, n)
        p = power.strip().capitalize()
        return Edit(
            s,
            f"{s.name} spends {n} {p}: {track.temporary}/{track.permanent} left",
            [],
            {"power": p, "temporary": track.temporary, "permanent": track.permanent},
        )

    return edit_character(session, name, chronicle, change)


def regain(session: Session, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
    """Regain points of Rage, Gnosis or Willpower (Willpower and Gnosis stop at the rating)."""

    def change(s: Sheet) -> Edit:
        track, warnings = s.regain(power, n)
        p = power.strip().capitalize()
        return Edit(
            s,
            f"{s.name} regains {p}: {track.temporary}/{track.permanent}",
            warnings,
            {"power": p, "temporary": track.temporary, "permanent": track.permanent},
        )

    return edit_character(session, name, chronicle, change)


def _health_data(s: Sheet) -> dict:
    return {
        "health": dict(s.health),
        "boxes": s.health_boxes(),
        "level": s.health_level,
        "wound_penalty": s.wound_penalty,
        "incapacitated": s.incapacitated,
    }


def damage(session: Session, name: str, n: int, kind: str = "bashing", *, chronicle: str | None = None) -> Edit:
    """Mark ``n`` health levels of damage of ``kind`` (bashing, lethal, aggravated); see
    :meth:`Sheet.take_damage`. The summary says how many levels were taken when some had nowhere to go."""

    def change(s: Sheet) -> Edit:
        done = s.take_damage(n, kind)
        took = f"{done.taken} of {n}" if done.lost else str(n)
        return Edit(
            s,
            f"{s.name} takes {took} {done.kind}: {s.health_level or 'unhurt'}"
            + (f", -{s.wound_penalty} dice" if s.wound_penalty else ""),
            done.warnings(s.name),
            _health_data(s) | {"damage": done.to_dict()},
        )

    return edit_character(session, name, chronicle, change)


def heal(session: Session, name: str, n: int, kind: str | None = None, *, chronicle: str | None = None) -> Edit:
    """Heal up to ``n`` health levels (of ``kind``, or the lightest damage first)."""

    def change(s: Sheet) -> Edit:
        healed = s.heal(n, kind)
        return Edit(
            s,
            f"{s.name} heals {healed} level{'s' if healed != 1 else ''}: {s.health_level or 'unhurt'}",
            [] if healed == n else [f"only {healed} level{'s' if healed != 1 else ''} to heal"],
            _health_data(s) | {"healed": healed},
        )

    return edit_character(session, name, chronicle, change)


def shift(session: Session, name: str, form: str, *, chronicle: str | None = None) -> Edit:
    """Change form (Homid, Glabro, Crinos, Hispo, Lupus)."""

    def change(s: Sheet) -> Edit:
        before = s.form
        s.shift(form)
        return Edit(s, f"{s.name} shifts from {before} to {s.form}", [], {"from": before, "form": s.form})

    return edit_character(session, name, chronicle, change)


def experience(
    session: Session, name: str, kind: str, amount: int, reason: str = "", *, chronicle: str | None = None
) -> Edit:
    """Award or spend experience (spending more than is available is refused)."""

    def change(s: Sheet) -> Edit:
        entry = s.xp(kind, amount, reason)
        verb = "earns" if kind == "award" else "spends"
        return Edit(
            s,
            f"{s.name} {verb} {amount} experience: {s.xp_available} of {s.xp_total} unspent",
            [],
            {"entry": entry, "total": s.xp_total, "spent": s.xp_spent, "available": s.xp_available},
        )

    return edit_character(session, name, chronicle, change)


def delete_character(session: Session, name: str, *, chronicle: str | None = None) -> str:
    """Delete a character; its roll-log entries stay, with the name kept and character_id set to NULL.
    Returns the deleted character's name."""
    from sqlalchemy import update

    from stkit.store.models import RollLog

    row = get_character(session, name, chronicle, for_update=True)
    session.exec(update(RollLog).where(RollLog.character_id == row.id).values(character_id=None))
    deleted = row.name
    session.delete(row)
    session.flush()
    return deleted
