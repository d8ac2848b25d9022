"""Discord interactions answered: slash commands, autocomplete and the buttons on a roll's reply.

:func:`answer` takes one interaction (already checked by :mod:`stkit.discord.signature`) and returns the
interaction response (developers/interactions/receiving-and-responding.mdx, "Interaction Response Object"):
PONG (1) for a PING, a message (4), an autocomplete result (8). Every roll goes through
:func:`stkit.store.rolling.make_roll` (or the saved-roll and extended-action use cases built on it), so the
rules in force, the log row and the dice of a seed are those of `stkit roll`.

Who may do what (the table page's rules): a Discord user who has claimed the Storyteller's seat
(``/claim`` with the Storyteller's link code) rolls for anyone, secretly (an ephemeral reply with the dice;
the feed posts it to the Storyteller's webhook) and may choose the seed; a user who has claimed a character
rolls that character's Traits, and a secret roll of theirs is blind (the ephemeral reply says only that it
was rolled; the Storyteller sees the dice) and may not spend Willpower (the sheet would tell); an unclaimed
user rolls bare pools only. Each user gets :data:`BURST` interactions at once, then :data:`PER_SECOND` a
second; more get a refusal.

Input is hostile: option values are checked for type and length here and by the use cases; everything
shown is escaped by :mod:`stkit.discord.render`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stkit.dice.house import RuleOverrides
from stkit.discord import render
from stkit.discord.commands import COMMANDS
from stkit.errors import InvalidValue, RuleRefusal, StkitError
from stkit.store.extended import action_id_for, extended_status, get_action, roll_extended
from stkit.store.fight.initiative import roll_scene_initiative
from stkit.store.rolling import Purpose, RollOrder, make_roll, odds_for
from stkit.store.saved import roll_saved
from stkit.store.table.discord_feed import (
    bound_chronicle,
    chance_or_better,
    choices_for,
    claim_with_code,
    find_claim,
    logged_entry,
)
from stkit.store.table.events import dice_marks
from stkit.text import counted, percent

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.db.gateway import Gateway
    from stkit.store.db.handle import StoreHandle
    from stkit.store.rolling import RollOutcome
    from stkit.store.table.discord_feed import Claim, LoggedEntry, Reach

log = logging.getLogger("stkit.discord")

PING, COMMAND, COMPONENT, AUTOCOMPLETE = 1, 2, 3, 4
PONG, MESSAGE, AUTOCOMPLETE_RESULT = 1, 4, 8
#: Interactions one user may send at once, then this many a second.
BURST = 5
PER_SECOND = 1.0
#: The longest text option taken (a pool, a code, a name).
MAX_OPTION = 200


class UserLimiter:
    """Token buckets per Discord user id (at most ``size`` users remembered, the oldest forgotten)."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND, size: int = 4096) -> None:
        self.burst, self.per_second, self.size = burst, per_second, size
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, user: str) -> bool:
        """True when ``user`` may act now (one token taken)."""
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.pop(user, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
            if len(self._buckets) >= self.size:
                self._buckets.popitem(last=False)
            if tokens < 1:
                self._buckets[user] = (tokens, now)
                return False
            self._buckets[user] = (tokens - 1, now)
            return True


class SeenIds:
    """The interaction ids (or bodies) one process has answered: the last ``size`` of them, in memory, so a
    signed body replayed within the signature's 300-second window is refused. A restart forgets them."""

    def __init__(self, size: int = 65536) -> None:
        self.size = size
        self._seen: OrderedDict[object, None] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, key: object) -> bool:
        """True the first time ``key`` is seen (it is then remembered), False after."""
        with self._lock:
            if key in self._seen:
                return False
            self._seen[key] = None
            if len(self._seen) > self.size:
                self._seen.popitem(last=False)
            return True


