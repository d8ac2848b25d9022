"""A character's growth in the store: creation checked, experience spent at its price and undone, Renown
awarded into Rank, and the sheet's history. Use cases through the SQL gateway, each in the caller's
transaction; every change writes a ``sheet`` table event (:mod:`stkit.store.table.events`).

Tables (revision 0013): ``xp_spends`` (one `char raise`: cost, purchases, undone or not) and
``renown_awards`` (one `char renown`: before and after). The numbers are :mod:`stkit.sheet.lifebook`'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet import lifebook as L
from stkit.sheet.sheet import Sheet
from stkit.store.characters import Edit, find_character, save_sheet
from stkit.store.db.gateway import Gateway, iso_utc
from stkit.store.house import rules_in_force
from stkit.text import check_text, parse_whole_number

#: The most traits one `char raise` buys (a longer list is a typing slip).
MAX_RAISES = 20


def _now(gw: Gateway) -> tuple[object, str]:
    now = datetime.now(UTC).replace(microsecond=0)
    return gw.timestamp(now), now.isoformat()


def live_spends(gw: Gateway, char_id: int) -> list[dict]:
    """The purchases (:meth:`lifebook.Purchase.to_dict`) of every spend of ``char_id`` not undone, oldest first."""
    rows = gw.rows("SELECT items FROM xp_spends WHERE character_id = :c AND undone_at IS NULL ORDER BY id", c=char_id)
    return [item for r in rows for item in json.loads(r[0])]


def renown_history(gw: Gateway, char_id: int) -> list[dict]:
    """Every Renown award of ``char_id``, oldest first: renown, amount, reason, before, after, ranks, at."""
    rows = gw.rows(
        "SELECT renown, amount, reason, before, after, rank_before, rank_after, created_at FROM renown_awards "
        "WHERE character_id = :c ORDER BY id",
        c=char_id,
    )
    return [
        {
            "renown": r[0],
            "amount": int(r[1]),
            "reason": r[2],
            "before": json.loads(r[3]),
            "after": json.loads(r[4]),
            "rank_before": int(r[5]),
            "rank_after": int(r[6]),
            "at": iso_utc(r[7]),
        }
        for r in rows
    ]


def check_character(gw: Gateway, name: str, chronicle: str | None = None) -> tuple[L.CreationCheck, Sheet]:
    """:func:`lifebook.check_creation` of the stored character as it was made: the sheet with its recorded
    raises and Renown awards taken back (:func:`lifebook.creation_sheet`). Experience spent without a
    recorded raise (`char xp spend`) is named in the notes: its purchases cannot be taken back."""
    row = find_character(gw, name, chronicle)
    sheet = row.to_sheet()
    spends = live_spends(gw, row.id)
    made = L.creation_sheet(sheet, spends, renown_history(gw, row.id))
    result = L.check_creation(made)
    recorded = sum(int(i["cost"]) for i in spends)
    if spends:
        result.notes.append(f"judged as made: {len(spends)} experience purchases ({recorded} experience) taken back")
    if sheet.xp_spent > recorded:
        result.notes.append(
            f"{sheet.xp_spent - recorded} experience spent without `char raise`: what it bought is judged as creation"
        )
    return result, made


@dataclass(frozen=True)
class Raise:
    """What :func:`raise_traits` bought: the purchases, their total, the spend's id and the sheet after."""

    sheet: Sheet
    purchases: list[L.Purchase]
    spend_id: int

    @property
    def cost(self) -> int:
        return sum(p.cost for p in self.purchases)

    def to_dict(self) -> dict:
        return {
            "name": self.sheet.name,
            "chronicle": self.sheet.chronicle,
            "spend": self.spend_id,
            "cost": self.cost,
            "purchases": [p.to_dict() for p in self.purchases],
            "experience": {
                "total": self.sheet.xp_total,
                "spent": self.sheet.xp_spent,
                "available": self.sheet.xp_available,
            },
        }


def parse_raise(text: str, to: int | None) -> tuple[str, int | None]:
    """'Brawl' -> ('Brawl', to); 'Brawl=3' and 'gift:Razor Claws=1' -> (trait, 3 / 1). Raises InvalidValue
    for a value that is not a whole number."""

    trait, sep, value = text.rpartition("=")
    if not sep:
        return text.strip(), to
    return trait.strip(), parse_whole_number(value.strip(), f"{trait.strip()} rating", 0, 10)


