"""The table server's routes, one APIRouter per concern: ``join`` (a link sets the cookie), ``feed`` (the
page and its status panel), ``sheets``, ``rolls`` (a roll, saved rolls and the odds), ``storyteller``
(scenes, initiative, health, extended actions, contests), ``talk`` (messages, whispers, the night's log),
``fight`` (attacks answered from the phones, calls for rolls, initiative latecomers), ``actions`` (the
party strip's shift, regeneration, Rage, frenzy, Gnosis and Willpower), ``create`` (guided character
creation) and ``stream`` (the server-sent events). :data:`ROUTERS` lists them in the order
:func:`stkit.web.app.create_app` includes them."""

from __future__ import annotations

from stkit.web.routers import actions, create, feed, fight, join, rolls, sheets, storyteller, stream, talk

ROUTERS = (
    join.router,
    feed.router,
    sheets.router,
    rolls.router,
    storyteller.router,
    fight.router,
    actions.router,
    talk.router,
    create.router,
    stream.router,
)
