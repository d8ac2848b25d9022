"""The Storyteller's scroll-back through the night: every event of the chronicle, secret ones too, newest
first, filtered by character, kind and scene, paged back by event id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stkit.errors import InvalidValue
from stkit.store.characters import list_characters
from stkit.store.scenes import recent_scenes
from stkit.store.table.events import TableEvent, chronicle_events
from stkit.text import parse_whole_number
from stkit.web.play import LOG_KINDS, talk_item
from stkit.web.views import feed_item

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway


def log_line(event: TableEvent) -> str:
    """A one-line account of a non-roll event for the night's log ('Weston: spends 1 Willpower')."""
    d = event.data
    if event.kind == "sheet":
        return str(d.get("summary") or f"{d.get('character', '')}: sheet changed")
    if event.kind == "scene":
        change = d.get("change")
        if change == "started":
            return f"Scene {d.get('name')!r} opened"
        if change == "ended":
            return f"Scene {d.get('name')!r} closed"
        return f"Scene {d.get('name')!r}: {change or 'changed'}, turn {d.get('turn')}"
    if event.kind == "extended":
        tally = f"{d.get('tally')} of {d.get('target')}"
        return f"Extended action {d.get('name')!r} {d.get('change')}: {tally} ({d.get('status')})"
    if event.kind == "contest":
        return (
            f"Contest {d.get('name')!r} {d.get('change')}: A {d.get('tally_a')} - B {d.get('tally_b')} "
            f"({d.get('status')})"
        )
    return f"{event.kind}: {d}"


def log_view(gw: Gateway, chronicle: str, filters: dict, limit: int) -> dict:
    """The Storyteller's scroll-back: the chronicle's events (secret ones too), newest first, at most
    ``limit``, before the event id ``filters['before']`` when given, of ``filters['kind']``, of the
    character id ``filters['character']`` and the scene id ``filters['scene']`` when given (an event
    outside any scene has none). Returns ``items`` (feed items, talk items or log lines), the characters
    and scenes for the filter, and ``older`` (the id to page back from, or None)."""

    kinds = {k for k, _ in LOG_KINDS}
    kind = filters.get("kind") or None
    if kind is not None and kind not in kinds:
        raise InvalidValue(f"kind {kind[:20]!r}; allowed: {', '.join(sorted(kinds))}")
    character = parse_whole_number(filters["character"], "character", 1, 2**62) if filters.get("character") else None
    before = parse_whole_number(filters["before"], "before", 1, 2**62) if filters.get("before") else None
    scene = parse_whole_number(filters["scene"], "scene", 1, 2**62) if filters.get("scene") else None
    events = chronicle_events(
        gw, chronicle, kind=kind, character_id=character, before=before, limit=limit * 4 if scene else limit
    )
    items: list[dict] = []
    for event in events:
        if scene is not None and event.data.get("scene_id") != scene:
            continue
        if event.kind == "roll":
            item = feed_item(event, storyteller=True)
        elif event.kind in ("message", "whisper"):
            item = talk_item(event)
        else:
            item = {
                "id": event.id,
                "kind": event.kind,
                "text": log_line(event),
                "at": event.created_at[11:19],
                "at_iso": event.created_at,
                "character_id": event.character_id,
                "scene_id": event.data.get("scene_id"),
            }
        items.append(item)
        if len(items) >= limit:
            break
    full = len(events) >= (limit * 4 if scene else limit) or len(items) >= limit
    older = (items[-1]["id"] if len(items) >= limit else events[-1].id) if events and full else None
    chars = list_characters(gw, chronicle)

    return {
        "items": items,
        "older": older,
        "characters": [(c.id, c.name) for c in chars],
        "scenes": recent_scenes(gw, chronicle, 100),
    }