def raise_traits(
    gw: Gateway,
    name: str,
    items: list[tuple[str, int | None]],
    *,
    chronicle: str | None = None,
    outside: bool = False,
    reason: str = "",
) -> Raise:
    """`char raise`: price every (trait, target) in ``items`` by the experience table, one after another
    (a trait raised twice is priced from its new rating), refuse the lot when the character cannot afford
    it or a rule forbids one (RuleRefusal, nothing stored), else write the ratings, one experience-log
    spend naming what it bought, an ``xp_spends`` row and a table event. ``outside``: the Gifts are from
    outside breed, auspice and tribe. Rites follow the chronicle's house rule ``rite-cost``."""
    if not items:
        raise InvalidValue("name a trait to raise, e.g. `char raise NAME Brawl`")
    if len(items) > MAX_RAISES:
        raise InvalidValue(f"{len(items)} traits in one raise; at most {MAX_RAISES}")
    check_text(reason, "experience reason")
    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()

    rite_cost = rules_in_force(gw, row.chronicle).rite_cost
    bought: list[L.Purchase] = []
    for trait, to in items:
        p = L.price(sheet, trait, to, outside=outside, rite_cost=rite_cost)
        L.apply_purchase(sheet, p)
        bought.append(p)
    cost = sum(p.cost for p in bought)
    if cost > sheet.xp_available:
        listed = ", ".join(f"{p.label} {p.cost}" for p in bought)
        raise RuleRefusal(
            f"{sheet.name} has {sheet.xp_available} experience to spend; {listed} cost {cost}; nothing bought"
        )
    what = ", ".join(p.label for p in bought)
    log_reason = (reason + ": " if reason else "") + what
    if len(log_reason) > 200:
        log_reason = log_reason[:199] + "…"
    ts, iso = _now(gw)
    if cost:
        sheet.xp("spend", cost, log_reason, at=iso)
    spend_id = gw.insert(
        "INSERT INTO xp_spends (character_id, chronicle, created_at, cost, items, reason, log_at) "
        "VALUES (:c, :ch, :at, :cost, :items, :reason, :log_at)",
        c=row.id,
        ch=row.chronicle,
        at=ts,
        cost=cost,
        items=json.dumps([p.to_dict() for p in bought], ensure_ascii=False),
        reason=log_reason,
        log_at=iso if cost else "",
    )
    summary = f"{sheet.name} raises {what} for {cost} experience"
    save_sheet(gw, row, sheet, summary=summary, detail={"source": "raise", "spend": spend_id, "cost": cost})
    return Raise(sheet, bought, spend_id)


def undo_spend(gw: Gateway, name: str, *, chronicle: str | None = None) -> Edit:
    """`char xp NAME undo`: take back the character's last `char raise` that still stands, as a whole: the
    ratings it raised back to what they were, its experience-log entry removed and the experience
    refunded. Raises NotFound-style RuleRefusal when there is none, and RuleRefusal (nothing changed) when
    a trait it bought has changed since."""
    row = find_character(gw, name, chronicle, for_update=True)
    last = gw.row(
        "SELECT id, cost, items, log_at FROM xp_spends WHERE character_id = :c AND undone_at IS NULL "
        "ORDER BY id DESC LIMIT 1",
        c=row.id,
    )
    if last is None:
        raise RuleRefusal(f"{row.name} has no experience spend of `char raise` to undo")
    spend_id, cost, items_text, log_at = int(last[0]), int(last[1]), last[2], last[3]
    sheet = row.to_sheet()
    items = json.loads(items_text)
    for item in reversed(items):
        L.revert_purchase(sheet, item)
    if cost:
        for i in range(len(sheet.xp_log) - 1, -1, -1):
            e = sheet.xp_log[i]
            if e.get("kind") == "spend" and e.get("at") == log_at and int(e.get("amount", 0)) == cost:
                del sheet.xp_log[i]
                break
        sheet.xp_spent = max(0, sheet.xp_spent - cost)
    ts, _ = _now(gw)
    gw.execute("UPDATE xp_spends SET undone_at = :at WHERE id = :id", at=ts, id=spend_id)
    what = ", ".join(
        f"{i['name']} {i['from']}" if i["kind"] not in ("gift", "rite") else f"{i['kind']} {i['name']} removed"
        for i in items
    )
    summary = f"{sheet.name}: spend #{spend_id} undone ({what}); {cost} experience back, {sheet.xp_available} unspent"
    save_sheet(gw, row, sheet, summary=summary, detail={"source": "undo", "spend": spend_id, "cost": cost})
    return Edit(
        sheet, summary, [], {"spend": spend_id, "refunded": cost, "restored": items, "available": sheet.xp_available}
    )


