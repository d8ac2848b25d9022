"""What the Discord door keeps in the store: per-chronicle settings, the feed's position, claims and bindings.

- Settings (:func:`set_setting`, :func:`discord_settings`): the public and the Storyteller's webhook URLs,
  the application's public key (64 hex digits) and id (a snowflake). A webhook URL is any http(s) URL; one
  that is not Discord's gets a warning, not a refusal (a loopback receiver in tests, a relay).
- The feed (:func:`pending_events`, :func:`mark_posted`, :func:`take_lease`): per chronicle and audience
  ('public': every event that is not secret; 'storyteller': the secret ones, that is the Storyteller's
  secret rolls, players' blind rolls and whispers), the id of the last table event posted. Event ids grow
  in commit order (:mod:`stkit.store.table.events`), so "every event above the last one posted, oldest first"
  posts each event once and in order, across restarts. A follower holds a lease on the row while it posts,
  so two followers of one chronicle (``stkit serve`` and ``stkit discord follow``) never post twice.
  'links' events (join links rotated or revoked) are never posted.
- Claims (:func:`claim_with_code`, :func:`find_claim`): a Discord user claims a character, or the
  Storyteller's seat, with the code of their table link (the token of ``/join/TOKEN``); the claim is kept
  per chronicle. Bindings (:func:`bind_place`, :func:`bound_chronicle`): a Discord server or channel bound
  to a chronicle.
- :func:`chance_or_better`: the exact chance of a logged roll's result or a better one.

Every function takes the gateway ``gw`` and runs in the caller's transaction.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from stkit.dice.model import HouseRules
from stkit.dice.odds import roll_distribution
from stkit.dice.score import willpower_dice
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet import traits as T
from stkit.store.characters import find_character
from stkit.store.saved import saved_rolls
from stkit.store.table.events import events_after, find_link_holder, last_event_id
from stkit.text import MAX_NAME, check_range, check_text, fold_name, printable

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.db.gateway import Gateway
    from stkit.store.table.events import TableEvent

#: The settings a chronicle keeps, as typed on the command line -> the attribute of DiscordSettings.
SETTING_KEYS = {
    "webhook": "webhook",
    "storyteller-webhook": "storyteller_webhook",
    "public-key": "public_key",
    "application-id": "application_id",
}
#: The feed's audiences: the public webhook, and the Storyteller's.
AUDIENCES = ("public", "storyteller")
#: The hosts a Discord webhook URL names (anything else is accepted with a warning).
DISCORD_HOSTS = ("discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com")
#: A snowflake is a 64-bit unsigned integer sent as a string of digits (developers/reference.mdx, "Snowflakes").
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
#: Public keys refused though well formed: all zeros, and the encoded identity point (a key anyone can
#: forge for; RFC 8032 section 5.1.3 decodes both).
_NO_KEYS = ("0" * 64, "01" + "0" * 62)
_WEBHOOK_PATH = re.compile(r"/api(?:/v[0-9]+)?/webhooks/([0-9]{1,20})/([A-Za-z0-9_.-]{1,200})/?")
MAX_URL = 2000
#: How long a follower's lease on a feed row lasts without being renewed (seconds).
LEASE_SECONDS = 30.0


@dataclass(frozen=True)
class DiscordSettings:
    """One chronicle's Discord settings; a field is None when it is not set."""

    chronicle: str
    webhook: str | None = None
    storyteller_webhook: str | None = None
    public_key: str | None = None
    application_id: str | None = None

    def hook(self, audience: str) -> str | None:
        """The webhook URL of ``audience`` ('public' or 'storyteller'), or None."""
        return self.webhook if audience == "public" else self.storyteller_webhook

    def to_dict(self) -> dict:
        """The settings as shown: each webhook URL with its secret part masked (:func:`mask_url`)."""
        return {
            "chronicle": self.chronicle,
            "webhook": mask_url(self.webhook) if self.webhook else None,
            "storyteller_webhook": mask_url(self.storyteller_webhook) if self.storyteller_webhook else None,
            "public_key": self.public_key,
            "application_id": self.application_id,
        }


