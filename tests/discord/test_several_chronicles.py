"""Discord on a server of several chronicles (`stkit serve --all`), each chronicle with its own Discord
application: real Ed25519-signed payloads, through httpx's ASGI transport into the table server's app. A
request signed for one chronicle's application never acts on another chronicle."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from stkit.store.db.handle import StoreHandle
from stkit.store.table.discord_feed import bind_place, discord_settings, find_claim, set_setting
from stkit.store.table.events import chronicle_events
from tests.discord.test_interactions import STRANGER, command, signed
from tests.web.conftest import add_character, issue

APPS = {"Alpha": "700000000000000001", "Beta": "700000000000000002"}
KEYS = {name: Ed25519PrivateKey.generate() for name in APPS}


def _public(name: str) -> str:
    return KEYS[name].public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _command_of(app: str, cmd: str, user: str, **options) -> dict:
    payload = command(cmd, user, **options)
    payload["application_id"] = APPS[app]
    return payload


@pytest.fixture(params=[None, ("Alpha", "Beta")], ids=["all", "listed"])
def hosted(db_url, request):
    """The app of a server of the chronicles Alpha and Beta (every chronicle, or the two named), each with
    its own application id and public key; ``post(path, payload, key_of)`` signs with ``key_of``'s key."""
    store = StoreHandle(None)
    for name in APPS:
        add_character(db_url, f"Hero of {name}", chronicle=name, attributes={"Dexterity": 3})
        store.run(lambda gw, n=name: set_setting(gw, n, "public-key", _public(n)))
        store.run(lambda gw, n=name: set_setting(gw, n, "application-id", APPS[n]))
    from stkit.web.app import create_app

    app = create_app(db_url, "Alpha", chronicles=request.param)

    def post(path: str, payload: dict, key_of: str) -> httpx.Response:
        body = json.dumps(payload).encode()

        async def go():
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
                return await client.post(path, content=body, headers=signed(body, key=KEYS[key_of]))

        return asyncio.run(go())

    post.store = store  # type: ignore[attr-defined]
    return post


def _rolls(store: StoreHandle, chronicle: str) -> int:
    return len(store.read(lambda gw: chronicle_events(gw, chronicle, kind="roll")))


def _route(name: str) -> str:
    return f"/discord/{APPS[name]}/interactions"


def test_each_application_acts_on_its_own_chronicle(hosted):
    for name in APPS:
        answer = hosted(_route(name), _command_of(name, "roll", STRANGER, pool="3"), name)
        assert answer.status_code == 200 and answer.json()["type"] == 4
    assert _rolls(hosted.store, "Alpha") == 1 and _rolls(hosted.store, "Beta") == 1


@pytest.mark.parametrize(("signer", "route"), [("Alpha", "Beta"), ("Beta", "Alpha")])
def test_one_applications_signature_on_anothers_route_is_refused(hosted, signer, route):
    answer = hosted(_route(route), _command_of(route, "roll", STRANGER, pool="3"), signer)
    assert answer.status_code == 401
    assert _rolls(hosted.store, "Alpha") == 0 and _rolls(hosted.store, "Beta") == 0


def test_an_unknown_application_or_a_bad_id_is_refused(hosted):
    for path in ("/discord/700000000000000009/interactions", "/discord/x1/interactions"):
        assert hosted(path, _command_of("Alpha", "roll", STRANGER, pool="3"), "Alpha").status_code == 401


def test_an_interaction_of_another_application_on_a_route_is_refused(hosted):
    # signed with Alpha's key but naming Beta's application: not Alpha's to answer
    answer = hosted(_route("Alpha"), _command_of("Beta", "roll", STRANGER, pool="3"), "Alpha")
    assert answer.status_code == 400
    assert _rolls(hosted.store, "Alpha") == 0 and _rolls(hosted.store, "Beta") == 0


def test_the_plain_route_checks_the_home_chronicles_key_only(hosted):
    assert hosted("/discord/interactions", _command_of("Beta", "roll", STRANGER, pool="3"), "Beta").status_code == 401
    assert hosted("/discord/interactions", _command_of("Alpha", "roll", STRANGER, pool="3"), "Alpha").status_code == 200
    assert _rolls(hosted.store, "Alpha") == 1 and _rolls(hosted.store, "Beta") == 0


