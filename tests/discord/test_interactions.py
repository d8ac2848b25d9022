"""``POST /discord/interactions`` with real signed payloads (a generated Ed25519 key), through httpx's ASGI
transport into the table server's app: signatures first, then each command, autocomplete and buttons."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stkit.cli.app import app as cli_app
from stkit.discord.render import check_limits
from stkit.store.db.handle import StoreHandle
from stkit.store.table.discord_feed import set_setting
from stkit.store.table.events import chronicle_events
from tests.web.conftest import add_character, issue

KEY = Ed25519PrivateKey.generate()
PUBLIC = KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
_ids = itertools.count(1)
PLAYER, STORYTELLER, STRANGER = "111111111111111111", "222222222222222222", "333333333333333333"


def signed(body: bytes, *, at: int | None = None, key=KEY) -> dict:
    stamp = str(int(time.time()) if at is None else at)
    return {
        "X-Signature-Ed25519": key.sign(stamp.encode() + body).hex(),
        "X-Signature-Timestamp": stamp,
        "Content-Type": "application/json",
    }


def command(cmd: str, user: str, **options) -> dict:
    kinds = {bool: 5, int: 4, str: 3}
    opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
    return {
        "id": str(next(_ids)),
        "application_id": "999999999999999999",
        "type": 2,
        "token": "interaction-token",
        "version": 1,
        "guild_id": "444444444444444444",
        "channel_id": "555555555555555555",
        "member": {"user": {"id": user, "username": "someone"}, "roles": []},
        "data": {"id": "1", "name": cmd, "type": 1, "options": opts},
    }


@pytest.fixture
def door(db_url):
    add_character(db_url, "Weston", attributes={"Dexterity": 3, "Wits": 2}, abilities={"Brawl": 2})
    links = issue(db_url)
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "public-key", PUBLIC))
    from stkit.web.app import create_app

    app = create_app(db_url)

    def post(payload: dict | bytes, headers: dict | None = None) -> httpx.Response:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()

        async def go():
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
                return await client.post("/discord/interactions", content=body, headers=headers or signed(body))

        return asyncio.run(go())

    post.links = links  # type: ignore[attr-defined]
    post.store = store  # type: ignore[attr-defined]
    return post


def _claim(door, user: str, who: str) -> dict:
    return door(command("claim", user, code=door.links[who])).json()


def test_ping_gets_pong(door):
    body = json.dumps({"id": "1", "application_id": "9", "type": 1, "token": "t", "version": 1}).encode()
    answer = door(body)
    assert answer.status_code == 200 and answer.json() == {"type": 1}


@pytest.mark.parametrize("how", ["forged", "stale", "tampered", "missing", "future", "not-hex"])
def test_bad_signatures_are_401_before_anything_is_read(door, how):
    body = json.dumps({"type": 1}).encode()
    headers = signed(body)
    if how == "forged":
        headers = signed(body, key=Ed25519PrivateKey.generate())
    elif how == "stale":
        headers = signed(body, at=int(time.time()) - 600)
    elif how == "future":
        headers = signed(body, at=int(time.time()) + 600)
    elif how == "tampered":
        body = json.dumps({"type": 2}).encode()
    elif how == "missing":
        headers = {"Content-Type": "application/json"}
    elif how == "not-hex":
        headers["X-Signature-Ed25519"] = "zz" * 64
    assert door(body, headers).status_code == 401


def test_a_bare_pool_from_an_unclaimed_user(door):
    answer = door(command("roll", STRANGER, pool="5", difficulty=7)).json()
    assert answer["type"] == 4
    embed = answer["data"]["embeds"][0]
    assert "5 dice, difficulty 7" in embed["description"]
    assert check_limits(answer["data"] | {"allowed_mentions": {"parse": []}}) == []
    assert answer["data"]["components"][0]["components"][0]["custom_id"].startswith("odds:")


def test_an_unclaimed_user_may_not_roll_a_character(door):
    answer = door(command("roll", STRANGER, pool="Dexterity + Brawl")).json()
    assert answer["data"]["flags"] == 64 and "claim" in answer["data"]["content"]
    answer = door(command("roll", STRANGER, pool="5", character="Weston")).json()
    assert answer["data"]["flags"] == 64 and "Storyteller" in answer["data"]["content"]


def test_a_claimed_player_rolls_their_sheet(door):
    claimed = _claim(door, PLAYER, "Weston")
    assert claimed["data"]["content"] == "You play Weston in default."
    answer = door(command("roll", PLAYER, pool="Dexterity + Brawl")).json()
    embed = answer["data"]["embeds"][0]
    assert embed["title"].startswith("Weston")
    assert embed["description"].startswith("Dexterity 3 + Brawl 2 = 5 dice, difficulty 6\n")
    rows = door.store.read(lambda gw: chronicle_events(gw, "default", kind="roll"))
    assert rows[0].data["character"] == "Weston" and len(rows[0].data["roll"]["dice"]) == 5


def test_a_bad_claim_code_is_refused(door):
    answer = door(command("claim", PLAYER, code="not-a-code")).json()
    assert answer["data"]["flags"] == 64 and "not a table link" in answer["data"]["content"]


def test_the_storyteller_seed_gives_the_dice_of_stkit_roll(door):
    _claim(door, STORYTELLER, "storyteller")
    answer = door(command("roll", STORYTELLER, pool="7", seed=42)).json()
    cli = CliRunner().invoke(cli_app, ["roll", "7", "--seed", "42", "--json"])
    dice = json.loads(cli.stdout)["dice"]
    logged = door.store.read(lambda gw: chronicle_events(gw, "default", kind="roll"))[0].data["roll"]["dice"]
    assert logged == dice
    assert " ".join(str(d) for d in dice) == answer["data"]["embeds"][0]["description"].splitlines()[1].replace(
        "*", ""
    ).replace("~", "").replace("_", "")


def test_a_player_may_not_seed(door):
    _claim(door, PLAYER, "Weston")
    answer = door(command("roll", PLAYER, pool="5", seed=1)).json()
    assert answer["data"]["flags"] == 64 and "seed" in answer["data"]["content"]


def test_secret_rolls_are_ephemeral_and_secret_events(door):
    _claim(door, STORYTELLER, "storyteller")
    _claim(door, PLAYER, "Weston")
    st = door(command("roll", STORYTELLER, pool="4", secret=True)).json()
    assert st["data"]["flags"] == 64 and st["data"]["embeds"] and "components" not in st["data"]
    blind = door(command("roll", PLAYER, pool="Wits + Brawl", secret=True)).json()
    assert blind["data"]["flags"] == 64 and "embeds" not in blind["data"]
    assert "Storyteller sees" in blind["data"]["content"]
    events = door.store.read(lambda gw: chronicle_events(gw, "default", kind="roll"))
    assert [e.secret for e in events] == [True, True]
    refused = door(command("roll", PLAYER, pool="Wits", secret=True, willpower=True)).json()
    assert refused["data"]["flags"] == 64 and "Willpower" in refused["data"]["content"]


def _brute_success(pool: int, difficulty: int) -> Fraction:
    good = 0
    for faces in itertools.product(range(1, 11), repeat=pool):
        hits = sum(f >= difficulty for f in faces)
        ones = sum(f == 1 for f in faces)
        good += hits - ones > 0
    return Fraction(good, 10**pool)


def test_odds_are_exact(door):
    answer = door(command("odds", STRANGER, pool="3", difficulty=7)).json()
    p = _brute_success(3, 7)
    assert f"Success {float(p) * 100:.1f}%" in answer["data"]["content"]


def test_autocomplete_offers_the_sheet_traits_and_characters(door):
    _claim(door, STORYTELLER, "storyteller")
    payload = command("roll", STORYTELLER, pool="Dexterity + Br")
    payload["type"] = 4
    payload["data"]["options"][0]["focused"] = True
    answer = door(payload).json()
    assert answer["type"] == 8
    assert {"name": "Dexterity + Brawl", "value": "Dexterity + Brawl"} in answer["data"]["choices"]
    payload = command("roll", STORYTELLER, pool="5", character="we")
    payload["type"] = 4
    payload["data"]["options"][1]["focused"] = True
    assert door(payload).json()["data"]["choices"] == [{"name": "Weston", "value": "Weston"}]


def test_a_claimed_player_rolls_at_the_chronicles_difficulty_unless_the_house_allows_their_own(door):
    from stkit.store.house import set_house_rule

    _claim(door, PLAYER, "Weston")
    first = door(command("roll", PLAYER, pool="Dexterity + Brawl", difficulty=8)).json()
    assert "difficulty 6" in first["data"]["embeds"][0]["description"]  # the Storyteller sets it
    StoreHandle(None).run(lambda gw: set_house_rule(gw, "default", "player-difficulty", "yes"))
    mine = door(command("roll", PLAYER, pool="Dexterity + Brawl", difficulty=8)).json()
    assert "difficulty 8" in mine["data"]["embeds"][0]["description"]


def test_buttons_roll_again_for_the_roller_only(door):
    from stkit.store.house import set_house_rule

    StoreHandle(None).run(lambda gw: set_house_rule(gw, "default", "player-difficulty", "yes"))
    _claim(door, PLAYER, "Weston")
    first = door(command("roll", PLAYER, pool="Dexterity + Brawl", difficulty=8)).json()
    again_id = first["data"]["components"][0]["components"][1]["custom_id"]
    click = command("roll", PLAYER)
    click["type"] = 3
    click["data"] = {"custom_id": again_id, "component_type": 2}
    again = door(click).json()
    assert again["type"] == 4 and "difficulty 8" in again["data"]["embeds"][0]["description"]
    click["member"]["user"]["id"] = STRANGER
    click["id"] = str(next(_ids))
    refused = door(click).json()
    assert refused["data"]["flags"] == 64 and "not yours" in refused["data"]["content"]
    wp = dict(click, id=str(next(_ids)), data={"custom_id": again_id.replace("again", "wp"), "component_type": 2})
    wp["member"] = {"user": {"id": PLAYER}}
    spent = door(wp).json()
    assert "Willpower left: 2" in spent["data"]["embeds"][0]["description"]
    odds = dict(wp, id=str(next(_ids)), data={"custom_id": again_id.replace("again", "odds"), "component_type": 2})
    assert "Success" in door(odds).json()["data"]["content"]


HOSTILE = [
    "@everyone",
    "<@&1234> hi",
    "**bold** __u__ ~~s~~ `code` ||spoiler||",
    "x" * 201,
    "a\u0000b",
    "\u202eevil",
    "1" * 30,
    "Dexterity + " * 20,
    "",
    " ",
    "-5",
    "0",
    "1001",
]


@pytest.mark.parametrize("name", ["roll", "odds", "saved", "extended", "claim"])
def test_hostile_option_values_get_a_reply_never_an_error(door, name):
    _claim(door, PLAYER, "Weston")
    field = {"roll": "pool", "odds": "pool", "saved": "name", "extended": "action", "claim": "code"}[name]
    for value in HOSTILE:
        for user in (PLAYER, STRANGER):
            answer = door(command(name, user, **{field: value}))
            assert answer.status_code == 200, (value, answer.text)
            data = answer.json()["data"]
            assert check_limits(data | {"allowed_mentions": {"parse": []}}) == [], value
            text = data.get("content", "") + json.dumps(data.get("embeds", []))
            assert not re.search(r"(?<!\\)@everyone|(?<!\\)<(?!\\@)", text) and "\u202e" not in text
    for bad in ({"name": "difficulty", "type": 4, "value": 99}, {"name": "pool", "type": 4, "value": "x"}):
        payload = command(name, PLAYER)
        payload["data"]["options"] = [bad]
        assert door(payload).json()["data"]["flags"] == 64


def _cli(*args: str) -> str:
    result = CliRunner().invoke(cli_app, list(args), env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_saved_extended_and_initiative(door):
    _claim(door, PLAYER, "Weston")
    _claim(door, STORYTELLER, "storyteller")
    _cli("saved", "add", "claws", "Dexterity + Brawl", "-c", "Weston", "-d", "7")
    saved = door(command("saved", PLAYER, name="claws")).json()
    assert saved["data"]["embeds"][0]["title"] == "Weston: claws"
    assert "difficulty 7" in saved["data"]["embeds"][0]["description"]
    typed = command("saved", PLAYER, name="cl")
    typed["type"] = 4
    typed["data"]["options"][0]["focused"] = True
    assert door(typed).json()["data"]["choices"][0]["value"] == "claws"
    stranger = door(command("saved", STRANGER, name="claws")).json()
    assert stranger["data"]["flags"] == 64 and "claim" in stranger["data"]["content"]

    _cli("extended", "start", "Track the spoor", "--char", "Weston", "--pool", "Wits + Brawl", "--target", "30")
    shown = door(command("extended", PLAYER, action="Track the spoor")).json()
    assert shown["data"]["content"].startswith("**Track the spoor**: 0 of 30 successes after 0 rolls (open)")
    rolled = door(command("extended", PLAYER, action="Track the spoor", roll=True)).json()
    assert "after 1 roll (open)" in rolled["data"]["content"]
    status = json.loads(_cli("extended", "status", "Track the spoor", "--json"))
    assert status["rolls"] == 1 and f"{status['tally']} of 30" in rolled["data"]["content"]

    _cli("scene", "start", "Ambush")
    _cli("roll", "Dexterity", "-c", "Weston")
    refused = door(command("init", PLAYER)).json()
    assert refused["data"]["flags"] == 64
    order = door(command("init", STORYTELLER)).json()
    assert order["data"]["content"].startswith("**Initiative**\n1. Weston: ")


PLAUSIBLE = st.sampled_from(["Dexterity + Brawl", "Wits", "1", "Weston", "we", "5 + 5", "3"])
HOSTILE_TEXT = st.one_of(PLAUSIBLE, PLAUSIBLE, PLAUSIBLE, st.sampled_from(HOSTILE), st.text(max_size=250))
SMALL_OR_HUGE = st.one_of(st.integers(2, 10), st.integers(0, 12), st.integers(-(2**60), 2**60))
ANY_VALUE = st.one_of(HOSTILE_TEXT, st.integers(-(2**60), 2**60), st.booleans(), st.floats(allow_nan=True))


@st.composite
def hostile_interactions(draw):
    from stkit.discord.commands import COMMANDS

    definition = draw(st.sampled_from(COMMANDS))
    options = []
    for option in definition["options"]:
        if draw(st.integers(0, 9)) < (9 if option.get("required") else 2):
            kind = option["type"] if draw(st.integers(0, 9)) else draw(st.sampled_from([3, 4, 5, 6, 10]))
            value = draw({3: HOSTILE_TEXT, 4: SMALL_OR_HUGE, 5: st.booleans()}.get(kind, ANY_VALUE))
            if draw(st.integers(0, 9)) == 0:
                value = draw(ANY_VALUE)
            options.append({"name": option["name"], "type": kind, "value": value})
    payload = command(definition["name"], draw(st.sampled_from([PLAYER, STORYTELLER, STRANGER])))
    payload["data"]["options"] = options
    payload["type"] = draw(st.sampled_from([2, 2, 2, 4]))
    if payload["type"] == 4 and options:
        options[draw(st.integers(0, len(options) - 1))]["focused"] = True
    return payload


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=hostile_interactions())
def test_a_generated_hostile_sweep_over_every_commands_options(door, monkeypatch, payload):
    from stkit.discord.interactions import UserLimiter

    monkeypatch.setattr(UserLimiter, "take", lambda self, user: True)  # the sweep, not the limit, is under test
    if not getattr(door, "claimed", False):
        _claim(door, PLAYER, "Weston")
        _claim(door, STORYTELLER, "storyteller")
        door.claimed = True  # type: ignore[attr-defined]
    answer = door(payload)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["type"] in (4, 8)
    data = body["data"]
    if body["type"] == 8:
        assert len(data["choices"]) <= 25 and all(1 <= len(c["name"]) <= 100 for c in data["choices"])
        return
    assert check_limits(data | {"allowed_mentions": {"parse": []}}) == []
    event("rolled" if data.get("embeds") else "refused" if data.get("flags") == 64 else "answered")
    assert data["allowed_mentions"] == {"parse": []}
    text = data.get("content", "") + json.dumps(data.get("embeds", []))
    assert not re.search(r"(?<!\\)@(everyone|here)", text) and "\u202e" not in text


def test_a_defect_is_one_line_not_a_failed_interaction(door, monkeypatch):
    import stkit.discord.interactions as interactions

    def broken(*args, **kwargs):
        raise RuntimeError("boom <@&1>")

    monkeypatch.setattr(interactions, "_roll", broken)
    answer = door(command("roll", STRANGER, pool="3"))
    assert answer.status_code == 200
    assert answer.json()["data"]["content"].startswith("internal error") and "boom" not in answer.text


def test_a_button_on_a_large_message_is_read(door):
    first = door(command("roll", STRANGER, pool="3")).json()
    click = command("roll", STRANGER)
    click["type"] = 3
    click["data"] = {"custom_id": first["data"]["components"][0]["components"][0]["custom_id"], "component_type": 2}
    click["message"] = {"id": "1", "content": "é" * 2000, "embeds": [{"description": "\\u2603" * 4000}]}
    body = json.dumps(click).encode()
    assert len(body) > 16 * 1024
    answer = door(body)
    assert answer.status_code == 200 and "Success" in answer.json()["data"]["content"]


def test_a_bound_channel_acts_on_its_chronicle(door):
    assert "is bound to Sept" in _cli("discord", "bind", "channel:555555555555555555", "--chronicle", "Sept")
    door(command("roll", STRANGER, pool="2"))
    assert [e.chronicle for e in door.store.read(lambda gw: chronicle_events(gw, "Sept", kind="roll"))] == ["Sept"]
    assert door.store.read(lambda gw: chronicle_events(gw, "default", kind="roll")) == []
    elsewhere = command("roll", STRANGER, pool="2")
    elsewhere["channel_id"] = "666666666666666666"
    door(elsewhere)
    assert len(door.store.read(lambda gw: chronicle_events(gw, "default", kind="roll"))) == 1


DOCS_EXAMPLE = Path(__file__).parent / "data" / "slash_command_interaction.json"


def test_discords_own_example_interaction(door):
    example = json.loads(DOCS_EXAMPLE.read_text())
    answer = door(example).json()  # /cardsearch is not ours: one ephemeral line
    assert answer["type"] == 4 and answer["data"]["flags"] == 64
    assert answer["data"]["content"] == "/cardsearch is not a command of this app"
    example["id"] = str(int(example["id"]) + 1)  # another interaction: the same id is a replay
    example["data"] = {"type": 1, "name": "roll", "id": "1", "options": [{"type": 3, "name": "pool", "value": "4"}]}
    rolled = door(example).json()
    assert rolled["type"] == 4 and rolled["data"]["embeds"][0]["title"] == "4 dice"