@dataclass(frozen=True)
class SettingChange:
    """A setting just written: its key, the value as shown (masked for a URL) and a warning (or None)."""

    chronicle: str
    key: str
    shown: str | None
    warning: str | None = None

    def to_dict(self) -> dict:
        return {"chronicle": self.chronicle, "key": self.key, "value": self.shown, "warning": self.warning}


def mask_url(url: str) -> str:
    """``url`` with its secret part hidden: a Discord webhook keeps its id and shows its token as '****';
    any other URL keeps its scheme, host and port and shows '/****' for a path, query or user part."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    found = _WEBHOOK_PATH.fullmatch(parts.path)
    if found is not None:
        return f"{parts.scheme}://{netloc}{parts.path[: found.start(2)]}****"
    hidden = parts.path.strip("/") or parts.query or parts.username
    return f"{parts.scheme}://{netloc}" + ("/****" if hidden else "")


def check_webhook_url(url: str, what: str = "webhook") -> tuple[str, str | None]:
    """(the URL, a warning or None): any http(s) URL with a host, at most MAX_URL characters, no spaces or
    control characters. The warning says when it is not a Discord webhook URL
    (``https://discord.com/api/webhooks/ID/TOKEN``, developers/resources/webhook.mdx "Execute Webhook").
    Raises InvalidValue naming ``what`` otherwise."""
    text = str(url).strip()
    shown = printable(text)[:80]
    if not text or len(text) > MAX_URL or any(c.isspace() or not c.isprintable() for c in text):
        raise InvalidValue(f"{what} {shown!r} is not a URL; give an http(s) URL of at most {MAX_URL} characters")
    try:
        parts = urlsplit(text)
        _ = parts.port
    except ValueError:
        raise InvalidValue(f"{what} {shown!r} is not a URL; give an http(s) URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidValue(f"{what} {shown!r} is not an http(s) URL with a host name")
    warning = None
    if parts.hostname not in DISCORD_HOSTS or parts.scheme != "https" or not _WEBHOOK_PATH.fullmatch(parts.path):
        warning = f"{what} {mask_url(text)} is not a Discord webhook URL (https://discord.com/api/webhooks/ID/TOKEN)"
    return text, warning


def check_setting(key: str, value: str) -> tuple[str, str | None]:
    """(the value as stored, a warning or None) for setting ``key`` (one of :data:`SETTING_KEYS`). Raises
    InvalidValue for an unknown key or a bad value: a webhook URL (:func:`check_webhook_url`), a public key
    of 64 hex digits (an Ed25519 key, developers/interactions/overview.mdx), an application id of digits."""
    if key not in SETTING_KEYS:
        raise InvalidValue(f"setting {printable(key)[:40]!r} is not one of {', '.join(SETTING_KEYS)}")
    text = str(value).strip()
    if key in ("webhook", "storyteller-webhook"):
        return check_webhook_url(text, key)
    if key == "public-key":
        if not re.fullmatch(r"[0-9a-fA-F]{64}", text):
            raise InvalidValue(f"public-key {printable(text)[:80]!r} is not 64 hex digits (the portal's Public Key)")
        if text.lower() in _NO_KEYS:
            raise InvalidValue(f"public-key {text[:16]}... is not a usable Ed25519 key; copy the portal's Public Key")
        return text.lower(), None
    if not _SNOWFLAKE.fullmatch(text) or int(text) == 0:
        raise InvalidValue(f"application-id {printable(text)[:40]!r} is not an id of 1 to 20 digits (not 0)")
    return text, None


def _now(gw: Gateway, seconds: float = 0.0) -> object:
    return gw.timestamp(datetime.now(UTC) + timedelta(seconds=seconds))


def set_setting(gw: Gateway, chronicle: str, key: str, value: str) -> SettingChange:
    """Set ``key`` of ``chronicle`` to ``value`` (see :func:`check_setting`). Setting a webhook also starts
    its feed at the chronicle's newest event, so the channel gets what happens from now on, not the past
    (an earlier position is kept: changing the URL neither repeats nor skips). Raises InvalidValue."""

    check_text(chronicle, "chronicle", limit=MAX_NAME)
    stored, warning = check_setting(key, value)
    gw.execute("DELETE FROM discord_settings WHERE chronicle = :c AND key = :k", c=chronicle, k=key)
    gw.execute(
        "INSERT INTO discord_settings (chronicle, key, value, updated_at) VALUES (:c, :k, :v, :now)",
        c=chronicle,
        k=key,
        v=stored,
        now=_now(gw),
    )
    if key in ("webhook", "storyteller-webhook"):
        _feed_row(gw, chronicle, "public" if key == "webhook" else "storyteller")
    shown = mask_url(stored) if key.endswith("webhook") else stored
    return SettingChange(chronicle, key, shown, warning)


def unset_setting(gw: Gateway, chronicle: str, key: str) -> SettingChange:
    """Remove ``key`` of ``chronicle`` (the feed's position is kept). Raises InvalidValue for an unknown key,
    NotFound when it was not set."""
    if key not in SETTING_KEYS:
        raise InvalidValue(f"setting {printable(key)[:40]!r} is not one of {', '.join(SETTING_KEYS)}")
    found = gw.row("SELECT 1 FROM discord_settings WHERE chronicle = :c AND key = :k", c=chronicle, k=key)
    if found is None:
        raise NotFound(f"{key} is not set for chronicle {printable(chronicle)!r}; nothing was removed")
    gw.execute("DELETE FROM discord_settings WHERE chronicle = :c AND key = :k", c=chronicle, k=key)
    return SettingChange(chronicle, key, None)


def discord_settings(gw: Gateway, chronicle: str) -> DiscordSettings:
    """The Discord settings of ``chronicle`` (every field None when nothing is set)."""
    rows = gw.rows("SELECT key, value FROM discord_settings WHERE chronicle = :c", c=chronicle)
    values = {SETTING_KEYS[k]: v for k, v in rows if k in SETTING_KEYS}
    return DiscordSettings(chronicle, **values)


def chronicles_with_keys(gw: Gateway) -> list[tuple[str, str]]:
    """(chronicle, public key) of every chronicle whose public key is set, by chronicle."""
    rows = gw.rows("SELECT chronicle, value FROM discord_settings WHERE key = 'public-key' ORDER BY chronicle")
    return [(str(c), str(v)) for c, v in rows]


def chronicles_with_webhooks(gw: Gateway) -> list[str]:
    """The chronicles with a public or a Storyteller's webhook set, by name."""
    rows = gw.rows(
        "SELECT DISTINCT chronicle FROM discord_settings WHERE key IN ('webhook', 'storyteller-webhook') "
        "ORDER BY chronicle"
    )
    return [str(c) for (c,) in rows]


def application_keys(gw: Gateway, application_id: str) -> list[tuple[str, str]]:
    """(chronicle, public key) of every chronicle whose application-id is ``application_id`` and whose public
    key is set, by chronicle (several chronicles may share one Discord application)."""
    rows = gw.rows(
        "SELECT a.chronicle, k.value FROM discord_settings a JOIN discord_settings k "
        "ON k.chronicle = a.chronicle AND k.key = 'public-key' "
        "WHERE a.key = 'application-id' AND a.value = :app ORDER BY a.chronicle",
        app=str(application_id),
    )
    return [(str(c), str(v)) for c, v in rows]


@dataclass(frozen=True)
class Reach:
    """The chronicles an interaction may act on once its signature checked out with ``public_key``.

    A chronicle whose own public key is ``public_key`` always; with ``strict`` (a server of several
    chronicles, each with its own Discord application) no other, so a request signed for one chronicle's
    application never acts on another's; without it (one chronicle served) also a chronicle with no key
    of its own (a channel bound to it shares the served chronicle's application). ``served``: the
    chronicles the server serves (None: any)."""

    public_key: str
    strict: bool = False
    served: tuple[str, ...] | None = None

    def allows(self, gw: Gateway, chronicle: str) -> bool:
        """Whether an interaction may act on ``chronicle``."""
        if self.served is not None and chronicle not in self.served:
            return False
        key = discord_settings(gw, chronicle).public_key
        return key == self.public_key or (key is None and not self.strict)


# ------------------------------------------------------------------------------------------------ the feed


@dataclass(frozen=True)
class FeedPosition:
    """Where the feed of one audience stands: the last event id posted and how many were posted."""

    chronicle: str
    audience: str
    last_event_id: int
    posted: int

    def to_dict(self) -> dict:
        return {"audience": self.audience, "last_event_id": self.last_event_id, "posted": self.posted}


def _check_audience(audience: str) -> str:
    if audience not in AUDIENCES:
        raise InvalidValue(f"audience {printable(audience)[:40]!r} is not one of {', '.join(AUDIENCES)}")
    return audience


def _feed_row(gw: Gateway, chronicle: str, audience: str) -> FeedPosition:
    """The feed row of (chronicle, audience), created at the chronicle's newest event when missing."""

    _check_audience(audience)
    row = gw.row(
        "SELECT last_event_id, posted FROM discord_feed WHERE chronicle = :c AND audience = :a",
        c=chronicle,
        a=audience,
    )
    if row is not None:
        return FeedPosition(chronicle, audience, int(row[0]), int(row[1]))
    newest = last_event_id(gw, chronicle)
    gw.execute(
        "INSERT INTO discord_feed (chronicle, audience, last_event_id, posted, updated_at) "
        "VALUES (:c, :a, :id, 0, :now)",
        c=chronicle,
        a=audience,
        id=newest,
        now=_now(gw),
    )
    return FeedPosition(chronicle, audience, newest, 0)


def feed_positions(gw: Gateway, chronicle: str) -> list[FeedPosition]:
    """Where each audience's feed of ``chronicle`` stands (only the audiences that have a feed)."""
    rows = gw.rows(
        "SELECT audience, last_event_id, posted FROM discord_feed WHERE chronicle = :c ORDER BY audience",
        c=chronicle,
    )
    return [FeedPosition(chronicle, a, int(i), int(p)) for a, i, p in rows]


def take_lease(gw: Gateway, chronicle: str, audience: str, holder: str, seconds: float = LEASE_SECONDS) -> bool:
    """Take (or renew) the lease of ``holder`` (a follower's random id) on the feed of (chronicle,
    audience) for ``seconds``: True when it holds it now, False when another follower's lease runs."""
    _feed_row(gw, chronicle, audience)
    gw.execute(
        "UPDATE discord_feed SET holder = :me, lease_until = :until WHERE chronicle = :c AND audience = :a "
        "AND (holder IS NULL OR holder = :me OR lease_until IS NULL OR lease_until < :now)",
        me=holder,
        until=_now(gw, seconds),
        now=_now(gw),
        c=chronicle,
        a=audience,
    )
    row = gw.row("SELECT holder FROM discord_feed WHERE chronicle = :c AND audience = :a", c=chronicle, a=audience)
    return row is not None and row[0] == holder


def release_lease(gw: Gateway, chronicle: str, audience: str, holder: str) -> None:
    """Give up ``holder``'s lease (a stopping follower), so another may take over at once."""
    gw.execute(
        "UPDATE discord_feed SET holder = NULL, lease_until = NULL WHERE chronicle = :c AND audience = :a "
        "AND holder = :me",
        c=chronicle,
        a=audience,
        me=holder,
    )


def for_audience(event: TableEvent, audience: str) -> bool:
    """Whether ``event`` is posted to ``audience``: secret events (secret and blind rolls, whispers) to the
    Storyteller only, every other one to the public; join-link events to nobody."""
    if event.kind == "links":
        return False
    return event.secret == (audience == "storyteller")


@dataclass(frozen=True)
class Pending:
    """What the feed of one audience has to post: ``events`` (oldest first) and ``scanned_to``, the newest
    event id looked at (the feed may move there when none of them is for this audience)."""

    audience: str
    last_event_id: int
    events: tuple[TableEvent, ...]
    scanned_to: int


def feed_position(gw: Gateway, chronicle: str, audience: str) -> FeedPosition | None:
    """Where the feed of (chronicle, audience) stands, or None when it has none (no webhook ever set)."""
    row = gw.row(
        "SELECT last_event_id, posted FROM discord_feed WHERE chronicle = :c AND audience = :a",
        c=chronicle,
        a=_check_audience(audience),
    )
    return FeedPosition(chronicle, audience, int(row[0]), int(row[1])) if row is not None else None


def pending_events(gw: Gateway, chronicle: str, audience: str, *, limit: int = 50) -> Pending:
    """The events of ``chronicle`` not yet posted to ``audience``, oldest first, looking at most ``limit``
    (1..500) events past the feed's position. Writes nothing (a feed with no row has nothing pending)."""

    check_range(limit, "limit", 1, 500)
    position = feed_position(gw, chronicle, audience)
    if position is None:
        return Pending(audience, 0, (), 0)
    found = events_after(gw, chronicle, position.last_event_id, include_secret=True, limit=limit)
    scanned = found[-1].id if found else position.last_event_id
    mine = tuple(e for e in found if for_audience(e, audience))
    return Pending(audience, position.last_event_id, mine, scanned)


def mark_posted(gw: Gateway, chronicle: str, audience: str, event_id: int, holder: str, *, count: int = 1) -> bool:
    """Move the feed of (chronicle, audience) to ``event_id`` (posted by ``holder``, ``count`` messages).
    False (nothing moved) when ``holder`` no longer holds the lease or the feed is already past it."""
    gw.execute(
        "UPDATE discord_feed SET last_event_id = :id, posted = posted + :n, updated_at = :now "
        "WHERE chronicle = :c AND audience = :a AND holder = :me AND last_event_id < :id",
        id=event_id,
        n=count,
        now=_now(gw),
        c=chronicle,
        a=audience,
        me=holder,
    )
    row = gw.row(
        "SELECT last_event_id, holder FROM discord_feed WHERE chronicle = :c AND audience = :a", c=chronicle, a=audience
    )
    return row is not None and int(row[0]) == event_id and row[1] == holder


# ---------------------------------------------------------------------------------------- claims, bindings


@dataclass(frozen=True)
class Claim:
    """A Discord user's seat in a chronicle: ``role`` 'storyteller' or 'player', and a player's character."""

    chronicle: str
    user_id: str
    role: str
    character_id: int | None
    character: str | None

    @property
    def is_storyteller(self) -> bool:
        return self.role == "storyteller"

    def to_dict(self) -> dict:
        return {"chronicle": self.chronicle, "role": self.role, "character": self.character}


def check_snowflake(value: object, what: str) -> str:
    """``value`` as a Discord id (1 to 20 digits); InvalidValue naming ``what`` otherwise."""
    text = str(value).strip()
    if not _SNOWFLAKE.fullmatch(text):
        raise InvalidValue(f"{what} {printable(text)[:40]!r} is not a Discord id (1 to 20 digits)")
    return text


def claim_with_code(gw: Gateway, user_id: str, code: str, *, reach: Reach | None = None) -> Claim:
    """Claim the seat of the table link whose code (token) is ``code`` for Discord user ``user_id``: the
    Storyteller's link gives the Storyteller's seat, a player's link that player's character. An earlier
    claim of the user in that chronicle is replaced. Raises InvalidValue for a bad id, RuleRefusal for a
    code that is not a link in force (revoked, expired, unknown) or, given ``reach``, a link of a chronicle
    the interaction may not act on (nothing is written then)."""

    user = check_snowflake(user_id, "user id")
    text = str(code or "").strip()
    if "/join/" in text:  # the whole link pasted: its last part is the code
        text = text.rsplit("/join/", 1)[1].split("?")[0].strip("/")
    holder = find_link_holder(gw, text) if 0 < len(text) <= 200 else None
    if holder is None:
        raise RuleRefusal("that code is not a table link in force; ask the Storyteller for your link")
    if reach is not None and not reach.allows(gw, holder.chronicle):
        raise RuleRefusal("that code is a link of a chronicle this Discord application does not serve")
    gw.execute("DELETE FROM discord_claims WHERE chronicle = :c AND user_id = :u", c=holder.chronicle, u=user)
    gw.execute(
        "INSERT INTO discord_claims (chronicle, user_id, role, character_id, claimed_at) "
        "VALUES (:c, :u, :r, :cid, :now)",
        c=holder.chronicle,
        u=user,
        r=holder.role,
        cid=holder.character_id,
        now=_now(gw),
    )
    return Claim(holder.chronicle, user, holder.role, holder.character_id, holder.character)


def find_claim(gw: Gateway, chronicle: str, user_id: str) -> Claim | None:
    """The claim of Discord user ``user_id`` in ``chronicle`` (None: unclaimed, or the character is gone)."""
    row = gw.row(
        "SELECT d.role, d.character_id, c.name FROM discord_claims d LEFT JOIN characters c ON c.id = d.character_id "
        "WHERE d.chronicle = :ch AND d.user_id = :u",
        ch=chronicle,
        u=str(user_id),
    )
    if row is None:
        return None
    role, cid, name = row
    if role != "storyteller" and name is None:
        return None
    return Claim(chronicle, str(user_id), str(role), cid, name)


def bind_place(gw: Gateway, place: str, chronicle: str) -> str:
    """Bind ``place`` ('guild:ID' for a server, 'channel:ID' for a channel) to ``chronicle``; returns the
    place as stored. Raises InvalidValue for a bad place or chronicle name."""

    check_text(chronicle, "chronicle", limit=MAX_NAME)
    kind, _, ident = str(place).partition(":")
    if kind not in ("guild", "channel"):
        raise InvalidValue(f"place {printable(place)[:60]!r} is not guild:ID or channel:ID")
    stored = f"{kind}:{check_snowflake(ident, kind + ' id')}"
    gw.execute("DELETE FROM discord_bindings WHERE place = :p", p=stored)
    gw.execute(
        "INSERT INTO discord_bindings (place, chronicle, bound_at) VALUES (:p, :c, :now)",
        p=stored,
        c=chronicle,
        now=_now(gw),
    )
    return stored


def bound_chronicle(gw: Gateway, guild_id: str | None, channel_id: str | None) -> str | None:
    """The chronicle bound to the channel ``channel_id``, else to the server ``guild_id``, else None."""
    for place in (f"channel:{channel_id}" if channel_id else None, f"guild:{guild_id}" if guild_id else None):
        if place is not None:
            row = gw.row("SELECT chronicle FROM discord_bindings WHERE place = :p", p=place)
            if row is not None:
                return str(row[0])
    return None


# ------------------------------------------------------------------------------------------------ rolls


def chance_or_better(roll: dict[str, Any]) -> Fraction | None:
    """The exact chance of a roll's result or a better one, from the ``roll`` dict of a roll event
    (:meth:`stkit.dice.RollResult.to_dict`): P(result >= r) for r successes, P(no botch) for a failure, 1
    for a botch. Same dice and rules as the roll (pool, difficulty used, house rules, Willpower). None for
    an automatic success, a pool over 200 dice (the exact sum is slow there), or a shape it cannot read."""

    try:
        if roll.get("automatic"):
            return None
        pool, difficulty = int(roll["pool"]), int(roll["difficulty"])
        if not 1 <= pool <= 200:
            return None
        house = roll.get("house_rules") or {}
        rules = HouseRules.from_dict(house)  # every scoring rule the roll was made under
        automatic = int(roll.get("automatic_successes") or 0)
        willpower = bool(roll.get("willpower"))
        pool -= willpower_dice(rules, willpower)  # the pool reported holds Willpower's own dice
        odds = roll_distribution(pool, difficulty, rules=rules, willpower=willpower, automatic=automatic)
        outcome, result = str(roll.get("outcome")), int(roll.get("result") or 0)
    except (KeyError, TypeError, ValueError, InvalidValue):
        return None
    if outcome == "botch":
        return Fraction(1)
    if result <= 0:
        return 1 - odds.p_botch
    return odds.p_at_least(result)


@dataclass(frozen=True)
class LoggedEntry:
    """A roll-log entry as a button on its message reads it again: who rolled what, and how."""

    log_id: int
    chronicle: str
    character_id: int | None
    character: str | None
    expression: str
    difficulty: int
    spec: bool
    secret: bool
    #: the Discord user who made the roll (None: another door made it)
    discord_user: str | None = None


def logged_entry(gw: Gateway, log_id: int) -> LoggedEntry:
    """The roll-log entry ``log_id`` (the difficulty it asked for, before the unskilled rule and try-again
    raised it). Raises NotFound."""

    check_range(log_id, "roll id", 1, 2**62)
    row = gw.row(
        "SELECT chronicle, character_id, character_name, expression, difficulty, detail FROM roll_log WHERE id = :id",
        id=log_id,
    )
    if row is None:
        raise NotFound(f"roll {log_id} is not in the log")
    chronicle, cid, name, expression, difficulty, detail = row
    extra = json.loads(detail or "{}")
    return LoggedEntry(
        log_id,
        str(chronicle),
        cid,
        name or None,
        str(expression),
        int(extra.get("asked_difficulty") or extra.get("base_difficulty") or difficulty),
        bool(extra.get("specialty_used")),
        bool(extra.get("secret")),
        str(extra["discord_user"]) if extra.get("discord_user") else None,
    )


def choices_for(
    gw: Gateway, chronicle: str, option: str, typed: str, *, character: str | None = None, limit: int = 25
) -> list[tuple[str, str]]:
    """Autocomplete choices (shown name, value), at most ``limit``, for the option ``option`` typed so far
    as ``typed``: 'character' (the chronicle's characters), 'name' (the saved rolls of ``character``),
    'action' (the chronicle's open extended actions, by id), 'pool' (the pool with its last Trait
    completed: Attributes, Abilities, Rage, Gnosis, Willpower, Renown). Anything else: none. Names match
    by :func:`stkit.text.fold_name` prefix; typed text holding '%', '_' or a backslash matches only names starting with
    it literally (case aside)."""

    def starts(name: str, text: str) -> bool:
        # '%', '_' and '\\' are taken literally (no wildcard or escape, as in a LIKE pattern, and not
        # dropped as punctuation, which would make '%' match every name)
        if any(c in text for c in "%_\\"):
            return name.casefold().startswith(text.strip().casefold())
        return fold_name(name).startswith(fold_name(text.strip()))

    if option == "character":
        rows = gw.rows("SELECT name FROM characters WHERE chronicle = :c ORDER BY name_key", c=chronicle)
        return [(n, n) for (n,) in rows if starts(n, typed)][:limit]
    if option == "name" and character:
        try:
            sheet = find_character(gw, character, chronicle).to_sheet()
        except (NotFound, InvalidValue):
            return []
        return [(r.label, r.name) for r in saved_rolls(sheet) if starts(r.name, typed)][:limit]
    if option == "action":
        rows = gw.rows(
            "SELECT id, name FROM tracked_actions WHERE chronicle = :c AND status = 'open' ORDER BY id", c=chronicle
        )
        return [(f"{i}: {n}", str(i)) for i, n in rows if starts(n, typed) or str(i).startswith(typed.strip())][:limit]
    if option == "pool":
        head, _, last = typed.rpartition("+")
        prefix = head + "+ " if head else ""
        want = fold_name(last.strip())
        if not want or want.isdigit():
            return []
        names = T.ATTRIBUTES + T.ABILITIES + T.POWERS + T.RENOWN
        return [(prefix + n, prefix + n) for n in names if starts(n, last)][:limit]
    return []