@dataclass(frozen=True)
class Asker:
    """Who sent an interaction, where: the Discord user, the chronicle it acts on, the user's claim there."""

    user_id: str
    chronicle: str
    claim: Claim | None
    #: the name Discord shows for the user (a server nickname, a global name or the user name; may be "")
    name: str = ""
    #: the chronicles the interaction may act on (None: any)
    reach: Reach | None = None

    @property
    def storyteller(self) -> bool:
        return self.claim is not None and self.claim.is_storyteller

    @property
    def character(self) -> str | None:
        return self.claim.character if self.claim is not None else None

    @property
    def is_player(self) -> bool:
        """A claimed player (not the Storyteller): the roll is a player's (``RollOrder.by_player``); an
        unclaimed user's bare dice are nobody's roll in the chronicle and choose their own difficulty."""
        return self.claim is not None and not self.claim.is_storyteller


_OBJECTS = ("member", "user", "data", "channel", "message", "guild")
_TEXTS = ("id", "application_id", "token", "guild_id", "channel_id", "locale", "guild_locale")


def shape_problem(payload: dict) -> str | None:
    """What makes ``payload`` not an interaction object (developers/interactions/receiving-and-responding.mdx,
    "Interaction Object"), in one line, or None: ``type`` a whole number 1 to 5; ``member``, ``user``,
    ``data``, ``channel``, ``message``, ``guild`` objects when given (``member.user`` too); ids, the token
    and locales text; ``data.options`` a list."""
    kind = payload.get("type")
    if isinstance(kind, bool) or not isinstance(kind, int) or not 1 <= kind <= 5:
        return "type must be an interaction type, a whole number 1 to 5"
    for key in _OBJECTS:
        if payload.get(key) is not None and not isinstance(payload[key], dict):
            return f"{key} must be an object"
    for key in _TEXTS:
        if payload.get(key) is not None and not isinstance(payload[key], str):
            return f"{key} must be text"
    member = payload.get("member") or {}
    if member.get("user") is not None and not isinstance(member["user"], dict):
        return "member.user must be an object"
    data = payload.get("data") or {}
    if data.get("options") is not None and not isinstance(data["options"], list):
        return "data.options must be a list"
    for key in ("name", "custom_id"):
        if data.get(key) is not None and not isinstance(data[key], str):
            return f"data.{key} must be text"
    if (payload.get("channel") or {}).get("id") is not None and not isinstance(payload["channel"]["id"], str):
        return "channel.id must be text"
    return None


def user_id(payload: dict) -> str:
    """The invoking user's id: ``member.user.id`` in a server, ``user.id`` elsewhere."""
    user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
    return str(user.get("id") or "")


def display_name(payload: dict) -> str:
    """The invoking user's shown name: the server nickname, else the global name, else the user name
    (developers/resources/guild.mdx "Guild Member Object", resources/user.mdx "User Object"); "" if none."""
    member: dict = payload["member"] if isinstance(payload.get("member"), dict) else {}
    user = member["user"] if isinstance(member.get("user"), dict) else payload.get("user")
    user = user if isinstance(user, dict) else {}
    for value in (member.get("nick"), user.get("global_name"), user.get("username")):
        if isinstance(value, str) and value.strip():
            return value[:MAX_OPTION]
    return ""


def _made_by(asker: Asker) -> dict[str, str]:
    """The log detail of a bare pool rolled from Discord: who made it (the only player who may press its
    buttons) and the name the feed posts it under (none for the Storyteller's: the feed says Storyteller;
    a player's character; else the user's own name marked as a guest)."""
    made: dict[str, str] = {"discord_user": asker.user_id}
    if not asker.storyteller:
        made["by"] = asker.character or render.guest_name(asker.name)
    return made


