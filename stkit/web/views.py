"""What the pages show, read from the store: a sheet, the scene and tracked actions, a feed item, a whole
page. Plain functions of a gateway (one read transaction) and the link holder; the routers render them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stkit.sheet import traits as T
from stkit.sheet.forms import FORM_NAMES
from stkit.sheet.sheet import HEALTH_LEVELS
from stkit.sheet.vocab import ActionStatus
from stkit.store.characters import list_characters
from stkit.store.contests import contest_status, list_contests
from stkit.store.extended import extended_status, list_extended
from stkit.store.fight.rules import is_dead, maneuver_names
from stkit.store.house import rules_in_force
from stkit.store.powers import power_table
from stkit.store.scenes import open_scene, recent_scenes
from stkit.store.table.events import LinkHolder, TableEvent, last_event_id, recent_events
from stkit.store.table.prompts import is_npc
from stkit.web.play import (
    LOG_KINDS,
    finished_tracked,
    party_view,
    rated_powers,
    roll_choices,
    talk_item,
    talk_visible,
)

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


if TYPE_CHECKING:  # pragma: no cover
    from stkit.web.table import Table

#: Roll events shown when a page opens (newer ones arrive live).
FEED_SIZE = 50


def sheet_view(row: Any, *, dead: bool = False) -> dict:
    """A stored character as the sheet panel shows it: Attributes, Abilities, Rage / Gnosis / Willpower,
    Renown, health levels with the wound penalty, form, and the traits the roll form offers."""

    sheet = row.to_sheet()
    abilities = [(a, sheet.abilities[a]) for a in T.ABILITIES if sheet.abilities.get(a)]
    abilities += sorted(sheet.custom_abilities.items())
    boxes = sheet.health_boxes()
    health = [{"name": name, "penalty": penalty, "damage": boxes[i]} for i, (name, penalty) in enumerate(HEALTH_LEVELS)]
    powers = [(p, sheet.powers[p].permanent, sheet.powers[p].temporary) for p in rated_powers(sheet)]
    known = {T.norm(k): v for k, v in power_table()["gifts"].items()}
    gifts = []
    for g in sheet.gifts:
        entry = known.get(T.norm(g["name"]))
        asks = bool(entry and entry.get("pool") and entry.get("difficulty") is None)
        by = str(entry.get("difficulty_by") or "the Storyteller") if asks and entry else ""
        gifts.append({"name": g["name"], "level": g["level"], "known": entry is not None, "asks": asks, "by": by})
    fetishes = [{"name": f["name"], "level": f["level"], "gnosis": f["gnosis"]} for f in sheet.fetishes]
    renown = [(r, sheet.renown[r].permanent, sheet.renown[r].temporary) for r in T.RENOWN]
    return {
        "id": row.id,
        "name": sheet.name,
        "player": sheet.player,
        "tribe": sheet.tribe,
        "auspice": sheet.auspice,
        "breed": sheet.breed,
        "form": sheet.form if sheet.creature == "shapeshifter" else None,
        "gifts": gifts,
        "fetishes": fetishes,
        "attributes": [(a, sheet.attributes.get(a, 0)) for a in T.ATTRIBUTES],
        "abilities": abilities,
        "powers": powers,
        "renown": renown,
        "health": health,
        "health_level": sheet.health_level,
        "wound_penalty": sheet.wound_penalty,
        "incapacitated": sheet.incapacitated,
        "dead": dead,
        "willpower_left": sheet.powers["Willpower"].temporary,
        "roll_traits": [
            *T.ATTRIBUTES,
            *(a for a, _ in abilities),
            *rated_powers(sheet),
            *(r for r, perm, _ in renown if perm),
        ],
        "choices": roll_choices(sheet),
    }


def status_view(gw: Gateway, chronicle: str, holder: LinkHolder | None = None) -> dict:
    """The open scene and turn, the open extended actions (progress, rolls so far, the exact chance to
    finish within 1, 2 and 4 more rolls) and the open contests (both tallies) of ``chronicle``; the party
    and the initiative order as :func:`stkit.web.play.party_view` shows them to ``holder`` (None: the
    Storyteller)."""

    scene = open_scene(gw, chronicle)
    actions = [
        extended_status(gw, a).to_dict() for a in list_extended(gw, chronicle=chronicle, status=ActionStatus.open)
    ]
    for a in actions:
        within = (a.get("odds") or {}).get("within") or {}
        a["chances"] = [
            (k, within[str(k)]["probability"], within[str(k)]["exact"]) for k in (1, 2, 4) if str(k) in within
        ]
        a["percent"] = min(100, round(100 * a["tally"] / a["target"])) if a["target"] else 0
    contests = [
        contest_status(gw, c).to_dict() for c in list_contests(gw, chronicle=chronicle, status=ActionStatus.open)
    ]
    scene_view = {"id": scene.id, "name": scene.name, "turn": scene.turn} if scene else None
    finished_extended, finished_contests = finished_tracked(gw, chronicle, scene_view)
    return {
        "scene": scene_view,
        "extended": actions,
        "contests": contests,
        "finished_extended": finished_extended,
        "finished_contests": finished_contests,
        **party_view(gw, chronicle, scene_view, holder),
    }


def feed_item(event: TableEvent, *, storyteller: bool) -> dict:
    """A roll event as the feed shows it: who, the pool, the dice with their marks, the result."""
    d = event.data
    roll = d["roll"]
    dice = []
    for i, face in enumerate(roll["dice"]):
        mark = d["marks"][i] if i < len(d["marks"]) else ""
        dice.append({"face": face, "mark": mark, "extra": i >= roll["pool"]})
    outcome = roll["outcome"]
    if roll.get("automatic"):
        summary = "1 success (marginal), automatic"
    elif outcome == "botch":
        summary = "BOTCH"
    elif outcome == "failure":
        summary = "Failure"
    else:
        summary = f"{roll['result']} success{'es' if roll['result'] != 1 else ''} ({roll['degree']})"
    return {
        "id": event.id,
        "log_id": d.get("log_id"),
        "who": d.get("character") or "Storyteller",
        "pool_text": d.get("breakdown") or f"{roll['pool']} {'die' if roll['pool'] == 1 else 'dice'}",
        "difficulty": roll["difficulty"],
        "retry": roll.get("retry", 0),
        "dice": dice,
        "outcome": outcome,
        "summary": summary,
        "willpower": roll.get("willpower"),
        "scene_id": d.get("scene_id"),
        "turn": d.get("turn"),
        "task": d.get("task"),
        "for": d.get("for"),
        "secret": event.secret and storyteller,
        "blind": bool(d.get("blind")),
        "at": event.created_at[11:19],
        "at_iso": event.created_at,
        "kind": "roll",
        "character_id": event.character_id,
    }


def card_item(event: TableEvent) -> dict | None:
    """An 'attack' or 'call' event as its feed card (None: the event carries no card: an attack still
    waiting for its answer, a prompt taken back)."""
    card = event.data.get("card")
    if not card:
        return None
    return {
        **card,
        "kind": event.kind,
        "event_id": event.id,
        "prompt": event.data.get("prompt"),
        "scene_id": event.data.get("scene_id"),
        "at": event.created_at[11:19],
        "at_iso": event.created_at,
    }


def card_html(table: Table, event: TableEvent) -> str | None:
    """The feed card's HTML of an 'attack' or 'call' event, or None."""
    c = card_item(event)
    if c is None:
        return None
    return table.fragment("attack_card.html" if event.kind == "attack" else "call_card.html", c=c)


