"""Character use cases: create, find, list, edit, delete, all through the SQL gateway
(:mod:`stkit.store.db.gateway`: stdlib sqlite3 on an up-to-date SQLite file, else a SQLAlchemy connection).
Each function works inside the caller's transaction and locks the row it edits, so two concurrent edits of
one character never lose each other's change (SQLite: the whole transaction holds the write lock;
PostgreSQL: SELECT ... FOR UPDATE).

Every function takes a :class:`~stkit.store.db.gateway.Gateway` (a SQLAlchemy Session is wrapped in one).
Errors: NotFound (with a "did you mean"), InvalidValue, RuleRefusal; an edit that fails changes nothing
because the caller's transaction is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from stkit.config import default_chronicle
from stkit.errors import DataFileError, InvalidValue, NotFound, StkitError
from stkit.notices import note
from stkit.sheet.sheet import Sheet, check_sheet_text, sheet_columns, sheet_from_json
from stkit.sheet.traits import legacy_name_key, name_key, suggest
from stkit.sheet.vocab import TraitKind, XpKind
from stkit.store.db.gateway import DuplicateRow, Gateway
from stkit.text import counted, printable

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


def name_matches(name: str) -> list[tuple[str, str]]:
    """The ways a typed ``name`` is matched, best first, as (column, value): the exact name; the key of
    the stkit versions before accents were folded (a row kept it when its folded key was already taken, so
    'Zoë' beside 'Zoe' stays reachable); the folded key (case, accents, spaces and hyphens, invisible
    characters). The first that finds a row wins."""
    out = [("name", name)]
    for key in (legacy_name_key(name), name_key(name)):
        if ("name_key", key) not in out:
            out.append(("name_key", key))
    return out


def find_character(gw: Gateway, name: str, chronicle: str | None = None, *, for_update: bool = False) -> CharacterRow:
    """The stored character called ``name``: the exact name first, then case-insensitive, accents folded,
    hyphens and spaces alike, invisible characters dropped (:func:`name_matches`), else the only one whose
    name starts with ``name`` ("shadow" for Shadow-in-the-Wood), in ``chronicle`` or, with None, in any
    chronicle. ``for_update`` locks the row until the transaction ends (PostgreSQL; SQLite's write
    transaction already holds the lock).
    Raises NotFound with a "did you mean", InvalidValue for a name found in several chronicles or a
    prefix several characters share (the candidates listed)."""
    rows: list = []
    for column, value in name_matches(name):  # column: one of two fixed names, never user text
        sql = f"SELECT {ROW_COLUMNS} FROM characters WHERE {column} = :v"
        params: dict[str, Any] = {"v": value}
        if column == "name":  # through the name_key index: a row's key is one of the two its own name gives
            sql, params = (
                sql + " AND name_key IN (:k1, :k2)",
                params | {"k1": name_key(name), "k2": legacy_name_key(name)},
            )
        if chronicle:
            sql, params = sql + " AND chronicle = :chronicle", params | {"chronicle": chronicle}
        rows = gw.rows(sql + (gw.lock if for_update else ""), **params)
        if rows:
            break
    if not rows:
        rows = _rows_by_prefix(gw, name, chronicle, for_update)
    if len(rows) == 1:
        return CharacterRow(*rows[0])
    if not chronicle and rows:
        preferred = default_chronicle(None)
        mine = [r for r in rows if r[1] == preferred]
        if len(mine) == 1:  # one name in several chronicles: the default chronicle's, said so
            others = ", ".join(repr(r[1]) for r in rows if r is not mine[0])
            note(f"{mine[0][2]} is also in {others}; took the one in {preferred!r} (choose with --chronicle)")
            return CharacterRow(*mine[0])
    raise _lookup_error(gw, name, chronicle, [r[1] for r in rows])


#: How many characters sharing a typed prefix are read to list them (one more says "and more").
PREFIX_CANDIDATES = 10


def _rows_by_prefix(gw: Gateway, name: str, chronicle: str | None, for_update: bool) -> list[tuple]:
    """The rows of the one character whose name key starts with ``name``'s key, [] when none does.
    Raises InvalidValue listing the names when several characters share the prefix."""
    key = name_key(name)
    if not key:
        return []
    pattern = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    sql = f"SELECT {ROW_COLUMNS} FROM characters WHERE name_key LIKE :pattern ESCAPE '\\'"
    params: dict[str, Any] = {"pattern": pattern}
    if chronicle:
        sql, params = sql + " AND chronicle = :chronicle", params | {"chronicle": chronicle}
    rows = gw.rows(
        sql + f" ORDER BY name_key LIMIT {PREFIX_CANDIDATES + 1}" + (gw.lock if for_update else ""), **params
    )
    names = sorted({r[2] for r in rows}, key=name_key)
    if len(names) <= 1:
        return rows  # one character (perhaps in several chronicles: the caller says so)
    more = len(rows) > PREFIX_CANDIDATES
    shown = names[:PREFIX_CANDIDATES]
    listed = ", ".join(shown[:-1]) + (f", {shown[-1]} and more" if more else f" or {shown[-1]}")
    raise InvalidValue(f"character {printable(name)!r} could be {listed}; type more of the name")


def character_by_id(gw: Gateway, char_id: int) -> CharacterRow | None:
    """The stored character with id ``char_id``, or None when there is none (deleted)."""
    found = gw.rows(f"SELECT {ROW_COLUMNS} FROM characters WHERE id = :id", id=char_id)
    return CharacterRow(*found[0]) if found else None


def character_names(gw: Gateway, ids: set[int | None]) -> dict[int, str]:
    """{id: name} of the stored characters among ``ids`` (None and unknown ids left out)."""
    wanted = sorted(i for i in ids if i is not None)
    if not wanted:
        return {}
    marks = ", ".join(f":i{n}" for n in range(len(wanted)))
    rows = gw.rows(
        f"SELECT id, name FROM characters WHERE id IN ({marks})", **{f"i{n}": i for n, i in enumerate(wanted)}
    )
    return {int(r[0]): r[1] for r in rows}


#: The same use case under the name the scene and tracked-action code use.
get_character = find_character


def save_sheet(
    gw: Gateway,
    row: CharacterRow,
    sheet: Sheet,
    *,
    summary: str,
    secret: bool = False,
    detail: dict[str, Any] | None = None,
) -> CharacterRow:
    """Write ``sheet`` back into the character's row (identity columns, the JSON, ``version`` + 1 and
    ``updated_at``) and record the change as one 'sheet' table event saying ``summary`` (``secret``: for
    the Storyteller's screen only; ``detail``: more JSON-ready keys for the event's data, such as the
    ``source`` `char history` shows), in the same transaction. Returns the row as it now stands."""
    from stkit.store.table.events import record_event  # lazy: start-up (`char show` and `char list` write nothing)

    cols = sheet_columns(sheet, with_key=False)  # the row keeps its key (see sheet_columns)
    sets = ", ".join(f"{c} = :{c}" for c in cols)
    gw.execute(
        f"UPDATE characters SET {sets}, version = COALESCE(version, 0) + 1, updated_at = :now WHERE id = :id",
        **cols,
        now=gw.timestamp(datetime.now(UTC)),
        id=row.id,
    )
    gw.changed("characters", row.id)
    record_event(
        gw,
        chronicle=sheet.chronicle,
        kind="sheet",
        secret=secret,
        character_id=row.id,
        data={**(detail or {}), "character": sheet.name, "summary": summary},
    )
    return CharacterRow(row.id, sheet.chronicle, sheet.name, cols["sheet"], row.version + 1)


def create_character(
    gw: Gateway,
    sheet: Sheet,
    *,
    replace: bool = False,
    summary: str | None = None,
    detail: dict[str, Any] | None = None,
) -> CharacterRow:
    """Store a new character (``version`` 1) and its one 'sheet' table event (``summary``, default
    'NAME: new character', with ``detail``'s keys in its data). A name already used in the chronicle
    (compared with :func:`stkit.sheet.traits.name_key`) raises InvalidValue, unless ``replace``: then the
    stored sheet is overwritten, keeping its id and roll log. Raises InvalidValue for text the sheet may
    not hold."""
    from stkit.store.table.events import record_event  # lazy: start-up (`char show` and `char list` write nothing)

    check_sheet_text(sheet)
    found: list = []
    for column, value in name_matches(sheet.name):  # the exact name first: --replace never takes a look-alike
        found = gw.rows(
            f"SELECT {ROW_COLUMNS} FROM characters WHERE chronicle = :chronicle AND {column} = :v{gw.lock}",
            chronicle=sheet.chronicle,
            v=value,
        )
        if found:
            break
    if found:
        existing = CharacterRow(*found[0])
        if not replace:
            raise InvalidValue(
                f"a character named {existing.name!r} already exists in chronicle {sheet.chronicle!r} "
                f"(names are compared ignoring case and accents)"
            )
        return save_sheet(gw, existing, sheet, summary=f"{existing.name}: sheet replaced")
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
    record_event(
        gw,
        chronicle=sheet.chronicle,
        kind="sheet",
        character_id=new_id,
        data={
            "source": "created",  # `char history` shows the row's own creation line for it
            **(detail or {}),
            "character": sheet.name,
            "summary": summary or f"{sheet.name}: new character",
        },
    )
    return CharacterRow(new_id, sheet.chronicle, sheet.name, cols["sheet"], 1)


def _list_filter(
    chronicle: str | None, name: str | None, breed: str | None, auspice: str | None, tribe: str | None
) -> tuple[str, dict[str, Any]]:
    """The WHERE clause (or '') and its parameters of a character listing."""
    where, params = [], {}
    if chronicle:
        where.append("chronicle = :chronicle")
        params["chronicle"] = chronicle
    if name:
        key = name_key(name).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append("name_key LIKE :name ESCAPE '\\'")
        params["name"] = f"%{key}%"
    for column, value in (("breed", breed), ("auspice", auspice), ("tribe", tribe)):
        if value:
            where.append(f"LOWER({column}) = :{column}")
            params[column] = value.strip().lower()
    return (" WHERE " + " AND ".join(where)) if where else "", params


def list_characters(
    gw: Gateway,
    chronicle: str | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
    name: str | None = None,
    breed: str | None = None,
    auspice: str | None = None,
    tribe: str | None = None,
) -> list[CharacterRow]:
    """Characters (of one chronicle, or of every chronicle), ordered by chronicle then name key: at most
    ``limit`` (None: all) after skipping ``offset``; ``name`` keeps those whose name contains it (case and
    accents folded), ``breed`` / ``auspice`` / ``tribe`` those with that value (case-insensitive)."""
    where, params = _list_filter(chronicle, name, breed, auspice, tribe)
    sql = f"SELECT {ROW_COLUMNS} FROM characters{where} ORDER BY chronicle, name_key"
    if limit is not None:
        sql += f" LIMIT {int(limit)} OFFSET {int(offset)}"
    elif offset:
        sql += f" LIMIT -1 OFFSET {int(offset)}" if gw.dialect == "sqlite" else f" OFFSET {int(offset)}"
    return [CharacterRow(*r) for r in gw.rows(sql, **params)]


def count_characters(
    gw: Gateway,
    chronicle: str | None = None,
    *,
    name: str | None = None,
    breed: str | None = None,
    auspice: str | None = None,
    tribe: str | None = None,
) -> int:
    """How many characters :func:`list_characters` would list without a limit."""
    where, params = _list_filter(chronicle, name, breed, auspice, tribe)
    row = gw.row(f"SELECT COUNT(*) FROM characters{where}", **params)
    return int(row[0]) if row else 0


@dataclass(frozen=True)
class ListedCharacter:
    """One row of ``char list``: its sheet, or (a row an older stkit wrote out of today's ranges) None and
    the problem, naming the field."""

    id: int
    chronicle: str
    name: str
    sheet: Sheet | None
    problem: str = ""


def list_sheets(gw: Gateway, chronicle: str | None = None, **paging: Any) -> list[ListedCharacter]:
    """:func:`list_characters` (``paging``: its limit, offset and filters) with each row's sheet read; a row
    that cannot be read is listed with its problem instead of failing the whole list."""

    out = []
    for row in list_characters(gw, chronicle, **paging):
        try:
            out.append(ListedCharacter(row.id, row.chronicle, row.name, row.to_sheet()))
        except DataFileError as exc:
            out.append(ListedCharacter(row.id, row.chronicle, row.name, None, str(exc)))
    return out


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


def edit_character(
    gw: Gateway, name: str, chronicle: str | None, change: Callable[[Sheet], Edit], *, source: str = "edit"
) -> Edit:
    """Lock the character, run ``change(sheet) -> Edit`` on its sheet, and store the result; ``source`` is
    the kind of change `char history` names ("edit", "xp"). Raises what :func:`find_character` and
    ``change`` raise (nothing is stored then)."""
    row = find_character(gw, name, chronicle, for_update=True)
    result = change(row.to_sheet())
    detail = None if source == "edit" else {"source": source}
    save_sheet(gw, row, result.sheet, summary=result.summary, detail=detail)
    return result


def set_trait(
    gw: Gateway, name: str, trait: str, value: str, *, chronicle: str | None = None, custom: bool = False
) -> Edit:
    """``char set``: one trait to one value (see :meth:`Sheet.set_trait`). A tribe is checked as `char new`
    checks it (:func:`stkit.sheet.lifebook.check_tribe`): one outside the book's Garou tribes is kept with a
    warning, a name with no letter refused (InvalidValue)."""

    def change(s: Sheet) -> Edit:
        ref, new, warnings = s.set_trait(trait, value, custom=custom)
        if ref.kind == TraitKind.identity and ref.name == "tribe":  # as `char new` checks it
            from stkit.sheet.lifebook import check_tribe  # lazy: start-up (only when a tribe is set)

            s.tribe, more = check_tribe(str(new), s.fera)
            new, warnings = s.tribe, [*warnings, *more]
        shown = s.renown_label(ref.name) if ref.kind in (TraitKind.renown, TraitKind.renown_temporary) else ref.name
        label = {
            "identity": ref.name.replace("_", " "),
            "power_points": f"{ref.name} points",
            "renown": shown,
            "renown_temporary": f"temporary {shown}",
            "specialty": f"{ref.name} specialty",
        }.get(ref.kind, ref.name)
        if ref.kind == TraitKind.specialty and not new:
            new = "none"
        if ref.kind in (
            TraitKind.gift,
            TraitKind.rite,
            TraitKind.merit,
            TraitKind.flaw,
            TraitKind.background,
            TraitKind.custom_ability,
        ):
            label = f"{ref.kind.replace('_', ' ')} {ref.name}"
        return Edit(s, f"{s.name}: {label} = {new}", warnings, {"trait": ref.name, "kind": ref.kind, "value": new})

    return edit_character(gw, name, chronicle, change)


def spend(gw: Gateway, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
    """Spend points of Rage, Gnosis or Willpower; refused (RuleRefusal) with nothing spent when short, and
    Rage or Gnosis in a scene turn where the other was spent (:func:`stkit.store.fight.night.use_turn_power`)."""
    from stkit.store.fight.rules import use_turn_power  # lazy: start-up (`char show` and `char list` write nothing)
    from stkit.store.scenes import find_turn_context  # lazy: start-up (`char show` and `char list` write nothing)

    kind = power.strip().casefold()
    if kind in ("rage", "gnosis"):
        row = find_character(gw, name, chronicle, for_update=True)
        if row.to_sheet().powers[kind.capitalize()].temporary >= n:
            use_turn_power(gw, row, find_turn_context(gw, row), kind, n)

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


def regain(gw: Gateway, name: str, power: str, n: int = 1, *, chronicle: str | None = None) -> Edit:
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


def damage(gw: Gateway, name: str, n: int, kind: str = "bashing", *, chronicle: str | None = None) -> Edit:
    """Mark ``n`` health levels of damage of ``kind`` (bashing, lethal, aggravated); see
    :meth:`Sheet.take_damage`. The summary says how many levels were taken when some had nowhere to go."""
    from stkit.store.fight.rules import mark_dead  # lazy: start-up (`char show` and `char list` write nothing)
    from stkit.store.house import rules_in_force  # lazy: start-up (`char show` and `char list` write nothing)
    from stkit.store.scenes import find_turn_context  # lazy: start-up (`char show` and `char list` write nothing)

    def change(s: Sheet) -> Edit:
        done = s.take_damage(n, kind, mortal_overflow=rules_in_force(gw, s.chronicle).mortal_overflow)
        if done.killed:
            row = find_character(gw, name, chronicle)
            mark_dead(gw, row, find_turn_context(gw, row))
        took = f"{done.taken} of {n}" if done.lost else str(n)
        return Edit(
            s,
            f"{s.name} takes {took} {done.kind}: {s.health_level or 'unhurt'}"
            + (f", {counted(-s.wound_penalty, 'die', 'dice')}" if s.wound_penalty else ""),
            done.warnings(s.name),
            _health_data(s) | {"damage": done.to_dict()},
        )

    return edit_character(gw, name, chronicle, change)


def heal(gw: Gateway, name: str, n: int, kind: str | None = None, *, chronicle: str | None = None) -> Edit:
    """Heal up to ``n`` health levels (of ``kind``, or the lightest damage first). Raises RuleRefusal for a
    dead character: the dead do not heal (docs/combat.md: the dead no longer act, are hit or heal)."""
    from stkit.store.fight.fates import refuse_dead  # lazy: start-up (`char show` and `char list` write nothing)

    refuse_dead(gw, find_character(gw, name, chronicle), "heal")

    def change(s: Sheet) -> Edit:
        healed = s.heal(n, kind)
        state = s.health_level or "unhurt"
        what = f"{kind} damage" if kind else "damage"
        if healed == 0:  # nothing to heal is an answer, not a warning about "only 0 levels"
            return Edit(s, f"{s.name} has no {what} to heal: {state}", [], _health_data(s) | {"healed": 0})
        return Edit(
            s,
            f"{s.name} heals {healed} level{'s' if healed != 1 else ''}: {state}",
            [] if healed == n else [f"only {healed} level{'s' if healed != 1 else ''} of {what} to heal"],
            _health_data(s) | {"healed": healed},
        )

    return edit_character(gw, name, chronicle, change)


def shift(gw: Gateway, name: str, form: str, *, chronicle: str | None = None) -> Edit:
    """Change form (Homid, Glabro, Crinos, Hispo, Lupus)."""

    def change(s: Sheet) -> Edit:
        before = s.form
        s.shift(form)
        return Edit(s, f"{s.name} shifts from {before} to {s.form}", [], {"from": before, "form": s.form})

    return edit_character(gw, name, chronicle, change)


def experience(
    gw: Gateway,
    name: str,
    kind: XpKind | str,
    amount: int,
    reason: str = "",
    *,
    chronicle: str | None = None,
    again: bool = False,
) -> Edit:
    """Award or spend experience (spending more than is available is refused; the same award twice in one
    night is refused unless ``again``, see :meth:`Sheet.xp`)."""

    def change(s: Sheet) -> Edit:
        entry = s.xp(kind, amount, reason, again=again)
        verb = "earns" if kind == XpKind.award else "spends"
        return Edit(
            s,
            f"{s.name} {verb} {amount} experience: {s.xp_available} of {s.xp_total} unspent",
            [],
            {"entry": entry, "total": s.xp_total, "spent": s.xp_spent, "available": s.xp_available},
        )

    return edit_character(gw, name, chronicle, change, source="xp")


def delete_character(gw: Gateway, name: str, *, chronicle: str | None = None) -> str:
    """Delete a character; its roll-log entries stay, with the name kept and character_id set to NULL.
    Returns the deleted character's name. Raises NotFound / InvalidValue like :func:`find_character`,
    and InvalidValue for a short name: deleting takes the whole name."""
    from stkit.store.table.events import record_event  # lazy: start-up (`char show` and `char list` write nothing)

    row = find_character(gw, name, chronicle, for_update=True)
    if name_key(row.name) != name_key(name):
        raise InvalidValue(f"deleting needs the whole name: {row.name!r}, not {printable(name)!r}")
    gw.execute("UPDATE roll_log SET character_id = NULL WHERE character_id = :id", id=row.id)
    gw.execute("DELETE FROM characters WHERE id = :id", id=row.id)
    # No character id: the event outlives the row (the id would cascade it away).
    record_event(
        gw,
        chronicle=row.chronicle,
        kind="sheet",
        data={"character": row.name, "summary": f"{row.name}: deleted"},
    )
    return row.name
