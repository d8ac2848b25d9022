"""What the table pages show, read from the store: the party strip and initiative order, the roll form's
choices, the results under the Roll button, table talk and the night's log. Plain functions of a gateway
(one read transaction) returning dicts for the templates; no request handling here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stkit.sheet import traits as T
from stkit.sheet.forms import apply_form
from stkit.store.characters import list_characters
from stkit.store.contests import list_contests
from stkit.store.extended import list_extended
from stkit.store.fight.initiative import current_initiative, held_in_turn
from stkit.store.fight.rules import is_dead
from stkit.store.saved import saved_rolls
from stkit.store.scenes import rolled_in_turn
from stkit.store.table.events import TableEvent
from stkit.store.table.prompts import is_npc

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


#: Kinds of the night's log and its filter, with the words the filter shows.
LOG_KINDS = (
    ("roll", "Rolls"),
    ("message", "Messages"),
    ("whisper", "Whispers"),
    ("sheet", "Sheet changes"),
    ("scene", "Scenes and turns"),
    ("extended", "Extended actions"),
    ("contest", "Contests"),
)


#: One-tap pools the roll form offers under "Common rolls" (an attack, a dodge, noticing, sneaking).
COMMON_POOLS = (
    "Dexterity + Brawl",
    "Dexterity + Melee",
    "Dexterity + Firearms",
    "Dexterity + Dodge",
    "Perception + Alertness",
    "Dexterity + Stealth",
)


def rated_powers(sheet: Any) -> tuple[str, ...]:
    """The Rage, Gnosis and Willpower a sheet shows: all three for a shapeshifter; for Kinfolk and mortals
    Willpower, and Rage or Gnosis only when rated (a Merit or a story can give them), never a zero row."""
    if sheet.creature == "shapeshifter":
        return T.POWERS
    return tuple(p for p in T.POWERS if p == "Willpower" or sheet.powers[p].permanent)


def roll_choices(sheet: Any) -> dict:
    """The roll form's choices for a Sheet: every Attribute with its form-adjusted rating, every Ability
    rated or not grouped as Talents / Skills / Knowledges (unrated ones say what the unskilled rule does),
    custom Abilities, the Traits rated to 10 that roll alone, and the saved rolls."""

    def ability_label(name: str, group: str) -> str:
        n = sheet.abilities.get(name, 0)
        if n:
            return f"{name} {n}"
        return {
            "Talents": f"{name} 0 (no penalty)",
            "Skills": f"{name} 0 (difficulty +1)",
            "Knowledges": f"{name} 0 (Storyteller's call)",
        }.get(group, f"{name} 0")

    groups = [
        (group, [(a, ability_label(a, group)) for a in names])
        for group, names in (("Talents", T.TALENTS), ("Skills", T.SKILLS), ("Knowledges", T.KNOWLEDGES))
    ]
    if sheet.custom_abilities:
        groups.append(("Other Abilities", [(a, f"{a} {n}") for a, n in sorted(sheet.custom_abilities.items())]))
    alone = [(p, f"{p} {sheet.powers[p].permanent}") for p in rated_powers(sheet)]
    alone += [(r, f"{r} {sheet.renown[r].permanent}") for r in T.RENOWN if sheet.renown[r].permanent]
    return {
        "attributes": [(a, f"{a} {apply_form(sheet.form, a, sheet.attributes.get(a, 0))}") for a in T.ATTRIBUTES],
        "ability_groups": groups,
        "alone": alone,
        "saved": [r.to_dict() for r in saved_rolls(sheet)],
        "common": COMMON_POOLS,
    }


def party_view(gw: Gateway, chronicle: str, scene: dict | None, holder: Any = None) -> dict:
    """The party strip and the initiative order: for each character of ``chronicle`` its health level and
    wound penalty, damage boxes, Willpower / Rage / Gnosis points and ratings, and its initiative place;
    the order of the open scene's current initiative (the latest turn that rolled it) and whose action it
    is: the first in the order who has not rolled in this turn. The dead are shown dead. A player's
    ``holder`` sees neither the characters no player plays (NPCs) nor their places in the order; ``mine``
    says whether the acting one is the holder's own character (None: the Storyteller)."""

    rows = list_characters(gw, chronicle)
    dead = {r.id for r in rows if is_dead(gw, r.id)}
    player = holder is not None and not holder.is_storyteller
    hidden = {r.name for r in rows if is_npc(r.to_sheet())} if player else set()
    initiative = current_initiative(gw, scene["id"], scene["turn"]) if scene else None
    order = (initiative or {}).get("order") or []
    place = {o["name"]: o for o in order}
    acted = rolled_in_turn(gw, scene["id"], scene["turn"]) if scene and order else set()
    held = held_in_turn(gw, scene["id"], scene["turn"]) if scene and order else set()
    members = []
    ids = {}
    for row in rows:
        s = row.to_sheet()
        ids[s.name] = row.id
        boxes = s.health_boxes()
        powers = rated_powers(s)
        members.append(
            {
                "id": row.id,
                "name": s.name,
                "place": place.get(s.name, {}).get("place"),
                "initiative": place.get(s.name, {}).get("total"),
                "health": "Dead"
                if row.id in dead
                else "Incapacitated"
                if s.incapacitated
                else (s.health_level or "Unhurt"),
                "dead": row.id in dead,
                "npc": is_npc(s),
                "penalty": s.wound_penalty,
                "boxes": list(boxes),
                "willpower": (s.powers["Willpower"].temporary, s.powers["Willpower"].permanent),
                "rage": (s.powers["Rage"].temporary, s.powers["Rage"].permanent) if "Rage" in powers else None,
                "gnosis": (s.powers["Gnosis"].temporary, s.powers["Gnosis"].permanent) if "Gnosis" in powers else None,
                "form": s.form if s.creature == "shapeshifter" else None,
            }
        )
    members.sort(key=lambda m: (m["place"] is None, m["place"] or 0, m["name"]))
    living = [o for o in order if ids.get(o["name"]) not in dead]
    acting = next((o["name"] for o in living if ids.get(o["name"]) not in acted | held), None)
    mine = player and acting is not None and ids.get(acting) == holder.character_id
    shown = [o for o in order if o["name"] not in hidden]
    return {
        "party": [m for m in members if m["name"] not in hidden],
        "your_turn": mine,
        "initiative": {
            "turn": initiative.get("rolled_turn") if initiative else None,
            "order": [
                {
                    **o,
                    "acted": ids.get(o["name"]) in acted,
                    "held": ids.get(o["name"]) in held - acted,
                    "dead": ids.get(o["name"]) in dead,
                    "id": ids.get(o["name"]),
                }
                for o in shown
            ],
            "hidden_acting": acting in hidden,
            "cannot_act": (initiative or {}).get("cannot_act") or [],
            "dead_out": [n for n in (initiative or {}).get("dead") or [] if n not in hidden],
            "acting": acting,
        }
        if initiative
        else None,
    }


