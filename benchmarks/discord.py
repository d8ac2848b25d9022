"""Speed of the Discord door, against Discord's own budget.

Run: python benchmarks/discord.py [--rolls 200] [--rounds 10]

1. Commit to webhook: a roll committed through the roll use case (`make_roll`, as `stkit roll --log`),
   until a real loopback webhook receiver (an HTTP server on 127.0.0.1) has the message, with the feed's
   follower as `stkit serve` runs it (its poll interval). One roll at a time, each after the previous arrived.
   Prints p50 and p95 in ms, and p95 as a ratio of the follower's poll interval.
2. The interaction handler: `stkit serve`'s app under uvicorn on 127.0.0.1, 20 signed `/roll` interactions
   sent at once (20 users, each claimed to a character), `--rounds` times. Prints p50, p99 and max in ms of
   each request's time, and p99 as a ratio of Discord's 3 s limit for the first answer (target: well under
   1).

A temporary SQLite store; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from stkit.discord.router import FOLLOWER_POLL as POLL


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


class Receiver:
    def __init__(self) -> None:
        self.arrivals: list[float] = []
        self.cond = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with owner.cond:
                    owner.arrivals.append(time.monotonic())
                    owner.cond.notify_all()
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/webhooks/1/bench"

    def wait(self, count: int, deadline: float = 30.0) -> float:
        end = time.monotonic() + deadline
        with self.cond:
            while len(self.arrivals) < count:
                if not self.cond.wait(max(0.0, end - time.monotonic())):
                    raise SystemExit(f"the message {count} did not arrive")
            return self.arrivals[count - 1]


def commit_to_webhook(rolls: int) -> None:
    from stkit.discord.webhook import Follower
    from stkit.store.db.handle import StoreHandle
    from stkit.store.rolling import RollOrder, make_roll
    from stkit.store.table.discord_feed import set_setting

    receiver = Receiver()
    store = StoreHandle(None)
    store.run(lambda gw: set_setting(gw, "default", "webhook", receiver.url()))
    follower = Follower(store, "default", poll=POLL).start()
    jitter = random.Random(1)
    delays = []
    try:
        for i in range(rolls):
            time.sleep(jitter.uniform(0, 0.15))  # rolls come when they come, not in step with the follower
            store.run(lambda gw, i=i: make_roll(gw, RollOrder("6", seed=i, log=True)))
            committed = time.monotonic()
            delays.append((receiver.wait(i + 1) - committed) * 1000)
    finally:
        follower.stop()
        receiver.server.shutdown()
    p50, p95 = statistics.median(delays), percentile(delays, 95)
    print(f"commit -> webhook ({rolls} rolls, follower poll {POLL * 1000:.0f} ms): p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(f"  p95 / poll interval = {p95 / (POLL * 1000):.2f}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def handler_under_load(rounds: int, concurrency: int = 20) -> None:
    import httpx
    import uvicorn
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from stkit.sheet.sheet import Sheet, Track
    from stkit.store.characters import create_character
    from stkit.store.db.handle import StoreHandle
    from stkit.store.table.discord_feed import claim_with_code, set_setting, unset_setting
    from stkit.store.table.events import issue_links
    from stkit.web.app import create_app

    key = Ed25519PrivateKey.generate()
    store = StoreHandle(None)
    store.run(lambda gw: unset_setting(gw, "default", "webhook"))  # part 1's receiver is gone
    store.run(
        lambda gw: set_setting(
            gw, "default", "public-key", key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        )
    )
    users = [str(10**17 + i) for i in range(concurrency)]
    for i in range(concurrency):
        sheet = Sheet(name=f"Wolf {i}", chronicle="default")
        sheet.attributes.update({"Dexterity": 3})
        sheet.abilities.update({"Brawl": 2})
        sheet.powers["Willpower"] = Track(5, 5)
        store.run(lambda gw, s=sheet: create_character(gw, s))
    links = {link.character: link.token for link in store.run(lambda gw: issue_links(gw, "default"))}
    for i, user in enumerate(users):
        store.run(lambda gw, u=user, i=i: claim_with_code(gw, u, links[f"Wolf {i}"]))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(None), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    def request(user: str, n: int) -> tuple[bytes, dict]:
        payload = {
            "id": str(n),
            "application_id": "1",
            "type": 2,
            "token": "t",
            "version": 1,
            "member": {"user": {"id": user}},
            "data": {"name": "roll", "type": 1, "options": [{"name": "pool", "type": 3, "value": "Dexterity + Brawl"}]},
        }
        raw = json.dumps(payload).encode()
        stamp = str(int(time.time()))
        sig = key.sign(stamp.encode() + raw).hex()
        return raw, {"X-Signature-Ed25519": sig, "X-Signature-Timestamp": stamp, "Content-Type": "application/json"}

    times: list[float] = []

    async def one(client: httpx.AsyncClient, user: str, n: int) -> None:
        raw, headers = request(user, n)
        start = time.perf_counter()
        response = await client.post(f"http://127.0.0.1:{port}/discord/interactions", content=raw, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200 or response.json().get("type") != 4:
            raise SystemExit(f"unexpected answer {response.status_code}: {response.text[:200]}")

    async def run() -> None:
        limits = httpx.Limits(max_connections=concurrency)
        async with httpx.AsyncClient(limits=limits, timeout=30) as client:
            for r in range(rounds):
                await asyncio.gather(*(one(client, u, r * concurrency + i) for i, u in enumerate(users)))
                await asyncio.sleep(1.1)  # the per-user limit refills one a second

    try:
        asyncio.run(run())
    finally:
        server.should_exit = True
        thread.join(10)
    p50, p99 = statistics.median(times), percentile(times, 99)
    print(
        f"interaction handler, {concurrency} at once x {rounds} rounds ({len(times)} requests): "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(times):.1f} ms"
    )
    print(f"  p99 / Discord's 3 s = {p99 / 3000:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["STKIT_DATABASE_URL"] = "sqlite:///" + str(Path(folder) / "bench.sqlite")
        commit_to_webhook(args.rolls)
        handler_under_load(args.rounds)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