def give_renown(
    gw: Gateway, name: str, renown: str, amount: int, reason: str = "", *, chronicle: str | None = None
) -> Edit:
    """`char renown`: award (or take) temporary Renown (:func:`lifebook.award_renown`: ten points become a
    permanent dot, the Rank rises when the auspice's table allows), store the award and its event. The
    summary announces a Rank reached and ``data`` says what the next Rank needs."""
    check_text(reason, "Renown reason")
    row = find_character(gw, name, chronicle, for_update=True)
    sheet = row.to_sheet()
    done = L.award_renown(sheet, renown, amount)
    ts, _ = _now(gw)
    gw.insert(
        "INSERT INTO renown_awards (character_id, chronicle, created_at, renown, amount, reason, before, after, "
        "rank_before, rank_after) VALUES (:c, :ch, :at, :r, :n, :reason, :before, :after, :rb, :ra)",
        c=row.id,
        ch=row.chronicle,
        at=ts,
        r=done.renown,
        n=amount,
        reason=reason,
        before=json.dumps(done.to_dict()["before"]),
        after=json.dumps(done.to_dict()["after"]),
        rb=done.rank_before,
        ra=done.rank_after,
    )
    verb = "earns" if amount > 0 else "loses"
    label = sheet.renown_label(done.renown)
    summary = f"{sheet.name} {verb} {abs(amount)} {label}: {label} {done.after[0]} permanent, {done.after[1]} temporary"
    warnings = []
    if done.gained:
        summary += f" (+{done.gained} permanent from 10 temporary)"
    if done.rank_after > done.rank_before:
        summary += f"; Rank {done.rank_after} ({L.rank_name(done.rank_after)}) reached"
    nxt = L.next_rank(sheet)
    if amount > 0 and sheet.auspice and L.rank_table(sheet) is None and sheet.fera == "Garou":
        warnings.append(f"no Rank table for the auspice {sheet.auspice!r}")
    save_sheet(gw, row, sheet, summary=summary, detail={"source": "renown", "renown": done.renown, "amount": amount})
    return Edit(sheet, summary, warnings, {"award": done.to_dict(), "rank": sheet.rank, "next_rank": nxt})


# ----- history -------------------------------------------------------------------------------------------
HISTORY_COLUMNS = ("at", "source", "change")


def _when(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def history(gw: Gateway, name: str, chronicle: str | None = None) -> tuple[Sheet, list[dict]]:
    """Every change to the stored character's sheet, oldest first, as {at (ISO 8601 UTC), source, change}:
    its creation or import (the row's ``created_at``), experience-log entries older than that (the history a
    file brought), and every ``sheet`` table event (an edit, damage, a raise, an award, an undo) plus each
    roll that spent Willpower. ``source`` says which command kind made the change."""
    row = find_character(gw, name, chronicle)
    sheet = row.to_sheet()
    created = gw.row("SELECT created_at FROM characters WHERE id = :id", id=row.id)
    out: list[dict] = []
    created_at = iso_utc(created[0]) if created and created[0] is not None else ""
    made = _when(created_at)
    for e in sheet.xp_log:
        at = str(e.get("at", ""))
        when = _when(at)
        # written before the row existed (to the second): history a file brought with it
        if made is not None and (when is None or (made - when).total_seconds() >= 1):
            sign = "+" if e.get("kind") == "award" else "-"
            change = f"experience {sign}{e.get('amount')}: {e.get('reason', '')}"
            out.append({"at": at, "source": "file", "change": change})
    if created_at:
        out.append({"at": created_at, "source": "created", "change": f"{row.name} stored"})
    events = gw.rows(
        "SELECT created_at, kind, data FROM table_events "
        "WHERE character_id = :c AND kind IN ('sheet', 'roll') ORDER BY id",
        c=row.id,
    )
    for at, kind, data_text in events:
        data = json.loads(data_text) if isinstance(data_text, str) else (data_text or {})
        if kind == "roll":
            if not (data.get("roll") or {}).get("willpower"):
                continue
            change = f"Willpower spent on a roll: {data.get('expression', '')}".rstrip(": ")
            source = "roll"
        else:
            change = str(data.get("summary", ""))
            source = str(data.get("source", "edit"))
            if source == "created" and created_at:
                continue  # the row's creation line above says it
        out.append({"at": iso_utc(at), "source": source, "change": change})
    out.sort(key=lambda r: _when(r["at"]) or datetime.min.replace(tzinfo=UTC))
    return sheet, out