@pytest.mark.parametrize("path", ["/discord/interactions", _route("Alpha")])
def test_a_channel_bound_to_another_chronicle_is_not_reached(hosted, path):
    payload = _command_of("Alpha", "roll", STRANGER, pool="3")
    hosted.store.run(lambda gw: bind_place(gw, f"channel:{payload['channel_id']}", "Beta"))
    answer = hosted(path, payload, "Alpha")
    assert answer.status_code == 200
    assert (
        answer.json()["data"]["content"]
        == "this channel is bound to a chronicle this Discord application does not serve"
    )
    assert _rolls(hosted.store, "Beta") == 0 and _rolls(hosted.store, "Alpha") == 0


def test_a_claim_code_of_another_chronicle_is_refused_and_nothing_is_written(hosted, db_url):
    beta = issue(db_url, chronicle="Beta")
    answer = hosted(_route("Alpha"), _command_of("Alpha", "claim", STRANGER, code=beta["storyteller"]), "Alpha")
    assert (
        answer.json()["data"]["content"] == "that code is a link of a chronicle this Discord application does not serve"
    )
    assert hosted.store.read(lambda gw: find_claim(gw, "Beta", STRANGER)) is None
    alpha = issue(db_url, chronicle="Alpha")
    mine = hosted(_route("Alpha"), _command_of("Alpha", "claim", STRANGER, code=alpha["storyteller"]), "Alpha")
    assert "Storyteller's seat in Alpha" in mine.json()["data"]["content"]


def test_one_application_of_several_chronicles_needs_a_bound_channel(hosted):
    shared = hosted.store
    shared.run(lambda gw: set_setting(gw, "Beta", "public-key", _public("Alpha")))
    shared.run(lambda gw: set_setting(gw, "Beta", "application-id", APPS["Alpha"]))
    payload = _command_of("Alpha", "roll", STRANGER, pool="3")
    unbound = hosted(_route("Alpha"), payload, "Alpha").json()["data"]["content"]
    assert unbound.startswith("this channel is bound to no chronicle")
    shared.run(lambda gw: bind_place(gw, f"channel:{payload['channel_id']}", "Beta"))
    again = _command_of("Alpha", "roll", STRANGER, pool="3")
    assert hosted(_route("Alpha"), again, "Alpha").json()["type"] == 4
    assert _rolls(shared, "Beta") == 1 and _rolls(shared, "Alpha") == 0
    assert shared.read(lambda gw: discord_settings(gw, "Beta")).public_key == _public("Alpha")


def test_the_server_follows_the_feed_of_every_chronicle_with_a_webhook(db_url, receiver):
    from fastapi.testclient import TestClient

    from stkit.discord import router
    from stkit.store.rolling import RollOrder, make_roll
    from stkit.web.app import create_app

    store = StoreHandle(None)
    names = ("Alpha", "Beta", "Gamma")
    for name in names[:2]:
        store.run(lambda gw, n=name: set_setting(gw, n, "webhook", receiver.url(f"/hook/{n}")))

    def roll(name: str) -> int:
        done = store.run(lambda gw: make_roll(gw, RollOrder("4", seed=3, log=True, chronicle=name)))
        return done.log_id

    with TestClient(create_app(db_url, chronicles=None), base_url="http://127.0.0.1"):
        rolled = {name: roll(name) for name in names}
        for name in names[:2]:
            (body,) = receiver.wait_for(f"/hook/{name}", 1)
            assert f"log #{rolled[name]}" in json.dumps(body)
        # a webhook set while the server runs is followed from the next look on
        store.run(lambda gw: set_setting(gw, "Gamma", "webhook", receiver.url("/hook/Gamma")))
        later = roll("Gamma")
        (body,) = receiver.wait_for("/hook/Gamma", 1, deadline=20 + router.SCAN_SECONDS)
        assert f"log #{later}" in json.dumps(body)
    assert len(receiver.bodies("/hook/Alpha")) == 1 and len(receiver.bodies("/hook/Beta")) == 1
