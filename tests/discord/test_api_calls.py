"""What the door sends to Discord's own API, against a loopback stand-in: the commands written with one
PUT (the token sent, never printed or stored), and a slow answer deferred then put in place."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.discord.commands import COMMANDS, check_definitions
from tests.discord.test_interactions import signed
from tests.waiting import DEADLINE


class FakeDiscord:
    """Records (method, path, headers, body); answers a PUT of commands with them, anything else 200 {}."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict, object]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                is_json = "json" in (self.headers.get("Content-Type") or "")
                body = json.loads(raw or b"null") if is_json else raw.decode()
                owner.calls.append((self.command, self.path, dict(self.headers), body))
                answer = {"access_token": "BEARER-1", "token_type": "Bearer"} if self.path.endswith("/token") else {}
                data = json.dumps(body if self.command == "PUT" else answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_PUT = do_PATCH = do_POST = _any

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/api/v10"


@pytest.fixture
def fake():
    f = FakeDiscord()
    yield f
    f.server.shutdown()
    f.server.server_close()


def test_the_definitions_keep_discords_rules():
    assert check_definitions(COMMANDS) == []
    assert {c["name"] for c in COMMANDS} == {"roll", "odds", "claim", "saved", "extended", "init"}
    assert all(c["integration_types"] == [0, 1] for c in COMMANDS)


def test_register_is_one_put_and_the_token_stays_secret(db_url, fake, monkeypatch, tmp_path):
    monkeypatch.setenv("STKIT_DISCORD_API", fake.base)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "SECRET-TOKEN-123")
    result = CliRunner().invoke(app, ["discord", "register", "--application-id", "123456789012345678"])
    assert result.exit_code == 0, result.output
    assert [(m, p) for m, p, _, _ in fake.calls] == [("PUT", "/api/v10/applications/123456789012345678/commands")]
    assert fake.calls[0][2]["Authorization"] == "Bot SECRET-TOKEN-123"
    assert fake.calls[0][3] == COMMANDS
    assert "SECRET-TOKEN-123" not in result.output and "/roll" in result.output
    store_file = os.environ["STKIT_DATABASE_URL"].removeprefix("sqlite:///")
    if os.path.exists(store_file):
        assert b"SECRET-TOKEN-123" not in Path(store_file).read_bytes()


def test_register_with_client_credentials(db_url, fake, monkeypatch):
    monkeypatch.setenv("STKIT_DISCORD_API", fake.base)
    monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "CLIENT-SECRET-9")
    result = CliRunner().invoke(app, ["discord", "register", "--application-id", "42", "--json"])
    assert result.exit_code == 0, result.output
    (m1, p1, h1, _), (m2, p2, h2, body) = fake.calls
    assert (m1, p1, m2, p2) == ("POST", "/api/v10/oauth2/token", "PUT", "/api/v10/applications/42/commands")
    assert h1["Authorization"] == "Basic " + base64.b64encode(b"42:CLIENT-SECRET-9").decode()
    assert h2["Authorization"] == "Bearer BEARER-1" and "client_credentials" in fake.calls[0][3]
    assert body == COMMANDS and "CLIENT-SECRET-9" not in result.output


def test_register_without_a_token_says_how_to_give_one(db_url, monkeypatch):
    monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_CLIENT_SECRET", raising=False)
    result = CliRunner().invoke(app, ["discord", "register", "--application-id", "1"])
    assert result.exit_code == 1 and "DISCORD_BOT_TOKEN" in result.output


def test_a_slow_answer_is_deferred_then_put_in_place(db_url, fake, monkeypatch):
    import stkit.discord.interactions as interactions
    import stkit.discord.router as router
    from stkit.store.db.handle import StoreHandle
    from stkit.store.table.discord_feed import set_setting
    from stkit.web.app import create_app

    monkeypatch.setenv("STKIT_DISCORD_API", fake.base)
    monkeypatch.setattr(router, "DEFER_AFTER", 0.05)
    real = interactions._odds
    deferred = threading.Event()

    def slow(*args, **kwargs):  # done only once the deferral has been answered: slow on any machine
        assert deferred.wait(DEADLINE), "the answer was not deferred"
        return real(*args, **kwargs)

    monkeypatch.setattr(interactions, "_odds", slow)
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    StoreHandle(None).run(lambda gw: set_setting(gw, "default", "public-key", public))
    payload = {
        "id": "7",
        "application_id": "123456789012345678",
        "type": 2,
        "token": "tok-abc",
        "version": 1,
        "user": {"id": "42"},
        "data": {"name": "odds", "type": 1, "options": [{"name": "pool", "type": 3, "value": "4"}]},
    }
    raw = json.dumps(payload).encode()
    headers = signed(raw, key=key)

    async def go():
        transport = httpx.ASGITransport(app=create_app(db_url))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            first = await client.post("/discord/interactions", content=raw, headers=headers)
            deferred.set()
            end = time.monotonic() + DEADLINE
            while not fake.calls and time.monotonic() < end:
                await asyncio.sleep(0.02)
            return first

    first = asyncio.run(go())
    assert first.json() == {"type": 5, "data": {"flags": 64}}
    method, path, _, body = fake.calls[0]
    assert (method, path) == ("PATCH", "/api/v10/webhooks/123456789012345678/tok-abc/messages/@original")
    assert "Success" in body["content"] and body["allowed_mentions"] == {"parse": []}