def finished_tracked(gw: Gateway, chronicle: str, scene: dict | None, limit: int = 5) -> tuple[list, list]:
    """Extended actions and contests that ended (done, failed, abandoned): those of the open scene, else
    the newest ``limit``; each a dict with ``id``, ``name``, ``status`` and its tallies."""

    def keep(rows: list) -> list:
        ended = [r for r in rows if r.status != "open"]
        if scene:
            ended = [r for r in ended if getattr(r, "scene_id", None) == scene["id"]]
        return ended[:limit]

    actions = [
        {"id": a.id, "name": a.name, "status": a.status, "tally": a.tally, "target": a.target}
        for a in keep(list_extended(gw, chronicle=chronicle))
    ]
    contests = [
        {
            "id": c.id,
            "name": c.name,
            "status": c.status,
            "winner": getattr(c, "winner", None),
            "tally_a": c.tally_a,
            "tally_b": c.tally_b,
        }
        for c in keep(list_contests(gw, chronicle=chronicle))
    ]
    return actions, contests


def talk_item(event: TableEvent) -> dict:
    """A message or whisper event as the feed shows it."""
    d = event.data
    return {
        "id": event.id,
        "kind": event.kind,
        "sender": d.get("from") or "Storyteller",
        "to": d.get("to"),
        "text": d.get("text") or "",
        "character_id": event.character_id,
        "scene_id": d.get("scene_id"),
        "at": event.created_at[11:19],
        "at_iso": event.created_at,
    }


def talk_visible(event: TableEvent, holder: Any) -> bool:
    """Whether ``holder`` may see a message or whisper: a message everyone, a whisper the Storyteller and
    the player of the character it was whispered to."""
    if event.kind == "message" and not event.secret:
        return True
    if event.kind == "whisper":
        return holder.is_storyteller or (event.character_id is not None and event.character_id == holder.character_id)
    return holder.is_storyteller
