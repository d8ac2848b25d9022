"""Character use cases: create, find, list, edit, delete, all through the SQL gateway
(:mod:`stkit.store.gateway`: stdlib sqlite3 on an up-to-date SQLite file, else a SQLAlchemy connection).
Each function works inside the caller's transaction and locks the row it edits, so two concurrent edits of
one character never lose each other's change (SQLite: the whole transaction holds the write lock;
PostgreSQL: SELECT ... FOR UPDATE).

Every function takes a :class:`~stkit.store.gateway.Gateway` (a SQLAlchemy Session is wrapped in one).
Errors: NotFound (with a "did you mean"), InvalidValue, RuleRefusal; an edit that fails changes nothing
because the caller's transaction is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from stkit.errors import InvalidValue, NotFound, StkitError
from stkit.store.gateway import DuplicateRow, Gateway, as_gateway
from stkit.store.sheet import Sheet, check_sheet_text, sheet_columns, sheet_from_json
from stkit.store.traits import name_key, suggest

#: The columns of ``characters`` a :class:`CharacterRow` is read from, in its field order.
ROW_COLUMNS = "id, chronicle, name, sheet, version"


@dataclass(frozen=True)
class CharacterRow:
    """A stored character as read through the gateway: its id, identity columns, sheet JSON and
    ``version`` (1 when created, +1 with every edit)."""

    id: int
    chronicle: str
    name: str
    sheet_json: str
    version: int = 1

    def to_sheet(self) -> Sheet:
        """The validated Sheet (name and chronicle from the columns). Raises DataFileError when damaged."""
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


def find_character(gw: Any, name: str, chronicle: str | None = None, *, for_update: bool = False) -> CharacterRow:
    """The stored character called ``name`` (case-insensitive, accents folded; hyphens and spaces alike),
    in ``chronicle`` or, with None, in any chronicle. ``for_update`` locks the row until the transaction
    ends (PostgreSQL; SQLite's write transaction already holds the lock). ``gw``: a Gateway or a Session.
    Raises NotFound with a "did you mean", InvalidValue for a name found in several chronicles."""
    gw = as_gateway(gw)
    sql = f"SELECT {ROW_COLUMNS} FROM characters WHERE name_key = :key"
    params: dict[str, Any] = {"key": name_key(name)}
    if chronicle:
        sql, params = sql + " AND chronicle = :chronicle", params | {"chronicle": chronicle}
    rows = gw.rows(sql + (gw.lock if for_update else ""), **params)
    if len(rows) == 1:
        return CharacterRow(*rows[0])
    raise _lookup_error(gw, name, chronicle, [r[1] for r in rows])


def character_by_id(gw: Any, char_id: int) -> CharacterRow | None:
    """The stored character with id ``char_id``, or None when there is none (deleted)."""
    found = as_gateway(gw).rows(f"SELECT {ROW_COLUMNS} FROM characters WHERE id = :id", id=char_id)
    return CharacterRow(*found[0]) if found else None


def character_names(gw: Any, ids: set[int | None]) -> dict[int, str]:
    """{id: name} of the stored characters among ``ids`` (None and unknown ids left out)."""
    wanted = sorted(i for i in ids if i is not None)
    if not wanted:
        return {}
    marks = ", ".join(f":i{n}" for n in range(len(wanted)))
    rows = as_gateway(gw).rows(
        f"SELECT id, name FROM characters WHERE id IN ({marks})", **{f"i{n}": i for n, i in enumerate(wanted)}
    )
    return {int(r[0]): r[1] for r in rows}


#: The same use case under the name the scene and tracked-action code use.
get_character = find_character


def save_sheet(gw: Any, row: CharacterRow, sheet: Sheet) -> CharacterRow:
    """Write ``sheet`` back into the character's row: identity columns, the JSON, ``version`` + 1 and
    ``updated_at``. Returns the row as it now stands."""
    gw = as_gateway(gw)
    cols = sheet_columns(sheet)
    sets = ", ".join(f"{c} = :{c}" for c in cols)
    gw.execute(
        f"UPDATE characters SET {sets}, version = COALESCE(version, 0) + 1, updated_at = :now WHERE id = :id",
        **cols,
        now=gw.timestamp(datetime.now(UTC)),
        id=row.id,
    )
    gw.changed("characters", row.id)
    return CharacterRow(row.id, sheet.chronicle, sheet.name, cols["sheet"], row.version + 1)


def create_character(gw: Any, sheet: Sheet, *, replace: bool = False) -> CharacterRow:
    """Store a new character (``version`` 1). A name already used in the chronicle (compared with
    :func:`stkit.store.traits.name_key`) raises InvalidValue, unless ``replace``: then the stored sheet is
    overwritten, keeping its id and roll log. Raises InvalidValue for text the sheet may not hold."""
    gw = as_gateway(gw)
    check_sheet_text(sheet)
    found = gw.rows(
        f"SELECT {ROW_COLUMNS} FROM characters WHERE chronicle = :chronicle AND name_key = :key{gw.lock}",
        chronicle=sheet.chronicle,
        key=name_key(sheet.name),
    )
    if found:
        existing = CharacterRow(*found[0])
        if not replace:
            raise InvalidValue(
                f"a character named {existing.name!r} already exists in chronicle {sheet.chronicle!r} "
                f"(names are compared ignoring case and accents)"
            )
        return save_sheet(gw, existing, sheet)
    cols = sheet_columns(sheet)
    now = gw.timestamp(datetime.now(UTC))
    try:
        new_id = gw.insert(
            f"INSERT INTO characters ({', '.join(cols)}, version, created_at, updated_at) "
            f"VALUES ({', '.join(':' + c for c in cols)}, 1, :now, :now)",
            **cols,
            now=now,
        )
    except DuplicateRow:
        raise InvalidValue(
            f"a character named {sheet.name!r} already exists in chronicle {sheet.chronicle!r}"
        ) from None
    return CharacterRow(new_id, sheet.chronicle, sheet.name, cols["sheet"], 1)


def list_characters(gw: Any, chronicle: str | None = None) -> list[CharacterRow]:
    """All characters (of one chronicle, or of every chronicle), ordered by chronicle then name key."""
    gw = as_gateway(gw)
    sql, params = f"SELECT {ROW_COLUMNS} FROM characters", {}
    if chronicle:
        sql, params = sql + " WHERE chronicle = :chronicle", {"chronicle": chronicle}
    return [CharacterRow(*r) for r in gw.rows(sql + " ORDER BY chronicle, name_key", **params)]


@dataclass(frozen=True)
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


def edit_character(gw: Any, name: str, chronicle: str | None, change: Callable[[Sheet], Edit]) -> Edit:
    """Lock the character, run ``change(sheet) -> Edit`` on its sheet, and store the result. Raises what
    :func:`find_character` and ``change`` raise (nothing is stored then)."""
    gw = as_gateway(gw)
    row = find_character(gw, name, chronicle, for_update=True)
    result = change(row.to_sheet())
    save_sheet(gw, row, result.sheet)
    from stkit.store.events import record_event

    record_event(
        gw,
        chronicle=row.chronicle,
        kind="sheet",
        character_id=row.id,
        data={"character": row.name, "summary": result.summary},
    )
    return result


def set_trait(
    gw: Any, name: str, trait: str, value: str, *, chronicle: str | None = None, custom: bool = False
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

    return edit_character(gw, name, chronicle, change)


def spend(gw: Any, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
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

    return edit_character(gw, name, chronicle, change)


def regain(gw: Any, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
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

    return edit_character(gw, name, chronicle, change)


def _health_data(s: Sheet) -> dict:
    return {
        "health": dict(s.health),
        "boxes": s.health_boxes(),
        "level": s.health_level,
        "wound_penalty": s.wound_penalty,
        "incapacitated": s.incapacitated,
    }


def damage(gw: Any, name: str, n: int, kind: str = "bashing", *, chronicle: str | None = None) -> Edit:
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

    return edit_character(gw, name, chronicle, change)


def heal(gw: Any, name: str, n: int, kind: str | None = None, *, chronicle: str | None = None) -> Edit:
    """Heal up to ``n`` health levels (of ``kind``, or the lightest damage first)."""

    def change(s: Sheet) -> Edit:
        healed = s.heal(n, kind)
        return Edit(
            s,
            f"{s.name} heals {healed} level{'s' if healed != 1 else ''}: {s.health_level or 'unhurt'}",
            [] if healed == n else [f"only {healed} level{'s' if healed != 1 else ''} to heal"],
            _health_data(s) | {"healed": healed},
        )

    return edit_character(gw, name, chronicle, change)


def shift(gw: Any, name: str, form: str, *, chronicle: str | None = None) -> Edit:
    """Change form (Homid, Glabro, Crinos, Hispo, Lupus)."""

    def change(s: Sheet) -> Edit:
        before = s.form
        s.shift(form)
        return Edit(s, f"{s.name} shifts from {before} to {s.form}", [], {"from": before, "form": s.form})

    return edit_character(gw, name, chronicle, change)


def experience(gw: Any, name: str, kind: str, amount: int, reason: str = "", *, chronicle: str | None = None) -> Edit:
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

    return edit_character(gw, name, chronicle, change)


def delete_character(gw: Any, name: str, *, chronicle: str | None = None) -> str:
    """Delete a character; its roll-log entries stay, with the name kept and character_id set to NULL.
    Returns the deleted character's name. Raises NotFound / InvalidValue like :func:`find_character`."""
    gw = as_gateway(gw)
    row = find_character(gw, name, chronicle, for_update=True)
    gw.execute("UPDATE roll_log SET character_id = NULL WHERE character_id = :id", id=row.id)
    gw.execute("DELETE FROM characters WHERE id = :id", id=row.id)
    return row.name
