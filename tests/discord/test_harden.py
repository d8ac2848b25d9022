"""The Discord table under attack: who may press a roll's buttons, 429s with nonsense waits, bodies of the
wrong shape, the name a guest's roll is posted under, slow servers, replays and double escapes. Real signed
payloads (tests.discord.test_interactions' key) and real loopback servers."""

from __future__ import annotations

import json
import math

import httpx
import pytest
from typer.testing import CliRunner

from stkit.cli.app import app as cli_app
from stkit.discord import webhook
from stkit.discord.commands import register
from stkit.discord.interactions import NOT_YOURS
from stkit.discord.webhook import MAX_RETRY_AFTER, MIN_RETRY_AFTER, Follower, _retry_after
from stkit.errors import InvalidValue, StkitError
from stkit.store.db.handle import StoreHandle
from stkit.store.table.discord_feed import check_setting, set_setting
from stkit.store.table.events import events_after
from tests.discord.receiver import Receiver
from tests.discord.test_interactions import (
    PLAYER,
    STORYTELLER,
    STRANGER,
    _claim,
    _ids,
    command,
    signed,
)
from tests.discord.test_interactions import door as door  # the fixture, used by table's
from tests.drip import Dripper, ends_within

OTHER = "666666666666666666"


@pytest.fixture
def table(door):
    """test_interactions' door: post a payload (signed) to the table server's app."""
    return door


