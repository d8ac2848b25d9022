"""The feed out: every table event of a chronicle posted to its Discord webhooks, once and in order.

:func:`post` executes a webhook once (developers/resources/webhook.mdx, "Execute Webhook", with
``wait=true`` so that a message Discord did not save is an error, not a silent 204). :class:`Follower`
reads what each audience's feed has not posted (:func:`stkit.store.table.discord_feed.pending_events`), posts the
events oldest first and moves the feed past each one as soon as it is posted, so a restart neither repeats
nor skips an event (at most the one message whose post succeeded just as the process died is posted
again: Discord's webhooks take no idempotency key).

Failures (developers/topics/rate-limits.mdx, "Exceeding A Rate Limit"):

- 429: wait the body's ``retry_after`` (seconds, a float), else the ``Retry-After`` header, brought
  into 1 to 60 seconds (NaN or no number: 1), and at least a delay doubling from ``backoff`` over 429s in
  a row, then post the same message again; it is not counted as a failure.
- A network error, a timeout, a 5xx, or 401/403/404 (the webhook deleted or its token wrong): the same
  message is retried after a delay doubling from ``backoff`` to ``max_backoff`` seconds; the feed waits
  (order is kept) and one report line is written at most once a minute (``report_every``).
- Any other 4xx (Discord refused this message): reported and skipped, so one bad message never stops the
  feed.

The follower runs in its own thread (inside ``stkit serve``, or as ``stkit discord follow``), so a slow or
failing Discord never blocks or fails a roll: a roll only writes its event row.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Self

import httpx

from stkit.deadline import DeadlinePassed, within
from stkit.discord.render import attack_groups, check_limits, group_message
from stkit.errors import StkitError
from stkit.store.table.discord_feed import (
    AUDIENCES,
    LEASE_SECONDS,
    chance_or_better,
    discord_settings,
    mark_posted,
    pending_events,
    release_lease,
    take_lease,
)

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.db.gateway import Gateway
    from stkit.store.db.handle import StoreHandle
    from stkit.store.table.events import TableEvent

log = logging.getLogger("stkit.discord")

#: Seconds a post may take (connect, read) before it counts as failed.
POST_TIMEOUT = 10.0
#: The shortest and the longest wait a 429 imposes before the post is tried again (seconds): a nonsense
#: value (negative, NaN, huge) must neither hammer the webhook nor stop the feed for hours.
MIN_RETRY_AFTER = 1.0
MAX_RETRY_AFTER = 60.0
USER_AGENT = "DiscordBot (https://github.com/stkit/stkit, 0.1.0) stkit"


@dataclass(frozen=True)
class PostResult:
    """What one post came to: ``ok``; ``retry_after`` (seconds) for a 429; ``skip`` for a refusal that
    retrying cannot cure; ``status`` (None: no answer) and a one-line ``reason``."""

    ok: bool
    status: int | None = None
    retry_after: float | None = None
    skip: bool = False
    reason: str = ""


def _seconds(value: object) -> float | None:
    """``value`` as a finite number of seconds, or None (NaN, infinities, text that is no number)."""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return seconds if math.isfinite(seconds) else None


def _retry_after(response: httpx.Response) -> float:
    """Seconds to wait after a 429, MIN_RETRY_AFTER to MAX_RETRY_AFTER: the JSON body's ``retry_after``,
    else the ``Retry-After`` header, else 1; a value that is no finite number counts as absent, and one out
    of range is brought into it."""
    value: float | None = None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and not isinstance(body.get("retry_after"), bool):
        value = _seconds(body.get("retry_after"))
    if value is None:
        value = _seconds(response.headers.get("retry-after", "1"))
    if value is None:
        value = 1.0
    return min(max(value, MIN_RETRY_AFTER), MAX_RETRY_AFTER)


def post(client: httpx.Client, url: str, body: dict) -> PostResult:
    """Execute the webhook ``url`` once with the JSON ``body``, the whole exchange within POST_TIMEOUT
    seconds (past it ``client`` is closed). Never raises for an HTTP or network failure: the result says
    what happened."""

    try:
        response = within(POST_TIMEOUT, lambda _: client.post(url, params={"wait": "true"}, json=body))
    except DeadlinePassed:
        client.close()  # the abandoned post ends at its socket's next timeout; the caller makes a new client
        return PostResult(False, None, reason=f"no complete answer within {POST_TIMEOUT:g} s")
    except httpx.HTTPError as exc:
        return PostResult(False, None, reason=f"no answer ({type(exc).__name__})")
    status = response.status_code
    if 200 <= status < 300:
        return PostResult(True, status)
    if status == 429:
        return PostResult(False, status, retry_after=_retry_after(response), reason="rate limited (429)")
    if 400 <= status < 500 and status not in (401, 403, 404, 408):
        return PostResult(False, status, skip=True, reason=f"refused ({status})")
    return PostResult(False, status, reason=f"failed ({status})")


def make_client(timeout: float = POST_TIMEOUT) -> httpx.Client:
    """The HTTP client a follower posts with (its own connection pool, stkit's user agent)."""

    return httpx.Client(timeout=timeout, headers={"User-Agent": USER_AGENT}, follow_redirects=False)


class Looping:
    """A loop (:meth:`run`, which ends once ``_stop`` is set) that :meth:`start` runs in a daemon thread named
    ``thread_name``; :meth:`stop` asks it to end from any thread and waits for it."""

    def __init__(self, thread_name: str) -> None:
        self.thread_name = thread_name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        raise NotImplementedError

    def start(self) -> Self:
        """Run in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self.run, name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the loop to end and wait up to ``timeout`` seconds for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


class Follower(Looping):
    """Posts the table events of ``chronicle`` in the store ``store`` to the chronicle's webhooks.

    ``poll``: seconds between looks at the event log when idle; ``backoff``/``max_backoff``: the first and
    the longest delay before a failed post is tried again; ``report``: called with one line about failures
    at most every ``report_every`` seconds (default: a warning on the 'stkit.discord' logger); ``client``:
    the HTTP client (default :func:`make_client`). Thread-safe to stop from another thread."""

    def __init__(
        self,
        store: StoreHandle,
        chronicle: str,
        *,
        poll: float = 0.1,
        backoff: float = 0.5,
        max_backoff: float = 60.0,
        report: Callable[[str], None] | None = None,
        report_every: float = 60.0,
        client: httpx.Client | None = None,
    ) -> None:
        super().__init__(f"discord-follower-{chronicle}")
        self.store = store
        self.chronicle = chronicle
        self.poll = poll
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.report = report or log.warning
        self.report_every = report_every
        self.client = client
        self.holder = secrets.token_hex(8)
        #: True while the chronicle has no webhook set (the loop then looks every ``idle_poll`` seconds)
        self.idle = False
        self.idle_poll = max(poll, 2.0)
        self.posted = 0
        self.skipped = 0
        self._lease_until: dict[str, float] = {}
        self._retry_at: dict[str, float] = {}
        self._delay: dict[str, float] = {}
        self._limited: dict[str, float] = {}
        self._failures: dict[str, int] = {}
        self._reported_at: dict[str, float] = {}
        self._trouble = 0.0

    # ------------------------------------------------------------------------------------------ one pass

    def step(self) -> int:
        """One pass: post what each audience has pending (until a failure or a 429 holds it back). Returns
        the number of messages posted."""

        def read(gw):
            settings = discord_settings(gw, self.chronicle)
            return settings, [pending_events(gw, self.chronicle, a) for a in AUDIENCES if settings.hook(a)]

        settings, pendings = self.store.read(read)
        self.idle = not pendings
        done = 0
        for pending in pendings:
            url = settings.hook(pending.audience)
            if url is None or time.monotonic() < self._retry_at.get(pending.audience, 0.0):
                continue
            if not pending.events and pending.scanned_to <= pending.last_event_id:
                continue
            if not self._hold(pending.audience):
                continue
            done += self._post_all(pending, url)
        return done

    def _hold(self, audience: str, wait: float = 0.0) -> bool:
        """Take or renew this follower's lease on the audience's feed, to last ``wait`` seconds more than
        usual (a 429's wait); a lease with more than half of that left is kept as is."""
        now = time.monotonic()
        span = LEASE_SECONDS + wait
        if self._lease_until.get(audience, 0.0) - now > span / 2 + wait:
            return True
        held = self.store.run(lambda gw: take_lease(gw, self.chronicle, audience, self.holder, span))
        self._lease_until[audience] = now + span if held else 0.0
        return held

    def _post_all(self, pending: Any, url: str) -> int:
        audience = pending.audience
        done = 0
        for group in attack_groups(list(pending.events)):
            if self._stop.is_set():
                return done
            body = self.message(group)
            if body is not None:
                result = self._deliver(audience, url, body)
                if result is None:  # held back: the same events again after the delay
                    return done
                if not result.ok:
                    self.skipped += 1
                    self._report(audience, f"event {group[0].id} was not posted and is skipped: {result.reason}")
            if not self.store.run(partial(self._moved, audience, group[-1].id, int(body is not None))):
                self._lease_until[audience] = 0.0  # another follower took the feed over
                return done
            if body is not None:
                done += 1
                self.posted += 1
        if pending.scanned_to > (pending.events[-1].id if pending.events else pending.last_event_id):
            self.store.run(partial(self._moved, audience, pending.scanned_to, 0))
        return done

    def _moved(self, audience: str, event_id: int, count: int, gw: Gateway) -> bool:
        return mark_posted(gw, self.chronicle, audience, event_id, self.holder, count=count)

    @staticmethod
    def message(events: list[TableEvent]) -> dict | None:
        """The webhook body of a group of events (see :func:`stkit.discord.render.attack_groups`; None: not
        shown), each roll with its exact chance of this result or better."""

        chances = [chance_or_better(e.data.get("roll") or {}) if e.kind == "roll" else None for e in events]
        body = group_message(events, chances)
        if body is not None and check_limits(body):  # fit() keeps them; a defect must not post
            raise AssertionError(f"message over Discord's limits: {check_limits(body)}")
        return body

    def _deliver(self, audience: str, url: str, body: dict) -> PostResult | None:
        """Post ``body``, waiting out 429s; a result (ok, or refused for good) or None when the post failed
        and the feed is held back for the backoff delay."""
        client = self.client or make_client()
        self.client = client
        while not self._stop.is_set():
            result = post(client, url, body)
            if client.is_closed:
                client = self.client = make_client()
            if result.retry_after is not None:
                # 429s in a row wait longer each time (doubling from backoff), never less than Discord asks
                limited = min(self._limited.get(audience, self.backoff / 2) * 2, self.max_backoff)
                self._limited[audience] = limited
                wait = max(result.retry_after, limited)
                # the lease must outlast the wait, or another follower would post this message too
                if not self._hold(audience, wait) or self._stop.wait(wait):
                    return None
                continue
            self._limited.pop(audience, None)
            if result.ok or result.skip:
                self._delay.pop(audience, None)
                self._retry_at.pop(audience, None)
                if result.ok:
                    self._recovered(audience)
                return result
            delay = self._delay.get(audience, self.backoff / 2) * 2
            self._delay[audience] = min(delay, self.max_backoff)
            self._retry_at[audience] = time.monotonic() + self._delay[audience]
            self._failures[audience] = self._failures.get(audience, 0) + 1
            self._report(audience, f"posting failed: {result.reason}; retrying in {self._delay[audience]:.1f} s")
            return None
        return None

    @property
    def failing(self) -> list[str]:
        """The audiences ('public', 'storyteller') whose last post failed: their events are kept in the
        store and posted on a later pass."""
        return sorted(a for a, n in self._failures.items() if n)

    def _report(self, audience: str, line: str) -> None:
        now = time.monotonic()
        if now - self._reported_at.get(audience, -1e9) >= self.report_every:
            self._reported_at[audience] = now
            failures = self._failures.get(audience, 0)
            more = f" ({failures} failed attempts so far)" if failures > 1 else ""
            self.report(f"Discord {audience} webhook of {self.chronicle!r}: {line}{more}")

    def _recovered(self, audience: str) -> None:
        if self._failures.pop(audience, 0):
            self._reported_at.pop(audience, None)
            self.report(f"Discord {audience} webhook of {self.chronicle!r}: posting again")

    # ------------------------------------------------------------------------------------------ the loop

    def run(self) -> None:
        """Post until :meth:`stop`: a pass, then a wait of ``poll`` seconds (none while work is left). A
        store error is reported and tried again after ``poll``; any other exception is reported (at most once
        a minute) and tried again after a delay doubling from ``backoff``: nothing ends the loop."""

        try:
            while not self._stop.is_set():
                try:
                    busy = self.step()
                    self._trouble = 0.0
                except StkitError as exc:
                    self._report("public", f"the store could not be read: {exc}")
                    busy = 0
                except Exception as exc:  # a defect: reported, then tried again after a growing wait
                    self._trouble = min(max(self._trouble * 2, self.backoff), self.max_backoff)
                    self._report("public", f"the follower failed ({type(exc).__name__}: {exc}); trying again")
                    log.debug("the Discord follower failed", exc_info=True)
                    self._stop.wait(self._trouble)
                    continue
                if not busy:
                    self._stop.wait(self.idle_poll if self.idle else self.poll)
        finally:
            self.close()

    def close(self) -> None:
        """Give up this follower's leases (another follower may take over at once) and close its client."""

        try:
            for audience in AUDIENCES:
                if self._lease_until.get(audience):
                    mine = partial(release_lease, chronicle=self.chronicle, audience=audience, holder=self.holder)
                    self.store.run(mine)
        except Exception:  # a store gone at shutdown: the lease runs out by itself
            pass
        if self.client is not None:
            self.client.close()
            self.client = None