def options_of(payload: dict) -> dict[str, Any]:
    """{name: value} of a command's options, each checked against the command's definition
    (:data:`stkit.discord.commands.COMMANDS`): a known option of the declared type, text at most MAX_OPTION
    characters, a whole number within 2**53, true or false. Raises InvalidValue otherwise."""

    data = payload.get("data") or {}
    declared = {c["name"]: {o["name"]: o["type"] for o in c["options"]} for c in COMMANDS}.get(data.get("name"), {})
    found: dict[str, Any] = {}
    options = data.get("options") or []
    if not isinstance(options, list) or len(options) > 25:
        raise InvalidValue("the options could not be read")
    for option in options:
        if not isinstance(option, dict):
            raise InvalidValue("an option could not be read")
        name, value, kind = option.get("name"), option.get("value"), option.get("type")
        if not isinstance(name, str) or name not in declared:
            raise InvalidValue(f"option {str(name)[:32]} is not one of this command's")  # refusal() escapes
        if kind != declared[name]:
            raise InvalidValue(f"option {name} has the wrong type")
        if kind == 3:
            if not isinstance(value, str) or len(value) > MAX_OPTION:
                raise InvalidValue(f"{name} must be text of at most {MAX_OPTION} characters")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 2**53:
                raise InvalidValue(f"{name} must be a whole number")
        elif not isinstance(value, bool):
            raise InvalidValue(f"{name} must be true or false")
        found[name] = value
        if option.get("focused") is True:
            found["__focused__"] = name
    return found


def _reply(text: str = "", *, ephemeral: bool = True, embeds: list | None = None, components: list | None = None):
    data: dict[str, Any] = {"allowed_mentions": render.NO_MENTIONS}
    if text:
        data["content"] = text
    if embeds:
        data["embeds"] = embeds
    if components:
        data["components"] = components
    if ephemeral:
        data["flags"] = render.EPHEMERAL
    return {"type": MESSAGE, "data": render.fit(data)}


def refusal(text: str) -> dict:
    """An ephemeral one-line refusal (the text escaped)."""
    return _reply(render.clip(render.escape(text.splitlines()[0] if text else "refused"), render.MAX_CONTENT))


def wants_ephemeral(payload: dict) -> bool:
    """Whether the reply to ``payload`` will be ephemeral (decided before a deferral, which must name it):
    a secret roll, a claim, odds, autocomplete, or a refusal."""
    data = payload.get("data") or {}
    name = data.get("name")
    if name in ("claim", "odds"):
        return True
    for option in data.get("options") or []:
        if isinstance(option, dict) and option.get("name") == "secret" and option.get("value") is True:
            return True
    return False


def answer(
    store: StoreHandle,
    payload: dict,
    *,
    chronicle: str | None,
    limiter: UserLimiter | None = None,
    reach: Reach | None = None,
) -> dict:
    """The interaction response to ``payload`` (a verified interaction) for the table of ``chronicle`` (a
    channel or server bound to another chronicle acts on that one; None: only a bound one). ``reach``: the
    chronicles the verified signature may act on (:class:`stkit.store.table.discord_feed.Reach`; None: any); a
    bound chronicle outside it, or a claim code of one, is refused. A refusal or bad input is an ephemeral
    one-line message, never an error status."""
    kind = payload.get("type")
    if kind == PING:
        return {"type": PONG}
    user = user_id(payload)
    if not user.isdigit() or len(user) > 20:
        return refusal("this interaction names no user")
    if limiter is not None and not limiter.take(user):
        return refusal("too many commands at once; wait a moment and try again")
    try:
        asker = store.read(lambda gw: _asker(gw, payload, user, chronicle, reach))
        if kind == COMMAND:
            return _command(store, payload, asker)
        if kind == COMPONENT:
            return _component(store, payload, asker)
        if kind == AUTOCOMPLETE:
            return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": _choices(store, payload, asker)}}
        return refusal("this kind of interaction is not supported")
    except StkitError as exc:
        return refusal(str(exc))
    except Exception:  # the last guard: a defect is logged, the user gets one line, never a failed interaction
        log.exception("a Discord interaction failed")
        return refusal("internal error: this is a bug in stkit; the server's log has the details")


def _asker(gw: Gateway, payload: dict, user: str, chronicle: str | None, reach: Reach | None) -> Asker:
    guild = payload.get("guild_id")
    channel = payload.get("channel_id") or (payload.get("channel") or {}).get("id")
    here = bound_chronicle(gw, str(guild) if guild else None, str(channel) if channel else None) or chronicle
    if here is None:
        raise RuleRefusal("this channel is bound to no chronicle; the Storyteller binds it with `stkit discord bind`")
    if reach is not None and not reach.allows(gw, here):
        raise RuleRefusal("this channel is bound to a chronicle this Discord application does not serve")
    return Asker(user, here, find_claim(gw, here, user), display_name(payload), reach)


