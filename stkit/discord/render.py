"""Discord messages from stkit's results: user text escaped, Discord's limits kept, no mention ever pings.

Limits (developers/resources/message.mdx, "Embed Limits" and "Create Message"; developers/resources/
webhook.mdx, "Execute Webhook"): content at most 2000 characters; at most 10 embeds; an embed's title 256,
description 4096, footer 2048, author name 256, a field's name 256 and value 1024, at most 25 fields, and
6000 characters over every embed of a message. A webhook's username is 1 to 80 characters and may not
contain "clyde" or "discord" (developers/resources/webhook.mdx, "Create Webhook").

Mentions: every message carries ``allowed_mentions: {"parse": []}``, so no name or note can ping anyone,
@everyone included (developers/resources/message.mdx, "Allowed Mentions Object": webhooks and interactions
parse user mentions by default).

Markdown: user text goes through :func:`escape` (control characters made visible by
:func:`stkit.text.printable`, then a backslash before each character Discord's markdown reads: ``\\ * _ ~
` | > # - [ ] ( ) < @ : .``). That a backslash escapes any such character is CommonMark's rule (spec 0.31,
"Backslash escapes"); that Discord's parser follows it for these characters is not checked against a
public Discord source.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from stkit.text import dice_text, percent, printable

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
MAX_USERNAME = 80
#: Autocomplete answers at most 25 choices, each name and value 1 to 100 characters
#: (developers/interactions/receiving-and-responding.mdx, "Autocomplete"; application-commands.mdx, choices).
MAX_CHOICES = 25
MAX_CHOICE = 100
#: A button's label is at most 80 characters, its custom_id 1 to 100 (developers/components/reference.mdx).
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
#: The message flag of an ephemeral reply: 1 << 6 (developers/resources/message.mdx, "Message Flags").
EPHEMERAL = 64
NO_MENTIONS: dict[str, list] = {"parse": []}

_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<@:.])")
_COLOURS = {"success": 0x2E7D32, "failure": 0x757575, "botch": 0xC62828}


def escape(text: object) -> str:
    """``text`` safe inside a Discord message: control and invisible characters shown as escapes (one
    line), markdown characters backslash-escaped."""
    return _MARKDOWN.sub(r"\\\1", printable(text))


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters (ending in '…' when cut), never leaving a lone
    backslash at the end (it would escape the ellipsis)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    trailing = len(cut) - len(cut.rstrip("\\"))
    if trailing % 2:
        cut = cut[:-1]
    return cut + "…"


def username(name: object) -> str:
    """A webhook username from a character's name: one printable line, 1 to 80 characters, with the words
    Discord refuses in a webhook's name ('clyde', 'discord') broken by a zero-width-free substitute."""
    text = printable(name).strip() or "stkit"
    text = re.sub(r"(?i)clyde", "Clyd3", text)
    text = re.sub(r"(?i)discord", "Disc0rd", text)
    return clip(text, MAX_USERNAME)


#: The longest guest name shown before " (guest)".
MAX_GUEST = 32
_NOT_IN_NAME = re.compile(r"[@#:`*_~|>\\\[\]()<]")


def guest_name(name: object) -> str:
    """The webhook username of an unclaimed Discord user's roll: their shown name, on one line, without
    markdown or mention characters, at most MAX_GUEST characters, then " (guest)". A name Discord refuses
    for a webhook (containing 'discord' or 'clyde', or 'everyone' or 'here';
    developers/resources/webhook.mdx, "Create Webhook") or nothing left becomes "Player"."""
    text = " ".join(_NOT_IN_NAME.sub("", printable(name)).split())[:MAX_GUEST].strip()
    low = text.casefold()
    if not text or "discord" in low or "clyde" in low or low in ("everyone", "here", "storyteller"):
        text = "Player"
    return f"{text} (guest)"


def dice_line(roll: dict, marks: list[str] | None) -> str:
    """The dice of a roll, in roll order: a success in bold, a struck pair (a success cancelled by a 1, and
    the 1) struck through, a 1 underlined, the rest plain."""
    faces = list(roll.get("dice") or [])
    marks = list(marks or [])
    shown = []
    for i, face in enumerate(faces):
        mark = marks[i] if i < len(marks) else ""
        if mark == "success":
            shown.append(f"**{face}**")
        elif mark in ("success cancelled", "one cancelling"):
            shown.append(f"~~{face}~~")
        elif mark == "one":
            shown.append(f"__{face}__")
        else:
            shown.append(str(face))
    return " ".join(shown) if shown else "(no dice rolled)"


