"""The table server: one chronicle on one live page (FastAPI + Jinja2 + htmx + server-sent events).

An adapter like ``stkit.cli``: every change goes through the store's use cases (rolls, Willpower, damage
and healing, scenes, extended actions, contests), so the rules hold exactly as on the command line and each
change writes its table event. Pages are rendered on the server (readable with JavaScript off); htmx and
its SSE extension (served from ``stkit/web/static``, never a CDN) keep them live.

Access: a join link ``/join/TOKEN`` sets an HttpOnly, SameSite=Strict cookie holding the token; every
other request is checked against the stored hash (:func:`stkit.store.events.find_link_holder`). A missing,
forged or revoked token gets a 403 page; a player may act only for their own character; changes are POSTs
(a cross-site POST carries no cookie, and a foreign Origin is refused).

User text reaches a page through :func:`stkit.text.printable` (the templates' finalize hook) and then
Jinja's HTML autoescape.
"""

from __future__ import annotations

import asyncio
import random
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader
from markupsafe import Markup

from stkit.errors import InvalidValue, NotFound, StkitError
from stkit.store.events import LinkHolder, TableEvent
from stkit.text import printable
from stkit.web.bus import EventBus, EventReader

COOKIE = "stkit_table"
#: Roll events shown when a page opens (newer ones arrive live).
FEED_SIZE = 50
FORBIDDEN_TEXT = "This link is not valid (missing, mistyped or replaced). Ask the Storyteller for a new link."


class Forbidden(Exception):
    """The request holds no valid link for this chronicle, or asks for what its link does not allow."""

    def __init__(self, reason: str = FORBIDDEN_TEXT) -> None:
        super().__init__(reason)
        self.reason = reason