# ------------------------------------------------------------------------------------------------ commands


def _command(store: StoreHandle, payload: dict, asker: Asker) -> dict:
    name = str((payload.get("data") or {}).get("name"))
    handlers = {
        "roll": _roll,
        "odds": _odds,
        "claim": _claim,
        "saved": _saved,
        "extended": _extended,
        "init": _initiative,
    }
    if name not in handlers:
        return refusal(f"/{name[:32]} is not a command of this app")  # refusal() escapes
    return handlers[name](store, asker, options_of(payload))


def is_bare_pool(text: str) -> bool:
    """True for a pool that is a number of dice or a sum of numbers ('5', '3+2'), not Traits."""
    return bool(text.strip()) and all(c.isdigit() or c in "+ " for c in text)


def _who_rolls(asker: Asker, pool: str, character: str | None) -> str | None:
    """The character whose sheet rolls ``pool``, or None for a bare pool; refuses what the asker may not."""
    own = asker.character
    mine = own is not None and character is not None and character.strip().casefold() == own.casefold()
    if character and not asker.storyteller and not mine:
        raise RuleRefusal("only the Storyteller rolls for another character")
    if asker.storyteller:
        if character:
            return character
        if is_bare_pool(pool):
            return None
        raise InvalidValue("name the character whose Traits roll (the character option), or give a number of dice")
    if is_bare_pool(pool) and not character:
        return None
    if asker.character is None:
        raise RuleRefusal(
            "claim your character first with /claim and the code of your table link; until then, roll a number of dice"
        )
    return asker.character


def _roll(store: StoreHandle, asker: Asker, options: dict) -> dict:
    pool = str(options.get("pool") or "").strip()
    if not pool:
        raise InvalidValue("give a pool: a number of dice, or Traits like Dexterity + Brawl")
    secret = bool(options.get("secret"))
    willpower = bool(options.get("willpower"))
    seed = options.get("seed")
    if seed is not None and not asker.storyteller:
        raise RuleRefusal("only the Storyteller chooses a roll's seed")
    if seed is not None and not 0 <= seed < 2**63:
        raise InvalidValue(f"seed {seed} is not allowed: 0 to 2**63 - 1")
    character = _who_rolls(asker, pool, options.get("character"))
    if secret and willpower and not asker.storyteller:
        raise RuleRefusal("a secret roll cannot spend Willpower: the sheet would show the spend")
    overrides = RuleOverrides(difficulty=options.get("difficulty"))
    order = RollOrder(
        pool,
        character=character,
        chronicle=asker.chronicle,
        purpose=Purpose.sheet if character else Purpose.plain,
        overrides=overrides,
        seed=seed,
        willpower=willpower,
        spec=bool(options.get("specialty")),
        secret=secret,
        note=None,
        log=True,
        by_player=asker.is_player,
        extra=_made_by(asker) if character is None else {},
    )
    done = store.run(lambda gw: make_roll(gw, order))
    return roll_reply(done, expression=pool, secret=secret, blind=secret and not asker.storyteller)


def roll_reply(done: RollOutcome, *, expression: str, secret: bool, blind: bool) -> dict:
    """The reply to a roll: its card (the feed's own), with buttons (odds, roll again, spend Willpower and
    roll again) unless it was secret; a blind roll's reply says only that it was rolled."""

    if blind:
        return _reply("Rolled in secret: the Storyteller sees the dice.")
    roll = done.roll.to_dict()
    data = {
        "character": done.character or "",
        "expression": expression,
        "breakdown": done.pool.text if done.pool is not None else None,
        "roll": roll,
        "marks": dice_marks(done.roll),
        "log_id": done.log_id,
        "turn": done.turn,
        "task": done.task,
        "for": "roll",
    }
    embed = render.roll_embed(data, chance=chance_or_better(roll))
    notes = [render.escape(n) for n in done.notes]
    if done.willpower_left is not None:
        notes.append(f"Willpower left: {done.willpower_left}")
    if done.forgiven_botch:
        notes.append("Free botch: the night's first botch is forgiven and counts as a failure")
    if done.seed is not None:
        notes.append(f"seed {done.seed}")
    if notes:
        embed["description"] = embed["description"] + "\n" + "\n".join(notes)
    components = None if secret or done.log_id is None else buttons(done.log_id, willpower=done.character is not None)
    return _reply("", ephemeral=secret, embeds=[embed], components=components)