def outcome_line(roll: dict) -> str:
    """'3 successes: success', 'no success: failure', 'botch' (with Willpower's automatic success named)."""
    outcome = str(roll.get("outcome") or "")
    result = int(roll.get("result") or 0)
    if outcome == "botch":
        return "**Botch**"
    words = f"{result} success{'es' if result != 1 else ''}" if result > 0 else "no success"
    tail = " (Willpower: one success the 1s cannot cancel)" if roll.get("willpower") else ""
    return f"**{words}**: {outcome}{tail}"


def roll_embed(data: dict, *, chance: Fraction | None) -> dict:
    """The card of one roll event's ``data`` (:func:`stkit.store.table.events.roll_event_data`): who, the pool as
    built, the dice with successes and 1s marked, the outcome and the exact chance of it or better."""
    roll = data.get("roll") or {}
    who = str(data.get("character") or "")
    kind = str(data.get("for") or "roll")
    what = escape(data.get("expression") or roll.get("pool"))
    title = f"{escape(who)}: {what}" if who else dice_text(roll.get("pool"))
    if kind not in ("roll", "sheet"):
        title = f"{escape(kind.capitalize())} · {title}"
    lines = []
    pool_text = str(data.get("breakdown") or dice_text(roll.get("pool")))
    lines.append(f"{escape(pool_text)}, difficulty {roll.get('difficulty')}")
    lines.append(dice_line(roll, data.get("marks")))
    lines.append(outcome_line(roll))
    if chance is not None:
        lines.append(f"Chance of this or better: {percent(chance)}")
    embed: dict[str, Any] = {
        "title": clip(title, MAX_TITLE),
        "description": clip("\n".join(lines), MAX_DESCRIPTION),
        "color": _COLOURS.get(str(roll.get("outcome")), 0x757575),
    }
    footer = []
    if data.get("task"):
        footer.append(f"task {printable(data['task'])}")
    if data.get("turn"):
        footer.append(f"turn {data['turn']}")
    if data.get("log_id"):
        footer.append(f"log #{data['log_id']}")
    if footer:
        embed["footer"] = {"text": clip(" · ".join(footer), MAX_FOOTER)}
    return embed


def event_message(event: Any, *, chance: Fraction | None = None) -> dict | None:
    """The webhook body of one table event (a :class:`stkit.store.table.events.TableEvent`), or None for an
    event no channel shows. ``chance``: a roll's chance of its result or better (None: not shown)."""
    data = event.data or {}
    body: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
    kind = event.kind
    if kind == "roll":
        body["username"] = username(data.get("character") or data.get("by") or "Storyteller")
        body["embeds"] = [roll_embed(data, chance=chance)]
        if event.secret:
            body["content"] = "Secret roll (Storyteller only)"
        return fit(body)
    if kind in ("message", "whisper"):
        speaker = data.get("from") or "Storyteller"
        body["username"] = username(speaker)
        text = escape(data.get("text") or "")
        if kind == "whisper":
            text = f"*whisper to {escape(data.get('to') or '?')}:* {text}"
        body["content"] = text
        return fit(body)
    line = _summary(kind, data)
    if line is None:
        return None
    body["username"] = username(data.get("character") or "Storyteller")
    body["content"] = line
    return fit(body)


def attack_groups(events: list[Any]) -> list[list[Any]]:
    """``events`` (oldest first) cut into messages: an attack (a roll event for 'attack') and the events
    that follow it with the next ids (its damage and soak rolls, the wounds on the sheet: one transaction)
    make one group, posted as one card; every other event is a group of its own."""
    groups: list[list[Any]] = []
    for event in events:
        last = groups[-1] if groups else None
        joins = (
            last is not None
            and last[0].kind == "roll"
            and (last[0].data or {}).get("for") == "attack"
            and event.id == last[-1].id + 1
            and last[-1].kind == "roll"
            and len(last) < MAX_EMBEDS
            and (
                event.kind == "sheet" or (event.kind == "roll" and (event.data or {}).get("for") in ("damage", "soak"))
            )
        )
        if joins and last is not None:
            last.append(event)
        else:
            groups.append([event])
    return groups


def group_message(events: list[Any], chances: list[Fraction | None]) -> dict | None:
    """The webhook body of one group of :func:`attack_groups`: one event's own message, or an attack's card
    (an embed per roll, the wounds as the message's text, the attacker as its author)."""
    if len(events) == 1:
        return event_message(events[0], chance=chances[0])
    embeds = [roll_embed(e.data or {}, chance=c) for e, c in zip(events, chances, strict=True) if e.kind == "roll"]
    lines = [_summary(e.kind, e.data or {}) for e in events if e.kind != "roll"]
    body: dict[str, Any] = {
        "allowed_mentions": NO_MENTIONS,
        "username": username((events[0].data or {}).get("character") or "Storyteller"),
        "embeds": embeds,
    }
    text = "\n".join(line for line in lines if line)
    if text:
        body["content"] = text
    return fit(body)


