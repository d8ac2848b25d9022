"""The feed out, against a real loopback webhook receiver: every event once and in order across a restart,
429 and 500 waited out, secrets only at the Storyteller's hook, every message within Discord's limits."""

from __future__ import annotations

import re

import pytest

from stkit.discord.render import check_limits
from stkit.discord.webhook import Follower
from stkit.store.db.handle import StoreHandle
from stkit.store.rolling import RollOrder, make_roll
from stkit.store.table.discord_feed import discord_settings, feed_positions, set_setting
from stkit.store.table.events import events_after
from stkit.store.table.talk import say
from tests.waiting import DEADLINE, wait_until


def _roll(store: StoreHandle, pool: str, seed: int, *, secret: bool = False, note: str | None = None) -> int:
    done = store.run(lambda gw: make_roll(gw, RollOrder(pool, seed=seed, secret=secret, log=True, note=note)))
    return done.log_id


def _log_ids(bodies: list[dict]) -> list[int]:
    ids = []
    for b in bodies:
        for e in b.get("embeds") or []:
            found = re.search(r"log #(\d+)", (e.get("footer") or {}).get("text", ""))
            if found:
                ids.append(int(found.group(1)))
    return ids


def _follower(store: StoreHandle, reports: list[str]) -> Follower:
    return Follower(store, "default", poll=0.01, backoff=0.01, max_backoff=0.05, report=reports.append, report_every=0)


def test_each_event_once_and_in_order_across_a_restart_with_429_and_500(db_url, receiver):
    receiver.script = [429, 500]
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    store.run(lambda gw: set_setting(gw, "default", "storyteller-webhook", receiver.url("/hook/st")))
    public, secret = [], []
    for i in range(12):
        if i % 4 == 3:
            secret.append(_roll(store, "4", i, secret=True))
        else:
            public.append(_roll(store, str(3 + i % 5), i, note="@everyone *look* <@123>"))
    store.run(lambda gw: say(gw, "default", "hello @here **bold**"))
    reports: list[str] = []
    first = _follower(store, reports).start()
    receiver.wait_for("/hook/public", 3)
    first.stop()
    assert first._thread is not None and not first._thread.is_alive()
    second = _follower(store, reports).start()
    try:
        got = receiver.wait_for("/hook/public", len(public) + 1)
        st = receiver.wait_for("/hook/st", len(secret))
        more = _roll(store, "6", 99)
        got = receiver.wait_for("/hook/public", len(public) + 2)
    finally:
        second.stop()
    assert _log_ids(got) == [*public, more]  # each once, in commit order, the restart in the middle
    assert got[len(public)]["content"] == "hello \\@here \\*\\*bold\\*\\*"
    assert _log_ids(st) == secret
    assert not set(_log_ids(got)) & set(secret)
    assert sorted(s for _, s in receiver.refused) == [429, 500]
    assert any("failed (500)" in r for r in reports)
    for body in got + st:
        assert check_limits(body) == []
        assert body["allowed_mentions"] == {"parse": []}
    positions = {p.audience: p for p in store.read(lambda gw: feed_positions(gw, "default"))}
    assert positions["public"].posted == len(public) + 2 and positions["storyteller"].posted == len(secret)
    newest = store.read(lambda gw: events_after(gw, "default", 0, include_secret=True))[-1].id
    assert positions["public"].last_event_id == newest


def test_a_webhook_set_later_starts_at_the_newest_event(db_url, receiver):
    store = StoreHandle(None)
    _roll(store, "5", 1)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    after = _roll(store, "5", 2)
    follower = _follower(store, []).start()
    try:
        assert _log_ids(receiver.wait_for("/hook/public", 1)) == [after]
    finally:
        follower.stop()


def test_two_followers_never_post_the_same_event(db_url, receiver):
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    ids = [_roll(store, "5", i) for i in range(8)]
    a, b = _follower(store, []).start(), _follower(store, []).start()
    try:
        got = receiver.wait_for("/hook/public", len(ids))
    finally:
        a.stop()
        b.stop()
    assert _log_ids(got) == ids


@pytest.mark.parametrize(
    ("url", "warned"),
    [("https://discord.com/api/webhooks/123/abc-DEF_9", False), ("http://127.0.0.1:9/x", True)],
)
def test_settings_are_masked_and_non_discord_urls_warned(db_url, url, warned):
    store = StoreHandle(None)
    change = store.run(lambda gw: set_setting(gw, "default", "webhook", url))
    assert (change.warning is not None) == warned
    shown = store.read(lambda gw: discord_settings(gw, "default")).to_dict()["webhook"]
    assert "abc-DEF_9" not in shown and "/x" not in shown and shown.endswith("****")


def test_an_attack_is_one_card(db_url, receiver):
    from typer.testing import CliRunner

    from stkit.cli.app import app

    runner = CliRunner()
    store = StoreHandle(None)
    for args in (
        ["char", "new", "Ana", "--set", "Dexterity=3", "--set", "Brawl=2", "--set", "Strength=3"],
        ["char", "new", "Bo", "--set", "Stamina=3"],
    ):
        assert runner.invoke(app, args).exit_code == 0
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    done = runner.invoke(
        app, ["attack", "Ana", "Bo", "-p", "Dexterity + Brawl", "--damage", "Strength + 1", "--soak", "--seed", "3"]
    )
    assert done.exit_code == 0, done.output
    after = _roll(store, "2", 1)
    follower = _follower(store, []).start()
    try:
        got = receiver.wait_for("/hook/public", 2)
    finally:
        follower.stop()
    card = got[0]
    assert [e["title"].split(" ·")[0] for e in card["embeds"]] == ["Attack", "Damage", "Soak"]
    assert card["username"] == "Ana" and card["content"].startswith("Bo takes 2 bashing")
    assert _log_ids(got) == [1, 2, 3, after]


def test_the_table_server_runs_the_follower(db_url, receiver):
    from fastapi.testclient import TestClient

    from stkit.web.app import create_app

    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    with TestClient(create_app(db_url), base_url="http://127.0.0.1"):
        rolled = _roll(store, "4", 11)
        assert _log_ids(receiver.wait_for("/hook/public", 1)) == [rolled]


def test_a_hanging_webhook_never_holds_a_roll(db_url):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    arrived, release = threading.Event(), threading.Event()
    bodies: list[dict] = []

    class Slow(BaseHTTPRequestHandler):
        def do_POST(self):
            import json

            bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            arrived.set()
            release.wait(DEADLINE)
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    store = StoreHandle(None)
    url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    store.run(lambda gw: set_setting(gw, "default", "webhook", url))
    first = _roll(store, "3", 1)
    follower = _follower(store, []).start()
    try:
        assert arrived.wait(DEADLINE)  # the first post is in flight, unanswered
        later = [_roll(store, "4", i) for i in range(2, 5)]  # rolls commit meanwhile
        assert store.read(lambda gw: len(events_after(gw, "default", 0, include_secret=True))) == 4
        release.set()
        wait_until(lambda: len(bodies) >= 4, "the four posts")
    finally:
        release.set()
        follower.stop()
        server.shutdown()
        server.server_close()
    assert _log_ids(bodies) == [first, *later]