def buttons(log_id: int, *, willpower: bool) -> list[dict]:
    """One action row: the exact odds, roll again, and (for a sheet roll) spend Willpower and roll again
    (developers/components/reference.mdx, "Action Row" and "Button"; style 2 is Secondary)."""
    row = [
        {"type": 2, "style": 2, "label": "Odds", "custom_id": f"odds:{log_id}"},
        {"type": 2, "style": 2, "label": "Roll again", "custom_id": f"again:{log_id}"},
    ]
    if willpower:
        row.append({"type": 2, "style": 2, "label": "Willpower and roll again", "custom_id": f"wp:{log_id}"})
    return [{"type": 1, "components": row}]


def _odds(store: StoreHandle, asker: Asker, options: dict) -> dict:
    pool = str(options.get("pool") or "").strip()
    character = _who_rolls(asker, pool, options.get("character"))
    order = RollOrder(
        pool,
        character=character,
        chronicle=asker.chronicle,
        overrides=RuleOverrides(difficulty=options.get("difficulty")),
        willpower=bool(options.get("willpower")),
        by_player=asker.is_player,
    )
    found = store.read(lambda gw: odds_for(gw, order))
    return _reply(odds_text(found))


def odds_text(found: Any) -> str:
    """The exact chances of one roll (an :class:`stkit.store.rolling.OddsAnswer`) in a few lines."""
    odds = found.odds
    lines = [
        f"**{render.escape(found.label)}**, difficulty {odds.difficulty}",
        f"Success {percent(odds.p_success)} · failure {percent(odds.p_failure)} · botch {percent(odds.p_botch)}",
        f"Expected successes {float(odds.expected):.2f}",
    ]
    steps = [f"{k}+: {percent(odds.p_at_least(k))}" for k in range(1, min(odds.max_result, 10) + 1)]
    if steps:
        lines.append("At least " + " · ".join(steps))
    in_force = found.rules.in_force()
    if in_force:
        lines.append("House rules: " + render.escape("; ".join(in_force)))
    return "\n".join(lines)


def _claim(store: StoreHandle, asker: Asker, options: dict) -> dict:
    code = str(options.get("code") or "")
    claim = store.run(lambda gw: claim_with_code(gw, asker.user_id, code, reach=asker.reach))
    if claim.is_storyteller:
        return _reply(f"You hold the Storyteller's seat in {render.escape(claim.chronicle)}.")
    return _reply(f"You play {render.escape(claim.character)} in {render.escape(claim.chronicle)}.")


def _saved(store: StoreHandle, asker: Asker, options: dict) -> dict:
    name = str(options.get("name") or "").strip()
    character = _who_rolls(asker, "a saved roll", options.get("character"))
    assert character is not None  # a saved roll is never a bare pool
    secret = bool(options.get("secret"))
    if secret and options.get("willpower") and not asker.storyteller:
        raise RuleRefusal("a secret roll cannot spend Willpower: the sheet would show the spend")
    done = store.run(
        lambda gw: roll_saved(
            gw, character, name, chronicle=asker.chronicle, willpower=bool(options.get("willpower")), secret=secret
        )
    )
    return roll_reply(done, expression=name, secret=secret, blind=secret and not asker.storyteller)