def _summary(kind: str, data: dict) -> str | None:
    """One line for a sheet, scene, extended or contest event (None for a kind no channel shows)."""
    if kind == "sheet":
        return escape(data.get("summary") or f"{data.get('character', '')}: sheet changed")
    if kind == "scene":
        if "moon" in data:
            return "The moon changes"
        name = escape(data.get("name") or "")
        change = str(data.get("change") or "")
        if change == "initiative":
            order = ", ".join(escape(n) for n in data.get("order") or [])
            return f"Scene {name}, turn {data.get('turn')}: initiative {order}"
        if change == "turn":
            return f"Scene {name}: turn {data.get('turn')}"
        return f"Scene {name} {escape(change)}"
    if kind == "extended":
        return (
            f"Extended action {escape(data.get('name') or '')} {escape(data.get('change') or '')}: "
            f"{data.get('tally')} of {data.get('target')} ({escape(data.get('status') or '')})"
        )
    if kind == "contest":
        return (
            f"Contest {escape(data.get('name') or '')} {escape(data.get('change') or '')}: "
            f"{data.get('tally_a')} to {data.get('tally_b')} ({escape(data.get('status') or '')})"
        )
    return None


def fit(body: dict) -> dict:
    """``body`` within Discord's limits: content, each embed part, the embeds' 6000-character total (the
    last embed's description is cut first), at most 10 embeds and 25 fields each."""
    if "content" in body:
        body["content"] = clip(str(body["content"]), MAX_CONTENT)
    embeds = list(body.get("embeds") or [])[:MAX_EMBEDS]
    for embed in embeds:
        if "title" in embed:
            embed["title"] = clip(embed["title"], MAX_TITLE)
        if "description" in embed:
            embed["description"] = clip(embed["description"], MAX_DESCRIPTION)
        if "footer" in embed:
            embed["footer"]["text"] = clip(embed["footer"]["text"], MAX_FOOTER)
        fields = list(embed.get("fields") or [])[:MAX_FIELDS]
        for f in fields:
            f["name"], f["value"] = clip(f["name"], MAX_FIELD_NAME), clip(f["value"], MAX_FIELD_VALUE)
        if fields:
            embed["fields"] = fields
    over = embed_total(embeds) - MAX_EMBED_TOTAL
    for embed in reversed(embeds):
        if over <= 0:
            break
        text = embed.get("description", "")
        keep = max(1, len(text) - over)
        embed["description"] = clip(text, keep)
        over = embed_total(embeds) - MAX_EMBED_TOTAL
    if embeds:
        body["embeds"] = embeds
    return body


def embed_total(embeds: list[dict]) -> int:
    """The characters Discord counts toward an embed total: titles, descriptions, field names and values,
    footers and author names."""
    total = 0
    for e in embeds:
        total += len(e.get("title", "")) + len(e.get("description", ""))
        total += len((e.get("footer") or {}).get("text", "")) + len((e.get("author") or {}).get("name", ""))
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in e.get("fields") or [])
    return total


def check_limits(body: dict) -> list[str]:
    """Every documented limit ``body`` breaks, one line each (empty: none). For tests and the follower's
    last check before a post."""
    problems = []
    if len(body.get("content") or "") > MAX_CONTENT:
        problems.append("content over 2000 characters")
    name = body.get("username")
    if name is not None and (not 1 <= len(name) <= MAX_USERNAME or re.search(r"(?i)clyde|discord", name)):
        problems.append("username not allowed")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append("more than 10 embeds")
    for e in embeds:
        if len(e.get("title", "")) > MAX_TITLE or len(e.get("description", "")) > MAX_DESCRIPTION:
            problems.append("embed title or description too long")
        if len((e.get("footer") or {}).get("text", "")) > MAX_FOOTER:
            problems.append("embed footer too long")
        fields = e.get("fields") or []
        if len(fields) > MAX_FIELDS or any(
            len(f["name"]) > MAX_FIELD_NAME or len(f["value"]) > MAX_FIELD_VALUE for f in fields
        ):
            problems.append("embed fields too many or too long")
    if embed_total(embeds) > MAX_EMBED_TOTAL:
        problems.append("embeds over 6000 characters")
    if body.get("allowed_mentions") != NO_MENTIONS:
        problems.append("allowed_mentions is not empty")
    return problems