def _cli_json(*args: str) -> dict:
    result = CliRunner().invoke(cli_app, [*args, "--json"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def press(table, user: str, custom_id: str) -> dict:
    click = command("roll", user)
    click["type"] = 3
    click["data"] = {"custom_id": custom_id, "component_type": 2}
    answer = table(click)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _refused(answer: dict) -> bool:
    return answer["type"] == 4 and answer["data"].get("content") == NOT_YOURS and answer["data"]["flags"] == 64


def _events(store: StoreHandle) -> int:
    return len(store.read(lambda gw: events_after(gw, "default", 0, include_secret=True)))


# ------------------------------------------------------------------------------------------------ 1. buttons


def test_a_secret_bare_pool_is_the_storytellers_alone(table):
    log_id = _cli_json("roll", "7", "--difficulty", "9", "--secret")["log_id"]
    before = _events(table.store)
    for user in (STRANGER, PLAYER):
        for action in ("odds", "again", "wp"):
            answer = press(table, user, f"{action}:{log_id}")
            assert _refused(answer), answer
            assert "7 dice" not in json.dumps(answer)
    _claim(table, PLAYER, "Weston")  # a claimed player may not either
    assert _refused(press(table, PLAYER, f"again:{log_id}"))
    assert _events(table.store) == before  # nothing re-rolled
    _claim(table, STORYTELLER, "storyteller")
    odds = press(table, STORYTELLER, f"odds:{log_id}")
    assert odds["data"]["content"].startswith("**7 dice**, difficulty 9")


def test_a_bare_pool_from_discord_is_its_rollers_and_the_storytellers(table):
    first = table(command("roll", STRANGER, pool="5", difficulty=7)).json()
    again_id = first["data"]["components"][0]["components"][1]["custom_id"]
    assert _refused(press(table, OTHER, again_id))
    assert _refused(press(table, OTHER, again_id.replace("again", "odds")))
    mine = press(table, STRANGER, again_id)
    assert "5 dice, difficulty 7" in mine["data"]["embeds"][0]["description"]
    # the re-roll is the roller's too
    next_id = mine["data"]["components"][0]["components"][1]["custom_id"]
    assert next_id != again_id and _refused(press(table, OTHER, next_id))
    _claim(table, STORYTELLER, "storyteller")
    assert "5 dice" in press(table, STORYTELLER, again_id.replace("again", "odds"))["data"]["content"]
    # a roll of the command line (no Discord user) is the Storyteller's only
    cli_roll = _cli_json("roll", "4", "--log")["log_id"]
    assert _refused(press(table, STRANGER, f"again:{cli_roll}"))


def test_every_refusal_is_the_same_line(table, db_url):
    from tests.web.conftest import add_character

    add_character(db_url, "Elsewhere", chronicle="other")
    other_id = _cli_json("roll", "3", "--chronicle", "other", "--log")["log_id"]
    _claim(table, STORYTELLER, "storyteller")
    answers = [
        press(table, STORYTELLER, f"odds:{other_id}"),  # another chronicle's, even for the Storyteller
        press(table, STRANGER, "odds:999999"),  # no such roll
        press(table, STRANGER, f"odds:{_cli_json('roll', '4', '--log')['log_id']}"),  # someone else's
    ]
    assert all(_refused(a) for a in answers), answers
    assert len({json.dumps(a, sort_keys=True) for a in answers}) == 1


# ------------------------------------------------------------------------------------------------ 2. 429s


def _response(body: bytes, header: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json"} | ({"Retry-After": header} if header else {})
    return httpx.Response(429, content=body, headers=headers)


@pytest.mark.parametrize(
    "body, header, expected",
    [
        (b'{"retry_after": NaN}', None, 1.0),
        (b'{"retry_after": Infinity}', "NaN", 1.0),
        (b'{"retry_after": -5}', None, MIN_RETRY_AFTER),
        (b'{"retry_after": 1e308}', None, MAX_RETRY_AFTER),
        (b'{"retry_after": 1e400}', None, 1.0),
        (b'{"retry_after": "soon"}', "7", 7.0),
        (b'{"retry_after": true}', "-3", MIN_RETRY_AFTER),
        (b'{"retry_after": 2.5}', None, 2.5),
        (b"not json", "inf", 1.0),
        (b"[]", "100000", MAX_RETRY_AFTER),
    ],
)
def test_retry_after_is_a_sane_bounded_wait(body, header, expected):
    got = _retry_after(_response(body, header))
    assert math.isfinite(got) and MIN_RETRY_AFTER <= got <= MAX_RETRY_AFTER == 60.0
    assert got == expected


def test_a_nan_retry_after_neither_kills_the_follower_nor_hammers(db_url):
    receiver = Receiver(script=[429, 429], retry_after=float("nan"))  # json.dumps writes NaN
    try:
        store = StoreHandle(None)
        store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
        _cli_json("roll", "5", "--log")
        reports: list[str] = []
        follower = Follower(store, "default", poll=0.01, backoff=0.01, report=reports.append).start()
        try:
            got = receiver.wait_for("/hook/public", 1)
            assert follower._thread is not None and follower._thread.is_alive()
        finally:
            follower.stop()
        assert len(got) == 1 and [s for _, s in receiver.refused] == [429, 429]
    finally:
        receiver.close()


def test_follow_once_survives_a_nan_429(db_url):
    receiver = Receiver(script=[429], retry_after=float("nan"))
    try:
        store = StoreHandle(None)
        store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
        _cli_json("roll", "5", "--log")
        done = _cli_json("discord", "follow", "--once")
        assert done["posted"] == 1 and len(receiver.bodies("/hook/public")) == 1
    finally:
        receiver.close()


def test_the_follower_loop_outlives_a_defect(db_url, receiver):
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    _cli_json("roll", "5", "--log")
    reports: list[str] = []
    follower = Follower(store, "default", poll=0.01, backoff=0.01, report=reports.append)
    real, calls = follower.step, []

    def flaky() -> int:
        calls.append(1)
        if len(calls) <= 2:
            raise ValueError("cannot convert float NaN to integer")
        return real()

    follower.step = flaky  # type: ignore[method-assign]
    follower.start()
    try:
        receiver.wait_for("/hook/public", 1)
        assert follower._thread is not None and follower._thread.is_alive()
    finally:
        follower.stop()
    assert len([r for r in reports if "ValueError" in r]) == 1  # reported once a minute, not each time


# ------------------------------------------------------------------------------------------------ 3. shapes


@pytest.mark.parametrize(
    "change",
    [
        {"member": "x"},
        {"member": [1]},
        {"member": {"user": "123"}},
        {"user": "123"},
        {"data": "roll"},
        {"channel": "x"},
        {"channel": {"id": 5}},
        {"type": "2"},
        {"type": 99},
        {"type": True},
        {"guild_id": 444},
        {"data": {"name": "roll", "options": "pool"}},
        {"data": {"name": ["roll"]}},
    ],
)
def test_a_body_of_the_wrong_shape_is_a_400_line(table, change):
    payload = command("roll", STRANGER, pool="5")
    payload.pop("member")
    payload["user"] = {"id": STRANGER}
    payload |= change
    answer = table(payload)
    assert answer.status_code == 400, answer.text
    assert answer.text.startswith("not an interaction: ") and answer.text.count("\n") == 1


# ------------------------------------------------------------------------------------------------ 4. names


@pytest.mark.parametrize(
    "member, name",
    [
        ({"nick": "Bob the *Bold*"}, "Bob the Bold (guest)"),
        ({"user": {"global_name": "@everyone"}}, "Player (guest)"),
        ({"user": {"username": "discordfan"}}, "Player (guest)"),
        ({"nick": "Storyteller"}, "Player (guest)"),
        ({"nick": "here"}, "Player (guest)"),
        ({}, "Player (guest)"),
        ({"nick": "x" * 90}, "x" * 32 + " (guest)"),
    ],
)
def test_a_guests_roll_is_posted_under_their_name(table, member, name):
    store = table.store
    receiver = Receiver()
    try:
        store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
        Follower(store, "default").step()  # the feed starts at the newest event
        payload = command("roll", STRANGER, pool="5")
        payload["member"] = {"roles": []} | {k: v for k, v in member.items() if k != "user"}
        payload["member"]["user"] = {"id": STRANGER, "username": "u"} | member.get("user", {})
        if "username" not in member.get("user", {}):
            payload["member"]["user"].pop("username")
        assert table(payload).status_code == 200
        _claim(table, PLAYER, "Weston")
        table(command("roll", PLAYER, pool="3"))  # a player's bare pool: their character's name
        _claim(table, STORYTELLER, "storyteller")
        table(command("roll", STORYTELLER, pool="2"))
        follower = Follower(store, "default")
        while follower.step():
            pass
        follower.close()
        names = [b["username"] for b in receiver.bodies("/hook/public")]
        assert names == [name, "Weston", "Storyteller"]
    finally:
        receiver.close()


# ------------------------------------------------------------------------------------------------ 5. slow servers


@pytest.fixture
def dripper():
    d = Dripper()
    yield d
    d.close()


def test_register_has_a_total_deadline(dripper):
    kind, found = ends_within(lambda: register("123", "token", api=dripper.url, timeout=1.0))
    assert kind == "raised" and isinstance(found, StkitError)
    assert str(found) == "Discord could not be reached (no complete answer within 1 s)"


def test_a_webhook_post_has_a_total_deadline(dripper, monkeypatch):
    monkeypatch.setattr(webhook, "POST_TIMEOUT", 1.0)
    client = webhook.make_client()
    kind, found = ends_within(lambda: webhook.post(client, dripper.url + "/api/webhooks/1/x", {"content": "x"}))
    assert kind == "ok" and not found.ok and not found.skip and "within 1 s" in found.reason
    assert client.is_closed


# ------------------------------------------------------------------------------------------------ 6. the rest


def test_a_replayed_interaction_is_answered_once(table):
    body = json.dumps(command("roll", STRANGER, pool="5")).encode()
    headers = signed(body)
    before = _events(table.store)
    assert table(body, headers).status_code == 200
    again = table(body, headers)
    assert again.status_code == 409 and again.text == "this interaction was already received\n"
    assert _events(table.store) == before + 1


@pytest.mark.parametrize("typed", ["%", "_", "W%", "_eston", "\\"])
def test_autocomplete_takes_wildcards_literally(table, typed):
    _claim(table, STORYTELLER, "storyteller")
    payload = command("roll", STORYTELLER, pool="5")
    payload["type"] = 4
    payload["data"]["options"] = [{"name": "character", "type": 3, "value": typed, "focused": True}]
    assert table(payload).json() == {"type": 8, "data": {"choices": []}}
    payload["id"] = str(next(_ids))
    payload["data"]["options"][0]["value"] = "W"
    assert table(payload).json()["data"]["choices"] == [{"name": "Weston", "value": "Weston"}]


def test_a_refusal_is_escaped_once(table):
    payload = command("roll", STRANGER)
    payload["data"]["options"] = [{"name": "@everyone", "type": 3, "value": "5"}]
    line = table(payload).json()["data"]["content"]
    assert line == "option \\@everyone is not one of this command's"
    payload = command("@here", STRANGER)
    assert table(payload).json()["data"]["content"] == "/\\@here is not a command of this app"


@pytest.mark.parametrize(
    "key, value",
    [("application-id", "0"), ("application-id", "0000"), ("public-key", "0" * 64), ("public-key", "01" + "0" * 62)],
)
def test_settings_that_can_never_work_are_refused(key, value):
    with pytest.raises(InvalidValue):
        check_setting(key, value)
    assert check_setting("application-id", "1")[0] == "1"


def test_follow_once_exits_1_when_the_webhook_did_not_take_the_events(db_url):
    """A webhook answering 500: `follow --once` says the events are still to post and exits 1 (it exited 0
    with "Posted 0 messages"), and the next run posts them."""
    receiver = Receiver(script=[500])
    try:
        store = StoreHandle(None)
        store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
        _cli_json("roll", "5", "--log")
        failed = CliRunner().invoke(cli_app, ["discord", "follow", "--once"], env={"NO_COLOR": "1"})
        assert failed.exit_code == 1, failed.output
        assert "public webhook did not take every event" in failed.output
        assert receiver.bodies("/hook/public") == []
        done = _cli_json("discord", "follow", "--once")
        assert done["posted"] == 1 and done["failing"] == [] and len(receiver.bodies("/hook/public")) == 1
    finally:
        receiver.close()