def _extended(store: StoreHandle, asker: Asker, options: dict) -> dict:
    typed = str(options.get("action") or "").strip()
    if not typed:
        raise InvalidValue("name the extended action (its name or id)")

    def status(gw: Gateway) -> Any:
        action = get_action(gw, action_id_for(gw, typed))
        if action.chronicle != asker.chronicle:
            raise RuleRefusal("that extended action is not in this table's chronicle")
        return action

    action = store.read(status)
    if options.get("roll"):
        if not asker.storyteller and asker.character is None:
            raise RuleRefusal("claim your character first with /claim")
        who = None if asker.storyteller else asker.character
        store.run(lambda gw: roll_extended(gw, action.id, character=who, willpower=bool(options.get("willpower"))))
    shown = store.read(lambda gw: extended_status(gw, action.id, odds=False)).to_dict(history=False)
    line = (
        f"**{render.escape(shown['name'])}**: {shown['tally']} of {counted(shown['target'], 'success')} "
        f"after {shown['rolls']} roll{'s' if shown['rolls'] != 1 else ''} ({render.escape(shown['status'])})"
    )
    return _reply(line, ephemeral=False)


def _initiative(store: StoreHandle, asker: Asker, options: dict) -> dict:
    if not asker.storyteller:
        raise RuleRefusal("only the Storyteller rolls the scene's initiative")
    done = store.run(lambda gw: roll_scene_initiative(gw, asker.chronicle))
    order = done.to_dict().get("order") or []
    lines = [f"{i}. {render.escape(o.get('name'))}: {o.get('total', '')}" for i, o in enumerate(order, 1)]
    return _reply("**Initiative**\n" + ("\n".join(lines) or "nobody can act"), ephemeral=False)


# ------------------------------------------------------------------------------------------------ buttons

#: The one refusal of a button the asker may not press, whatever the reason (another chronicle's roll, a
#: roll that is not in the log, someone else's roll, a secret roll), so it tells nothing about other rolls.
NOT_YOURS = "this button is not yours to press"


def may_press(entry: LoggedEntry, asker: Asker) -> bool:
    """Whether ``asker`` may press a button of the logged roll ``entry``: a roll of the asker's chronicle,
    and then the Storyteller always; nobody else a secret roll's; the character's claimant a sheet roll's;
    the Discord user who made it a bare pool's."""
    if entry.chronicle != asker.chronicle:
        return False
    if asker.storyteller:
        return True
    if entry.secret:
        return False
    if entry.character is not None:
        return asker.claim is not None and entry.character_id == asker.claim.character_id
    return entry.discord_user is not None and entry.discord_user == asker.user_id


def _component(store: StoreHandle, payload: dict, asker: Asker) -> dict:
    custom = str((payload.get("data") or {}).get("custom_id") or "")
    action, _, ident = custom.partition(":")
    if action not in ("odds", "again", "wp") or not (ident.isdigit() and len(ident) <= 18):
        return refusal("this button is not one of this app's")
    try:
        entry = store.read(lambda gw: logged_entry(gw, int(ident)))
    except StkitError:
        entry = None
    if entry is None or not may_press(entry, asker):
        return refusal(NOT_YOURS)

    order = RollOrder(
        entry.expression,
        character=entry.character,
        chronicle=entry.chronicle,
        purpose=Purpose.sheet if entry.character else Purpose.plain,
        overrides=RuleOverrides(difficulty=entry.difficulty),
        preset_difficulty=entry.difficulty,
        by_player=asker.is_player,
        spec=entry.spec,
        willpower=action == "wp",
        log=True,
        extra=_made_by(asker) if entry.character is None else {},
    )
    if action == "odds":
        return _reply(odds_text(store.read(lambda gw: odds_for(gw, order))))
    done = store.run(lambda gw: make_roll(gw, order))
    return roll_reply(done, expression=entry.expression, secret=False, blind=False)


# ------------------------------------------------------------------------------------------------ autocomplete


def _choices(store: StoreHandle, payload: dict, asker: Asker) -> list[dict]:
    """Up to 25 choices for the focused option: characters, saved rolls, extended actions, or Traits of
    the roller's sheet for the last term of a pool."""

    options = options_of(payload)
    focused = options.get("__focused__")
    typed = str(options.get(focused, "")) if focused else ""
    character = options.get("character") if asker.storyteller else asker.character
    found = store.read(lambda gw: choices_for(gw, asker.chronicle, str(focused), typed, character=character))
    out = []
    for name, value in found[: render.MAX_CHOICES]:
        out.append({"name": render.clip(name, render.MAX_CHOICE), "value": render.clip(value, render.MAX_CHOICE)})
    return out