def chronicle_title(chronicle: str) -> str:
    """The chronicle's name as the page's title shows it ('default' is the unnamed chronicle)."""
    return "The chronicle" if chronicle == "default" else chronicle


def npc_ids(gw: Gateway, chronicle: str) -> set[int]:
    """Ids of the characters of ``chronicle`` no player plays (:func:`stkit.store.table.prompts.is_npc`)."""
    return {c.id for c in list_characters(gw, chronicle) if is_npc(c.to_sheet())}


def page_data(table: Table, gw: Gateway, holder: LinkHolder) -> dict:
    """Everything a page shows, read in one transaction: the feed, the newest event id (the stream starts
    after it), the status, the sheets this link may see and the characters of the chronicle."""

    st = holder.is_storyteller
    after = last_event_id(gw, table.chronicle)
    rolls = recent_events(gw, table.chronicle, kind="roll", include_secret=st, limit=FEED_SIZE)
    talk = [
        e
        for kind in ("message", "whisper")
        for e in recent_events(gw, table.chronicle, kind=kind, include_secret=True, limit=FEED_SIZE)
        if talk_visible(e, holder)
    ]
    cards: dict[tuple[str, int], TableEvent] = {}
    for kind in ("attack", "call"):
        for e in recent_events(gw, table.chronicle, kind=kind, include_secret=st, limit=FEED_SIZE):
            key = (kind, int(e.data.get("prompt") or -e.id))  # an attack typed at the terminal has no prompt
            if e.data.get("card") and (key not in cards or cards[key].id < e.id):
                cards[key] = e  # a call's newest card stands for it
    carded = {i for e in cards.values() for i in e.data["card"].get("log_ids", [])}
    chars = list_characters(gw, table.chronicle)
    hidden = set() if st else {c.id for c in chars if is_npc(c.to_sheet())}
    rolls = [e for e in rolls if e.data.get("log_id") not in carded and e.character_id not in hidden]
    events = sorted((e for e in [*rolls, *talk, *cards.values()] if e.id <= after), key=lambda e: -e.id)[:FEED_SIZE]
    feed = [
        feed_item(e, storyteller=st)
        if e.kind == "roll"
        else card_item(e)
        if e.kind in ("attack", "call")
        else talk_item(e)
        for e in events
    ]
    sheets = [sheet_view(c, dead=is_dead(gw, c.id)) for c in chars if st or c.id == holder.character_id]

    rules = rules_in_force(gw, table.chronicle)
    return {
        "difficulty": rules.difficulty,
        # a player names the difficulty only under `stkit house set player-difficulty yes`
        "choose_difficulty": st or rules.player_difficulty,
        "holder": holder,
        "storyteller": st,
        "chronicle": table.chronicle,
        "chronicle_name": chronicle_title(table.chronicle),
        "feed": feed,
        "after": after,
        "status": status_view(gw, table.chronicle, holder),
        "sheets": sheets,
        "characters": [(c.id, c.name) for c in chars],
        "targets": [(c.id, c.name) for c in chars if st or c.id != holder.character_id],
        "weapons": sorted({str(w["name"]) for c in chars for w in c.to_sheet().weapons if w.get("name")}),
        "maneuvers": maneuver_names(),
        "forms": FORM_NAMES,
        "ranges": ("point-blank", "normal", "long"),
        "scenes": recent_scenes(gw, table.chronicle),
        "log_kinds": LOG_KINDS,
        "ping": table.settings.ping,
    }
