"""docs/discord.md as a Storyteller follows it: the console examples print what the page shows, then a
roll made from the command line reaches a loopback webhook and a signed /roll gets its answer."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.discord.test_interactions import signed

PAGE = Path(__file__).resolve().parents[2] / "docs" / "discord.md"
runner = CliRunner()


def stkit(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout


def console_steps() -> list[tuple[list[str], list[str]]]:
    """(arguments, output lines shown) of each `$ stkit discord ...` line of the page's console blocks
    (register, which needs Discord, left out)."""
    steps: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", PAGE.read_text(), re.S):
        for line in block.strip().splitlines():
            line = line.strip()
            if line.startswith("$ "):
                words = shlex.split(line[2:])
                steps.append((words[1:] if words[0] == "stkit" else [], []))
            elif steps:
                steps[-1][1].append(line)
    return [(args, shown) for args, shown in steps if args[:2] != ["discord", "register"] and args]


def test_the_page_from_the_portal_to_a_first_roll(db_url, receiver):
    steps = console_steps()
    assert [s[0][:2] for s in steps][:3] == [["discord", "set"]] * 2 + [["discord", "show"]]
    for args, shown in steps:
        out = stkit(*args)
        for line in shown:
            if line != "...":
                assert line in out, (args, line, out)
    # the feed: any http(s) URL is taken, a loopback receiver here
    stkit("discord", "set", "webhook", receiver.url("/api/webhooks/1/doc"))
    rolled = json.loads(stkit("roll", "6", "--log", "--seed", "7", "--json"))
    assert "Posted 1 message for" in stkit("discord", "follow", "--once")
    body = receiver.wait_for("/api/webhooks/1/doc", 1)[0]
    dice_line = body["embeds"][0]["description"].splitlines()[1]
    assert re.sub(r"[*_~]", "", dice_line).split() == [str(d) for d in rolled["dice"]]
    # the commands: the portal's public key, a claim-free bare /roll, signed
    key = Ed25519PrivateKey.generate()
    stkit("discord", "set", "public-key", key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
    from stkit.web.app import create_app

    payload = {
        "id": "1",
        "application_id": "123456789012345678",
        "type": 2,
        "token": "t",
        "version": 1,
        "user": {"id": "42"},
        "data": {"id": "1", "name": "roll", "type": 1, "options": [{"name": "pool", "type": 3, "value": "4"}]},
    }
    raw = json.dumps(payload).encode()
    headers = signed(raw, key=key)

    async def go():
        transport = httpx.ASGITransport(app=create_app(db_url))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post("/discord/interactions", content=raw, headers=headers)

    answer = asyncio.run(go())
    assert answer.status_code == 200 and answer.json()["type"] == 4
    assert "4 dice, difficulty 6" in answer.json()["data"]["embeds"][0]["description"]