def _finalize(value: Any) -> Any:
    """Every ``{{ value }}`` of the templates: text made printable (control characters shown as escapes),
    then HTML-escaped by autoescape. Markup built by the server is left as it is."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return printable(value)


def make_templates() -> Environment:
    """The Jinja2 environment of the table pages: autoescape on, printable text (see :func:`_finalize`)."""
    env = Environment(loader=PackageLoader("stkit.web", "templates"), autoescape=True, finalize=_finalize)
    env.filters["pct"] = lambda p: f"{float(p) * 100:.1f}%"
    return env


@dataclass
class Table:
    """What the server serves: the store (``db``, a path or URL), the ``chronicle``, its engine, event bus
    and templates."""

    db: str | None
    chronicle: str
    interval: float = 0.05
    engine: Any = None
    bus: EventBus | None = None
    templates: Environment = field(default_factory=make_templates)

    # ----- store access (every call is one transaction) ------------------------------------------------
    def read(self, work):
        """``work(session)`` in one read-only transaction (one snapshot on SQLite)."""
        from stkit.store.db import run_transaction

        return run_transaction(self.engine, work, readonly=True)

    def write(self, work):
        """``work(session)`` in one write transaction, retried whole when the database is busy."""
        from stkit.store.db import run_transaction

        return run_transaction(self.engine, work)

    def holder_of(self, token: str | None) -> LinkHolder:
        """Who holds ``token`` in this chronicle; Forbidden otherwise."""
        from stkit.store.events import find_link_holder
        from stkit.store.gateway import as_gateway

        holder = self.read(lambda s: find_link_holder(as_gateway(s), token)) if token else None
        if holder is None or holder.chronicle != self.chronicle:
            raise Forbidden()
        return holder

    def render(self, name: str, code: int = 200, **ctx: Any) -> HTMLResponse:
        return HTMLResponse(self.templates.get_template(name).render(**ctx), status_code=code)

    def fragment(self, name: str, **ctx: Any) -> str:
        return self.templates.get_template(name).render(**ctx)


# ------------------------------------------------------------------------------------------ page data


def sheet_view(row: Any) -> dict:
    """A stored character as the sheet panel shows it: Attributes, Abilities, Rage / Gnosis / Willpower,
    Renown, health levels with the wound penalty, form, and the traits the roll form offers."""
    from stkit.store import traits as T
    from stkit.store.sheet import HEALTH_LEVELS

    sheet = row.to_sheet()
    abilities = [(a, sheet.abilities[a]) for a in T.ABILITIES if sheet.abilities.get(a)]
    abilities += sorted(sheet.custom_abilities.items())
    boxes = sheet.health_boxes()
    health = [{"name": name, "penalty": penalty, "damage": boxes[i]} for i, (name, penalty) in enumerate(HEALTH_LEVELS)]
    powers = [(p, sheet.powers[p].permanent, sheet.powers[p].temporary) for p in T.POWERS]
    renown = [(r, sheet.renown[r].permanent, sheet.renown[r].temporary) for r in T.RENOWN]
    return {
        "id": row.id,
        "name": sheet.name,
        "player": sheet.player,
        "tribe": sheet.tribe,
        "auspice": sheet.auspice,
        "breed": sheet.breed,
        "form": sheet.form,
        "attributes": [(a, sheet.attributes.get(a, 0)) for a in T.ATTRIBUTES],
        "abilities": abilities,
        "powers": powers,
        "renown": renown,
        "health": health,
        "health_level": sheet.health_level,
        "wound_penalty": sheet.wound_penalty,
        "incapacitated": sheet.incapacitated,
        "willpower_left": sheet.powers["Willpower"].temporary,
        "roll_traits": [*T.ATTRIBUTES, *(a for a, _ in abilities), *T.POWERS, *(r for r, perm, _ in renown if perm)],
    }


def status_view(session: Any, chronicle: str) -> dict:
    """The open scene and turn, the open extended actions (progress, rolls so far, the exact chance to
    finish within 1, 2 and 4 more rolls) and the open contests (both tallies) of ``chronicle``."""
    from stkit.store.scenes import open_scene
    from stkit.store.tracked import contest_status, extended_status, list_contests, list_extended

    scene = open_scene(session, chronicle)
    actions = [
        extended_status(session, a).to_dict() for a in list_extended(session, chronicle=chronicle, status="open")
    ]
    for a in actions:
        within = (a.get("odds") or {}).get("within") or {}
        a["chances"] = [
            (k, within[str(k)]["probability"], within[str(k)]["exact"]) for k in (1, 2, 4) if str(k) in within
        ]
        a["percent"] = min(100, round(100 * a["tally"] / a["target"])) if a["target"] else 0
    contests = [
        contest_status(session, c).to_dict() for c in list_contests(session, chronicle=chronicle, status="open")
    ]
    return {
        "scene": {"id": scene.id, "name": scene.name, "turn": scene.turn} if scene else None,
        "extended": actions,
        "contests": contests,
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
        "at": event.created_at[11:19],
    }


def page_data(table: Table, session: Any, holder: LinkHolder) -> dict:
    """Everything a page shows, read in one transaction: the feed, the newest event id (the stream starts
    after it), the status, the sheets this link may see and the characters of the chronicle."""
    from stkit.store.characters import list_characters
    from stkit.store.events import last_event_id, recent_events
    from stkit.store.gateway import as_gateway

    gw = as_gateway(session)
    st = holder.is_storyteller
    after = last_event_id(gw, table.chronicle)
    feed = [
        feed_item(e, storyteller=st)
        for e in recent_events(gw, table.chronicle, kind="roll", include_secret=st, limit=FEED_SIZE)
        if e.id <= after
    ]
    chars = list_characters(session, table.chronicle)
    sheets = [sheet_view(c) for c in chars if st or c.id == holder.character_id]
    from stkit.store.house import rules_in_force

    return {
        "difficulty": rules_in_force(gw, table.chronicle).difficulty,
        "holder": holder,
        "storyteller": st,
        "chronicle": table.chronicle,
        "feed": feed,
        "after": after,
        "status": status_view(session, table.chronicle),
        "sheets": sheets,
        "characters": [(c.id, c.name) for c in chars],
    }


# ------------------------------------------------------------------------------------------ form values


def _int(form: dict, key: str, what: str, default: int | None = None) -> int:
    """A whole number from a form field; InvalidValue naming the field when it is not one."""
    raw = str(form.get(key, "") or "").strip()
    if not raw:
        if default is None:
            raise InvalidValue(f"{what} is missing; give a whole number")
        return default
    if len(raw) > 12 or not (raw.lstrip("+-").isascii() and raw.lstrip("+-").isdigit()):
        raise InvalidValue(f"{what} {raw[:20]!r} is not a whole number")
    return int(raw)


def _order(values: dict, *, storyteller: bool, **fields: Any):
    """The roll order of a web form: its difficulty (empty: the chronicle's), and on the Storyteller's link
    only its house-rule choice (a player's link never chooses house rules)."""
    from stkit.dice import Specialty
    from stkit.dice.house import RuleOverrides
    from stkit.store.rolling import RollOrder

    raw = str(values.get("difficulty") or "").strip()
    difficulty = _int(values, "difficulty", "difficulty") if raw else None
    choice = str(values.get("specialty") or "").strip().lower() if storyteller else ""
    try:
        specialty = Specialty(choice) if choice else None
    except ValueError:
        raise InvalidValue(f"specialty rule {choice[:20]!r} is not one of none, double, reroll") from None
    return RollOrder(overrides=RuleOverrides(specialty=specialty, difficulty=difficulty), **fields)


def _on(form: dict, key: str) -> bool:
    return str(form.get(key, "")).lower() in ("on", "1", "true", "yes")


def _character_name(session: Any, chronicle: str, character_id: int) -> str:
    from stkit.store.characters import character_by_id

    row = character_by_id(session, character_id)
    if row is None or row.chronicle != chronicle:
        raise NotFound(f"no character with id {character_id} in chronicle {chronicle!r}")
    return row.name


# ------------------------------------------------------------------------------------------ the app


def create_app(db: str | None = None, chronicle: str | None = None, *, interval: float = 0.05) -> FastAPI:
    """The table server's ASGI app for ``chronicle`` (default: $STKIT_CHRONICLE, else 'default') of the store
    ``db`` (a path or URL; None: the usual database). ``interval``: seconds between SQLite polls. The schema
    is migrated when the app starts. Raises StoreError when the store cannot be opened."""
    from stkit.config import default_chronicle
    from stkit.store.db import open_store

    table = Table(db=db, chronicle=default_chronicle(chronicle), interval=interval)
    table.engine = open_store(db)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        bus = EventBus(EventReader(db, table.chronicle), interval=interval)
        table.bus = bus
        await bus.start()
        try:
            yield
        finally:
            await bus.stop()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.table = table
    app.mount("/static", StaticFiles(packages=[("stkit.web", "static")]), name="static")

    @app.exception_handler(Forbidden)
    async def _forbidden(request: Request, exc: Forbidden) -> Response:
        return table.render("forbidden.html", code=403, reason=exc.reason)

    def who(request: Request) -> LinkHolder:
        return table.holder_of(request.cookies.get(COOKIE))

    def check_post(request: Request) -> LinkHolder:
        """A change: a valid cookie, and no Origin header from another site."""
        origin = request.headers.get("origin")
        if origin and origin.rstrip("/") != str(request.base_url).rstrip("/"):
            raise Forbidden("This request came from another site; it was refused.")
        return who(request)

    def done(request: Request, holder: LinkHolder, form_name: str, work, message) -> Response:
        """Run a change; htmx gets a one-line fragment (the result or the error), a plain form post a
        redirect back to the page (or the page with the error beside the form, status 400)."""
        htmx = request.headers.get("hx-request") == "true"
        try:
            result = table.write(work)
        except StkitError as exc:
            error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if htmx:
                return HTMLResponse(table.fragment("message.html", error=error))
            ctx = table.read(lambda s: page_data(table, s, holder))
            return table.render("page.html", code=400, error=error, error_form=form_name, **ctx)
        if htmx:
            return HTMLResponse(table.fragment("message.html", message=message(result)))
        return RedirectResponse("/", status_code=303)

    def storyteller_only(holder: LinkHolder) -> None:
        if not holder.is_storyteller:
            raise Forbidden("Only the Storyteller's link may do this.")

    @app.get("/join/{token}")
    def join(token: str, request: Request) -> Response:
        table.holder_of(token)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=60 * 60 * 24 * 365,
        )
        return response

    @app.get("/", response_class=HTMLResponse)
    def page(request: Request) -> Response:
        holder = who(request)
        ctx = table.read(lambda s: page_data(table, s, holder))
        return table.render("page.html", error=None, error_form=None, **ctx)

    @app.get("/status", response_class=HTMLResponse)
    def status(request: Request) -> Response:
        holder = who(request)
        data = table.read(lambda s: status_view(s, table.chronicle))
        return HTMLResponse(
            table.fragment("status.html", status=data, storyteller=holder.is_storyteller, holder=holder)
        )

    @app.get("/sheet/{character_id}", response_class=HTMLResponse)
    def sheet(character_id: int, request: Request) -> Response:
        holder = who(request)
        if not 0 < character_id < 2**62:
            return HTMLResponse("<p>No such character.</p>", status_code=404)
        if not holder.is_storyteller and holder.character_id != character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")

        def work(s):
            from stkit.store.characters import character_by_id

            row = character_by_id(s, character_id)
            if row is None or row.chronicle != table.chronicle:
                return None
            return sheet_view(row)

        view = table.read(work)
        if view is None:
            return HTMLResponse("<p>That character is gone.</p>", status_code=404)
        return HTMLResponse(table.fragment("sheet.html", s=view, storyteller=holder.is_storyteller))

    @app.get("/odds", response_class=HTMLResponse)
    def odds(request: Request) -> Response:
        holder = who(request)
        form: dict[str, Any] = dict(request.query_params)
        form["trait"] = request.query_params.getlist("trait")
        try:
            ctx = table.read(lambda s: odds_view(s, table.chronicle, holder, form))
        except StkitError as exc:
            return HTMLResponse(table.fragment("message.html", error=str(exc)))
        return HTMLResponse(table.fragment("odds.html", **ctx))

    @app.post("/roll")
    async def roll(request: Request) -> Response:
        holder = check_post(request)
        form = await request.form()
        values: dict[str, Any] = {k: form.get(k) for k in form}
        values["trait"] = form.getlist("trait")
        secret = _on(values, "secret")
        if secret:
            storyteller_only(holder)
        if str(values.get("seed") or "").strip() and not holder.is_storyteller:
            # a chosen seed chooses the dice: only the Storyteller replays a roll that way
            raise Forbidden("Only the Storyteller's link may seed a roll; the server rolls a player's dice.")
        cid_text = str(values.get("character_id") or "").strip()
        if not holder.is_storyteller and (
            not (cid_text.isascii() and cid_text.isdigit()) or int(cid_text) != holder.character_id
        ):
            raise Forbidden("A player's link rolls only for that player's own character.")

        def work(s):
            return roll_use_case(s, table.chronicle, values, secret=secret, storyteller=holder.is_storyteller)

        return await asyncio.to_thread(done, request, holder, "roll", work, _roll_message)

    @app.post("/scene/{action}")
    async def scene(action: str, request: Request) -> Response:
        holder = check_post(request)
        storyteller_only(holder)
        form = await request.form()
        name = str(form.get("name") or "")
        from stkit.store import scenes as S

        steps = {
            "start": lambda s: S.start_scene(s, table.chronicle, name),
            "turn": lambda s: S.next_turn(s, table.chronicle),
            "end": lambda s: S.end_scene(s, table.chronicle),
        }
        if action not in steps:
            return HTMLResponse("Not found", status_code=404)

        def message(scene) -> str:
            return {"start": f"Scene {scene.name!r} opened", "turn": f"Turn {scene.turn}", "end": "Scene closed"}[
                action
            ]

        return await asyncio.to_thread(done, request, holder, "scene", steps[action], message)

    @app.post("/health")
    async def health(request: Request) -> Response:
        holder = check_post(request)
        storyteller_only(holder)
        form = await request.form()
        values = {k: form.get(k) for k in form}

        def work(s):
            from stkit.store.characters import damage, heal

            name = _character_name(s, table.chronicle, _int(values, "character_id", "character"))
            levels = _int(values, "levels", "health levels", 1)
            kind = str(values.get("kind") or "bashing")
            if values.get("change") == "heal":
                return heal(s, name, levels, None, chronicle=table.chronicle)
            return damage(s, name, levels, kind, chronicle=table.chronicle)

        return await asyncio.to_thread(done, request, holder, "health", work, lambda e: e.summary)

    @app.post("/extended/{action}")
    async def extended(action: str, request: Request) -> Response:
        holder = check_post(request)
        storyteller_only(holder)
        form = await request.form()
        values = {k: form.get(k) for k in form}
        from stkit.store import tracked as X

        def start(s):
            cid = str(values.get("character_id") or "").strip()
            name = _character_name(s, table.chronicle, int(cid)) if (cid.isascii() and cid.isdigit()) else None
            return X.start_extended(
                s,
                str(values.get("name") or ""),
                chronicle=table.chronicle,
                character=name,
                pool=str(values.get("pool") or ""),
                difficulty=_int(values, "difficulty", "difficulty", 6),
                target=_int(values, "target", "target"),
            )

        def roll_it(s):
            return X.roll_extended(s, _int(values, "id", "extended action"), seed=_seed(values))

        def abandon(s):
            return X.abandon_extended(s, _int(values, "id", "extended action"))

        steps = {"start": start, "roll": roll_it, "abandon": abandon}
        if action not in steps:
            return HTMLResponse("Not found", status_code=404)

        def message(out) -> str:
            row = getattr(out, "action", out)
            return f"{row.name}: {row.tally}/{row.target} ({row.status})"

        return await asyncio.to_thread(done, request, holder, "extended", steps[action], message)

    @app.post("/contest/{action}")
    async def contest(action: str, request: Request) -> Response:
        holder = check_post(request)
        storyteller_only(holder)
        form = await request.form()
        values = {k: form.get(k) for k in form}
        from stkit.store import tracked as X

        def side(s, key: str) -> str:
            raw = str(values.get(key) or "").strip()
            if raw.startswith("#"):  # a character, by id; anything else is a number of dice
                return _character_name(s, table.chronicle, _int({"id": raw[1:]}, "id", f"side {key.upper()}"))
            return raw

        def start(s):
            return X.start_contest(
                s,
                str(values.get("name") or ""),
                chronicle=table.chronicle,
                a=side(s, "a"),
                b=side(s, "b"),
                pool_a=str(values.get("pool_a") or "") or None,
                pool_b=str(values.get("pool_b") or "") or None,
                difficulty=_int(values, "difficulty", "difficulty", 6),
                difficulty_b=None,
                target=_int(values, "target", "target"),
            )

        def roll_it(s):
            return X.roll_contest(s, _int(values, "id", "contest"), seed=_seed(values))

        def abandon(s):
            return X.abandon_contest(s, _int(values, "id", "contest"))

        steps = {"start": start, "roll": roll_it, "abandon": abandon}
        if action not in steps:
            return HTMLResponse("Not found", status_code=404)

        def message(out) -> str:
            row = out.status.contest if hasattr(out, "status") and hasattr(out.status, "contest") else out
            return f"{row.name}: A {row.tally_a} - B {row.tally_b} ({row.status})"

        return await asyncio.to_thread(done, request, holder, "contest", steps[action], message)

    @app.get("/events")
    async def events(request: Request) -> Response:
        from sse_starlette.sse import EventSourceResponse

        holder = await asyncio.to_thread(who, request)
        raw = request.headers.get("last-event-id") or request.query_params.get("after") or "0"
        after = int(raw) if (raw.isascii() and raw.isdigit()) and len(raw) < 19 else 0
        return EventSourceResponse(stream(table, holder, after, request), ping=15)

    return app


def _seed(values: dict) -> int:
    raw = str(values.get("seed") or "").strip()
    if raw:
        return _int(values, "seed", "seed")
    return random.SystemRandom().randrange(2**32)


def _roll_message(done: Any) -> str:
    r = done.roll
    if r.outcome.value == "botch":
        return "BOTCH"
    if r.outcome.value == "failure":
        return "Failure"
    return f"{r.result} success{'es' if r.result != 1 else ''}"


def roll_use_case(session: Any, chronicle: str, values: dict, *, secret: bool, storyteller: bool = False):
    """A roll from the web form (``values``: character_id, trait (list), dice, difficulty, willpower,
    specialty, task, auto, seed) through :func:`stkit.store.rolling.make_roll`, as `stkit roll`: from a
    sheet or, on the Storyteller's screen, a bare number of dice; under the chronicle's house rules (the
    Storyteller's link may override them). Raises what it raises; nothing is written then."""
    from stkit.store.gateway import as_gateway
    from stkit.store.rolling import Purpose, make_roll

    fields = _roll_fields(session, chronicle, values)
    order = _order(
        values,
        storyteller=storyteller,
        seed=_seed(values),
        willpower=_on(values, "willpower"),
        auto=_on(values, "auto"),
        secret=secret,
        purpose=Purpose.sheet if "character" in fields else Purpose.plain,
        **fields,
    )
    return make_roll(as_gateway(session), order)


def _roll_fields(session: Any, chronicle: str, values: dict) -> dict:
    """Who rolls what: {character, chronicle, expression, task} from a sheet, or {expression, chronicle,
    log} for a bare number of dice. Raises InvalidValue for Traits without a character and the like."""
    from stkit.dice import validate_pool

    task = str(values.get("task") or "").strip() or None
    cid = str(values.get("character_id") or "").strip()
    traits = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    extra = str(values.get("dice") or "").strip()
    if cid:
        name = _character_name(session, chronicle, _int(values, "character_id", "character"))
        if not traits:
            raise InvalidValue("choose one or two Traits to roll (a 10-rated Trait rolls alone)")
        expression = " + ".join(traits)
        if extra:  # extra dice (or a penalty) after the Traits, as the CLI's 'Dexterity + Brawl + 2'
            expression += f" {extra}" if extra[0] in "+-" else f" + {extra}"
        return {"character": name, "chronicle": chronicle, "expression": expression, "task": task}
    if traits:
        raise InvalidValue("Traits need a character: choose whose sheet rolls them")
    if task:
        raise InvalidValue("try again needs a character: a task is counted per character")
    if _on(values, "auto") and _on(values, "willpower"):
        raise InvalidValue("an automatic success is taken without rolling; it cannot go with Willpower")
    pool = validate_pool(_int(values, "dice", "dice pool"))
    return {"expression": str(pool), "chronicle": chronicle, "log": True}


def odds_view(session: Any, chronicle: str, holder: LinkHolder, values: dict) -> dict:
    """The exact chances of the roll a form describes (the pool as the sheet builds it, or a number of dice),
    from :func:`stkit.dice.odds.roll_distribution`: P(botch), P(failure), P(exactly k) and P(at least k)."""
    from stkit.store.gateway import as_gateway
    from stkit.store.rolling import odds_for

    cid = str(values.get("character_id") or "").strip()
    traits = [str(t).strip() for t in values.get("trait") or [] if str(t).strip()]
    fields: dict[str, Any] = {"chronicle": chronicle}
    if cid:
        character_id = _int(values, "character_id", "character")
        if not holder.is_storyteller and character_id != holder.character_id:
            raise Forbidden("A player's link shows only that player's own sheet.")
        if not traits:
            return {"odds": None, "note": "Choose Traits to see the odds."}
        fields |= {"character": _character_name(session, chronicle, character_id), "expression": " + ".join(traits)}
    else:
        fields["expression"] = str(_int(values, "dice", "dice pool"))
    order = _order(values, storyteller=holder.is_storyteller, willpower=_on(values, "willpower"), **fields)
    answer = odds_for(as_gateway(session), order)
    dist, label, difficulty = answer.odds, answer.label, answer.odds.difficulty
    rows = [("botch", dist.p_botch), ("failure", dist.p_failure)]
    top = min(dist.max_result, 10)
    rows += [(f"{k}", dist.p_exactly(k)) for k in range(1, top + 1)]
    most = max((p for _, p in rows), default=1) or 1
    return {
        "odds": {
            "label": label,
            "difficulty": difficulty,
            "rows": [(k, p, str(p), round(100 * float(p) / float(most))) for k, p in rows],
            "p_success": dist.p_success,
            "p_botch": dist.p_botch,
            "more": dist.max_result > top,
        },
        "note": None,
    }


async def stream(table: Table, holder: LinkHolder, after: int, request: Request):
    """The server-sent events of one page: every event after ``after`` that this link may see (a player's
    stream carries no secret event at all), each once, in id order; then live ones as they commit."""
    bus = table.bus
    assert bus is not None
    queue = bus.subscribe()
    st = holder.is_storyteller
    try:
        from sse_starlette.sse import ServerSentEvent

        yield ServerSentEvent(comment="stkit table", retry=1000)  # reconnect a second after a drop
        last = after
        while True:
            backlog = await asyncio.to_thread(bus.reader.after, last, include_secret=st)
            for event in backlog:
                if visible(event, holder):
                    yield _sse(table, event, st)
                last = event.id
            if len(backlog) < 500:
                break
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), timeout=5)
            except TimeoutError:
                if queue not in bus.subscribers or await request.is_disconnected():
                    return
                continue
            if event.id <= last:
                continue
            if visible(event, holder):
                yield _sse(table, event, st)
            last = event.id
    finally:
        bus.unsubscribe(queue)


def visible(event: TableEvent, holder: LinkHolder) -> bool:
    """Whether ``holder``'s stream carries ``event``: the Storyteller sees everything; a player never sees
    a secret event, and of sheet changes only their own character's."""
    if holder.is_storyteller:
        return True
    if event.secret:
        return False
    return event.kind != "sheet" or event.character_id == holder.character_id


def _sse(table: Table, event: TableEvent, storyteller: bool) -> dict:
    """One event as SSE: id, name (the kind) and data (a roll: its feed item's HTML; else JSON)."""
    import json

    if event.kind == "roll":
        data = table.fragment("feed_item.html", r=feed_item(event, storyteller=storyteller))
        data = " ".join(data.split())  # one line: the feed item HTML has no pre-formatted text
    else:
        data = json.dumps(event.data, ensure_ascii=False)
    return {"id": str(event.id), "event": event.kind, "data": data}
