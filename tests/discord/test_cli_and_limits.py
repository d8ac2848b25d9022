"""`stkit discord` as a user runs it (in-process and as a real process), whispers only at the Storyteller's
hook, failures reported once a minute, and the per-user limit on interactions."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.discord.interactions import UserLimiter
from stkit.discord.webhook import Follower
from stkit.store.db.handle import StoreHandle
from stkit.store.table.discord_feed import set_setting
from stkit.store.table.talk import whisper
from tests.discord.receiver import Receiver
from tests.waiting import DEADLINE

runner = CliRunner()


def stkit(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})


def test_set_show_unset_and_refusals(db_url):
    done = stkit("discord", "set", "webhook", "https://discord.com/api/webhooks/42/SECRETTOKEN", "--json")
    assert done.exit_code == 0 and json.loads(done.stdout)["value"] == "https://discord.com/api/webhooks/42/****"
    shown = stkit("discord", "show", "--json")
    assert "SECRETTOKEN" not in shown.stdout and json.loads(shown.stdout)["feeds"][0]["audience"] == "public"
    assert stkit("discord", "unset", "webhook").exit_code == 0
    again = stkit("discord", "unset", "webhook")
    assert again.exit_code == 1 and again.output.startswith("Error: webhook is not set")
    for args in (
        ("set", "nonsense", "x"),
        ("set", "application-id", "12ab"),
        ("bind", "server:1"),
        ("set", "webhook", "ftp://x"),
    ):
        bad = stkit("discord", *args)
        assert bad.exit_code == 1 and len(bad.output.strip().splitlines()) == 1, bad.output
    assert stkit("discord", "bind", "channel:123", "--chronicle", "Sept").stdout == "channel:123 is bound to Sept\n"


def test_a_real_process(db_url, tmp_path):
    env = dict(os.environ, NO_COLOR="1")
    run = subprocess.run(
        [sys.executable, "-m", "stkit", "discord", "set", "storyteller-webhook", "http://127.0.0.1:9/st", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["warning"].startswith("storyteller-webhook http://127.0.0.1:9/**** is not a Discord")
    bad = subprocess.run(
        [sys.executable, "-m", "stkit", "discord", "set", "public-key", "xyz"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 1 and "Traceback" not in bad.stderr and "64 hex digits" in bad.stderr


def test_whispers_reach_only_the_storyteller_hook(db_url, receiver):
    assert stkit("char", "new", "Ana").exit_code == 0
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    store.run(lambda gw: set_setting(gw, "default", "storyteller-webhook", receiver.url("/hook/st")))
    store.run(lambda gw: whisper(gw, "default", "Ana", "the wyrm is near @everyone"))
    stkit("roll", "3", "--log")
    follower = Follower(store, "default", poll=0.01).start()
    try:
        st = receiver.wait_for("/hook/st", 1)
        public = receiver.wait_for("/hook/public", 1)
    finally:
        follower.stop()
    assert "whisper to Ana" in st[0]["content"] and "\\@everyone" in st[0]["content"]
    assert all("wyrm" not in json.dumps(b) for b in public)


def test_failures_are_reported_once_a_minute_and_the_feed_waits(db_url):
    failing = Receiver(script=[500] * 6)
    try:
        store = StoreHandle(None)
        store.run(lambda gw: set_setting(gw, "default", "webhook", failing.url("/hook/public")))
        stkit("roll", "3", "--log")
        reports: list[str] = []
        follower = Follower(store, "default", poll=0.01, backoff=0.001, max_backoff=0.002, report=reports.append)
        follower.start()
        try:
            got = failing.wait_for("/hook/public", 1)
        finally:
            follower.stop()
        assert len(got) == 1 and len(failing.refused) == 6
        assert reports[0].endswith("posting failed: failed (500); retrying in 0.0 s") or "failed (500)" in reports[0]
        assert len([r for r in reports if "failed" in r]) == 1 and reports[-1].endswith("posting again")
    finally:
        failing.close()


def test_each_user_gets_a_burst_then_one_a_second():
    limiter = UserLimiter(burst=5, per_second=1.0)
    assert [limiter.take("1") for _ in range(6)] == [True] * 5 + [False]
    assert limiter.take("2")


def test_follow_posts_as_a_process_and_ctrl_c_ends_it(db_url, receiver):
    import signal

    StoreHandle(None).run(lambda gw: set_setting(gw, "default", "webhook", receiver.url("/hook/public")))
    proc = subprocess.Popen(
        [sys.executable, "-m", "stkit", "discord", "follow", "--poll", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, NO_COLOR="1"),
    )
    try:
        assert proc.stderr is not None and proc.stderr.readline().startswith("Following default")
        stkit("roll", "5", "--log")
        assert len(receiver.wait_for("/hook/public", 1)) == 1
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=DEADLINE)
    assert "Traceback" not in err and proc.returncode == 130
